//! One row times a matrix (`m = 1`, a GEMV) in `f32`: what a model runs for one
//! position at a time, as GPT-2's generation with a KV cache (`[1, 768] @ Wᵀ` for the
//! tied unembedding, `[1, 768] @ W` for the layers). A packing GEMM copies the whole
//! matrix into panels on every call, which costs as much as the product; here the
//! matrix is read once, in place, and its columns are split across threads.
//!
//! One layout of `b` (`k×n`) is read directly: `b = Wᵀ` with `W`'s rows contiguous
//! (`b.rs == 1`, the `F.linear` layout): each output is the dot product of the row with
//! one row of `W`, summed in 16 lanes. Any other layout returns `false` and the caller
//! runs the GEMM (whose kernels serve a `[in, out]` weight's rows faster than a loop of
//! `a[p] · b[p, :]` does).

use super::strided::Strided;
use crate::parallel;

/// Multiply-adds per thread below which the columns are not split: about 20 µs of
/// streaming, more than a hand-off to a spinning helper.
const GRAIN: usize = 128 * 1024;

/// Lanes of the dot product's partial sums (two AVX registers).
const LANES: usize = 16;

/// `c = a · b` (`c += a · b` when `accumulate`) for a `1×k` row `a` and a `k×n` matrix
/// `b` (`c`: `n` values) when `b`'s columns are contiguous; `false` (nothing done)
/// otherwise.
#[cfg_attr(unoptimized, inline)]
pub(super) fn sgemv(
    k: usize,
    n: usize,
    a: Strided<'_, f32>,
    b: Strided<'_, f32>,
    c: &mut [f32],
    accumulate: bool,
) -> bool {
    if b.rs != 1 || k == 0 || n == 0 {
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
            |fma| {
                if fma {
                    dots::<true>(row, &b, j0, part, accumulate)
                } else {
                    dots::<false>(row, &b, j0, part, accumulate)
                }
            },
        )
    });
    true
}

/// `part[j] = row · b[:, j0 + j]` (added to `part[j]` when `accumulate`), each column of
/// `b` contiguous (`b.rs == 1`).
#[inline(always)]
fn dots<const FMA: bool>(
    row: &[f32],
    b: &Strided<'_, f32>,
    j0: usize,
    part: &mut [f32],
    accumulate: bool,
) {
    let k = row.len();
    for (j, out) in part.iter_mut().enumerate() {
        let start = (b.offset + (j0 + j) as isize * b.cs) as usize;
        let d = dot::<FMA>(row, &b.data[start..][..k]);
        *out = if accumulate { *out + d } else { d };
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
