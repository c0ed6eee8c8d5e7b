//! tensor-core: strided tensors and a TensorIterator that behaves like PyTorch's.
//!
//! Sizes, strides and storage offsets are in elements unless a name says bytes.
#![warn(missing_docs)]

pub mod dtype;
pub mod element;
pub mod error;
pub mod layout;
pub mod memory_format;
pub mod scalar;
pub mod storage;
pub mod tensor;

pub use dtype::{can_cast, promote_types, DType, ALL_DTYPES};
pub use element::Element;
pub use error::{Error, Result};
pub use half;
pub use layout::Layout;
pub use memory_format::MemoryFormat;
pub use scalar::Scalar;
pub use storage::Storage;
pub use tensor::Tensor;
