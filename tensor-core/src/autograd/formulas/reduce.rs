//! Reductions: sum, mean, prod, amax, amin.

use super::common::first;
use crate::autograd::{Node, SavedTensor};
use crate::error::Result;
use crate::layout::wrap_dims;
use crate::tensor::Tensor;

/// Which dims of a tensor of `ndim` dims a reduction over `dims` removes (an empty
/// list: all).
#[cfg_attr(unoptimized, inline)]
pub(crate) fn reduced_dims(dims: &[i64], ndim: usize) -> Result<Vec<usize>> {
    if dims.is_empty() {
        return Ok((0..ndim).collect());
    }
    let mut d = wrap_dims(dims, ndim)?;
    d.sort_unstable();
    Ok(d)
}

#[cfg_attr(unoptimized, inline)]
fn as_i64(sizes: &[usize]) -> Vec<i64> {
    sizes.iter().map(|&s| s as i64).collect()
}

/// The reduced dims put back as size 1 (`unsqueeze` at each when `keepdim` was
/// false): `g` broadcasts against the input again.
#[cfg_attr(unoptimized, inline)]
fn restore(g: &Tensor, reduced: &[usize], keepdim: bool) -> Result<Tensor> {
    let mut g = g.alias();
    if !keepdim {
        for &d in reduced {
            g = g.unsqueeze(d as i64)?;
        }
    }
    Ok(g)
}

/// The shape and reduced dims of a reduction's input, shared by the nodes below.
pub(crate) struct Reduced {
    pub(crate) sizes: Vec<usize>,
    pub(crate) dims: Vec<usize>,
    pub(crate) keepdim: bool,
}

impl Reduced {
    /// For a reduction the forward already checked (`dims` are valid).
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn new(input: &Tensor, dims: &[i64], keepdim: bool) -> Reduced {
        Reduced {
            sizes: input.sizes().to_vec(),
            dims: reduced_dims(dims, input.dim()).unwrap_or_default(),
            keepdim,
        }
    }

    #[cfg_attr(unoptimized, inline)]
    fn expand(&self, g: &Tensor) -> Result<Tensor> {
        restore(g, &self.dims, self.keepdim)?.expand(&as_i64(&self.sizes))
    }

    #[cfg_attr(unoptimized, inline)]
    fn count(&self) -> usize {
        self.dims.iter().map(|&d| self.sizes[d]).product()
    }
}

/// `sum(x, dims, keepdim)` (SumBackward0/1): `g` expanded back to `x`'s sizes.
pub(crate) struct SumBackward {
    pub(crate) r: Reduced,
    pub(crate) all: bool,
}

impl Node for SumBackward {
    #[cfg_attr(unoptimized, inline)]
    fn name(&self) -> &'static str {
        if self.all {
            "SumBackward0"
        } else {
            "SumBackward1"
        }
    }
    #[cfg_attr(unoptimized, inline)]
    fn apply(&self, grads: &[Option<Tensor>]) -> Result<Vec<Option<Tensor>>> {
        Ok(vec![Some(self.r.expand(first(grads)?)?)])
    }
}

/// `mean(x, dims, keepdim)` (MeanBackward0/1): `g / n` expanded back.
pub(crate) struct MeanBackward {
    pub(crate) r: Reduced,
    pub(crate) all: bool,
}

impl Node for MeanBackward {
    #[cfg_attr(unoptimized, inline)]
    fn name(&self) -> &'static str {
        if self.all {
            "MeanBackward0"
        } else {
            "MeanBackward1"
        }
    }
    #[cfg_attr(unoptimized, inline)]
    fn apply(&self, grads: &[Option<Tensor>]) -> Result<Vec<Option<Tensor>>> {
        let g = first(grads)?.div_scalar(self.r.count() as f64)?;
        Ok(vec![Some(self.r.expand(&g)?)])
    }
}

/// `prod(x, dims, keepdim)` (ProdBackward0/1): `g` times the product of the other
/// elements of each reduction (zeros handled exactly, as PyTorch's `prod_backward`).
pub(crate) struct ProdBackward {
    pub(crate) r: Reduced,
    /// `prod(x)` over every dim (ProdBackward0) rather than over given dims.
    pub(crate) all: bool,
    pub(crate) x: SavedTensor,
    pub(crate) result: SavedTensor,
}

impl Node for ProdBackward {
    #[cfg_attr(unoptimized, inline)]
    fn name(&self) -> &'static str {
        if self.all {
            "ProdBackward0"
        } else {
            "ProdBackward1"
        }
    }
    #[cfg_attr(unoptimized, inline)]
    fn apply(&self, grads: &[Option<Tensor>]) -> Result<Vec<Option<Tensor>>> {
        let g = self.r.expand(first(grads)?)?;
        let x = self.x.unpack()?;
        // Kept alive for its version check: the result is not needed by the formula.
        let _ = self.result.unpack()?;
        let dims: Vec<i64> = self.r.dims.iter().map(|&d| d as i64).collect();
        // The product of the other elements of each reduction, zeros included: with
        // `p` the product of the non-zero elements and `z` the number of zeros, it is
        // `p / x` for a non-zero `x` when `z == 0` (else 0), and `p` for a zero `x` when
        // `z == 1` (else 0).
        let zero = super::zero_of(&x)?;
        let one = Tensor::ones(&[], x.dtype())?;
        let is_zero = x.eq_scalar(0)?;
        let nonzero = Tensor::where_(&is_zero, &one, &x)?;
        let p = nonzero.prod(&dims, true)?;
        let z = is_zero.to_dtype(x.dtype())?.sum(&dims, true)?;
        let at_zero = Tensor::where_(&z.eq_scalar(1)?, &p, &zero)?;
        let elsewhere = Tensor::where_(&z.eq_scalar(0)?, &p, &zero)?.div(&nonzero)?;
        let others = Tensor::where_(&is_zero, &at_zero, &elsewhere)?;
        Ok(vec![Some(g.mul(&others)?)])
    }
    #[cfg_attr(unoptimized, inline)]
    fn release(&self) {
        self.x.release();
        self.result.release();
    }
}

/// `amax`/`amin(x, dims, keepdim)` (AmaxBackward0/AminBackward0): `g` split evenly
/// among the elements equal to the result.
pub(crate) struct ExtremumReduceBackward {
    pub(crate) max: bool,
    pub(crate) r: Reduced,
    pub(crate) x: SavedTensor,
    pub(crate) result: SavedTensor,
}

impl Node for ExtremumReduceBackward {
    #[cfg_attr(unoptimized, inline)]
    fn name(&self) -> &'static str {
        if self.max {
            "AmaxBackward0"
        } else {
            "AminBackward0"
        }
    }
    #[cfg_attr(unoptimized, inline)]
    fn apply(&self, grads: &[Option<Tensor>]) -> Result<Vec<Option<Tensor>>> {
        let x = self.x.unpack()?;
        let result = restore(&self.result.unpack()?, &self.r.dims, self.r.keepdim)?;
        let mask = x.eq(&result)?.to_dtype(x.dtype())?;
        let dims: Vec<i64> = self.r.dims.iter().map(|&d| d as i64).collect();
        let count = mask.sum(&dims, true)?;
        let g = restore(first(grads)?, &self.r.dims, self.r.keepdim)?;
        Ok(vec![Some(g.div(&count)?.mul(&mask)?)])
    }
    #[cfg_attr(unoptimized, inline)]
    fn release(&self) {
        self.x.release();
        self.result.release();
    }
}
