//! Backward of `softmax` and `log_softmax` (PyTorch's `_softmax_backward_data`,
//! `_log_softmax_backward_data`), from the forward's output `y`:
//! softmax `dx = y · (dy - Σ dy·y)`, log_softmax `dx = dy - e^y · Σ dy`, sums along
//! `dim`.

use crate::error::Result;
use crate::kernels::acc::{dispatch_float, Acc, FloatAcc};
use crate::layout::wrap_dim;
use crate::nn::backward::common::{load, split_at, store};
use crate::tensor::Tensor;

fn run<A: Acc>(grad: &Tensor, output: &Tensor, dim: usize, log: bool) -> Result<Tensor> {
    let sizes = output.sizes();
    let (outer, n, inner) = if sizes.is_empty() {
        (1, 1, 1)
    } else {
        split_at(sizes, dim)
    };
    let g = load::<A>(grad)?;
    let y = load::<A>(output)?;
    let mut dx = vec![A::zero(); g.len()];
    for o in 0..outer {
        for j in 0..inner {
            let at = |i: usize| (o * n + i) * inner + j;
            let mut s = A::zero();
            for i in 0..n {
                s = s + if log { g[at(i)] } else { g[at(i)] * y[at(i)] };
            }
            for i in 0..n {
                let k = at(i);
                dx[k] = if log {
                    g[k] - y[k].exp() * s
                } else {
                    y[k] * (g[k] - s)
                };
            }
        }
    }
    store(dx, sizes, output.dtype())
}

#[cfg_attr(unoptimized, inline)]
fn backward(grad: &Tensor, output: &Tensor, dim: i64, log: bool) -> Result<Tensor> {
    let d = wrap_dim(dim, output.dim())?;
    let kernel = if log {
        "log_softmax_backward"
    } else {
        "softmax_backward"
    };
    dispatch_float!(
        output.dtype(),
        kernel,
        T,
        run::<<T as FloatAcc>::A>(grad, output, d, log)
    )
}

/// The gradient of `softmax(x, dim)` with respect to `x`, given the gradient `grad` of
/// its output and the output `output` itself (same sizes); contiguous, in the output's
/// dtype.
///
/// # Errors
/// A dim out of range; a non-float dtype; allocation errors.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn softmax_backward(grad: &Tensor, output: &Tensor, dim: i64) -> Result<Tensor> {
    backward(grad, output, dim, false)
}

/// The gradient of `log_softmax(x, dim)` with respect to `x`, given the gradient of its
/// output and the output; as [`softmax_backward`].
///
/// # Errors
/// As [`softmax_backward`].
#[cfg_attr(unoptimized, inline)]
pub(crate) fn log_softmax_backward(grad: &Tensor, output: &Tensor, dim: i64) -> Result<Tensor> {
    backward(grad, output, dim, true)
}
