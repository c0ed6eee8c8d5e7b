//! Shared helpers for the integration tests: loading and judging PyTorch's golden cases
//! (see `tests/data/pytorch/README.md`), the naive index walk, and the fuzz harness.

pub mod conformance;
pub mod fuzz;
pub mod naive;
