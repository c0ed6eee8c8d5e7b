//! Shared pieces of the benchmark binaries: timing as `torch_bench.py` does it, random
//! inputs, the memory-bandwidth and FMA-peak reference loops, the work of each case, and JSON output in case order.
//!
//! The cases themselves are listed in `benches/CASES.md`; `src/bin/cases.rs`
//! runs them on tensor-core, `src/bin/compare.rs` turns two JSON results into a table.
#![warn(missing_docs)]

pub mod attention;
pub mod bandwidth;
pub mod bytes;
pub mod gemm_shapes;
pub mod index_conv_pool;
pub mod peak;
pub mod rowwise;
pub mod timing;

pub use bandwidth::add_slices;
pub use bytes::{case_bytes, case_flops};
pub use timing::{median_ms, reps_for, Results, CASE_ORDER};
