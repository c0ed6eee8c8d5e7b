//! Model ops, as `torch.nn.functional`: convolution, pooling and embedding as free
//! functions here; `cat`, `stack`, `index_select` and `gather` as methods of
//! [`Tensor`](crate::Tensor) (PyTorch has them as tensor methods).
//!
//! Each op checks its arguments in PyTorch's order and fails with PyTorch's message,
//! reads inputs of any strided layout, and lays its output out as PyTorch does
//! (channels_last in, channels_last out where PyTorch keeps the format).

mod cat;
mod conv;
mod index;
mod pool;

pub use conv::conv2d;
pub use index::embedding;
pub use pool::{avg_pool2d, max_pool2d};
