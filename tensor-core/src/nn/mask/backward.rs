//! Backward of `masked_fill`: the gradient passes where the forward kept the input and
//! is zero where it wrote the fill value.

use crate::error::Result;
use crate::tensor::Tensor;

/// `grad` summed down to `sizes` (PyTorch's `sum_to_size`): leading dims, and dims
/// where `sizes` has 1, are summed.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn sum_to_size(grad: &Tensor, sizes: &[usize]) -> Result<Tensor> {
    if grad.sizes() == sizes {
        return Ok(grad.alias());
    }
    let lead = grad.dim() - sizes.len();
    let mut dims: Vec<i64> = (0..lead as i64).collect();
    for (d, &s) in sizes.iter().enumerate() {
        if s == 1 && grad.sizes()[lead + d] != 1 {
            dims.push((lead + d) as i64);
        }
    }
    let target: Vec<i64> = sizes.iter().map(|&s| s as i64).collect();
    if dims.is_empty() {
        return grad.reshape(&target);
    }
    grad.sum(&dims, true)?.reshape(&target)
}

/// The gradient of `input.masked_fill(mask, value)` with respect to `input` (of
/// `input_sizes`), given the gradient `grad` of its output (the broadcast shape):
/// `grad` with the masked positions zeroed, summed back to the input's sizes.
///
/// # Errors
/// A mask that does not broadcast to `grad`; allocation errors.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn masked_fill_backward(
    grad: &Tensor,
    mask: &Tensor,
    input_sizes: &[usize],
) -> Result<Tensor> {
    let zeroed = grad.masked_fill(mask, 0.0)?;
    sum_to_size(&zeroed, input_sizes)
}
