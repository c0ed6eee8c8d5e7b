//! Reduction loops over a [`Geometry`], classified once into inner / outer / strided,
//! and the index-returning loops of `argmax`/`argmin`.
//!
//! Determinism: each output's accumulation order depends only on the geometry and on
//! fixed block sizes ([`BLOCK`], [`COLUMNS`]), never on the number of threads; rayon
//! only decides which thread computes which output (or which fixed block).

use super::Geometry;
use crate::parallel::{chunks_for, for_chunks_mut};
use crate::simd::vectorized;
use crate::{Element, Tensor};
use rayon::prelude::*;

/// Independent accumulators used when folding a contiguous run (vector lanes).
const LANES: usize = 32;
/// Elements per block when one output's reduction is split across threads, and the
/// amount of work below which a parallel task is not worth spawning.
pub const BLOCK: usize = 32768;
/// Columns accumulated together by the outer (vectorised across outputs) loop.
pub const COLUMNS: usize = 4096;
/// Most blocks the rows of an outer reduction are split into when there are few
/// outputs to spread across threads.
pub const ROW_BLOCKS: usize = 64;

/// A reduction: an identity, how to read an input element into the accumulator type,
/// how to combine two accumulators, and how to turn the result into an output element.
pub struct Reducer<A, L, C, F> {
    /// The value of an empty reduction (`0` for sum, `1` for prod, `-inf` for max).
    pub identity: A,
    /// Input element to accumulator.
    pub load: L,
    /// `combine(acc, x)`: must be associative (partials of blocks are combined in order).
    pub combine: C,
    /// Accumulator to output element.
    pub finish: F,
}

/// The loop chosen for a geometry.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind {
    /// Reduced dim `run` has input stride 1: fold contiguous runs.
    Inner { run: usize },
    /// Kept dim `vector` has input stride 1: accumulate rows into a vector of outputs.
    Outer { vector: usize },
    /// Neither: runs of one element.
    Strided,
}

fn classify(g: &Geometry) -> Kind {
    let reduced = |d: usize| g.out_strides[d] == 0 && g.shape[d] != 1;
    let kept = |d: usize| g.out_strides[d] != 0 && g.shape[d] != 1;
    let nd = g.shape.len();
    if let Some(run) = (0..nd).find(|&d| reduced(d) && g.in_strides[d] == 1) {
        return Kind::Inner { run };
    }
    if let Some(vector) = (0..nd).find(|&d| kept(d) && g.in_strides[d] == 1) {
        return Kind::Outer { vector };
    }
    Kind::Strided
}

/// Offsets of every index of `dims` (`(size, stride_a, stride_b)`, first dim fastest),
/// as `(Σ i·stride_a, Σ i·stride_b)`.
fn walk(dims: &[(usize, isize, isize)]) -> Vec<(isize, isize)> {
    let mut out = vec![(0isize, 0isize)];
    for &(size, sa, sb) in dims {
        let mut next = Vec::with_capacity(out.len() * size);
        for i in 0..size as isize {
            next.extend(out.iter().map(|&(a, b)| (a + i * sa, b + i * sb)));
        }
        out = next;
    }
    out
}

/// Folds a contiguous run into `acc` with [`LANES`] independent accumulators (lane `j`
/// takes elements `j`, `j + LANES`, ...), combined in lane order, then the tail in
/// order.
#[inline(always)]
fn fold_run<T: Copy, A: Copy>(
    run: &[T],
    acc: A,
    identity: A,
    load: &impl Fn(T) -> A,
    combine: &impl Fn(A, A) -> A,
) -> A {
    if run.len() < LANES {
        return run.iter().fold(acc, |a, &x| combine(a, load(x)));
    }
    let mut lanes = [identity; LANES];
    // Fixed-size chunks, so that each lane update is one vector operation.
    let (chunks, tail) = run.as_chunks::<LANES>();
    for c in chunks {
        for j in 0..LANES {
            lanes[j] = combine(lanes[j], load(c[j]));
        }
    }
    // The lanes are combined in order: a pairwise tree here makes LLVM pair the lanes
    // up and vectorise the loop above two elements wide.
    let acc = lanes.iter().fold(acc, |a, &l| combine(a, l));
    tail.iter().fold(acc, |a, &x| combine(a, load(x)))
}

/// `acc[j] = combine(acc[j], load(data[start + row + j]))` for each row offset in
/// `rows`, in order.
#[inline(always)]
fn accumulate_rows<T, A, L, C, F>(
    acc: &mut [A],
    data: &[T],
    start: isize,
    rows: &[isize],
    r: &Reducer<A, L, C, F>,
) where
    T: Copy,
    A: Copy,
    L: Fn(T) -> A,
    C: Fn(A, A) -> A,
{
    let n = acc.len();
    for &row in rows {
        let s = (start + row) as usize;
        for (a, &x) in acc.iter_mut().zip(&data[s..s + n]) {
            *a = (r.combine)(*a, (r.load)(x));
        }
    }
}

/// Reduces `input` (elements of type `T`) over `g` into `out_numel` outputs, returned in
/// the output's contiguous order. The accumulation loops run through
/// `simd::vectorized` (AVX2 when the CPU has it; same order of operations either way).
pub fn reduce<T, A, O, L, C, F>(
    input: &Tensor,
    g: &Geometry,
    out_numel: usize,
    r: &Reducer<A, L, C, F>,
) -> Vec<O>
where
    T: Element,
    A: Copy + Send + Sync,
    O: Element,
    L: Fn(T) -> A + Sync,
    C: Fn(A, A) -> A + Sync,
    F: Fn(A) -> O + Sync,
{
    if input.numel() == 0 {
        return vec![(r.finish)(r.identity); out_numel];
    }
    let buf = input.storage().read();
    let data = buf.as_slice::<T>();
    let nd = g.shape.len();
    let dims = |pick: &dyn Fn(usize) -> bool| -> Vec<(usize, isize, isize)> {
        (0..nd)
            .filter(|&d| pick(d))
            .map(|d| (g.shape[d], g.in_strides[d], g.out_strides[d]))
            .collect()
    };
    let is_reduced = |d: usize| g.out_strides[d] == 0 && g.shape[d] != 1;
    let is_kept = |d: usize| g.out_strides[d] != 0 && g.shape[d] != 1;
    let base = g.in_offset as isize;
    let mut out = vec![(r.finish)(r.identity); out_numel];
    match classify(g) {
        Kind::Outer { vector } => {
            let len = g.shape[vector];
            let out_step = g.out_strides[vector];
            let others = walk(&dims(&|d| is_kept(d) && d != vector));
            let rows: Vec<isize> = walk(&dims(&is_reduced)).iter().map(|p| p.0).collect();
            let nchunks = len.div_ceil(COLUMNS);
            // Few (outputs, column chunk) items: also split the rows into at most
            // `ROW_BLOCKS` fixed blocks whose partial vectors are combined in order.
            let per_block = if others.len() * nchunks >= 16 {
                rows.len().max(1)
            } else {
                rows.len().div_ceil(ROW_BLOCKS).max(8)
            };
            let nblocks = rows.len().div_ceil(per_block).max(1);
            let block_sum = |item: usize| {
                let (kc, b) = (item / nblocks, item % nblocks);
                let (k, c) = (kc / nchunks, kc % nchunks);
                let (c0, c1) = (c * COLUMNS, len.min((c + 1) * COLUMNS));
                let start = base + others[k].0 + c0 as isize;
                let block =
                    &rows[(b * per_block).min(rows.len())..rows.len().min((b + 1) * per_block)];
                let mut acc = vec![r.identity; c1 - c0];
                vectorized(
                    #[inline(always)]
                    || accumulate_rows(&mut acc, data, start, block, r),
                );
                acc
            };
            // The same fixed blocks either way, so the result does not depend on
            // whether (or on how many threads) rayon runs them; below one grain of work
            // the hand-off to other threads costs more than it saves.
            let items = others.len() * nchunks * nblocks;
            let mut partials: Vec<Vec<A>> = vec![Vec::new(); items];
            let chunks = if rows.len() * len < BLOCK {
                1
            } else {
                chunks_for(items, 1)
            };
            for_chunks_mut(&mut partials, items.div_ceil(chunks), |start, ps| {
                for (i, p) in ps.iter_mut().enumerate() {
                    *p = block_sum(start + i);
                }
            });
            for (kc, blocks) in partials.chunks(nblocks).enumerate() {
                let (k, c) = (kc / nchunks, kc % nchunks);
                let mut acc = blocks[0].clone();
                for block in &blocks[1..] {
                    for (a, &p) in acc.iter_mut().zip(block) {
                        *a = (r.combine)(*a, p);
                    }
                }
                for (j, a) in acc.into_iter().enumerate() {
                    let o = others[k].1 + (c * COLUMNS + j) as isize * out_step;
                    out[o as usize] = (r.finish)(a);
                }
            }
        }
        kind => {
            let (run_len, runs) = match kind {
                Kind::Inner { run } => (g.shape[run], walk(&dims(&|d| is_reduced(d) && d != run))),
                _ => (1, walk(&dims(&is_reduced))),
            };
            let runs: Vec<isize> = runs.iter().map(|p| p.0).collect();
            let outputs = walk(&dims(&is_kept));
            let per_output = run_len * runs.len();
            let fold = |start: isize, rs: &[isize], acc: A| {
                vectorized(
                    #[inline(always)]
                    || {
                        let mut acc = acc;
                        for &row in rs {
                            let s = (start + row) as usize;
                            acc = fold_run(
                                &data[s..s + run_len],
                                acc,
                                r.identity,
                                &r.load,
                                &r.combine,
                            );
                        }
                        acc
                    },
                )
            };
            if outputs.len() < 16 && per_output >= 2 * BLOCK {
                // Few outputs, long reductions: fixed blocks of runs (or of one long
                // run) reduced in parallel, partials combined in block order.
                for &(ib, ob) in &outputs {
                    let start = base + ib;
                    let acc = if runs.len() > 1 {
                        let per_block = (BLOCK / run_len).max(1);
                        runs.par_chunks(per_block)
                            .map(|rs| fold(start, rs, r.identity))
                            .collect::<Vec<A>>()
                    } else {
                        let s = (start + runs[0]) as usize;
                        data[s..s + run_len]
                            .par_chunks(BLOCK)
                            .map(|c| fold_run(c, r.identity, r.identity, &r.load, &r.combine))
                            .collect::<Vec<A>>()
                    }
                    .into_iter()
                    .fold(r.identity, &r.combine);
                    out[ob as usize] = (r.finish)(acc);
                }
            } else {
                let min_len = (BLOCK / per_output.max(1)).max(1);
                let chunks = chunks_for(outputs.len(), min_len);
                let mut results = vec![(r.finish)(r.identity); outputs.len()];
                for_chunks_mut(&mut results, outputs.len().div_ceil(chunks), |start, rs| {
                    for (x, &(ib, _)) in rs.iter_mut().zip(&outputs[start..]) {
                        *x = (r.finish)(fold(base + ib, &runs, r.identity));
                    }
                });
                for (&(_, ob), v) in outputs.iter().zip(results) {
                    out[ob as usize] = v;
                }
            }
        }
    }
    out
}

/// `argmax`/`argmin` along `dim` (`Some`) or over the flattened tensor (`None`): the
/// index (along `dim`, or in row-major order) of the first element that is greater
/// (`max`) or smaller than every earlier one, a NaN winning over every number (as
/// PyTorch). Outputs in row-major order of the kept dims. The reduction must not be
/// empty.
pub fn arg_reduce<T: Element>(input: &Tensor, dim: Option<usize>, max: bool) -> Vec<i64> {
    // `better(x, best)`: x replaces the current best.
    let better = move |x: T, best: T| {
        #[allow(clippy::eq_op)]
        let (x_nan, best_nan) = (x != x, best != best);
        if best_nan {
            false
        } else if x_nan {
            true
        } else if max {
            x > best
        } else {
            x < best
        }
    };
    let scan = |it: &mut dyn Iterator<Item = T>| {
        let mut best_i = 0i64;
        let mut best = None;
        for (i, x) in it.enumerate() {
            match best {
                Some(b) if !better(x, b) => {}
                _ => {
                    best = Some(x);
                    best_i = i as i64;
                }
            }
        }
        best_i
    };
    let buf = input.storage().read();
    let data = buf.as_slice::<T>();
    match dim {
        None => vec![scan(&mut input.layout().offsets().map(|i| data[i]))],
        Some(_) if input.dim() == 0 => vec![0],
        Some(d) => {
            let (sizes, strides) = (input.sizes(), input.strides());
            // Kept dims in row-major order, listed fastest first for `walk`.
            let kept: Vec<(usize, isize, isize)> = (0..sizes.len())
                .rev()
                .filter(|&k| k != d)
                .map(|k| (sizes[k], strides[k], 0))
                .collect();
            let outputs = walk(&kept);
            let (n, step) = (sizes[d], strides[d]);
            let base = input.storage_offset() as isize;
            outputs
                .par_iter()
                .with_min_len((BLOCK / n.max(1)).max(1))
                .map(|&(ib, _)| {
                    let start = base + ib;
                    scan(&mut (0..n as isize).map(|j| data[(start + j * step) as usize]))
                })
                .collect()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walk_lists_first_dim_fastest() {
        let w = walk(&[(2, 1, 10), (3, 100, 0)]);
        let a: Vec<isize> = w.iter().map(|p| p.0).collect();
        assert_eq!(a, vec![0, 1, 100, 101, 200, 201]);
    }

    #[test]
    fn fold_run_sums_long_and_short_runs() {
        let v: Vec<f64> = (0..100).map(|i| i as f64).collect();
        let s = fold_run(&v, 0.0, 0.0, &|x| x, &|a, b| a + b);
        assert_eq!(s, 4950.0);
        assert_eq!(fold_run(&v[..3], 1.0, 0.0, &|x| x, &|a, b| a + b), 4.0);
    }
}
