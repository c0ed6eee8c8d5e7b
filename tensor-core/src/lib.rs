//! Strided tensors and a TensorIterator that behaves exactly like PyTorch's.
//!
//! A [`Tensor`] is a view: a shared [`Storage`], sizes, strides and a storage offset
//! (all in elements unless a name says bytes), a [`DType`] and an autograd record.
//! Elementwise ops, reductions and copies run through a [`TensorIterator`], which
//! broadcasts, promotes dtypes, picks a fast setup, sorts strides into its perm and
//! coalesces dims as `aten/src/ATen/TensorIterator.cpp` does, so every output has
//! PyTorch's sizes, strides and dtype. Every fallible call returns [`Result`] with the
//! one [`enum@Error`], whose message contains PyTorch's for the same mistake.
//!
//! # A tour
//!
//! Views share storage; their strides are PyTorch's:
//!
//! ```
//! use tensor_core::{DType, Tensor};
//!
//! let x = Tensor::arange(6, DType::F32)?.reshape(&[2, 3])?;
//! let t = x.permute(&[1, 0])?; // [3, 2], no copy
//! assert_eq!((t.sizes(), t.strides()), (&[3, 2][..], &[1, 3][..]));
//! let e = x.narrow(1, 0, 1)?.expand(&[2, 4])?; // a stride-0 view
//! assert_eq!(e.strides(), &[3, 0]);
//! # Ok::<(), tensor_core::Error>(())
//! ```
//!
//! Broadcasting and type promotion follow `torch.result_type`; a Rust number is a
//! wrapped number, which does not raise the dtype of a tensor of the same kind:
//!
//! ```
//! use tensor_core::{DType, Tensor};
//!
//! let i = Tensor::from_vec(vec![1i32, 2, 3], &[3, 1])?;
//! let f = Tensor::from_vec(vec![0.5f32, 0.25], &[2])?;
//! let y = i.add(&f)?; // [3, 1] + [2] -> [3, 2], i32 + f32 -> f32
//! assert_eq!((y.sizes(), y.dtype()), (&[3, 2][..], DType::F32));
//! let h = Tensor::ones(&[2], DType::F16)?.mul_scalar(3.0)?; // stays f16
//! assert_eq!(h.dtype(), DType::F16);
//! # Ok::<(), tensor_core::Error>(())
//! ```
//!
//! Memory formats: an op on channels_last inputs returns channels_last outputs, as
//! PyTorch's `suggest_memory_format` does:
//!
//! ```
//! use tensor_core::{DType, MemoryFormat, Tensor};
//!
//! let x = Tensor::ones(&[2, 3, 4, 4], DType::F32)?.to_memory_format(MemoryFormat::ChannelsLast)?;
//! let y = x.add_scalar(1.0)?;
//! assert_eq!(y.strides(), &[48, 1, 12, 3]);
//! assert_eq!(y.suggest_memory_format(false), MemoryFormat::ChannelsLast);
//! # Ok::<(), tensor_core::Error>(())
//! ```
//!
//! The iterator's plan can be printed step by step:
//!
//! ```
//! use tensor_core::{DType, Tensor, TensorIterator, TensorIteratorConfig};
//!
//! let a = Tensor::ones(&[4, 5], DType::F32)?.t()?; // [5, 4], strides [1, 5]
//! let b = Tensor::ones(&[5, 4], DType::F32)?;
//! let iter = TensorIterator::build(TensorIteratorConfig::binary_op(None, &a, &b))?;
//! let plan = iter.explain();
//! println!("{plan}"); // fast setup, effective strides, perm, coalesced sizes
//! assert_eq!(plan.perm, vec![0, 1]); // fastest first: dim 0, of stride 1 in `a`
//! assert_eq!(plan.output_strides[0], vec![1, 5]); // the output follows `a`'s layout
//! # Ok::<(), tensor_core::Error>(())
//! ```
//!
//! Mistakes are errors with PyTorch's message, never panics:
//!
//! ```
//! use tensor_core::{DType, Tensor};
//!
//! let a = Tensor::ones(&[2, 3], DType::F32)?;
//! let b = Tensor::ones(&[4], DType::F32)?;
//! let err = a.add(&b).unwrap_err();
//! assert!(err.to_string().contains(
//!     "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1"
//! ));
//! # Ok::<(), tensor_core::Error>(())
//! ```
//!
//! Autograd records the ops of tensors that require a gradient and writes
//! `derivatives.yaml`'s gradients into `.grad()`:
//!
//! ```
//! use tensor_core::Tensor;
//!
//! let x = Tensor::from_vec(vec![1.0f32, 2.0, 3.0], &[3])?.requires_grad_(true)?;
//! let y = x.mul(&x)?.sum(&[], false)?; // sum(x²)
//! y.backward()?;
//! assert_eq!(x.grad().unwrap().to_vec::<f32>()?, vec![2.0, 4.0, 6.0]);
//! # Ok::<(), tensor_core::Error>(())
//! ```
//!
//! # Where things are
//!
//! The model ops (`conv2d`, pooling, `layer_norm`, `softmax`, `cross_entropy`,
//! embedding) are in [`nn`]; optimisers in [`optim`]; global tensors split, broadcast
//! or partial over ranks (SBP) in [`global`]; safetensors, `.npy`/`.npz` and ndarray in
//! [`io`]; gradient mode in [`autograd`]. The modules that hold the iterator, layouts
//! and kernels are private; everything public is re-exported at the root. The
//! repository's `ARCHITECTURE.md` maps each PyTorch concept to its file.
#![warn(missing_docs)]

mod alloc;
pub mod autograd;
mod buffer_cache;
mod cpu;
mod display;
mod dtype;
mod einsum;
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
pub use cpu::cpu_capability;
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
