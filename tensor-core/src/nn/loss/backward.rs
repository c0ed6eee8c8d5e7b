//! Backward of `F.cross_entropy` (`log_softmax` along the class dim, then `nll_loss`,
//! or a weighted sum for class-probability targets). With `p = softmax(x)` along the
//! class dim and `w` the weight of a loss element (`dy` for `'none'`, `dy` for `'sum'`,
//! `dy / count` for `'mean'`, `count` the targets that are not `ignore_index` or the
//! rows for probabilities):
//!
//! - class indices: `dx = w · (p - onehot(target))`, zero on ignored targets;
//! - class probabilities: `dx = w · (p · Σ_c target - target)`.

use super::reduction::{Reduction, IGNORE_INDEX};
use crate::error::Result;
use crate::kernels::acc::{dispatch_float, Acc, FloatAcc};
use crate::nn::backward::common::{load, store};
use crate::tensor::Tensor;

fn run<A: Acc>(
    grad: &Tensor,
    input: &Tensor,
    target: &Tensor,
    reduction: Reduction,
) -> Result<Tensor> {
    let sizes = input.sizes();
    let nd = sizes.len();
    let (outer, c, inner) = if nd == 1 {
        (1, sizes[0], 1)
    } else {
        (sizes[0], sizes[1], sizes[2..].iter().product())
    };
    let x = load::<A>(input)?;
    let g = load::<A>(grad)?;
    let probabilities = target.sizes() == sizes && target.dtype().is_floating();
    let (tp, ti) = if probabilities {
        (load::<A>(target)?, Vec::new())
    } else {
        (
            Vec::new(),
            target.to_dtype(crate::dtype::DType::I64)?.to_vec::<i64>()?,
        )
    };
    let count = if probabilities {
        outer * inner
    } else {
        ti.iter().filter(|&&t| t != IGNORE_INDEX).count()
    };
    let weight = |e: usize| -> A {
        match reduction {
            Reduction::None => g[e],
            Reduction::Sum => g[0],
            Reduction::Mean => g[0] / A::c(count as f64),
        }
    };
    let mut dx = vec![A::zero(); x.len()];
    let mut p = vec![A::zero(); c];
    for o in 0..outer {
        for j in 0..inner {
            let at = |k: usize| (o * c + k) * inner + j;
            let e = o * inner + j;
            if !probabilities && ti[e] == IGNORE_INDEX {
                continue;
            }
            let m = (0..c).fold(A::neg_infinity(), |m, k| m.max(x[at(k)]));
            let mut s = A::zero();
            for (k, pk) in p.iter_mut().enumerate() {
                *pk = (x[at(k)] - m).exp();
                s = s + *pk;
            }
            let w = weight(e);
            if probabilities {
                let ts = (0..c).fold(A::zero(), |a, k| a + tp[at(k)]);
                for (k, &pk) in p.iter().enumerate() {
                    dx[at(k)] = w * (pk / s * ts - tp[at(k)]);
                }
            } else {
                let t = ti[e] as usize;
                for (k, &pk) in p.iter().enumerate() {
                    let hot = if k == t { A::one() } else { A::zero() };
                    dx[at(k)] = w * (pk / s - hot);
                }
            }
        }
    }
    store(dx, sizes, input.dtype())
}

/// The gradient of `F.cross_entropy(input, target, reduction)` with respect to `input`,
/// given the gradient `grad` of the loss (0-d for `'mean'`/`'sum'`, the target's shape
/// for `'none'`). Contiguous, in the input's dtype.
///
/// # Errors
/// A non-float dtype; allocation errors.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn cross_entropy_backward(
    grad: &Tensor,
    input: &Tensor,
    target: &Tensor,
    reduction: Reduction,
) -> Result<Tensor> {
    dispatch_float!(
        input.dtype(),
        "nll_loss_backward",
        T,
        run::<<T as FloatAcc>::A>(grad, input, target, reduction)
    )
}
