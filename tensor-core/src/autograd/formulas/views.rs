//! View ops and the copies that stand for them: view/reshape/flatten/squeeze/
//! unsqueeze, permute, transpose, expand, slice/narrow, select, diagonal, repeat,
//! as_strided.

use super::common::first;
use crate::autograd::Node;
use crate::error::Result;
use crate::tensor::Tensor;

#[cfg_attr(unoptimized, inline)]
fn as_i64(sizes: &[usize]) -> Vec<i64> {
    sizes.iter().map(|&s| s as i64).collect()
}

/// A gradient reshaped back to the input's sizes: view (ViewBackward0), reshape
/// (ReshapeAliasBackward0/UnsafeViewBackward0), flatten, squeeze (SqueezeBackward0/1),
/// unsqueeze (UnsqueezeBackward0).
pub(crate) struct ReshapeBackward {
    pub(crate) name: &'static str,
    pub(crate) sizes: Vec<usize>,
}

impl Node for ReshapeBackward {
    #[cfg_attr(unoptimized, inline)]
    fn name(&self) -> &'static str {
        self.name
    }
    #[cfg_attr(unoptimized, inline)]
    fn apply(&self, grads: &[Option<Tensor>]) -> Result<Vec<Option<Tensor>>> {
        Ok(vec![Some(first(grads)?.reshape(&as_i64(&self.sizes))?)])
    }
}

/// `permute(dims)` (PermuteBackward0): the inverse permutation.
pub(crate) struct PermuteBackward {
    pub(crate) inverse: Vec<i64>,
}

impl PermuteBackward {
    /// For dims the forward already checked.
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn new(dims: &[i64], ndim: usize) -> PermuteBackward {
        let dims = crate::layout::wrap_dims(dims, ndim).unwrap_or_default();
        let mut inverse = vec![0i64; dims.len()];
        for (i, &d) in dims.iter().enumerate() {
            inverse[d] = i as i64;
        }
        PermuteBackward { inverse }
    }
}

impl Node for PermuteBackward {
    #[cfg_attr(unoptimized, inline)]
    fn name(&self) -> &'static str {
        "PermuteBackward0"
    }
    #[cfg_attr(unoptimized, inline)]
    fn apply(&self, grads: &[Option<Tensor>]) -> Result<Vec<Option<Tensor>>> {
        Ok(vec![Some(first(grads)?.permute(&self.inverse)?)])
    }
}

/// `transpose(d0, d1)` (TransposeBackward0): the same transpose.
pub(crate) struct TransposeBackward {
    pub(crate) dim0: i64,
    pub(crate) dim1: i64,
}

impl Node for TransposeBackward {
    #[cfg_attr(unoptimized, inline)]
    fn name(&self) -> &'static str {
        "TransposeBackward0"
    }
    #[cfg_attr(unoptimized, inline)]
    fn apply(&self, grads: &[Option<Tensor>]) -> Result<Vec<Option<Tensor>>> {
        if first(grads)?.dim() == 0 {
            return Ok(vec![Some(first(grads)?.alias())]);
        }
        Ok(vec![Some(first(grads)?.transpose(self.dim0, self.dim1)?)])
    }
}

/// `expand(sizes)` (ExpandBackward0): the engine sums the gradient back to the
/// input's sizes (`sum_to_size`).
pub(crate) struct ExpandBackward;

impl Node for ExpandBackward {
    #[cfg_attr(unoptimized, inline)]
    fn name(&self) -> &'static str {
        "ExpandBackward0"
    }
    #[cfg_attr(unoptimized, inline)]
    fn apply(&self, grads: &[Option<Tensor>]) -> Result<Vec<Option<Tensor>>> {
        Ok(vec![Some(first(grads)?.alias())])
    }
}

/// `slice(dim, start, end, step)` / `narrow` (SliceBackward0): the gradient written
/// into zeros of the input's sizes through the same slice.
pub(crate) struct SliceBackward {
    pub(crate) sizes: Vec<usize>,
    pub(crate) dim: i64,
    pub(crate) start: Option<i64>,
    pub(crate) end: Option<i64>,
    pub(crate) step: i64,
}

impl Node for SliceBackward {
    #[cfg_attr(unoptimized, inline)]
    fn name(&self) -> &'static str {
        "SliceBackward0"
    }
    #[cfg_attr(unoptimized, inline)]
    fn apply(&self, grads: &[Option<Tensor>]) -> Result<Vec<Option<Tensor>>> {
        let g = first(grads)?;
        let z = Tensor::zeros(&self.sizes, g.dtype())?;
        z.slice(self.dim, self.start, self.end, self.step)?
            .copy_(g)?;
        Ok(vec![Some(z)])
    }
}

/// `diagonal(offset, dim1, dim2)` (DiagonalBackward0): the gradient written into zeros
/// of the input's sizes through the same diagonal.
pub(crate) struct DiagonalBackward {
    pub(crate) sizes: Vec<usize>,
    pub(crate) offset: i64,
    pub(crate) dim1: i64,
    pub(crate) dim2: i64,
}

impl Node for DiagonalBackward {
    #[cfg_attr(unoptimized, inline)]
    fn name(&self) -> &'static str {
        "DiagonalBackward0"
    }
    #[cfg_attr(unoptimized, inline)]
    fn apply(&self, grads: &[Option<Tensor>]) -> Result<Vec<Option<Tensor>>> {
        let g = first(grads)?;
        let z = Tensor::zeros(&self.sizes, g.dtype())?;
        z.diagonal(self.offset, self.dim1, self.dim2)?.copy_(g)?;
        Ok(vec![Some(z)])
    }
}

/// `select(dim, index)` (SelectBackward0).
pub(crate) struct SelectBackward {
    pub(crate) sizes: Vec<usize>,
    pub(crate) dim: i64,
    pub(crate) index: i64,
}

impl Node for SelectBackward {
    #[cfg_attr(unoptimized, inline)]
    fn name(&self) -> &'static str {
        "SelectBackward0"
    }
    #[cfg_attr(unoptimized, inline)]
    fn apply(&self, grads: &[Option<Tensor>]) -> Result<Vec<Option<Tensor>>> {
        let g = first(grads)?;
        let z = Tensor::zeros(&self.sizes, g.dtype())?;
        z.select(self.dim, self.index)?.copy_(g)?;
        Ok(vec![Some(z)])
    }
}

/// `repeat(repeats)` (RepeatBackward0): the gradient seen as `[r0, s0, r1, s1, ..]`
/// summed over the repeat dims.
pub(crate) struct RepeatBackward {
    pub(crate) sizes: Vec<usize>,
    pub(crate) repeats: Vec<i64>,
}

impl Node for RepeatBackward {
    #[cfg_attr(unoptimized, inline)]
    fn name(&self) -> &'static str {
        "RepeatBackward0"
    }
    #[cfg_attr(unoptimized, inline)]
    fn apply(&self, grads: &[Option<Tensor>]) -> Result<Vec<Option<Tensor>>> {
        let g = first(grads)?;
        let lead = self.repeats.len() - self.sizes.len();
        let mut split = Vec::with_capacity(2 * self.repeats.len());
        let mut sum_dims = Vec::with_capacity(self.repeats.len());
        for (i, &r) in self.repeats.iter().enumerate() {
            let s = if i < lead { 1 } else { self.sizes[i - lead] };
            sum_dims.push(split.len() as i64);
            split.push(r);
            split.push(s as i64);
        }
        if g.numel() == 0 {
            return Ok(vec![Some(Tensor::zeros(&self.sizes, g.dtype())?)]);
        }
        let summed = g.reshape(&split)?.sum(&sum_dims, false)?;
        Ok(vec![Some(summed.reshape(&as_i64(&self.sizes))?)])
    }
}
