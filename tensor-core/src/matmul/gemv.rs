//! One row times a matrix (`m = 1`, a GEMV) in `f32`: what a model runs for one
//! position at a time, as GPT-2's generation with a KV cache (`[1, 768] @ Wᵀ` for the
//! tied unembedding, `[1, 768] @ W` for the layers). A packing GEMM copies the whole
//! matrix into panels on every call, which costs as much as the product; here the
//! matrix is read once, in place, and its columns are split across threads.
//!
//! Two layouts of `b` (`k×n`) are read directly:
//! - `b = Wᵀ` with `W`'s rows contiguous (`b.rs == 1`, the `F.linear` layout): each
//!   output is the dot product of the row with one row of `W`, summed in 16 lanes;
//! - `b` with its rows contiguous (`b.cs == 1`, a `[in, out]` weight): each output
//!   column block accumulates `a[p] · b[p, block]` over `p` in order.
//!
//! Any other layout returns `false` and the caller runs the GEMM.

use super::strided::Strided;
use crate::parallel;

/// Multiply-adds per thread below which the columns are not split: about 20 µs of
/// streaming, more than a hand-off to a spinning helper.
const GRAIN: usize = 128 * 1024;

/// Lanes of the dot product's partial sums (two AVX registers).
const LANES: usize = 16;

/// `c = a · b` for a `1×k` row `a` and a `k×n` matrix `b` (`c`: `n` values, written
/// whole) when `b`'s rows or columns are contiguous; `false` (nothing done) otherwise.
#[cfg_attr(unoptimized, inline)]
pub(super) fn sgemv(
    k: usize,
    n: usize,
    a: Strided<'_, f32>,
    b: Strided<'_, f32>,
    c: &mut [f32],
) -> bool {
    let dot_form = b.rs == 1;
    if !(dot_form || b.cs == 1) || k == 0 || n == 0 {
        return false;
    }
    // The row, contiguous (a copy of `k` values when strided).
    let copy: Vec<f32>;
    let row: &[f32] = if a.cs == 1 {
        &a.data[a.offset as usize..][..k]
    } else {
        copy = (0..k).map(|p| a.at(0, p)).collect();
        &copy
    };
    let chunks = parallel::chunks_for(k.saturating_mul(n), GRAIN);
    let per = n.div_ceil(chunks);
    parallel::for_chunks_mut(c, per, |j0, part| {
        crate::kernels::simd::with_fma(
            #[inline(always)]
            |fma| match (dot_form, fma) {
                (true, true) => dots::<true>(row, &b, j0, part),
                (true, false) => dots::<false>(row, &b, j0, part),
                (false, _) => axpys(row, &b, j0, part),
            },
        )
    });
    true
}

/// `part[j] = row · b[:, j0 + j]`, each column of `b` contiguous (`b.rs == 1`).
#[inline(always)]
fn dots<const FMA: bool>(row: &[f32], b: &Strided<'_, f32>, j0: usize, part: &mut [f32]) {
    let k = row.len();
    for (j, out) in part.iter_mut().enumerate() {
        let start = (b.offset + (j0 + j) as isize * b.cs) as usize;
        *out = dot::<FMA>(row, &b.data[start..][..k]);
    }
}

/// `x · y` in [`LANES`] partial sums (lane `l` adds the products at `l`, `l + LANES`,
/// ...), then the tail, then the lanes in order.
#[inline(always)]
fn dot<const FMA: bool>(x: &[f32], y: &[f32]) -> f32 {
    let mut acc = [0.0f32; LANES];
    let xs = x.chunks_exact(LANES);
    let ys = y.chunks_exact(LANES);
    let (xt, yt) = (xs.remainder(), ys.remainder());
    for (xc, yc) in xs.zip(ys) {
        for l in 0..LANES {
            acc[l] = if FMA {
                xc[l].mul_add(yc[l], acc[l])
            } else {
                acc[l] + xc[l] * yc[l]
            };
        }
    }
    for (l, (&u, &v)) in xt.iter().zip(yt).enumerate() {
        acc[l] += u * v;
    }
    acc.iter().sum()
}

/// `part[j] = Σ_p row[p] · b[p, j0 + j]`, each row of `b` contiguous (`b.cs == 1`): the
/// block of outputs stays in L1 while the rows stream past.
#[inline(always)]
fn axpys(row: &[f32], b: &Strided<'_, f32>, j0: usize, part: &mut [f32]) {
    let w = part.len();
    part.fill(0.0);
    for (p, &x) in row.iter().enumerate() {
        let start = (b.offset + p as isize * b.rs + j0 as isize) as usize;
        for (o, &v) in part.iter_mut().zip(&b.data[start..][..w]) {
            *o += x * v;
        }
    }
}
