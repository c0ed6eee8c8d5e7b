//! `torch.cat` and `torch.stack` (TensorShape.cpp: `cat` meta, `stack`).
//!
//! The output is allocated once, in the memory format PyTorch picks
//! (`cat_compute_output_memory_format`), and each input is copied into its slice
//! (`narrow` of the output along `dim`) by the iterator's `copy_`, which casts to the
//! promoted dtype and reads any strided layout.

pub(super) mod backward;

use super::backward::node::node;
use crate::autograd;
use crate::dtype::promote_types;
use crate::error::{list, Error, Result};
use crate::layout::MemoryFormat;
use crate::layout::{strides_for_format, wrap_dim};
use crate::tensor::Tensor;
use backward::InputMeta;

/// PyTorch still skips 1-d tensors of size 0 in `cat`, whatever the other tensors' rank
/// (`cat_should_skip_tensor`: kept for backward compatibility).
#[cfg_attr(unoptimized, inline)]
fn skipped(t: &Tensor) -> bool {
    t.dim() == 1 && t.sizes()[0] == 0
}

#[cfg_attr(unoptimized, inline)]
fn cat_error(message: String) -> Error {
    Error::InvalidArgument { op: "cat", message }
}

/// `cat_compute_output_memory_format`: the inputs' common suggested format, or
/// `Contiguous` as soon as one input is contiguous or two disagree.
#[cfg_attr(unoptimized, inline)]
fn output_memory_format(tensors: &[&Tensor]) -> MemoryFormat {
    let mut format = None;
    for t in tensors {
        let f = t.suggest_memory_format(false);
        if f == MemoryFormat::Contiguous {
            return f;
        }
        if format.is_some_and(|g| g != f) {
            return MemoryFormat::Contiguous;
        }
        format = Some(f);
    }
    format.unwrap_or(MemoryFormat::Contiguous)
}

/// `check_cat_shape_except_dim`: same rank, same sizes off `dim`.
#[cfg_attr(unoptimized, inline)]
fn check_shape_except_dim(first: &Tensor, t: &Tensor, dim: usize, index: usize) -> Result<()> {
    if first.dim() != t.dim() {
        return Err(cat_error(format!(
            "Tensors must have same number of dimensions: got {} and {}",
            first.dim(),
            t.dim()
        )));
    }
    for (d, (&a, &b)) in first.sizes().iter().zip(t.sizes()).enumerate() {
        if d != dim && a != b {
            return Err(cat_error(format!(
                "Sizes of tensors must match except in dimension {dim}. Expected size {a} but got size {b} for tensor number {index} in the list."
            )));
        }
    }
    Ok(())
}

/// Runs `forward` (cat or stack of `tensors`) recorded for autograd: each input's
/// gradient is its slice of the output's.
fn record_list(
    name: &'static str,
    tensors: &[&Tensor],
    dim: i64,
    forward: impl FnOnce() -> Result<Tensor>,
) -> Result<Tensor> {
    autograd::apply(tensors, forward, |_| {
        let meta: Vec<InputMeta> = tensors
            .iter()
            .map(|t| (t.sizes().to_vec(), t.dtype()))
            .collect();
        let n = meta.len();
        node(name, vec![], n, move |g, _| {
            let grads = if name == "CatBackward0" {
                backward::cat_backward(g, &meta, dim)?
            } else {
                backward::stack_backward(g, &meta, dim)?
            };
            Ok(grads.into_iter().map(Some).collect())
        })
    })
}

impl Tensor {
    /// `torch.cat(tensors, dim)`: the tensors joined along `dim` (negative counts from
    /// the end). All tensors have the same sizes off `dim`; 1-d tensors of size 0 are
    /// skipped whatever the others' rank, as in PyTorch.
    ///
    /// The dtype is the promotion of all the inputs' dtypes (`[f32, f64] -> f64`). The
    /// output is channels_last (or channels_last_3d) when every input suggests that
    /// format, else contiguous.
    ///
    /// # Errors
    /// - a 0-d input: `zero-dimensional tensor (at position 1) cannot be concatenated`;
    /// - [`Error::DimOutOfRange`] for `dim` outside the first non-skipped input's rank;
    /// - an empty list: `torch.cat(): expected a non-empty list of Tensors`;
    /// - `Tensors must have same number of dimensions: got 2 and 3`;
    /// - `Sizes of tensors must match except in dimension 0. Expected size 3 but got
    ///   size 4 for tensor number 1 in the list.`;
    /// - [`Error::OutOfMemory`], [`Error::StorageSizeOverflow`] for an output too large.
    #[cfg_attr(unoptimized, inline)]
    pub fn cat(tensors: &[&Tensor], dim: i64) -> Result<Tensor> {
        record_list("CatBackward0", tensors, dim, || {
            Tensor::cat_forward(tensors, dim)
        })
    }

    #[cfg_attr(unoptimized, inline)]
    fn cat_forward(tensors: &[&Tensor], dim: i64) -> Result<Tensor> {
        if let Some(i) = tensors.iter().position(|t| t.dim() == 0) {
            return Err(cat_error(format!(
                "zero-dimensional tensor (at position {i}) cannot be concatenated"
            )));
        }
        // `legacy_cat_wrap_dim`: the dim is wrapped against the first non-skipped tensor.
        let valid = tensors.iter().position(|t| !skipped(t));
        let dim = match valid {
            Some(v) => wrap_dim(dim, tensors[v].dim())?,
            None => 0,
        };
        if tensors.is_empty() {
            return Err(cat_error(
                "torch.cat(): expected a non-empty list of Tensors".into(),
            ));
        }
        let format = output_memory_format(tensors);
        let dtype = tensors[1..]
            .iter()
            .fold(tensors[0].dtype(), |d, t| promote_types(d, t.dtype()));
        let Some(valid) = valid else {
            return Tensor::empty(&[0], dtype);
        };
        let first = tensors[valid];
        let mut size_at_dim = 0usize;
        for (i, t) in tensors.iter().enumerate() {
            if !skipped(t) {
                check_shape_except_dim(first, t, dim, i)?;
                size_at_dim = size_at_dim
                    .checked_add(t.sizes()[dim])
                    .ok_or(Error::NumelOverflow { op: "cat" })?;
            }
        }
        let mut sizes = first.sizes().to_vec();
        sizes[dim] = size_at_dim;
        let strides = strides_for_format(&sizes, format)?;
        // SAFETY: every element of `out` is written below before `out` is returned: the
        // non-skipped inputs' slices `[offset, offset + size)` along `dim` tile
        // `[0, size_at_dim)`, and each covers every index of the other dims (equal sizes,
        // checked above). On an error `out` is dropped unread.
        let out = unsafe { Tensor::empty_strided_uninit(&sizes, &strides, dtype)? };
        let mut offset = 0usize;
        for t in tensors.iter().filter(|t| !skipped(t)) {
            let len = t.sizes()[dim];
            if len > 0 {
                out.narrow(dim as i64, offset as i64, len)?.copy_(t)?;
            }
            offset += len;
        }
        Ok(out)
    }

    /// `torch.stack(tensors, dim)`: the tensors, all of the same sizes, joined along a
    /// new dim `dim` (in `[-ndim-1, ndim]`). Dtype and memory format as
    /// [`Tensor::cat`]: stacking at an existing dim is `cat` then `view`, at the end it
    /// is `cat` of the tensors unsqueezed.
    ///
    /// # Errors
    /// - an empty list: `stack expects a non-empty TensorList`;
    /// - [`Error::DimOutOfRange`];
    /// - `stack expects each tensor to be equal size, but got [2, 3] at entry 0 and
    ///   [2, 4] at entry 1`;
    /// - those of [`Tensor::cat`].
    #[cfg_attr(unoptimized, inline)]
    pub fn stack(tensors: &[&Tensor], dim: i64) -> Result<Tensor> {
        record_list("StackBackward0", tensors, dim, || {
            Tensor::stack_forward(tensors, dim)
        })
    }

    #[cfg_attr(unoptimized, inline)]
    fn stack_forward(tensors: &[&Tensor], dim: i64) -> Result<Tensor> {
        let Some(first) = tensors.first() else {
            return Err(Error::InvalidArgument {
                op: "stack",
                message: "stack expects a non-empty TensorList".into(),
            });
        };
        let ndim = first.dim();
        let dim = wrap_dim(dim, ndim + 1)?;
        for (i, t) in tensors.iter().enumerate().skip(1) {
            if t.sizes() != first.sizes() {
                return Err(Error::InvalidArgument {
                    op: "stack",
                    message: format!(
                        "stack expects each tensor to be equal size, but got {} at entry 0 and {} at entry {i}",
                        list(first.sizes()),
                        list(t.sizes())
                    ),
                });
            }
        }
        if dim < ndim {
            let mut sizes: Vec<i64> = first.sizes().iter().map(|&s| s as i64).collect();
            sizes.insert(dim, tensors.len() as i64);
            return Tensor::cat_forward(tensors, dim as i64)?.view(&sizes);
        }
        let unsqueezed = tensors
            .iter()
            .map(|t| t.unsqueeze(dim as i64))
            .collect::<Result<Vec<_>>>()?;
        let refs: Vec<&Tensor> = unsqueezed.iter().collect();
        Tensor::cat_forward(&refs, dim as i64)
    }
}

#[cfg(test)]
mod tests;
