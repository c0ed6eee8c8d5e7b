//! Compile errors of `layout!`: one trybuild case per rule (`tests/ui/layout/<rule>.rs`
//! with the compiler's output in `<rule>.stderr`), among them the 14 patterns einops
//! rejects in `tests/data/pytorch/einops.json` (each case names the einops message it
//! pins).

#[test]
fn layout_compile_errors() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/layout/*.rs");
}
