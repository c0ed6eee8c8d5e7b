//! A direct kernel for `f32` products whose inner dims are small (`k` and `n` at most
//! [`SMALL_DIM`]): attention heads (`16×16 · 16×16`), projections of narrow models
//! (`512×64 · 64×64`). For these a packing GEMM spends as long packing its operands as
//! multiplying them (PyTorch's oneDNN has small-matrix kernels for the same reason).
//!
//! `b` is read as `k` rows of `n` contiguous values (copied into such rows first when
//! its columns are strided, as a transposed `kᵀ`); each output tile (rows × 16 to 64
//! columns) is accumulated in registers over `p` in order, `c[i, j] = Σ_p a[i, p] ·
//! b[p, j]`, with fused multiply-adds from the AVX2 level up (as `matrixmultiply`'s
//! kernels). Rows are split across threads (`at::parallel_for`) when the product is
//! large enough and the caller is not already inside a parallel region.

use super::strided::Strided;
use crate::kernels::simd::by_width;
use crate::parallel;
use std::mem::MaybeUninit;

/// The largest `k` and `n` the kernel takes.
pub(super) const SMALL_DIM: usize = 128;

/// Rows per thread's chunk are a multiple of this.
const TILE_ROWS: usize = 8;
/// Columns of the narrow tile.
const TILE_COLS: usize = 16;
/// Columns of the narrowest tile (also the smallest `n` the kernel takes): heads of 8
/// positions (`8×16 · 16×8`), which a packing GEMM serves slowly too.
const HALF_COLS: usize = 8;
/// Multiply-adds per thread below which the rows are not split. Vectorised
/// multiply-adds are ~30 times cheaper than the elements of `GRAIN_SIZE`: a `[32, 64]
/// · [64, 64]` product (131K) takes about 2 µs on one thread, less than handing half
/// of it to another (the digits MLP trained 0.074 s with 32K here, 0.046 s with 256K).
const GRAIN: usize = 256 * 1024;

/// Element `(i, p)` of `a`.
#[inline(always)]
fn at(a: &Strided<'_, f32>, i: usize, p: usize) -> f32 {
    a.data[(a.offset + i as isize * a.rs + p as isize * a.cs) as usize]
}

/// `b` as `k` rows of `n` contiguous values: `data[offset + p * rs + j]`.
#[derive(Clone, Copy)]
struct Rows<'a> {
    data: &'a [f32],
    offset: usize,
    rs: usize,
}

impl Rows<'_> {
    #[inline(always)]
    fn at(&self, p: usize, j: usize) -> f32 {
        self.data[self.offset + p * self.rs + j]
    }
}

/// `c = a · b` (`c += a · b` when `accumulate`; `c` row-major `m×n`) when `k` and `n`
/// are small; `false` (nothing done) otherwise.
#[cfg_attr(unoptimized, inline)]
pub(super) fn sgemm(
    m: usize,
    k: usize,
    n: usize,
    a: Strided<'_, f32>,
    b: Strided<'_, f32>,
    c: &mut [f32],
    accumulate: bool,
) -> bool {
    if k > SMALL_DIM || !(HALF_COLS..=SMALL_DIM).contains(&n) {
        return false;
    }
    let packed: Vec<f32>;
    let rows = if b.cs == 1 && b.rs >= 0 && b.offset >= 0 {
        Rows {
            data: b.data,
            offset: b.offset as usize,
            rs: b.rs as usize,
        }
    } else {
        let mut v = Vec::with_capacity(k * n);
        for p in 0..k {
            v.extend((0..n).map(|j| at(&b, p, j)));
        }
        packed = v;
        Rows {
            data: &packed,
            offset: 0,
            rs: n,
        }
    };
    let work = m * n * k;
    let chunks = parallel::chunks_for(work, GRAIN);
    if chunks <= 1 {
        dispatch(0, k, n, a, rows, c, accumulate);
    } else {
        let rows_per = m.div_ceil(chunks).next_multiple_of(TILE_ROWS);
        parallel::for_chunks_mut(c, rows_per * n, |start, part| {
            dispatch(start / n, k, n, a, rows, part, accumulate)
        });
    }
    true
}

/// [`rows_kernel`] compiled for AVX-512 or AVX2 with FMA by the CPU capability, with a
/// tile shape that keeps enough independent accumulators in flight to hide the FMA
/// latency (AVX-512: 4 rows × 64 columns, or 4 × 16 for narrow `b`; AVX2: 6 × 16).
#[cfg_attr(unoptimized, inline)]
fn dispatch(
    i0: usize,
    k: usize,
    n: usize,
    a: Strided<'_, f32>,
    b: Rows<'_>,
    c: &mut [f32],
    acc: bool,
) {
    by_width(
        c,
        #[inline(always)]
        |c| {
            if n >= 64 {
                rows_kernel::<4, 64, true>(i0, k, n, a, b, c, acc)
            } else {
                rows_kernel::<4, 16, true>(i0, k, n, a, b, c, acc)
            }
        },
        #[inline(always)]
        |c| rows_kernel::<6, 16, true>(i0, k, n, a, b, c, acc),
        #[inline(always)]
        |c| rows_kernel::<4, 16, false>(i0, k, n, a, b, c, acc),
    )
}

/// Rows `i0..` of the product into `c` (whole rows of `n`): tiles of `R` rows, then
/// single rows.
#[inline(always)]
fn rows_kernel<const R: usize, const W: usize, const FMA: bool>(
    i0: usize,
    k: usize,
    n: usize,
    a: Strided<'_, f32>,
    b: Rows<'_>,
    c: &mut [f32],
    acc: bool,
) {
    let m = c.len() / n;
    let mut i = 0;
    while i + R <= m {
        tile_rows::<R, W, FMA>(i0 + i, k, n, a, b, &mut c[i * n..(i + R) * n], acc);
        i += R;
    }
    while i < m {
        tile_rows::<1, W, FMA>(i0 + i, k, n, a, b, &mut c[i * n..(i + 1) * n], acc);
        i += 1;
    }
}

#[inline(always)]
fn madd<const FMA: bool>(x: f32, y: f32, acc: f32) -> f32 {
    if FMA {
        x.mul_add(y, acc)
    } else {
        acc + x * y
    }
}

/// `R` rows starting at row `i` of `a`, every column, into `c` (`R` rows of `n`):
/// rows of `a` with contiguous columns are read in place, others first copied column by
/// column (`apack[p][r]`).
#[inline(always)]
fn tile_rows<const R: usize, const W: usize, const FMA: bool>(
    i: usize,
    k: usize,
    n: usize,
    a: Strided<'_, f32>,
    b: Rows<'_>,
    c: &mut [f32],
    acc: bool,
) {
    if a.cs == 1 {
        // Rows of `a` read in place (no copy: for a `16×64 · 64×16` head, packing them
        // took longer than the multiply-adds).
        let rows: [&[f32]; R] = std::array::from_fn(|r| {
            let start = (a.offset + (i + r) as isize * a.rs) as usize;
            &a.data[start..start + k]
        });
        return tile_cols::<R, W, FMA, _>(k, n, b, c, acc, |p, r| rows[r][p]);
    }
    // Left uninitialised: only the first `k` columns are written and read (zeroing all
    // `SMALL_DIM` of them on every tile cost more than the multiply-adds of a small
    // product).
    let mut apack = [[MaybeUninit::<f32>::uninit(); R]; SMALL_DIM];
    let k = k.min(SMALL_DIM);
    for r in 0..R {
        for (p, col) in apack[..k].iter_mut().enumerate() {
            col[r].write(at(&a, i + r, p));
        }
    }
    // SAFETY: every element of columns `0..k` (each `r` in `0..R` of each `p` in `0..k`)
    // was written just above, and `[MaybeUninit<f32>; R]` has the layout of `[f32; R]`,
    // so the first `k` columns are `k` initialised `[f32; R]` inside `apack`, which
    // outlives this borrow.
    let apack: &[[f32; R]] =
        unsafe { std::slice::from_raw_parts(apack.as_ptr().cast::<[f32; R]>(), k) };
    tile_cols::<R, W, FMA, _>(k, n, b, c, acc, |p, r| apack[p][r])
}

/// The columns of one tile: blocks of `W` columns, then of 16, then of 8, then single
/// columns; `a(p, r)` is element `p` of the tile's row `r`.
#[inline(always)]
fn tile_cols<const R: usize, const W: usize, const FMA: bool, A: Fn(usize, usize) -> f32>(
    k: usize,
    n: usize,
    b: Rows<'_>,
    c: &mut [f32],
    acc: bool,
    a: A,
) {
    let mut j = 0;
    while j + W <= n {
        block::<R, W, FMA, _>(k, &a, b, j, n, c, acc);
        j += W;
    }
    while j + TILE_COLS <= n {
        block::<R, TILE_COLS, FMA, _>(k, &a, b, j, n, c, acc);
        j += TILE_COLS;
    }
    while j + HALF_COLS <= n {
        block::<R, HALF_COLS, FMA, _>(k, &a, b, j, n, c, acc);
        j += HALF_COLS;
    }
    for j in j..n {
        for r in 0..R {
            let mut s = 0.0f32;
            for p in 0..k {
                s = madd::<FMA>(a(p, r), b.at(p, j), s);
            }
            c[r * n + j] = if acc { c[r * n + j] + s } else { s };
        }
    }
}

/// Columns `j..j + W` of the tile's `R` rows, accumulated in registers over `p`.
#[inline(always)]
fn block<const R: usize, const W: usize, const FMA: bool, A: Fn(usize, usize) -> f32>(
    k: usize,
    a: &A,
    b: Rows<'_>,
    j: usize,
    n: usize,
    c: &mut [f32],
    accumulate: bool,
) {
    let mut acc = [[0.0f32; W]; R];
    for p in 0..k {
        let start = b.offset + p * b.rs + j;
        let bv: &[f32; W] = b.data[start..start + W].try_into().expect("a block of W");
        for (r, row) in acc.iter_mut().enumerate() {
            let x = a(p, r);
            for (s, &y) in row.iter_mut().zip(bv) {
                *s = madd::<FMA>(x, y, *s);
            }
        }
    }
    for (r, row) in acc.iter().enumerate() {
        let out = &mut c[r * n + j..r * n + j + W];
        if accumulate {
            for (o, &s) in out.iter_mut().zip(row) {
                *o += s;
            }
        } else {
            out.copy_from_slice(row);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::tensor::Tensor;
    use crate::test_util::{assert_close, assert_matmul_layouts, naive_matmul as naive};

    fn close(got: &Tensor, want: &[f64]) {
        assert_close(got, want, 1e-5);
    }

    #[test]
    fn small_products_of_every_tile_remainder_match_naive() {
        // Rows not a multiple of the tile, columns of 64-, 16- and single-column blocks,
        // k from 1 to the limit; row-contiguous, transposed (packed) and strided operands.
        let shapes = [
            (1, 1, 16),
            (5, 3, 17),
            (8, 16, 8),
            (9, 8, 12),
            (13, 5, 27),
            (16, 16, 16),
            (33, 64, 64),
            (7, 100, 113),
            (70, 128, 128),
            (512, 64, 64),
        ];
        assert_matmul_layouts(&shapes, 1, 1e-5);
    }

    #[test]
    fn batched_attention_heads_match_naive() {
        // [2, 4, 16, 16] heads viewed out of a [2, 16, 64] projection, times kᵀ.
        let x = Tensor::randn(&[2, 16, 64], 7).unwrap();
        let q = x
            .view(&[2, 16, 4, 16])
            .unwrap()
            .permute(&[0, 2, 1, 3])
            .unwrap();
        let s = q.matmul(&q.transpose(-2, -1).unwrap()).unwrap();
        assert_eq!(s.sizes(), &[2, 4, 16, 16]);
        let qc = q.contiguous().unwrap();
        for bh in 0..8 {
            let qi = qc.view(&[8, 16, 16]).unwrap().select(0, bh).unwrap();
            let want = naive(&qi, &qi.t().unwrap());
            let got = s.view(&[8, 16, 16]).unwrap().select(0, bh).unwrap();
            close(&got, &want);
        }
    }
}
