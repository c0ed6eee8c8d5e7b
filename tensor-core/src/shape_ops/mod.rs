//! `Tensor` methods that change the shape: views (view, reshape, permute, transpose,
//! squeeze, unsqueeze, flatten, expand, as_strided, diagonal), slicing (slice, narrow, select),
//! repeat, repeat_interleave, memory-format conversions (contiguous, clone, empty_like) and the
//! materialising copy behind them (PyTorch's `TensorShape.cpp`).

mod diagonal;
mod format_ops;
mod materialize;
mod repeat;
mod repeat_interleave;
pub(crate) mod slices;
mod slicing;
mod views;

pub use repeat::{repeat_decomposition, RepeatPlan};
