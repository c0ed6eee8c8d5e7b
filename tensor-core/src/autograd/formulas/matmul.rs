//! `matmul` in all its cases: vectors are made matrices (a row for the left operand,
//! a column for the right one), the gradients are matrix products, summed over the
//! broadcast batch dims and shaped back.

use super::common::first;
use crate::autograd::{Node, SavedTensor};
use crate::error::Result;
use crate::tensor::Tensor;

/// `a @ b` (MmBackward0 for 2-d, else the decomposition PyTorch traces: here one node).
pub(crate) struct MatmulBackward {
    pub(crate) a: SavedTensor,
    pub(crate) b: SavedTensor,
    pub(crate) need_a: bool,
    pub(crate) need_b: bool,
}

#[cfg_attr(unoptimized, inline)]
fn as_i64(sizes: &[usize]) -> Vec<i64> {
    sizes.iter().map(|&s| s as i64).collect()
}

/// The gradient of `b` (`[batch..., k, m]`) in `a @ b` for a 2-d `a` (`[n, k]`) that
/// requires grad, along the path PyTorch's `matmul` takes there: it folds the product
/// into one `mm`, `(b.mT().reshape(-1, k) @ a.mT()).view(batch..., m, n).mT()`, so the
/// gradient comes back as `(g.mT().reshape(-1, n) @ a).view(batch..., m, k).mT()`, with
/// that path's strides (`[4, 1, 4]` from `a` of `[n, 1]`: strides `[4, 1, 1]`, which
/// `.grad` keeps, as PyTorch's does).
#[cfg_attr(unoptimized, inline)]
fn folded_grad_b(g: &Tensor, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let n = a.sizes()[0] as i64;
    let rows = g.transpose(-1, -2)?.reshape(&[-1, n])?.matmul(a)?;
    let mut sizes = as_i64(b.sizes());
    let last = sizes.len() - 1;
    sizes.swap(last - 1, last);
    rows.reshape(&sizes)?.transpose(-1, -2)
}

impl Node for MatmulBackward {
    #[cfg_attr(unoptimized, inline)]
    fn name(&self) -> &'static str {
        "MmBackward0"
    }
    #[cfg_attr(unoptimized, inline)]
    fn apply(&self, grads: &[Option<Tensor>]) -> Result<Vec<Option<Tensor>>> {
        let (a, b) = (self.a.unpack()?, self.b.unpack()?);
        let mut g = first(grads)?.alias();
        let a2 = if a.dim() == 1 {
            a.unsqueeze(0)?
        } else {
            a.alias()
        };
        let b2 = if b.dim() == 1 {
            b.unsqueeze(-1)?
        } else {
            b.alias()
        };
        if a.dim() == 1 {
            g = g.unsqueeze(if b.dim() == 1 { 0 } else { -2 })?;
        }
        if b.dim() == 1 {
            g = g.unsqueeze(-1)?;
        }
        let ga = if self.need_a {
            let ga = g.matmul(&b2.transpose(-1, -2)?)?;
            Some(ga.sum_to_size(a2.sizes())?.reshape(&as_i64(a.sizes()))?)
        } else {
            None
        };
        let gb = if self.need_b && a.dim() == 2 && b.dim() >= 3 && self.need_a {
            Some(folded_grad_b(&g, &a, &b)?)
        } else if self.need_b {
            let gb = a2.transpose(-1, -2)?.matmul(&g)?;
            Some(gb.sum_to_size(b2.sizes())?.reshape(&as_i64(b.sizes()))?)
        } else {
            None
        };
        Ok(vec![ga, gb])
    }
    #[cfg_attr(unoptimized, inline)]
    fn release(&self) {
        self.a.release();
        self.b.release();
    }
}

/// `addmm(input, mat1, mat2)` (AddmmBackward0): the input's gradient is the output's
/// summed to the input's shape (undoing its broadcast); `mat1`'s is `g @ mat2ᵀ`,
/// `mat2`'s is `mat1ᵀ @ g`. Each matrix is saved only when the other one's gradient
/// needs it.
pub(crate) struct AddmmBackward {
    pub(crate) input_sizes: Vec<usize>,
    /// Saved when `mat2` requires grad.
    pub(crate) mat1: Option<SavedTensor>,
    /// Saved when `mat1` requires grad.
    pub(crate) mat2: Option<SavedTensor>,
    pub(crate) need_input: bool,
}

impl Node for AddmmBackward {
    #[cfg_attr(unoptimized, inline)]
    fn name(&self) -> &'static str {
        "AddmmBackward0"
    }
    #[cfg_attr(unoptimized, inline)]
    fn apply(&self, grads: &[Option<Tensor>]) -> Result<Vec<Option<Tensor>>> {
        let g = first(grads)?;
        let input = if self.need_input {
            Some(g.sum_to_size(&self.input_sizes)?)
        } else {
            None
        };
        let mat1 = match &self.mat2 {
            Some(mat2) => Some(g.matmul(&mat2.unpack()?.t()?)?),
            None => None,
        };
        let mat2 = match &self.mat1 {
            Some(mat1) => Some(mat1.unpack()?.t()?.matmul(g)?),
            None => None,
        };
        Ok(vec![input, mat1, mat2])
    }
    #[cfg_attr(unoptimized, inline)]
    fn release(&self) {
        for saved in [&self.mat1, &self.mat2].into_iter().flatten() {
            saved.release();
        }
    }
}
