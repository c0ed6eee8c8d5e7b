//! Shared helpers for the integration tests: loading PyTorch's golden cases.
