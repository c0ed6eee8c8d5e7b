//! Fuzz test of the public API of `tensor-core`: random calls with hostile
//! arguments, each in `catch_unwind`, every `Ok` result checked before it is read (see
//! `tensor_tests::fuzz`). Fails on any panic, failed check, crash or hang.
//!
//! - CI: `cargo test --release -p tensor-tests --test fuzz` (fixed seed, ~12 s cap).
//! - Long run: `TENSOR_FUZZ_SECS=600 cargo test --release -p tensor-tests --test fuzz --
//!   --ignored fuzz_long` (random seed unless `TENSOR_FUZZ_SEED` is set); add
//!   `TENSOR_FUZZ_ISOLATE=1` to run cases in child processes so a SIGSEGV or an
//!   allocation abort is reported and the run goes on; `TENSOR_FUZZ_CASE=n` replays one
//!   case, printing every call.

//!
//! The further surfaces have one test each, 3 s and a fixed seed in CI (same
//! settings; `TENSOR_FUZZ_SECS` sets every test's time limit): autograd misuse, optimisers,
//! global tensors with hostile placements and failing ranks, typed run-time checks.

use tensor_tests::fuzz::{
    autograd_misuse, global_placements, optimisers, run_from_env, run_surface_from_env,
    typed_checks, CaseFn,
};

/// The CI run: seed 9, at most 12 s and 500,000 cases.
#[test]
fn fuzz_public_api_no_panic_no_out_of_bounds() {
    let r = run_from_env(
        12.0,
        9,
        500_000,
        "fuzz_public_api_no_panic_no_out_of_bounds",
    );
    assert!(r.clean(), "fuzz found defects (see the list above)");
}

/// The long run: 600 s by default, a seed from the clock unless `TENSOR_FUZZ_SEED` is set.
#[test]
#[ignore = "long soak; run with --ignored (see the README's Tests section)"]
fn fuzz_long() {
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_secs());
    let r = run_from_env(600.0, seed, u64::MAX, "fuzz_long");
    assert!(r.clean(), "fuzz found defects (see the list above)");
}

/// One surface's CI run: seed 9, at most 3 s and 100,000 cases.
fn surface(name: &'static str, run_case: CaseFn, test_name: &str) {
    let r = run_surface_from_env(name, run_case, 3.0, 9, 100_000, test_name);
    assert!(
        r.clean(),
        "fuzz of {name} found defects (see the list above)"
    );
}

#[test]
fn fuzz_autograd_misuse_errs_never_panics_nor_gives_a_wrong_gradient() {
    surface(
        "autograd",
        autograd_misuse::run_case,
        "fuzz_autograd_misuse_errs_never_panics_nor_gives_a_wrong_gradient",
    );
}

#[test]
fn fuzz_optimisers_with_hostile_hyper_parameters_and_shared_grads() {
    surface(
        "optim",
        optimisers::run_case,
        "fuzz_optimisers_with_hostile_hyper_parameters_and_shared_grads",
    );
}

#[test]
fn fuzz_global_tensors_with_hostile_placements_and_failing_ranks_end() {
    surface(
        "global",
        global_placements::run_case,
        "fuzz_global_tensors_with_hostile_placements_and_failing_ranks_end",
    );
}

#[test]
fn fuzz_typed_try_ops_on_mismatched_dyn_sizes() {
    surface(
        "typed",
        typed_checks::run_case,
        "fuzz_typed_try_ops_on_mismatched_dyn_sizes",
    );
}
