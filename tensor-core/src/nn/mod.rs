//! Model ops, mirroring `torch.nn.functional`: [`softmax`], [`log_softmax`],
//! [`layer_norm`], [`gelu`], [`silu`], [`cross_entropy`]; and the Tensor methods PyTorch
//! has beside them (`x.softmax(dim)`, `x.var(dims, correction, keepdim)`,
//! `x.masked_fill(mask, value)`, `x.tril(diagonal)`, ...).
//!
//! Each op checks its arguments with PyTorch's messages, accepts any strided input, and
//! lays out its result as PyTorch does (contiguous for the row-wise ops; the input's
//! layout for the elementwise activations). Float kernels compute in PyTorch's
//! accumulation type (`f32` for `f16` and `bf16`). The row-wise kernels (softmax,
//! log_softmax, layer_norm, cross_entropy) are fused: one task per block of rows, each
//! row read from cache by its passes, rows split across threads.

mod activation;
mod fastmath;
mod loss;
mod mask;
mod moments;
mod norm;
mod rows;
mod softmax;
mod triangle;

pub use activation::{gelu, silu, GeluApproximate};
pub use loss::{cross_entropy, Reduction, IGNORE_INDEX};
pub use norm::layer_norm;
pub use softmax::{log_softmax, softmax};
