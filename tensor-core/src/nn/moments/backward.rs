//! Backward of `var` and `std` over dims with a correction: with `μ` the mean over the
//! reduced dims and `d = max(0, N - correction)`,
//! var: `dx = dy · 2(x - μ) / d`; std: `dx = dy · (x - μ) / (d · std)`, where `dy`
//! (and `std`) are broadcast back over the reduced dims. Computed in `f64` and rounded
//! once to the input's dtype.

use crate::dtype::DType;
use crate::error::Result;
use crate::layout::wrap_dims;
use crate::tensor::Tensor;

/// The output's sizes with the reduced dims kept as 1 (`keepdim=True`).
#[cfg_attr(unoptimized, inline)]
fn kept_sizes(sizes: &[usize], dims: &[i64]) -> Result<(Vec<i64>, usize)> {
    let wrapped = wrap_dims(dims, sizes.len())?;
    let mut kept: Vec<i64> = sizes.iter().map(|&s| s as i64).collect();
    let mut count = 1usize;
    for (d, k) in kept.iter_mut().enumerate() {
        if dims.is_empty() || wrapped.contains(&d) {
            count *= sizes[d];
            *k = 1;
        }
    }
    if sizes.is_empty() {
        count = 1;
    }
    Ok((kept, count))
}

#[cfg_attr(unoptimized, inline)]
fn common(
    grad: &Tensor,
    input: &Tensor,
    dims: &[i64],
    correction: f64,
) -> Result<(Tensor, Tensor, f64, Vec<i64>)> {
    let (kept, count) = kept_sizes(input.sizes(), dims)?;
    let x = input.to_dtype(DType::F64)?;
    let dev = x.sub(&x.mean(dims, true)?)?;
    let g = grad.to_dtype(DType::F64)?.contiguous()?.reshape(&kept)?;
    let divisor = (count as f64 - correction).max(0.0);
    Ok((dev, g, divisor, kept))
}

/// The gradient of `input.var(dims, correction, keepdim)` with respect to `input`, given
/// the gradient `grad` of its output; contiguous, in the input's dtype.
///
/// # Errors
/// A dim out of range; allocation errors.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn var_backward(
    grad: &Tensor,
    input: &Tensor,
    dims: &[i64],
    correction: f64,
) -> Result<Tensor> {
    let (dev, g, divisor, _) = common(grad, input, dims, correction)?;
    dev.mul(&g)?
        .mul_scalar(2.0 / divisor)?
        .contiguous()?
        .to_dtype(input.dtype())
}

/// The gradient of `input.std(dims, correction, keepdim)` with respect to `input`, given
/// the gradient `grad` of its output and the output `output` itself; as
/// [`var_backward`].
///
/// # Errors
/// As [`var_backward`].
#[cfg_attr(unoptimized, inline)]
pub(crate) fn std_backward(
    grad: &Tensor,
    input: &Tensor,
    output: &Tensor,
    dims: &[i64],
    correction: f64,
) -> Result<Tensor> {
    let (dev, g, divisor, kept) = common(grad, input, dims, correction)?;
    let std = output.to_dtype(DType::F64)?.contiguous()?.reshape(&kept)?;
    dev.mul(&g)?
        .div(&std.mul_scalar(divisor)?)?
        .contiguous()?
        .to_dtype(input.dtype())
}
