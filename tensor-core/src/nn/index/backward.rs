//! Backward of the gathering ops: `F.embedding` (a dense scatter-add of the gradient's
//! rows into `[num_embeddings, embedding_dim]`), `index_select` (`index_add` into
//! zeros) and `gather` (`scatter_add` into zeros). Duplicate indices accumulate.

use super::values::index_values;
use crate::error::Result;
use crate::kernels::acc::{dispatch_float, Acc, FloatAcc};
use crate::layout::wrap_dim;
use crate::nn::backward::common::{load, split_at, store};
use crate::tensor::Tensor;

fn embedding_run<A: Acc>(grad: &Tensor, indices: &Tensor, num_weights: usize) -> Result<Tensor> {
    let idx = index_values(indices)?;
    let g = load::<A>(grad)?;
    let e = grad.sizes().last().copied().unwrap_or(1);
    let mut dw = vec![A::zero(); num_weights * e];
    for (r, &i) in idx.iter().enumerate() {
        let (dst, src) = (i as usize * e, r * e);
        for k in 0..e {
            dw[dst + k] = dw[dst + k] + g[src + k];
        }
    }
    store(dw, &[num_weights, e], grad.dtype())
}

/// The gradient of `F.embedding(indices, weight)` with respect to `weight`
/// (`[num_weights, embedding_dim]`), given the gradient `grad` of its output
/// (`indices.sizes() ++ [embedding_dim]`): each gradient row added into the row its
/// index names. Contiguous, in `grad`'s dtype.
///
/// # Errors
/// A non-float dtype; allocation errors.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn embedding_backward(
    grad: &Tensor,
    indices: &Tensor,
    num_weights: usize,
) -> Result<Tensor> {
    dispatch_float!(
        grad.dtype(),
        "embedding_dense_backward",
        T,
        embedding_run::<<T as FloatAcc>::A>(grad, indices, num_weights)
    )
}

fn index_select_run<A: Acc>(
    grad: &Tensor,
    input_sizes: &[usize],
    dim: usize,
    index: &Tensor,
) -> Result<Tensor> {
    let idx = index_values(index)?;
    let g = load::<A>(grad)?;
    let one = [1usize];
    let sizes = if input_sizes.is_empty() {
        &one[..]
    } else {
        input_sizes
    };
    let (outer, n, inner) = split_at(sizes, dim);
    let mut dx = vec![A::zero(); outer * n * inner];
    let m = idx.len();
    for o in 0..outer {
        for (k, &i) in idx.iter().enumerate() {
            let dst = (o * n + i as usize) * inner;
            let src = (o * m + k) * inner;
            for j in 0..inner {
                dx[dst + j] = dx[dst + j] + g[src + j];
            }
        }
    }
    store(dx, input_sizes, grad.dtype())
}

/// The gradient of `input.index_select(dim, index)` with respect to `input` (of
/// `input_sizes`), given the gradient `grad` of its output: zeros with `grad`'s slices
/// added at the indices along `dim` (`index_add`). Contiguous, in `grad`'s dtype.
///
/// # Errors
/// A dim out of range; a non-float dtype; allocation errors.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn index_select_backward(
    grad: &Tensor,
    input_sizes: &[usize],
    dim: i64,
    index: &Tensor,
) -> Result<Tensor> {
    let d = wrap_dim(dim, input_sizes.len())?;
    dispatch_float!(
        grad.dtype(),
        "index_add_cpu_",
        T,
        index_select_run::<<T as FloatAcc>::A>(grad, input_sizes, d, index)
    )
}

fn gather_run<A: Acc>(
    grad: &Tensor,
    input_sizes: &[usize],
    dim: usize,
    index: &Tensor,
) -> Result<Tensor> {
    let idx = index_values(index)?;
    let g = load::<A>(grad)?;
    let mut dx = vec![A::zero(); input_sizes.iter().product()];
    if input_sizes.is_empty() {
        // A 0-d input counts as [1]: every index is 0.
        dx[0] = g.iter().fold(A::zero(), |a, &v| a + v);
        return store(dx, input_sizes, grad.dtype());
    }
    // Row-major strides of the input.
    let nd = input_sizes.len();
    let mut istr = vec![1usize; nd];
    for d in (0..nd.saturating_sub(1)).rev() {
        istr[d] = istr[d + 1] * input_sizes[d + 1];
    }
    let isz = if index.dim() == 0 {
        &[1][..]
    } else {
        index.sizes()
    };
    let mut pos = vec![0usize; nd];
    for (p, (&gv, &iv)) in g.iter().zip(&idx).enumerate() {
        let mut rest = p;
        for d in (0..nd).rev() {
            pos[d] = rest % isz[d];
            rest /= isz[d];
        }
        let mut at = 0;
        for d in 0..nd {
            let i = if d == dim { iv as usize } else { pos[d] };
            at += i * istr[d];
        }
        dx[at] = dx[at] + gv;
    }
    store(dx, input_sizes, grad.dtype())
}

/// The gradient of `input.gather(dim, index)` with respect to `input` (of
/// `input_sizes`), given the gradient `grad` of its output (`index`'s sizes): zeros
/// with each gradient element added at its gathered position (`scatter_add`).
/// Contiguous, in `grad`'s dtype.
///
/// # Errors
/// A dim out of range; a non-float dtype; allocation errors.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn gather_backward(
    grad: &Tensor,
    input_sizes: &[usize],
    dim: i64,
    index: &Tensor,
) -> Result<Tensor> {
    let d = wrap_dim(dim, input_sizes.len())?;
    dispatch_float!(
        grad.dtype(),
        "scatter_add_",
        T,
        gather_run::<<T as FloatAcc>::A>(grad, input_sizes, d, index)
    )
}
