//! Backward of `torch.cat` and `torch.stack`: each input's gradient is its slice of the
//! output's gradient (`narrow` along the cat dim, `select` along the stack dim), cast
//! back to the input's dtype when the output's was promoted.

use crate::dtype::DType;
use crate::error::Result;
use crate::layout::wrap_dim;
use crate::tensor::Tensor;

/// What the backward needs of one input of `cat`/`stack`: its sizes and dtype.
pub(crate) type InputMeta = (Vec<usize>, DType);

/// The gradients of `Tensor::cat(inputs, dim)` with respect to each input, given the
/// gradient `grad` of its output: views of `grad` (copies when an input's dtype
/// differs from `grad`'s). A skipped input (`[0]`, as PyTorch's legacy rule) gets an
/// empty gradient.
///
/// # Errors
/// A dim out of range; allocation errors.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn cat_backward(grad: &Tensor, inputs: &[InputMeta], dim: i64) -> Result<Vec<Tensor>> {
    let skipped = |s: &[usize]| s.len() == 1 && s[0] == 0;
    let Some(valid) = inputs.iter().position(|(s, _)| !skipped(s)) else {
        return inputs.iter().map(|(s, dt)| Tensor::zeros(s, *dt)).collect();
    };
    let d = wrap_dim(dim, inputs[valid].0.len())?;
    let mut offset = 0usize;
    let mut out = Vec::with_capacity(inputs.len());
    for (sizes, dt) in inputs {
        if skipped(sizes) {
            out.push(Tensor::zeros(sizes, *dt)?);
            continue;
        }
        let len = sizes[d];
        out.push(grad.narrow(d as i64, offset as i64, len)?.to_dtype(*dt)?);
        offset += len;
    }
    Ok(out)
}

/// The gradients of `Tensor::stack(inputs, dim)` with respect to each input, given the
/// gradient `grad` of its output: `grad.select(dim, k)` for input `k` (cast to its
/// dtype).
///
/// # Errors
/// A dim out of range; allocation errors.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn stack_backward(grad: &Tensor, inputs: &[InputMeta], dim: i64) -> Result<Vec<Tensor>> {
    let d = wrap_dim(dim, grad.dim())?;
    inputs
        .iter()
        .enumerate()
        .map(|(k, (_, dt))| grad.select(d as i64, k as i64)?.to_dtype(*dt))
        .collect()
}
