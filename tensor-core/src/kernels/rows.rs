//! The row loops of the fused kernels: a loop over rows split across threads (the
//! `at::parallel_for` over rows of PyTorch's softmax and layer_norm kernels), each part
//! compiled for the widest vectors of the CPU capability, and the maximum and sum of a
//! row in vector lanes. They work on slices; the slices of a tensor are in
//! `shape_ops::slices`.

use super::acc::{Acc, FloatAcc};
use super::simd::widest;
use crate::parallel::{chunks_for, for_chunks_mut, GRAIN_SIZE};
use num_traits::Float;

/// Elements per thread below which the row kernels of softmax over the last dim and
/// of layer_norm are not split. PyTorch splits those rows with a grain of one row (or
/// none), so a few thousand elements already run on every thread there; this keeps
/// the split where a thread hand-off (about a microsecond) is worth it.
pub(crate) const ROW_GRAIN: usize = 4096;

/// Runs `f(row_index, in_row, out_row)` for each of the rows of `input` (rows of
/// `in_len`) and `out` (rows of `out_len`), splitting the rows across threads when
/// there are at least [`GRAIN_SIZE`] input elements (as `at::parallel_for` with
/// PyTorch's grain), each chunk compiled for the widest vectors of the CPU capability
/// ([`widest`]).
pub(crate) fn par_rows<T, U, F>(input: &[T], in_len: usize, out: &mut [U], out_len: usize, f: F)
where
    T: Sync,
    U: Send,
    F: Fn(usize, &[T], &mut [U]) + Sync,
{
    par_rows_grain(input, in_len, out, out_len, GRAIN_SIZE, f)
}

/// [`par_rows`] split only when there are at least `grain` elements per thread.
pub(crate) fn par_rows_grain<T, U, F>(
    input: &[T],
    in_len: usize,
    out: &mut [U],
    out_len: usize,
    grain: usize,
    f: F,
) where
    T: Sync,
    U: Send,
    F: Fn(usize, &[T], &mut [U]) + Sync,
{
    if out_len == 0 {
        return;
    }
    let rows = out.len() / out_len;
    if rows == 0 {
        return;
    }
    let chunks = chunks_for(rows.saturating_mul(in_len.max(out_len)), grain).min(rows);
    let per_chunk = rows.div_ceil(chunks.max(1));
    let f = &f;
    for_chunks_mut(out, per_chunk * out_len, |start, chunk| {
        let first = start / out_len;
        widest(
            #[inline(always)]
            || {
                for (i, o) in chunk.chunks_exact_mut(out_len).enumerate() {
                    let r = first + i;
                    f(r, &input[r * in_len..(r + 1) * in_len], o);
                }
            },
        )
    });
}

/// Runs `f(x, y)` over `input` and `out` (equal lengths) split into equal parts across
/// threads when there are at least [`GRAIN_SIZE`] elements, each part compiled for the
/// widest vectors of the CPU capability: an elementwise map over a flat span.
pub(crate) fn par_flat<T, U, F>(input: &[T], out: &mut [U], f: F)
where
    T: Sync,
    U: Send,
    F: Fn(&[T], &mut [U]) + Sync,
{
    let n = out.len().min(input.len());
    let chunks = chunks_for(n, GRAIN_SIZE);
    let len = n.div_ceil(chunks.max(1)).max(1);
    let f = &f;
    for_chunks_mut(&mut out[..n], len, |start, chunk| {
        widest(
            #[inline(always)]
            || f(&input[start..start + chunk.len()], chunk),
        )
    });
}

/// Lanes of the row reductions: one vector of `f32` (AVX-512) or two (AVX2).
const L: usize = 16;
/// Elements per step of the main loop of [`max_row`] and [`sum_row`]: four
/// independent accumulator vectors, so that a step waits on no other step's add (one
/// accumulator made layer_norm's moments a chain of dependent adds, latency-bound).
const WIDE: usize = 4 * L;

/// The maximum of a row in lanes (so the loop vectorises); a NaN is not propagated
/// (callers propagate it through `x - max`). The maximum does not depend on the order.
#[inline(always)]
pub(crate) fn max_row<T: FloatAcc>(x: &[T]) -> T::A {
    let pick = |a: T::A, v: T::A| if v > a { v } else { a };
    // Four separate arrays, each one vector: LLVM keeps them in registers (one array of
    // `WIDE` it kept on the stack, a masked store per step).
    let ninf = T::A::neg_infinity();
    let (mut a0, mut a1, mut a2, mut a3) = ([ninf; L], [ninf; L], [ninf; L], [ninf; L]);
    let steps = x.len() / WIDE;
    for c in x[..steps * WIDE].chunks_exact(WIDE) {
        for k in 0..L {
            a0[k] = pick(a0[k], c[k].up());
            a1[k] = pick(a1[k], c[k + L].up());
            a2[k] = pick(a2[k], c[k + 2 * L].up());
            a3[k] = pick(a3[k], c[k + 3 * L].up());
        }
    }
    let mut acc = [ninf; L];
    for k in 0..L {
        acc[k] = pick(pick(a0[k], a1[k]), pick(a2[k], a3[k]));
    }
    let mut chunks = x[steps * WIDE..].chunks_exact(L);
    for c in &mut chunks {
        for k in 0..L {
            acc[k] = pick(acc[k], c[k].up());
        }
    }
    // The lanes as a tree (four vector steps, not sixteen dependent scalar ones: rows of
    // 16, as in attention over 16 positions, are mostly this reduction).
    let mut w = L;
    while w > 1 {
        w /= 2;
        for k in 0..w {
            acc[k] = if acc[k + w] > acc[k] {
                acc[k + w]
            } else {
                acc[k]
            };
        }
    }
    let mut m = acc[0];
    for v in chunks.remainder().iter().map(|v| v.up()) {
        m = if v > m { v } else { m };
    }
    m
}

/// The sum of `L` accumulator lanes, pairwise (a tree of vector adds).
#[inline(always)]
pub(crate) fn sum_lanes<A: Acc, const L: usize>(mut acc: [A; L]) -> A {
    let mut w = L;
    while w > 1 {
        w /= 2;
        for k in 0..w {
            acc[k] = acc[k] + acc[k + w];
        }
    }
    acc[0]
}

/// `Σ f(x_i)` of a row in lanes (so the loop vectorises): [`WIDE`] lanes over the
/// whole steps, folded to [`L`] lanes, which take the whole vectors left; the lanes then
/// pairwise, and the last elements in order.
#[inline(always)]
pub(crate) fn sum_row<T: FloatAcc>(x: &[T], f: impl Fn(T::A) -> T::A) -> T::A {
    let zero = T::A::c(0.0);
    // Four separate one-vector arrays, as in `max_row`, so they stay in registers.
    let (mut a0, mut a1, mut a2, mut a3) = ([zero; L], [zero; L], [zero; L], [zero; L]);
    let steps = x.len() / WIDE;
    for c in x[..steps * WIDE].chunks_exact(WIDE) {
        for k in 0..L {
            a0[k] = a0[k] + f(c[k].up());
            a1[k] = a1[k] + f(c[k + L].up());
            a2[k] = a2[k] + f(c[k + 2 * L].up());
            a3[k] = a3[k] + f(c[k + 3 * L].up());
        }
    }
    let mut acc = [zero; L];
    for k in 0..L {
        acc[k] = (a0[k] + a1[k]) + (a2[k] + a3[k]);
    }
    let mut chunks = x[steps * WIDE..].chunks_exact(L);
    for c in &mut chunks {
        for k in 0..L {
            acc[k] = acc[k] + f(c[k].up());
        }
    }
    let mut s = zero;
    for v in chunks.remainder() {
        s = s + f(v.up());
    }
    sum_lanes(acc) + s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn par_rows_visits_every_row_once() {
        let input: Vec<f32> = (0..6000).map(|i| i as f32).collect();
        let mut out = vec![0.0f32; 2000];
        par_rows(&input, 3, &mut out, 1, |r, x, o| {
            assert_eq!(x[0], (3 * r) as f32);
            o[0] = x.iter().sum();
        });
        assert_eq!(out[0], 3.0);
        assert_eq!(out[1999], (5997 + 5998 + 5999) as f32);
    }

    #[test]
    fn par_rows_grain_splits_small_inputs_and_visits_every_row_once() {
        // 64 rows of 16 with a grain of 16 elements: split whenever the pool has threads.
        let input: Vec<f32> = (0..1024).map(|i| i as f32).collect();
        let mut out = vec![0.0f32; 64];
        par_rows_grain(&input, 16, &mut out, 1, 16, |r, x, o| {
            assert_eq!(x[0], (16 * r) as f32);
            o[0] = x[15];
        });
        let want: Vec<f32> = (0..64).map(|r| (16 * r + 15) as f32).collect();
        assert_eq!(out, want);
    }

    #[test]
    fn sum_and_max_rows_match_sequential() {
        let v: Vec<f32> = (0..37).map(|i| (i as f32 * 0.37).sin()).collect();
        let s: f32 = v.iter().sum();
        assert!((sum_row(&v, |x| x) - s).abs() < 1e-5);
        let m = v.iter().cloned().fold(f32::NEG_INFINITY, f32::max);
        assert_eq!(max_row(&v), m);
    }

    #[test]
    fn sum_and_max_rows_at_every_length_around_the_four_vector_step() {
        // Lengths through the wide step (64), the one-vector step (16) and the tail.
        for n in [
            0usize, 1, 15, 16, 17, 63, 64, 65, 79, 80, 127, 128, 200, 768, 1031,
        ] {
            let v: Vec<f64> = (0..n).map(|i| ((i * 7919) % 1013) as f64 - 500.0).collect();
            // Integers: every order of the sum is exact.
            assert_eq!(sum_row(&v, |x| x), v.iter().sum::<f64>(), "n = {n}");
            assert_eq!(sum_row(&v, |x| x * x), v.iter().map(|x| x * x).sum::<f64>());
            let m = v.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            assert_eq!(max_row(&v), m, "n = {n}");
        }
    }
}
