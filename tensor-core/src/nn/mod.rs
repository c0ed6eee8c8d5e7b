//! Model ops, mirroring `torch.nn.functional`: [`softmax`], [`log_softmax`],
//! [`layer_norm`], [`gelu`], [`silu`], [`cross_entropy`], [`conv2d`], [`max_pool2d`],
//! [`avg_pool2d`], [`embedding`]; and the Tensor methods PyTorch has beside them
//! (`x.softmax(dim)`, `x.var(dims, correction, keepdim)`, `x.masked_fill(mask, value)`,
//! `x.tril(diagonal)`, `Tensor::cat`, `Tensor::stack`, `x.index_select(dim, index)`,
//! `x.gather(dim, index)`, ...).
//!
//! Each op checks its arguments in PyTorch's order with PyTorch's messages, accepts any
//! strided input, and lays out its result as PyTorch does (contiguous for the row-wise
//! ops; the input's layout for the elementwise activations; channels_last in,
//! channels_last out for conv and pooling). Float kernels compute in PyTorch's
//! accumulation type (`f32` for `f16` and `bf16`). The row-wise kernels (softmax,
//! log_softmax, layer_norm, cross_entropy) are fused: one task per block of rows, each
//! row read from cache by its passes, rows split across threads.

mod activation;
pub(crate) mod backward;
mod cat;
mod conv;
mod erf;
mod index;
mod loss;
mod mask;
mod moments;
mod norm;
mod pool;
mod softmax;
mod triangle;

pub use activation::{gelu, silu, GeluApproximate};
pub use conv::conv2d;
pub use index::embedding;
pub use loss::{cross_entropy, Reduction, IGNORE_INDEX};
pub(crate) use norm::check_layer_norm_inputs;
pub use norm::layer_norm;
pub use pool::{avg_pool2d, max_pool2d};
pub use softmax::{log_softmax, softmax};
