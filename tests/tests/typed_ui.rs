//! trybuild cases for tensor-typed: each `ui/typed/fail/*.rs` is one compile-time rule
//! (its `.stderr` is the message a user sees); `ui/typed/pass/*.rs` must compile.
//! Regenerate with `TRYBUILD=overwrite cargo test -p tensor-tests --test typed_ui`, then
//! read every `.stderr`.

#[test]
fn typed_ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/typed/fail/*.rs");
    t.pass("ui/typed/pass/*.rs");
}
