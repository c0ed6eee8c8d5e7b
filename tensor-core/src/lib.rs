//! tensor-core: strided tensors and a TensorIterator that behaves like PyTorch's.
//!
//! Sizes, strides and storage offsets are in elements unless a name says bytes. Every
//! fallible call returns [`Result`] with the one [`enum@Error`], whose messages contain
//! PyTorch's message for the same mistake.
//!
//! The modules are private; everything public is re-exported here. Where each PyTorch
//! concept lives is in the repository's `ARCHITECTURE.md`.
#![warn(missing_docs)]

mod alloc;
pub mod autograd;
mod buffer_cache;
mod display;
mod dtype;
mod element;
mod error;
pub mod global;
pub mod io;
mod iterator;
mod kernels;
mod layout;
mod matmul;
pub mod nn;
mod ops;
pub mod optim;
mod parallel;
mod random;
mod reduce;
mod scalar;
mod shape_ops;
mod storage;
mod tensor;
#[cfg(test)]
mod test_util;

pub use autograd::{is_grad_enabled, no_grad, NoGradGuard};
pub use dtype::{can_cast, promote_types, DType, ALL_DTYPES};
pub use element::Element;
pub use error::{Error, Result};
pub use half;
pub use iterator::{
    get_overlap_status, has_internal_overlap, make_dim_mask, make_reduction_output, reduced_sizes,
    reduction_output_view, result_type, DimCounter, Explain, MemOverlap, MemOverlapStatus, Operand,
    ResultTypeState, TensorIterator, TensorIteratorConfig, GRAIN_SIZE,
};
pub use layout::{
    broadcast_shapes, channels_last_strides_2d, channels_last_strides_3d, checked_numel,
    compute_stride, contiguous_nbytes, contiguous_strides, infer_dense_strides,
    infer_expand_geometry, infer_size, preserve_strides, strides_for_format, wrap_dim, wrap_dims,
    ContiguityFlags, Layout, MemoryFormat, StridedOffsets,
};
/// num-traits, whose `Float`, `Zero`, `One`, `NumCast` and `ToPrimitive` are the bounds for
/// code generic over a float element type (`f32`, `f64`, and through half, `f16`, `bf16`).
pub use num_traits;
pub use ops::{BinaryOp, BinaryPartial, Domain, PartialRule, UnaryOp};
pub use random::randperm;
pub use scalar::Scalar;
pub use shape_ops::{repeat_decomposition, RepeatPlan};
pub use storage::{Buffer, Storage};
pub use tensor::Tensor;
