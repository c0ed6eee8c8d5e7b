//! `index_select`, `gather` and `F.embedding` (TensorAdvancedIndexing.cpp, Embedding.cpp);
//! their backward is `backward.rs`, and the index values both read are `values.rs`.
//!
//! The indices are validated in full before any element is copied, with the message of
//! the PyTorch kernel that would have run. The outputs are contiguous, as PyTorch's.

pub(super) mod backward;
mod values;

use std::mem::MaybeUninit;

use super::backward::node::node;
use crate::autograd;
use crate::dispatch_dtype;
use crate::dtype::DType;
use crate::element::Element;
use crate::error::{list, Error, Result};
use crate::layout::{checked_numel, contiguous_strides, wrap_dim, Layout};
use crate::parallel::GRAIN_SIZE;
use crate::parallel::{chunks_for, for_chunks_mut};
use crate::shape_ops::slices::fresh_output;
use crate::tensor::Tensor;
use values::index_values;

/// Storage offsets of the elements of the sub-layout `sizes`/`strides` starting at
/// `base`, in row-major order (`[base]` for no dims).
#[cfg_attr(unoptimized, inline)]
pub(super) fn offsets_of(sizes: &[usize], strides: &[isize], base: usize) -> Result<Vec<usize>> {
    let n = checked_numel(sizes, "index")?;
    let mut v = crate::alloc::try_with_capacity(n)?;
    v.extend(Layout::new(sizes.to_vec(), strides.to_vec(), base).offsets());
    Ok(v)
}

/// `true` when the dims `sizes`/`strides` walk consecutive elements in row-major order
/// (size-1 dims are ignored).
#[cfg_attr(unoptimized, inline)]
pub(super) fn is_row_major_run(sizes: &[usize], strides: &[isize]) -> bool {
    let mut expected = 1isize;
    for (&s, &st) in sizes.iter().zip(strides).rev() {
        if s != 1 {
            if st != expected {
                return false;
            }
            expected = expected.saturating_mul(s as isize);
        }
    }
    true
}

/// Rows of `inner` elements each: how many rows one parallel chunk takes.
#[cfg_attr(unoptimized, inline)]
fn rows_per_chunk(rows: usize, inner: usize) -> usize {
    let total = rows.saturating_mul(inner.max(1));
    rows.div_ceil(chunks_for(total, GRAIN_SIZE)).max(1)
}

/// Copies rows: output row `r` (of `inner` elements) is the input's elements at
/// `row_base(r) + inner_offs[k]` (or `row_base(r) + k` when `inner_offs` is `None`).
fn copy_rows<T: Element>(
    src: &[T],
    out: &mut [MaybeUninit<T>],
    rows: usize,
    inner: usize,
    inner_offs: Option<&[usize]>,
    row_base: impl Fn(usize) -> usize + Sync,
) {
    if inner == 0 || rows == 0 {
        return;
    }
    let per = rows_per_chunk(rows, inner);
    for_chunks_mut(out, per * inner, |start, chunk| {
        let first_row = start / inner;
        for (j, dst) in chunk.chunks_mut(inner).enumerate() {
            let base = row_base(first_row + j);
            match inner_offs {
                None => {
                    for (d, &s) in dst.iter_mut().zip(&src[base..base + inner]) {
                        d.write(s);
                    }
                }
                Some(offs) => {
                    for (d, &o) in dst.iter_mut().zip(offs) {
                        d.write(src[base + o]);
                    }
                }
            }
        }
    });
}

/// `index_select` once the indices are known to be in range: output contiguous.
fn index_select_kernel<T: Element>(t: &Tensor, dim: usize, idx: &[i64]) -> Result<Tensor> {
    // A 0-d tensor is indexed as the 1-d tensor of its one element.
    let (sizes, strides) = if t.dim() == 0 {
        (vec![1], vec![1])
    } else {
        (t.sizes().to_vec(), t.strides().to_vec())
    };
    let mut out_sizes = t.sizes().to_vec();
    if t.dim() > 0 {
        out_sizes[dim] = idx.len();
    }
    checked_numel(&out_sizes, "index_select")?;
    let outer_offs = offsets_of(&sizes[..dim], &strides[..dim], t.storage_offset())?;
    let (isz, ist) = (&sizes[dim + 1..], &strides[dim + 1..]);
    let inner: usize = isz.iter().product();
    let inner_offs = if is_row_major_run(isz, ist) {
        None
    } else {
        Some(offsets_of(isz, ist, 0)?)
    };
    let step = strides[dim];
    let n = idx.len();
    let rows = outer_offs.len() * n;
    let buf = t.storage().read();
    let src = buf.as_slice::<T>();
    // SAFETY: `copy_rows` writes every one of the `rows * inner` elements of the
    // contiguous output (one row of `inner` per chunk row).
    unsafe {
        fresh_output::<T>(&out_sizes, &contiguous_strides(&out_sizes), |out| {
            copy_rows(src, out, rows, inner, inner_offs.as_deref(), |r| {
                let (o, i) = (r / n, r % n);
                (outer_offs[o] as isize + idx[i] as isize * step) as usize
            });
            Ok(())
        })
    }
}

fn index_error(message: impl Into<String>) -> Error {
    Error::IndexOutOfRange {
        op: "index_select",
        message: message.into(),
    }
}

impl Tensor {
    /// `torch.index_select(self, dim, index)`: the slices of `self` along `dim` at the
    /// positions `index` holds (a 1-d or 0-d int64/int32 tensor), in a new contiguous
    /// tensor of `self`'s sizes with `sizes[dim] = index.numel()`.
    ///
    /// # Errors
    /// - [`Error::DimOutOfRange`];
    /// - `index_select(): Index is supposed to be a vector` (index of 2 or more dims);
    /// - `index_select(): Expected dtype int32 or int64 for index`;
    /// - `index_select(): Index to scalar can have only 1 value, got 2 value(s)`;
    /// - an index out of range: `INDICES element is out of DATA bounds, id=5
    ///   axis_dim=3` for `dim` 1 of a tensor of 2 or more dims, else `index out of range
    ///   in self` (negative indices are out of range), as PyTorch's kernels say;
    /// - `index_select(): self indexing axis dim should be positive` (indexing a dim of
    ///   size 0 of an empty tensor);
    /// - [`Error::OutOfMemory`].
    #[cfg_attr(unoptimized, inline)]
    pub fn index_select(&self, dim: i64, index: &Tensor) -> Result<Tensor> {
        let sizes = self.sizes().to_vec();
        let idx = index.detach();
        autograd::apply(
            &[self],
            || self.index_select_forward(dim, index),
            |_| {
                node("IndexSelectBackward0", vec![], 1, move |g, _| {
                    Ok(vec![Some(backward::index_select_backward(
                        g, &sizes, dim, &idx,
                    )?)])
                })
            },
        )
    }

    #[cfg_attr(unoptimized, inline)]
    fn index_select_forward(&self, dim: i64, index: &Tensor) -> Result<Tensor> {
        let dim = wrap_dim(dim, self.dim())?;
        let numel = index.numel();
        if index.dim() > 1 {
            return Err(index_error(
                "index_select(): Index is supposed to be a vector",
            ));
        }
        if self.dim() == 0 && numel != 1 {
            return Err(index_error(format!(
                "index_select(): Index to scalar can have only 1 value, got {numel} value(s)"
            )));
        }
        if !matches!(index.dtype(), DType::I64 | DType::I32) {
            return Err(Error::InvalidArgument {
                op: "index_select",
                message: "index_select(): Expected dtype int32 or int64 for index".into(),
            });
        }
        let idx = index_values(index)?;
        let out_of = |bound: usize| {
            idx.iter()
                .copied()
                .find(|&i| i < 0 || i as u64 >= bound as u64)
        };
        if self.dim() > 1 {
            let size = self.sizes()[dim];
            if self.numel() == 0 && numel > 0 && size == 0 {
                return Err(index_error(
                    "index_select(): self indexing axis dim should be positive",
                ));
            }
            // The empty-self check and the dim-1 kernel use caffe2's range check; the
            // other kernels their own.
            if self.numel() == 0 || dim == 1 {
                if let Some(bad) = out_of(size) {
                    return Err(index_error(format!(
                        "INDICES element is out of DATA bounds, id={bad} axis_dim={size}"
                    )));
                }
            } else if out_of(size).is_some() {
                return Err(index_error("index out of range in self"));
            }
        } else if out_of(self.numel()).is_some() {
            return Err(index_error("index out of range in self"));
        }
        dispatch_dtype!(self.dtype(), T, index_select_kernel::<T>(self, dim, &idx))
    }

    /// `torch.gather(self, dim, index)`: `out[p] = self[p with p[dim] = index[p]]` for
    /// every position `p` of `index` (an int64/int32 tensor of `self`'s rank whose sizes
    /// off `dim` are at most `self`'s). The output has `index`'s sizes, contiguous, and
    /// `self`'s dtype. An empty `index` gives an empty output unchecked, as in PyTorch.
    ///
    /// # Errors
    /// - [`Error::DimOutOfRange`];
    /// - `gather(): Expected dtype int32/int64 for index`;
    /// - `Index tensor must have the same number of dimensions as input tensor`;
    /// - `Size does not match at dimension 1 expected index [1, 7, 3] to be no larger
    ///   than self [2, 6, 3] apart from dimension 2`;
    /// - `index 5 is out of bounds for dimension 1 with size 3`;
    /// - [`Error::OutOfMemory`].
    #[cfg_attr(unoptimized, inline)]
    pub fn gather(&self, dim: i64, index: &Tensor) -> Result<Tensor> {
        let sizes = self.sizes().to_vec();
        let idx = index.detach();
        autograd::apply(
            &[self],
            || self.gather_forward(dim, index),
            |_| {
                node("GatherBackward0", vec![], 1, move |g, _| {
                    Ok(vec![Some(backward::gather_backward(g, &sizes, dim, &idx)?)])
                })
            },
        )
    }

    #[cfg_attr(unoptimized, inline)]
    fn gather_forward(&self, dim: i64, index: &Tensor) -> Result<Tensor> {
        let dim = wrap_dim(dim, self.dim())?;
        let gather_error = |message: String| Error::InvalidArgument {
            op: "gather",
            message,
        };
        if index.numel() == 0 {
            return Tensor::empty(index.sizes(), self.dtype());
        }
        if !matches!(index.dtype(), DType::I64 | DType::I32) {
            return Err(gather_error(
                "gather(): Expected dtype int32/int64 for index".into(),
            ));
        }
        // `ensure_nonempty_dim` / `ensure_nonempty_size`: a 0-d tensor counts as [1].
        let one = |t: &Tensor| -> (Vec<usize>, Vec<isize>) {
            if t.dim() == 0 {
                (vec![1], vec![1])
            } else {
                (t.sizes().to_vec(), t.strides().to_vec())
            }
        };
        let ((ssz, sst), (isz, _)) = (one(self), one(index));
        if ssz.len() != isz.len() {
            return Err(gather_error(
                "Index tensor must have the same number of dimensions as input tensor".into(),
            ));
        }
        for d in 0..ssz.len() {
            if d != dim && isz[d] > ssz[d] {
                return Err(gather_error(format!(
                    "Size does not match at dimension {d} expected index {} to be no larger than self {} apart from dimension {dim}",
                    list(index.sizes()),
                    list(self.sizes())
                )));
            }
        }
        let idx = index_values(index)?;
        let bound = ssz[dim];
        if let Some(&bad) = idx.iter().find(|&&i| i < 0 || i as u64 >= bound as u64) {
            return Err(Error::IndexOutOfRange {
                op: "gather",
                message: format!(
                    "index {bad} is out of bounds for dimension {dim} with size {bound}"
                ),
            });
        }
        // The self positions of `index`'s positions with p[dim] = 0: self's strides
        // (0 at `dim`) over index's sizes.
        let step = sst[dim];
        let mut base_strides = sst;
        base_strides[dim] = 0;
        let base = offsets_of(&isz, &base_strides, self.storage_offset())?;
        dispatch_dtype!(self.dtype(), T, {
            let buf = self.storage().read();
            let src = buf.as_slice::<T>();
            let sizes = index.sizes();
            // SAFETY: the closure writes slot k for every k < numel, and the contiguous
            // output's storage has exactly numel slots.
            unsafe {
                fresh_output::<T>(sizes, &contiguous_strides(sizes), |out| {
                    for ((slot, &b), &i) in out.iter_mut().zip(&base).zip(&idx) {
                        slot.write(src[(b as isize + i as isize * step) as usize]);
                    }
                    Ok(())
                })
            }
        })
    }
}

/// `F.embedding(indices, weight)`: the rows of `weight` (`[num_embeddings,
/// embedding_dim]`) at `indices` (int64 or int32, any shape), shaped
/// `indices.sizes() ++ [embedding_dim]`, contiguous. Argument order as PyTorch's
/// functional form: indices first.
///
/// # Errors
/// - `'weight' must be 2-D`;
/// - `Expected tensor for argument #1 'indices' to have one of the following scalar
///   types: Long, Int; but got torch.FloatTensor instead (while checking arguments for
///   embedding)`;
/// - `index out of range in self` (also for negative indices);
/// - [`Error::OutOfMemory`].
#[cfg_attr(unoptimized, inline)]
pub fn embedding(indices: &Tensor, weight: &Tensor) -> Result<Tensor> {
    let idx = indices.detach();
    let num_weights = weight.sizes().first().copied().unwrap_or(0);
    autograd::apply(
        &[weight],
        || embedding_forward(indices, weight),
        |_| {
            node("EmbeddingBackward0", vec![], 1, move |g, _| {
                Ok(vec![Some(backward::embedding_backward(
                    g,
                    &idx,
                    num_weights,
                )?)])
            })
        },
    )
}

#[cfg_attr(unoptimized, inline)]
fn embedding_forward(indices: &Tensor, weight: &Tensor) -> Result<Tensor> {
    if weight.dim() != 2 {
        return Err(Error::InvalidArgument {
            op: "embedding",
            message: "'weight' must be 2-D".into(),
        });
    }
    if !matches!(indices.dtype(), DType::I64 | DType::I32) {
        return Err(Error::InvalidArgument {
            op: "embedding",
            message: format!(
                "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got {} instead (while checking arguments for embedding)",
                indices.dtype().legacy_type_name()
            ),
        });
    }
    let mut sizes: Vec<i64> = indices.sizes().iter().map(|&s| s as i64).collect();
    sizes.push(weight.sizes()[1] as i64);
    if indices.dim() == 1 {
        return weight.index_select_forward(0, indices);
    }
    weight
        .index_select_forward(0, &indices.reshape(&[-1])?)?
        .view(&sizes)
}

#[cfg(test)]
mod tests;
