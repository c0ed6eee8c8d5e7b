//! Shared helpers for the integration tests: loading and judging PyTorch's golden cases
//! (see `tests/data/pytorch/README.md`).

pub mod conformance;
