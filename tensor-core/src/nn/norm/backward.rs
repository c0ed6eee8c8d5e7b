//! Backward of `F.layer_norm` (PyTorch's `native_layer_norm_backward`). Per row of the
//! `N` normalized elements, with `x̂ = (x - μ)·rstd`, `rstd = 1/√(σ² + eps)` (σ² the
//! population variance, recomputed from the input) and `ĝ = dy·w`:
//! `dx = rstd · (ĝ - mean(ĝ) - x̂ · mean(ĝ·x̂))`, `dw = Σ_rows dy·x̂`, `db = Σ_rows dy`.

use crate::error::Result;
use crate::kernels::acc::{dispatch_float, Acc, FloatAcc};
use crate::nn::backward::common::{load, store};
use crate::tensor::Tensor;

/// Lanes of partial sums (so the loop vectorises), added as a tree at the end.
const LANES: usize = 8;

/// `Σ f(v)` over `v`, in [`LANES`] interleaved partial sums.
#[inline(always)]
fn lane_sum<A: Acc>(v: &[A], f: impl Fn(A) -> A) -> A {
    let mut acc = [A::zero(); LANES];
    let mut chunks = v.chunks_exact(LANES);
    for c in &mut chunks {
        for (a, &x) in acc.iter_mut().zip(c) {
            *a = *a + f(x);
        }
    }
    for (a, &x) in acc.iter_mut().zip(chunks.remainder()) {
        *a = *a + f(x);
    }
    tree(acc)
}

/// `Σ a·b` over two rows, as [`lane_sum`].
#[inline(always)]
fn lane_sum2<A: Acc>(a: &[A], b: &[A]) -> A {
    let mut acc = [A::zero(); LANES];
    let (mut ca, mut cb) = (a.chunks_exact(LANES), b.chunks_exact(LANES));
    for (x, y) in (&mut ca).zip(&mut cb) {
        for ((s, &x), &y) in acc.iter_mut().zip(x).zip(y) {
            *s = *s + x * y;
        }
    }
    for ((s, &x), &y) in acc.iter_mut().zip(ca.remainder()).zip(cb.remainder()) {
        *s = *s + x * y;
    }
    tree(acc)
}

/// The sum of the lanes, pairwise.
#[inline(always)]
fn tree<A: Acc>(mut acc: [A; LANES]) -> A {
    let mut w = LANES;
    while w > 1 {
        w /= 2;
        for i in 0..w {
            acc[i] = acc[i] + acc[i + w];
        }
    }
    acc[0]
}

/// The gradients of a layer_norm: input, weight (when given), bias (when given).
pub(crate) type LayerNormGrads = (Tensor, Option<Tensor>, Option<Tensor>);

fn run<A: Acc>(
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
    crate::kernels::simd::widest(
        #[inline(always)]
        || {
            for r in 0..rows {
                let xr = &x[r * n..(r + 1) * n];
                let gr = &g[r * n..(r + 1) * n];
                let mean = lane_sum(xr, |v| v) / nf;
                let var = lane_sum(xr, |v| (v - mean) * (v - mean)) / nf;
                let rstd = A::one() / (var + A::c(eps)).sqrt();
                for ((xh, &xv), (gh, &gv)) in xhat.iter_mut().zip(xr).zip(gh.iter_mut().zip(gr)) {
                    *xh = (xv - mean) * rstd;
                    *gh = gv;
                }
                if let Some(w) = &w {
                    for (gh, &wv) in gh.iter_mut().zip(w) {
                        *gh = *gh * wv;
                    }
                }
                for ((dw, db), (&gv, &xh)) in
                    dw.iter_mut().zip(db.iter_mut()).zip(gr.iter().zip(&xhat))
                {
                    *dw = *dw + gv * xh;
                    *db = *db + gv;
                }
                let m1 = lane_sum(&gh, |v| v) / nf;
                let m2 = lane_sum2(&gh, &xhat) / nf;
                let dxr = &mut dx[r * n..(r + 1) * n];
                for (d, (&gv, &xh)) in dxr.iter_mut().zip(gh.iter().zip(&xhat)) {
                    *d = rstd * (gv - m1 - xh * m2);
                }
            }
        },
    );
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
#[cfg_attr(unoptimized, inline)]
pub(crate) fn layer_norm_backward(
    grad: &Tensor,
    input: &Tensor,
    normalized_shape: &[usize],
    weight: Option<&Tensor>,
    bias: Option<&Tensor>,
    eps: f64,
) -> Result<LayerNormGrads> {
    let n: usize = normalized_shape.iter().product();
    dispatch_float!(
        input.dtype(),
        "LayerNormBackwardKernelImpl",
        T,
        run::<<T as FloatAcc>::A>(grad, input, n, weight, bias, eps)
    )
}
