//! A few `f32` rows times a transposed weight (`x @ Wᵀ`, `W` a row-major `[out, in]`
//! weight: PyTorch's `Linear` layout) by dot products on AVX-512 CPUs: each output is
//! the dot product of a row of `x` with a row of `W`, both contiguous along `k`.
//!
//! A register tile holds 4 rows of `x` × 5 rows of `W` (20 accumulators of 16 lanes):
//! each step loads 16 values of every row and multiply-adds every pair, and the lanes
//! are summed at the end (the columns past the last block of 5 go one at a time). A
//! tile of 4 × 6 measured slower: with 24 accumulators the compiler keeps some of them
//! in memory. The 5 rows of `W` (`5 × k` values) stay in L1 while every tile of rows
//! reads them, so `W` is read once, in place, in long sequential runs: for a
//! weight larger than the caches (GPT-2's `[50257, 768]` unembedding) that is what the
//! time goes to. `few_rows.rs` chooses this kernel and splits the columns over threads.

#[cfg(target_arch = "x86_64")]
use super::strided::Weight;

/// Rows of `x` in a tile.
const ROWS: usize = 4;
/// Rows of `W` (columns of the result) in a tile.
const COLS: usize = 5;

/// The columns `j0..j0 + w` of every row (`out[i]` is row `i`'s `w` values) for a
/// transposed weight (`b.rs == 1`); row `i` of `x` is `x[i * xs..i * xs + k]`.
#[cfg(target_arch = "x86_64")]
#[cfg_attr(unoptimized, inline)]
pub(super) fn columns(
    x: &[f32],
    xs: usize,
    b: Weight<'_>,
    j0: usize,
    out: &mut [&mut [f32]],
    accumulate: bool,
) {
    let (m, k) = (out.len(), b.k);
    let w = out.first().map_or(0, |r| r.len());
    let mut jb = 0;
    while jb < w {
        // Blocks of 5 rows of `W`, then single rows.
        let cols = if jb + COLS <= w { COLS } else { 1 };
        let ws = &b.data[b.offset + (j0 + jb) * b.cs..];
        let mut i = 0;
        while i < m {
            let r = ROWS.min(m - i);
            let xr = &x[i * xs..];
            macro_rules! by_size {
                ($(($n:literal, $j:literal))*) => {
                    match (r, cols) {
                        $(($n, $j) => {
                            // SAFETY: `few_rows` took this path only at the AVX-512
                            // level, which implies a CPU with AVX-512 F (`cpu::avx512`).
                            let sums = unsafe { tile_avx512::<$n, $j>(k, xr, xs, ws, b.cs) };
                            for (o, s) in out[i..i + $n].iter_mut().zip(&sums) {
                                for (d, &s) in o[jb..jb + $j].iter_mut().zip(s) {
                                    *d = if accumulate { *d + s } else { s };
                                }
                            }
                        })*
                        _ => unreachable!("a tile of 1 to 4 rows and 5 or 1 columns"),
                    }
                };
            }
            by_size!((1, 5)(2, 5)(3, 5)(4, 5)(1, 1)(2, 1)(3, 1)(4, 1));
            i += r;
        }
        jb += cols;
    }
}

/// `Σ_p x[r][p] · w[q][p]` for every pair of the `R` rows of `x` (row `r` at
/// `x[r * xs..]`) and the `J` rows of `W` (row `q` at `w[q * ws..]`), `k` values each:
/// 16 lanes of partial sums (the last step masked to the `k % 16` values left), then
/// the lanes summed.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
#[allow(clippy::needless_range_loop)] // index loops: see the comment in the body
fn tile_avx512<const R: usize, const J: usize>(
    k: usize,
    x: &[f32],
    xs: usize,
    w: &[f32],
    ws: usize,
) -> [[f32; J]; R] {
    use std::arch::x86_64::{__m512, _mm512_fmadd_ps, _mm512_loadu_ps, _mm512_maskz_loadu_ps};
    use std::arch::x86_64::{_mm512_reduce_add_ps, _mm512_setzero_ps};
    assert!(x.len() >= (R - 1) * xs + k && w.len() >= (J - 1) * ws + k);
    let (xp, wp) = (x.as_ptr(), w.as_ptr());
    let mut acc: [[__m512; J]; R] = [[_mm512_setzero_ps(); J]; R];
    let whole = k / 16 * 16;
    // Every load below: row `r` of `x` is `x[r * xs..r * xs + k]` and row `q`
    // of `W` is `w[q * ws..q * ws + k]`, inside the slices (asserted above); a load of
    // 16 lanes at `p` has `p + 16 <= k`, and the masked loads at `whole` enable only the
    // `k - whole` lanes below `k` (the others are not read). Plain loops, not closures:
    // a closure is compiled without this function's target features.
    let mut p = 0;
    while p < whole {
        let mut wv = [_mm512_setzero_ps(); J];
        for q in 0..J {
            // SAFETY: 16 values of row `q` of `W` from `p`, `p + 16 <= k` (see above).
            wv[q] = unsafe { _mm512_loadu_ps(wp.add(q * ws + p)) };
        }
        for r in 0..R {
            // SAFETY: 16 values of row `r` of `x` from `p`, `p + 16 <= k` (see above).
            let xv = unsafe { _mm512_loadu_ps(xp.add(r * xs + p)) };
            for q in 0..J {
                acc[r][q] = _mm512_fmadd_ps(xv, wv[q], acc[r][q]);
            }
        }
        p += 16;
    }
    if whole < k {
        let mask = (1u16 << (k - whole)) - 1;
        let mut wv = [_mm512_setzero_ps(); J];
        for q in 0..J {
            // SAFETY: the lanes of row `q` of `W` below `k` (see above).
            wv[q] = unsafe { _mm512_maskz_loadu_ps(mask, wp.add(q * ws + whole)) };
        }
        for r in 0..R {
            // SAFETY: the lanes of row `r` of `x` below `k` (see above).
            let xv = unsafe { _mm512_maskz_loadu_ps(mask, xp.add(r * xs + whole)) };
            for q in 0..J {
                acc[r][q] = _mm512_fmadd_ps(xv, wv[q], acc[r][q]);
            }
        }
    }
    let mut sums = [[0.0f32; J]; R];
    for r in 0..R {
        for q in 0..J {
            sums[r][q] = _mm512_reduce_add_ps(acc[r][q]);
        }
    }
    sums
}
