//! Sets `cfg(unoptimized)` when this crate is compiled at `opt-level = 0` (a debug
//! build, unless the user's profile optimises dependencies).
//!
//! At `opt-level = 0` nothing is vectorised, so the kernels' specialised inner loops
//! (slices, in-place, broadcast, streaming stores, one kernel per op, the AVX2 and
//! AVX-512 copies) buy no speed and only compile time. Every such choice is made in
//! `src/kernels/` (`kernels/unoptimized.rs` lists them): with `cfg(unoptimized)` each
//! elementwise kernel is one pointer walk per dtype, closures reach the generic loops as
//! trait objects, and a vector-width dispatch runs the baseline. Results are the same
//! either way.
//!
//! With `cfg(unoptimized)` every non-generic function outside the leaf modules is also
//! `#[inline]` (`#[cfg_attr(unoptimized, inline)]`), so a debug build generates its code
//! in the crate that calls it, and only if it is called: a program builds the kernels it
//! uses, not all of them (tests/tests/deferred_codegen.rs checks the attribute is there).
//!
//! Cargo gives a build script the opt-level of the profile the library is built with,
//! including per-package overrides such as `[profile.dev.package."*"] opt-level = 3`,
//! which then get the fast loops.
fn main() {
    println!("cargo::rustc-check-cfg=cfg(unoptimized)");
    println!("cargo::rerun-if-changed=build.rs");
    if std::env::var("OPT_LEVEL").as_deref() == Ok("0") {
        println!("cargo::rustc-cfg=unoptimized");
    }
}
