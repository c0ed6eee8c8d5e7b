//! tensor-core: strided tensors and a TensorIterator that behaves like PyTorch's.
//!
//! Sizes, strides and storage offsets are in elements unless a name says bytes.
#![warn(missing_docs)]

mod alloc;
pub mod broadcast;
pub mod contiguity;
pub mod dim;
pub mod display;
pub mod dtype;
pub mod element;
pub mod error;
pub mod format_ops;
pub mod iterator;
mod kernels;
pub mod layout;
mod materialize;
pub mod matmul;
pub mod memory_format;
mod ops;
mod parallel;
pub mod random;
pub mod reduce;
pub mod repeat;
pub mod scalar;
mod simd;
pub mod slicing;
pub mod storage;
pub mod tensor;
pub mod view;
pub mod views;

pub use broadcast::{broadcast_shapes, infer_expand_geometry};
pub use contiguity::ContiguityFlags;
pub use dim::{wrap_dim, wrap_dims};
pub use dtype::{can_cast, promote_types, DType, ALL_DTYPES};
pub use element::Element;
pub use error::{Error, Result};
pub use half;
pub use iterator::{result_type, Operand, TensorIterator, TensorIteratorConfig};
pub use layout::Layout;
pub use memory_format::MemoryFormat;
pub use repeat::{repeat_decomposition, RepeatPlan};
pub use scalar::Scalar;
pub use storage::Storage;
pub use tensor::Tensor;
