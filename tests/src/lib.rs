//! Shared helpers for the integration tests: loading and judging PyTorch's golden cases
//! (see `tests/data/pytorch/README.md`), the naive index walk, the fuzz harness, and the SPMD cases of gradients through
//! global tensors.

pub mod conformance;
pub mod fuzz;
pub mod global_grad;
pub mod naive;
