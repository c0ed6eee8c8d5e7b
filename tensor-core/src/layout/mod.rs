//! Sizes and strides, nothing else: the geometry of a strided view and the shape
//! arithmetic PyTorch does on it (c10's `TensorImpl` flags, `InferSize.h`,
//! `TensorUtils.cpp`, `ExpandUtils.cpp`, `MemoryFormat.h`, `WrapDimUtils.h`).
//!
//! Nothing here touches storage; the `Tensor` methods built on it live in
//! `shape_ops/`.

mod broadcast;
mod contiguity;
mod dim;
mod infer_size;
mod memory_format;
mod non_overlapping;
mod strided;

pub use broadcast::{broadcast_shapes, infer_expand_geometry};
pub use contiguity::ContiguityFlags;
pub use dim::{wrap_dim, wrap_dims};
pub use infer_size::{compute_stride, infer_size};
pub use memory_format::{
    channels_last_strides_2d, channels_last_strides_3d, infer_dense_strides, preserve_strides,
    strides_for_format, MemoryFormat,
};
pub(crate) use non_overlapping::is_provably_non_overlapping;
pub(crate) use strided::numel_of;
pub use strided::{checked_numel, contiguous_nbytes, contiguous_strides, Layout, StridedOffsets};
pub(crate) use strided::{dims_from_slice, fill_contiguous_strides, DimVec};
