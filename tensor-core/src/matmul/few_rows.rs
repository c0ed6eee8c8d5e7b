//! Products of a few `f32` rows (7 to 9 and 14 to 192 for a row-major weight, 2 to
//! 192 for a transposed one) and a weight on AVX-512 CPUs: a prompt of a few tokens
//! through a transformer's layer (`[9, 768] @ [768, 3072]`), a short sequence's
//! projections (`[64, 768] @ [768, 2304]`).
//!
//! The weight `b` is cut into strips of [`STRIP`] columns. A register tile of up to
//! [`TILE`] rows × 48 columns (27 of the 32 vector registers) runs over the whole `k`
//! of one strip, reading each row of `a` in place and each row of the strip once. The
//! first tile of a strip reads the strip from `b` itself: with 9 rows, the weight
//! streams in from the last-level cache no faster than the multiply-adds use it, so a
//! `[9, k]` product reads the weight once, in place, at close to the FMA peak (a
//! packing GEMM's 48 × 8 tile leaves a `9`-column result mostly empty). The other rows
//! go in tiles of 9 and one of the rest (a 9-row tile is faster per row than two
//! narrower ones: `[32, 768] @ [768, 3072]` as 9 + 9 + 9 + 5 rows took 8% less time
//! than as 9 + 8 + 8 + 7). With more than four tiles, the first one also copies the
//! strip into a contiguous buffer and the others read the copy: the strip's rows, one
//! weight row apart (a multiple of 4 KiB for most layer widths), fall into the same
//! few cache sets and do not all stay in cache between tiles.
//!
//! Strips are split across threads (every row of `c` written by columns), so even a
//! 9-row product keeps every thread busy. Columns past the last whole strip go through
//! the copy too, zero-padded to 48.
//!
//! A transposed weight (`x @ Wᵀ` with `W` a row-major `[out, in]`, PyTorch's `Linear`
//! layout) takes the same tiles from 25 rows on, each strip transposed into the copy
//! (16 × 16 blocks in registers); with fewer rows, transposing costs more than the
//! product saves, and `row_dots.rs` computes dot products of rows of `x` and `W`
//! instead (also for a `k` too large for the copy).
//!
//! CPUs without AVX-512, a level capped below it by `ATEN_CPU_CAPABILITY`, and products
//! outside the ranges below take the packing GEMM, whose AVX2 kernels fit 16 registers.

use super::strided::{Strided, Weight};
use crate::parallel;
use std::cell::RefCell;

/// Fewest rows taken: with fewer, a tile's 3 × rows accumulators no longer hide the
/// weight's stream from memory, and the packing GEMM is faster.
const MIN_ROWS: usize = 7;
/// Fewest rows taken beyond one tile: every pass over the weight costs about as much
/// as a whole tile's, so 10 to 13 rows (a tile and one of 1 to 4 rows) run faster on
/// the packing GEMM (`[10, 768] @ [768, 3072]`: 0.23 ms against 0.33 ms).
const MIN_SECOND_ROWS: usize = 14;
/// Most rows taken: from about here on the packing GEMM is as fast.
const MAX_ROWS: usize = 192;
/// Fewest rows for which a transposed weight's strips are transposed into the copy;
/// fewer rows take `row_dots.rs` (`[9, 768] @ [3072, 768]ᵀ`: 0.29 ms by dot products,
/// 0.40 ms through the transposed copy, 0.86 ms on the packing GEMM).
const MIN_COPY_ROWS: usize = 25;
/// Most rows `row_dots.rs` takes (for a `k` too large for the strips' copy).
const MAX_DOT_ROWS: usize = 64;
/// Rows up to which every tile reads the weight in place; with more, the strip is
/// copied once per strip (4 passes or fewer in place ran 5-10% faster than with the
/// copy, 5 or more up to 5% slower).
const COPY_ROWS: usize = 4 * TILE;
/// Largest `k`: a strip's copy (`k × 48` values) stays in the 1-2 MiB L2 and a tile's
/// rows of `a` (`9 × k`) in L1 while the tiles read them.
const MAX_K: usize = 1024;
/// Rows of the register tile.
const TILE: usize = 9;
/// Columns of a strip: three 16-lane vectors.
pub(super) const STRIP: usize = 48;
/// Multiply-adds per thread below which the strips are not split.
const GRAIN: usize = 256 * 1024;

thread_local! {
    /// Each thread's copy of the strip it works on (`k × 48` values), kept between
    /// products so that a call does not allocate (a fresh 150 KiB block would cost a
    /// page fault per 4 KiB on its first write).
    static STRIP_COPY: RefCell<Vec<f32>> = const { RefCell::new(Vec::new()) };
}

/// `c = a · b` (`c += a · b` when `accumulate`; `c` row-major `m×n`) when the level is
/// AVX-512 (`cpu::avx512`), `a`'s rows are contiguous, `b`'s rows or columns are, and
/// the sizes are in range; `false` (nothing done) otherwise. `threads`: whether the
/// strips may be split over rayon's pool.
#[allow(clippy::too_many_arguments)]
#[cfg_attr(unoptimized, inline)]
pub(super) fn sgemm(
    m: usize,
    k: usize,
    n: usize,
    a: Strided<'_, f32>,
    b: Strided<'_, f32>,
    c: &mut [f32],
    accumulate: bool,
    threads: bool,
) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        let layout_ok = a.cs == 1
            && a.rs >= 0
            && a.offset >= 0
            && b.rs >= 0
            && b.cs >= 0
            && b.offset >= 0
            && n >= STRIP
            && k >= 1
            && c.len() >= m * n;
        let strip_rows =
            (MIN_ROWS..=MAX_ROWS).contains(&m) && !(TILE + 1..MIN_SECOND_ROWS).contains(&m);
        let transposed = b.cs != 1 && b.rs == 1;
        let strips = (b.cs == 1 && strip_rows && k <= MAX_K)
            || (transposed && (MIN_COPY_ROWS..=MAX_ROWS).contains(&m) && k <= MAX_K);
        let dots = !strips && transposed && (2..=MAX_DOT_ROWS).contains(&m);
        if !layout_ok || !(strips || dots) || !crate::cpu::avx512() {
            return false;
        }
        // The strips' tiles take the rows of `a` as slices; the dot products read `a`
        // through its row stride.
        let rows: Vec<&[f32]> = if dots {
            Vec::new()
        } else {
            (0..m)
                .map(|i| {
                    let start = a.offset as usize + i * a.rs as usize;
                    &a.data[start..start + k]
                })
                .collect()
        };
        let weight = Weight {
            data: b.data,
            offset: b.offset as usize,
            rs: b.rs as usize,
            cs: b.cs as usize,
            k,
        };
        let count = n.div_ceil(STRIP);
        let chunks = if threads {
            parallel::chunks_for(m * n * k, GRAIN).min(count)
        } else {
            1
        };
        let width = count.div_ceil(chunks) * STRIP;
        // Each thread's columns of every row of `c`.
        let mut parts: Vec<Vec<&mut [f32]>> = (0..chunks).map(|_| Vec::with_capacity(m)).collect();
        for row in c.chunks_mut(n).take(m) {
            let mut rest = row;
            for part in parts.iter_mut() {
                let (mine, after) = rest.split_at_mut(width.min(rest.len()));
                part.push(mine);
                rest = after;
            }
        }
        parallel::for_chunks_mut(&mut parts, 1, |t, part| {
            if let Some(out) = part.first_mut() {
                if dots {
                    let x = &a.data[a.offset as usize..];
                    super::row_dots::columns(x, a.rs as usize, weight, t * width, out, accumulate);
                    return;
                }
                STRIP_COPY.with(|copy| {
                    let copy = &mut copy.borrow_mut();
                    columns(&rows, weight, t * width, out, accumulate, copy);
                });
            }
        });
        true
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (m, k, n, a, b, c, accumulate, threads);
        false
    }
}

/// The columns `j0..j0 + w` of every row (`out[i]` is row `i`'s `w` values).
#[cfg(target_arch = "x86_64")]
#[cfg_attr(unoptimized, inline)]
fn columns(
    rows: &[&[f32]],
    b: Weight<'_>,
    j0: usize,
    out: &mut [&mut [f32]],
    accumulate: bool,
    copy: &mut Vec<f32>,
) {
    let (m, k) = (rows.len(), b.k);
    let w = out.first().map_or(0, |r| r.len());
    copy.resize(k * STRIP, 0.0);
    let mut js = 0;
    while js < w {
        let width = STRIP.min(w - js);
        let j = b.offset + j0 + js;
        // Up to `COPY_ROWS` rows, every tile reads the strip in place; beyond, the first
        // tile also copies it and the others read the copy. A strip narrower than 48
        // is copied zero-padded first; a transposed weight's strip is transposed into
        // the copy.
        let in_place = b.cs == 1 && width == STRIP && m <= COPY_ROWS;
        let mut i = 0;
        if b.cs != 1 {
            transpose_strip(b, j0 + js, width, copy);
        } else if width < STRIP {
            for (p, dst) in copy.chunks_exact_mut(STRIP).enumerate() {
                dst[..width].copy_from_slice(&b.data[j + p * b.rs..][..width]);
                dst[width..].fill(0.0);
            }
        } else if !in_place {
            let src = &b.data[j..j + (k - 1) * b.rs + STRIP];
            i = TILE;
            let keep = Some(&mut copy[..]);
            tile(
                i,
                k,
                src,
                b.rs,
                &rows[..i],
                keep,
                &mut out[..i],
                js,
                accumulate,
            );
        }
        let (src, rs) = if in_place {
            (&b.data[j..j + (k - 1) * b.rs + STRIP], b.rs)
        } else {
            (&copy[..], STRIP)
        };
        while i < m {
            let r = TILE.min(m - i);
            let (rows, out) = (&rows[i..i + r], &mut out[i..i + r]);
            tile(r, k, src, rs, rows, None, out, js, accumulate);
            i += r;
        }
        js += width;
    }
}

/// `copy[p * 48 + jj] = b[p, col + jj]` for `jj < width` (0 for the rest of the 48),
/// `p < k`, for a transposed weight (`b.rs == 1`: column `col + jj` of `b` is row
/// `col + jj` of `W`, `k` contiguous values): 16 × 16 blocks transposed in registers,
/// the rest element by element.
#[cfg(target_arch = "x86_64")]
#[cfg_attr(unoptimized, inline)]
fn transpose_strip(b: Weight<'_>, col: usize, width: usize, copy: &mut [f32]) {
    let k = b.k;
    let w_row = |jj: usize| &b.data[b.offset + (col + jj) * b.cs..][..k];
    let whole = width / 16 * 16;
    for g in (0..whole).step_by(16) {
        let rows: [&[f32]; 16] = std::array::from_fn(|r| w_row(g + r));
        // SAFETY: `sgemm` took this path only at the AVX-512 level, which implies a CPU
        // with AVX-512 F (`cpu::avx512`).
        let done = unsafe { transpose16_avx512(rows, g, copy) };
        for p in done..k {
            for (r, row) in rows.iter().enumerate() {
                copy[p * STRIP + g + r] = row[p];
            }
        }
    }
    for jj in whole..STRIP {
        if jj < width {
            let row = w_row(jj);
            for (p, &x) in row.iter().enumerate() {
                copy[p * STRIP + jj] = x;
            }
        } else {
            for p in 0..k {
                copy[p * STRIP + jj] = 0.0;
            }
        }
    }
}

/// `copy[p * 48 + g + r] = rows[r][p]` for the 16 rows and `p` below the largest
/// multiple of 16 at most `k` (returned), each 16 × 16 block transposed in registers
/// (unpack and shuffle in three rounds: pairs of lanes, quarters of 128-bit lanes,
/// 128-bit lanes).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
#[cfg_attr(unoptimized, inline)]
fn transpose16_avx512(rows: [&[f32]; 16], g: usize, copy: &mut [f32]) -> usize {
    use std::arch::x86_64::{__m512, _mm512_loadu_ps, _mm512_shuffle_f32x4, _mm512_shuffle_ps};
    use std::arch::x86_64::{_mm512_storeu_ps, _mm512_unpackhi_ps, _mm512_unpacklo_ps};
    let k = rows.iter().map(|r| r.len()).min().unwrap_or(0) / 16 * 16;
    assert!(g + 16 <= STRIP && copy.len() >= k * STRIP);
    for p in (0..k).step_by(16) {
        let r: [__m512; 16] = std::array::from_fn(|i| {
            // SAFETY: `p + 16 <= k <= rows[i].len()`.
            unsafe { _mm512_loadu_ps(rows[i].as_ptr().add(p)) }
        });
        // Lanes of rows 2i and 2i + 1 interleaved, within each 128-bit lane.
        let t: [__m512; 16] = std::array::from_fn(|i| {
            let (x, y) = (r[i / 2 * 2], r[i / 2 * 2 + 1]);
            if i % 2 == 0 {
                _mm512_unpacklo_ps(x, y)
            } else {
                _mm512_unpackhi_ps(x, y)
            }
        });
        // Pairs of those from rows 4i..4i + 4: a column of four rows per 128-bit lane.
        let u: [__m512; 16] = std::array::from_fn(|i| {
            let (q, o) = (i / 4 * 4, i % 4);
            let (x, y) = (t[q + o / 2], t[q + 2 + o / 2]);
            if o % 2 == 0 {
                _mm512_shuffle_ps::<0x44>(x, y)
            } else {
                _mm512_shuffle_ps::<0xEE>(x, y)
            }
        });
        // 128-bit lanes gathered across groups of four rows, in two rounds.
        let v: [__m512; 16] = std::array::from_fn(|i| {
            let (h, o) = (i / 8 * 8, i % 8);
            let (x, y) = (u[h + o % 4], u[h + 4 + o % 4]);
            if o < 4 {
                _mm512_shuffle_f32x4::<0x88>(x, y)
            } else {
                _mm512_shuffle_f32x4::<0xDD>(x, y)
            }
        });
        let out: [__m512; 16] = std::array::from_fn(|i| {
            let o = i % 8;
            let (x, y) = (v[o], v[8 + o]);
            if i < 8 {
                _mm512_shuffle_f32x4::<0x88>(x, y)
            } else {
                _mm512_shuffle_f32x4::<0xDD>(x, y)
            }
        });
        for (i, o) in out.into_iter().enumerate() {
            let dst = &mut copy[(p + i) * STRIP + g..(p + i) * STRIP + g + 16];
            // SAFETY: `dst` holds 16 values.
            unsafe { _mm512_storeu_ps(dst.as_mut_ptr(), o) };
        }
    }
    k
}

/// One register tile of `r` rows (1 to 9) over a strip, dispatched to its size.
#[cfg(target_arch = "x86_64")]
#[allow(clippy::too_many_arguments)]
#[cfg_attr(unoptimized, inline)]
fn tile(
    r: usize,
    k: usize,
    src: &[f32],
    rs: usize,
    rows: &[&[f32]],
    keep: Option<&mut [f32]>,
    out: &mut [&mut [f32]],
    js: usize,
    accumulate: bool,
) {
    macro_rules! by_rows {
        ($($n:literal)*) => {
            match r {
                $($n => {
                    let a: [&[f32]; $n] = std::array::from_fn(|i| rows[i]);
                    // SAFETY: `sgemm` took this path only at the AVX-512 level, which
                    // implies a CPU with AVX-512 F (`cpu::avx512`).
                    let acc = unsafe {
                        match keep {
                            Some(keep) => tile_avx512::<$n, true>(k, src, rs, a, keep),
                            None => tile_avx512::<$n, false>(k, src, rs, a, &mut []),
                        }
                    };
                    store(&acc, out, js, accumulate);
                })*
                _ => unreachable!("a tile of 1 to 9 rows"),
            }
        };
    }
    by_rows!(1 2 3 4 5 6 7 8 9);
}

/// Adds (or writes) a tile's sums into its rows' columns `js..js + 48` (fewer at the
/// right edge).
#[inline(always)]
fn store<const R: usize>(
    acc: &[[f32; STRIP]; R],
    out: &mut [&mut [f32]],
    js: usize,
    accumulate: bool,
) {
    for (row, sums) in out.iter_mut().zip(acc) {
        let dst = &mut row[js..];
        let width = dst.len().min(STRIP);
        if accumulate {
            for (o, s) in dst[..width].iter_mut().zip(sums) {
                *o += s;
            }
        } else {
            dst[..width].copy_from_slice(&sums[..width]);
        }
    }
}

/// `Σ_p a[r][p] · strip[p, 0..48]` for each of the `R` rows, `p` in order (one fused
/// multiply-add per step, the order of the other kernels). Row `p` of the strip is
/// `src[p * rs..p * rs + 48]`; with `KEEP`, `keep[p * 48..p * 48 + 48]` receives it
/// (the strip's rows made contiguous).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn tile_avx512<const R: usize, const KEEP: bool>(
    k: usize,
    src: &[f32],
    rs: usize,
    a: [&[f32]; R],
    keep: &mut [f32],
) -> [[f32; STRIP]; R] {
    use std::arch::x86_64::{__m512, _mm512_fmadd_ps, _mm512_loadu_ps, _mm512_set1_ps};
    use std::arch::x86_64::{_mm512_setzero_ps, _mm512_storeu_ps};
    assert!(k >= 1 && src.len() >= (k - 1) * rs + STRIP && a.iter().all(|x| x.len() >= k));
    assert!(!KEEP || keep.len() >= k * STRIP);
    // Each row of `a` cut to `k` values, so that `x[p]` needs no bounds check below.
    let a: [&[f32]; R] = a.map(|x| &x[..k]);
    let mut acc: [[__m512; 3]; R] = [[_mm512_setzero_ps(); 3]; R];
    for p in 0..k {
        // SAFETY: `p * rs + 48 <= (k - 1) * rs + 48 <= src.len()` (asserted above), so
        // the strip's row `p`, 48 values, lies inside `src`.
        let row = unsafe { src.as_ptr().add(p * rs) };
        let v: [__m512; 3] = std::array::from_fn(|q| {
            // SAFETY: lanes `16q..16q + 16` of the row's 48 values (see above).
            unsafe { _mm512_loadu_ps(row.add(16 * q)) }
        });
        if KEEP {
            // SAFETY: `p * 48 + 48 <= k * 48 <= keep.len()` (asserted above), so the 48
            // values written lie inside `keep`, which nothing else borrows.
            let dst = unsafe { keep.as_mut_ptr().add(p * STRIP) };
            for (q, &v) in v.iter().enumerate() {
                // SAFETY: lanes `16q..16q + 16` of those 48 values.
                unsafe { _mm512_storeu_ps(dst.add(16 * q), v) };
            }
        }
        for (sums, x) in acc.iter_mut().zip(a) {
            let x = _mm512_set1_ps(x[p]);
            for (s, &y) in sums.iter_mut().zip(&v) {
                *s = _mm512_fmadd_ps(x, y, *s);
            }
        }
    }
    let mut out = [[0.0f32; STRIP]; R];
    for (o, sums) in out.iter_mut().zip(acc) {
        for (q, s) in sums.into_iter().enumerate() {
            // SAFETY: `o` holds 48 values; lanes `16q..16q + 16` are inside it.
            unsafe { _mm512_storeu_ps(o.as_mut_ptr().add(16 * q), s) };
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::tensor::Tensor;
    use crate::test_util::{assert_close, assert_matmul_layouts, naive_matmul as naive};

    fn close(got: &Tensor, want: &[f64]) {
        assert_close(got, want, 1e-4);
    }

    #[test]
    fn few_row_products_of_every_tile_split_and_strip_remainder_match_naive() {
        // Row-major `b`: one tile (7, 9 rows); tiles read in place with a remainder of
        // five (14, 23); tiles read from the strip's copy with a remainder of one (37,
        // 64) and of five (185); whole strips (96, 144), a strip and a narrower one
        // (100, 61, 50, 60); k from 1 to past the copy's limit. Transposed `b`: dot
        // products below 25 rows (k = 1: one masked step) or past the copy's `k` (1100,
        // 1500), transposed copies from 25 rows. The other layouts (a column step of 2,
        // transposed `a`) check that they are left to the packing kernels.
        let shapes = [
            (7, 200, 96),
            (9, 1, 48),
            (9, 300, 100),
            (14, 129, 96),
            (23, 64, 61),
            (37, 70, 96),
            (64, 1024, 144),
            (185, 33, 100),
            (10, 1100, 50),
            (40, 1500, 60),
        ];
        assert_matmul_layouts(&shapes, 11, 1e-4);
    }

    #[test]
    fn few_row_addmm_adds_the_product_to_the_broadcast_bias() {
        let (m, k, n) = (16, 70, 130);
        let a = Tensor::randn(&[m, k], 3).unwrap();
        let b = Tensor::randn(&[k, n], 4).unwrap();
        let bias = Tensor::randn(&[n], 5).unwrap();
        let got = bias.addmm(&a, &b).unwrap();
        let prod = naive(&a, &b);
        let bv = bias.to_vec_f64().unwrap();
        let want: Vec<f64> = prod
            .iter()
            .enumerate()
            .map(|(i, p)| p + bv[i % n])
            .collect();
        close(&got, &want);
    }
}
