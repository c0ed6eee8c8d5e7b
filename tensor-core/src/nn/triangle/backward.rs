//! Backward of `tril`/`triu`: the gradient passes where the forward kept the input and
//! is zero where it wrote zeros.

use crate::error::Result;
use crate::tensor::Tensor;

/// The gradient of `input.tril(diagonal)` (`lower`) or `input.triu(diagonal)` with
/// respect to `input`: the same triangle of `grad`.
///
/// # Errors
/// A gradient of fewer than 2 dims; allocation errors.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn triangle_backward(grad: &Tensor, diagonal: i64, lower: bool) -> Result<Tensor> {
    if lower {
        grad.tril(diagonal)
    } else {
        grad.triu(diagonal)
    }
}
