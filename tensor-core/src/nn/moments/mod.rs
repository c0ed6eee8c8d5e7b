//! `var` and `std` over dims with a correction, as `torch.var` / `torch.std`: the sum
//! of squared deviations from the mean over `max(0, N - correction)`, computed in
//! `f64` (PyTorch's CPU Welford accumulates in `double` too) and rounded once to the
//! input's dtype.

pub(super) mod backward;

use super::backward::node::node;
use crate::autograd::{self, SavedTensor};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::wrap_dims;
use crate::scalar::Scalar;
use crate::tensor::Tensor;

/// [`moments_forward`], recorded for autograd (`VarBackward0`, `StdBackward0`).
#[cfg_attr(unoptimized, inline)]
fn moments(
    x: &Tensor,
    dims: &[i64],
    correction: Scalar,
    keepdim: bool,
    sqrt: bool,
) -> Result<Tensor> {
    let name = if sqrt { "StdBackward0" } else { "VarBackward0" };
    let d = dims.to_vec();
    let c = correction.to_f64();
    autograd::apply(
        &[x],
        || moments_forward(x, dims, correction, keepdim, sqrt),
        |out| {
            let mut saved = vec![SavedTensor::input(x)];
            if sqrt {
                saved.push(SavedTensor::output(out, name, 0));
            }
            node(name, saved, 1, move |g, s| {
                let dx = if sqrt {
                    backward::std_backward(g, &s[0], &s[1], &d, c)?
                } else {
                    backward::var_backward(g, &s[0], &d, c)?
                };
                Ok(vec![Some(dx)])
            })
        },
    )
}

#[cfg_attr(unoptimized, inline)]
fn moments_forward(
    x: &Tensor,
    dims: &[i64],
    correction: Scalar,
    keepdim: bool,
    sqrt: bool,
) -> Result<Tensor> {
    if !x.dtype().is_floating() {
        return Err(Error::UnsupportedDType {
            message: "std and var only support floating point and complex dtypes".into(),
        });
    }
    let wrapped = wrap_dims(dims, x.dim())?;
    let count: usize = if dims.is_empty() {
        x.numel()
    } else {
        wrapped
            .iter()
            .map(|&d| x.sizes().get(d).copied().unwrap_or(1))
            .product()
    };
    let x64 = x.to_dtype(DType::F64)?;
    let mean = x64.mean(dims, true)?;
    let dev = x64.sub(&mean)?;
    let ss = dev.mul(&dev)?.sum(dims, keepdim)?;
    let divisor = (count as f64 - correction.to_f64()).max(0.0);
    let var = ss.div_scalar(divisor)?;
    let out = if sqrt { var.sqrt()? } else { var };
    out.to_dtype(x.dtype())
}

impl Tensor {
    /// `torch.var(self, dim=dims, correction=correction, keepdim=keepdim)`: the variance
    /// over `dims` (an empty list reduces every dim), `Σ (x - mean)² / max(0, N -
    /// correction)` with `N` the number of elements reduced (`correction = 1` is
    /// Bessel's correction, PyTorch's default; `0` the population variance). A divisor
    /// of 0 gives `inf` or NaN, as PyTorch.
    ///
    /// Float dtypes; computed in `f64`, returned in the input's dtype, contiguous, with
    /// the reduced dims removed or kept with size 1 (`keepdim`).
    ///
    /// # Errors
    /// [`Error::UnsupportedDType`] for bool and integers (`std and var only support
    /// floating point and complex dtypes`); [`Error::DimOutOfRange`];
    /// [`Error::DuplicateDim`] (`dim 0 appears multiple times in the list of dims`).
    pub fn var(
        &self,
        dims: &[i64],
        correction: impl Into<Scalar>,
        keepdim: bool,
    ) -> Result<Tensor> {
        moments(self, dims, correction.into(), keepdim, false)
    }

    /// `torch.std(self, dim=dims, correction=correction, keepdim=keepdim)`: the square
    /// root of [`var`](Tensor::var).
    ///
    /// # Errors
    /// As [`var`](Tensor::var).
    pub fn std(
        &self,
        dims: &[i64],
        correction: impl Into<Scalar>,
        keepdim: bool,
    ) -> Result<Tensor> {
        moments(self, dims, correction.into(), keepdim, true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn var_with_corrections() {
        // torch.var(torch.tensor([1., 2., 4.]), 0, correction=c) for c = 1, 0.5, 3
        let x = Tensor::from_vec(vec![1.0f32, 2.0, 4.0], &[3]).unwrap();
        let v = |c: f64| x.var(&[0], c, false).unwrap().item::<f32>().unwrap();
        assert!((v(1.0) - 7.0 / 3.0).abs() < 1e-6);
        assert!((v(0.5) - 1.866_666_7).abs() < 1e-6);
        assert_eq!(v(3.0), f32::INFINITY);
        let s = x.std(&[], 0, true).unwrap();
        assert_eq!(s.sizes(), &[1]);
        assert!((s.item::<f32>().unwrap() - (14.0f32 / 9.0).sqrt()).abs() < 1e-6);
    }

    #[test]
    fn var_of_integers_and_duplicate_dims_are_errors() {
        let l = Tensor::zeros(&[3], DType::I64).unwrap();
        assert!(l
            .var(&[0], 1, false)
            .unwrap_err()
            .to_string()
            .contains("std and var only support floating point and complex dtypes"));
        let x = Tensor::zeros(&[4], DType::F64).unwrap();
        assert_eq!(
            x.var(&[0, -1], 0, true).unwrap_err().to_string(),
            "dim 0 appears multiple times in the list of dims"
        );
    }
}
