//! Backward of `F.layer_norm` (PyTorch's `native_layer_norm_backward`). Per row of the
//! `N` normalized elements, with `x̂ = (x - μ)·rstd`, `rstd = 1/√(σ² + eps)` (σ² the
//! population variance, recomputed from the input) and `ĝ = dy·w`:
//! `dx = rstd · (ĝ - mean(ĝ) - x̂ · mean(ĝ·x̂))`, `dw = Σ_rows dy·x̂`, `db = Σ_rows dy`.

use super::common::{dispatch_acc, load, store, Real};
use crate::error::Result;
use crate::Tensor;

/// The gradients of a layer_norm: input, weight (when given), bias (when given).
pub(crate) type LayerNormGrads = (Tensor, Option<Tensor>, Option<Tensor>);

fn run<A: Real>(
    grad: &Tensor,
    input: &Tensor,
    n: usize,
    weight: Option<&Tensor>,
    bias: Option<&Tensor>,
    eps: f64,
) -> Result<LayerNormGrads> {
    let g = load::<A>(grad)?;
    let x = load::<A>(input)?;
    let w = weight.map(load::<A>).transpose()?;
    let rows = x.len().checked_div(n).unwrap_or(0);
    let mut dx = vec![A::zero(); x.len()];
    let mut dw = vec![A::zero(); n];
    let mut db = vec![A::zero(); n];
    let nf = A::c(n as f64);
    let mut xhat = vec![A::zero(); n];
    let mut gh = vec![A::zero(); n];
    for r in 0..rows {
        let xr = &x[r * n..(r + 1) * n];
        let gr = &g[r * n..(r + 1) * n];
        let mean = xr.iter().fold(A::zero(), |a, &v| a + v) / nf;
        let var = xr
            .iter()
            .fold(A::zero(), |a, &v| a + (v - mean) * (v - mean))
            / nf;
        let rstd = A::one() / (var + A::c(eps)).sqrt();
        let (mut s1, mut s2) = (A::zero(), A::zero());
        for i in 0..n {
            xhat[i] = (xr[i] - mean) * rstd;
            gh[i] = match &w {
                Some(w) => gr[i] * w[i],
                None => gr[i],
            };
            s1 = s1 + gh[i];
            s2 = s2 + gh[i] * xhat[i];
            dw[i] = dw[i] + gr[i] * xhat[i];
            db[i] = db[i] + gr[i];
        }
        let (m1, m2) = (s1 / nf, s2 / nf);
        for i in 0..n {
            dx[r * n + i] = rstd * (gh[i] - m1 - xhat[i] * m2);
        }
    }
    let dx = store(dx, input.sizes(), input.dtype())?;
    let dw = weight
        .map(|w| store(dw, w.sizes(), w.dtype()))
        .transpose()?;
    let db = bias.map(|b| store(db, b.sizes(), b.dtype())).transpose()?;
    Ok((dx, dw, db))
}

/// The gradients of `F.layer_norm(input, normalized_shape, weight, bias, eps)` given the
/// gradient `grad` of its output: `(d input, d weight, d bias)`, the last two present
/// when `weight` / `bias` are. Each is contiguous in its tensor's dtype.
///
/// # Errors
/// A non-float dtype; allocation errors.
pub(crate) fn layer_norm_backward(
    grad: &Tensor,
    input: &Tensor,
    normalized_shape: &[usize],
    weight: Option<&Tensor>,
    bias: Option<&Tensor>,
    eps: f64,
) -> Result<LayerNormGrads> {
    let n: usize = normalized_shape.iter().product();
    dispatch_acc!(
        input.dtype(),
        "LayerNormBackwardKernelImpl",
        A,
        run::<A>(grad, input, n, weight, bias, eps)
    )
}
