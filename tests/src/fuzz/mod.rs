//! A fuzz harness of our own for the public API of `tensor-core`: random calls
//! with hostile arguments (huge sizes, strides and offsets, out-of-range and duplicated
//! dims, slices of mismatched lengths, every dtype, NaN/inf/out-of-range scalars,
//! aliasing operands), each in `catch_unwind`.
//!
//! Case `i` of seed `s` draws everything from its own generator seeded with `(s, i)`, so
//! any case replays alone (`TENSOR_FUZZ_CASE=i`). A case makes several calls; every call
//! is counted as `Ok`, `Err` or a panic, and every `Ok` tensor is checked before it is
//! read: its layout must stay inside its storage (computed here in `i128`), its elements
//! must be readable, bools must hold 0 or 1, and on small inputs results are compared
//! with a naive walk ([`crate::naive`]). A failed check counts as `wrong`.
//!
//! Beside the runtime's API (`ops`), the same runner drives one module per further
//! surface, each a `run_case` with its own test in `tests/tests/fuzz.rs`:
//! [`autograd_misuse`], [`optimisers`], [`global_placements`], [`typed_checks`] (the
//! file readers have their own fuzz test, `tests/tests/io_fuzz.rs`).
//!
//! Settings (environment):
//! - `TENSOR_FUZZ_SECS`: time limit in seconds (default: the caller's);
//! - `TENSOR_FUZZ_SEED`: seed (default: the caller's fixed seed);
//! - `TENSOR_FUZZ_CASES`: stop after this many cases;
//! - `TENSOR_FUZZ_CASE`: run one case, printing every call;
//! - `TENSOR_FUZZ_ISOLATE=1`: run the cases in child processes, so a case that kills the
//!   process (SIGSEGV, allocation abort) or hangs is reported and the run goes on.

mod adapt;
pub mod autograd_misuse;
mod compute;
mod gen;
pub mod global_placements;
mod misc;
mod operand;
mod ops;
pub mod optimisers;
mod runner;
pub mod typed_checks;

pub use runner::{run_from_env, run_surface_from_env, CaseFn, Report};
