//! Views under in-place ops, as PyTorch's autograd handles them:
//! - a view remembers its root base (`ViewInfo`, in `meta.rs`); when the storage they share was
//!   written since the view's `grad_fn` was set (the version counter moved), the
//!   view's history is regenerated as [`AsStridedBackward`] of the base's current
//!   history (PyTorch's `grad_fn` regeneration of a view whose base changed in place);
//! - an in-place op on a view rebases the base's history onto [`CopySlices`]: the base's
//!   gradient outside the view goes to the base's old history, the gradient inside the
//!   view goes through the in-place op's own node.
//!
//! Both nodes work on storage positions: the base's and the view's elements are mapped
//! to their offsets in the shared storage (sizes, strides and storage_offset in
//! elements), so any view geometry (narrow, select, transpose, expand, diagonal-like
//! `as_strided`) is one rule. Gradients are gathered and scattered in f64, which holds
//! every element of every float dtype exactly; the sums of an overlapping view (an
//! expand) are exact for the float dtypes up to f32 and rounded once for f64.

use super::node::Node;
use crate::alloc::{try_vec, try_with_capacity};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::tensor::Tensor;

/// Sizes, strides and storage_offset (elements) of one tensor on the shared storage.
#[derive(Clone, Debug)]
pub(crate) struct Geometry {
    sizes: Vec<usize>,
    strides: Vec<isize>,
    offset: usize,
    dtype: DType,
}

impl Geometry {
    /// The geometry of `t`.
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn of(t: &Tensor) -> Geometry {
        Geometry {
            sizes: t.sizes().to_vec(),
            strides: t.strides().to_vec(),
            offset: t.storage_offset(),
            dtype: t.dtype(),
        }
    }

    /// The storage offset of every element, in row-major order of the sizes.
    #[cfg_attr(unoptimized, inline)]
    fn positions(&self) -> Result<Vec<isize>> {
        let n: usize = self.sizes.iter().product();
        let mut out = try_with_capacity(n)?;
        if n == 0 {
            return Ok(out);
        }
        let mut index = vec![0usize; self.sizes.len()];
        let mut pos = self.offset as isize;
        for _ in 0..n {
            out.push(pos);
            for d in (0..self.sizes.len()).rev() {
                index[d] += 1;
                pos += self.strides[d];
                if index[d] < self.sizes[d] {
                    break;
                }
                pos -= self.strides[d] * self.sizes[d] as isize;
                index[d] = 0;
            }
        }
        Ok(out)
    }
}

/// The base's and the view's positions relative to the lowest of them, the length of
/// the range they span, and how many of the base's elements sit at each position (more
/// than one where the base overlaps itself, as an expanded tensor).
#[cfg_attr(unoptimized, inline)]
fn frame(base: &Geometry, view: &Geometry) -> Result<(Vec<usize>, Vec<usize>, Vec<u32>)> {
    let (b, v) = (base.positions()?, view.positions()?);
    let lo = b.iter().chain(&v).copied().min().unwrap_or(0);
    let hi = b.iter().chain(&v).copied().max().unwrap_or(-1);
    let rel = |p: Vec<isize>| p.into_iter().map(|x| (x - lo) as usize).collect::<Vec<_>>();
    let span = (hi - lo + 1).max(0) as usize;
    let (b, v) = (rel(b), rel(v));
    let mut counts = try_vec(span, 0u32)?;
    for &p in &b {
        counts[p] = counts[p].saturating_add(1);
    }
    Ok((b, v, counts))
}

/// `values` (f64) as a tensor of `g`'s sizes and dtype.
#[cfg_attr(unoptimized, inline)]
fn tensor_of(values: Vec<f64>, g: &Geometry) -> Result<Tensor> {
    Tensor::from_vec(values, &g.sizes)?.to_dtype(g.dtype)
}

/// `as_strided` (PyTorch's `AsStridedBackward0`), and the history of a view regenerated
/// after its storage was written in place: the gradient of the view's elements,
/// scattered onto storage positions (summed where the view repeats an element), read
/// back through the base's geometry (shared out where the base repeats one).
pub(crate) struct AsStridedBackward {
    pub(crate) base: Geometry,
    pub(crate) view: Geometry,
}

impl Node for AsStridedBackward {
    #[cfg_attr(unoptimized, inline)]
    fn name(&self) -> &'static str {
        "AsStridedBackward0"
    }

    #[cfg_attr(unoptimized, inline)]
    fn apply(&self, grads: &[Option<Tensor>]) -> Result<Vec<Option<Tensor>>> {
        let Some(g) = &grads[0] else {
            return Ok(vec![None]);
        };
        let (b, v, counts) = frame(&self.base, &self.view)?;
        let gv = g.to_vec_f64()?;
        let mut storage = try_vec(counts.len(), 0.0f64)?;
        for (&p, x) in v.iter().zip(gv) {
            storage[p] += x;
        }
        // An element the base holds `n` times gets `1/n` of the gradient at each
        // (PyTorch's `as_strided_backward` on an overlapping input).
        let gb = b.iter().map(|&p| storage[p] / counts[p] as f64).collect();
        Ok(vec![Some(tensor_of(gb, &self.base)?)])
    }
}

/// The history of a base after an in-place op on one of its views (PyTorch's
/// `CopySlices`). Inputs: the base before the write, and the in-place op's result (the
/// view's new values). The gradient of the base's elements outside the view goes to the
/// first; the gradient of the view's elements to the second.
pub(crate) struct CopySlices {
    pub(crate) base: Geometry,
    pub(crate) view: Geometry,
    /// The dtype of the in-place op's result (its gradient's dtype).
    pub(crate) result: DType,
}

impl Node for CopySlices {
    #[cfg_attr(unoptimized, inline)]
    fn name(&self) -> &'static str {
        "torch::autograd::CopySlices"
    }

    #[cfg_attr(unoptimized, inline)]
    fn apply(&self, grads: &[Option<Tensor>]) -> Result<Vec<Option<Tensor>>> {
        let Some(g) = &grads[0] else {
            return Ok(vec![None, None]);
        };
        let (b, v, counts) = frame(&self.base, &self.view)?;
        if counts.iter().any(|&c| c > 1) {
            return Err(Error::InplaceAutograd {
                reason: "the base of a view written in place overlaps itself in memory",
            });
        }
        let mut storage = try_vec(counts.len(), 0.0f64)?;
        for (&p, x) in b.iter().zip(g.to_vec_f64()?) {
            storage[p] = x;
        }
        let gv = v.iter().map(|&p| storage[p]).collect();
        for &p in &v {
            storage[p] = 0.0;
        }
        let gb = b.iter().map(|&p| storage[p]).collect();
        let view = Geometry {
            dtype: self.result,
            ..self.view.clone()
        };
        Ok(vec![
            Some(tensor_of(gb, &self.base)?),
            Some(tensor_of(gv, &view)?),
        ])
    }
}
