//! Reduction loops over a [`Geometry`], classified once into inner / outer / strided,
//! and the index-returning loops of `argmax`/`argmin`.
//!
//! Determinism: each output's accumulation order depends only on the geometry and on
//! fixed sizes ([`PIECE`], [`COLUMNS`] and the leaves of [`super::cascade`]), never on
//! the number of threads: threads only decide who computes which output or piece.

use super::cascade::{collapse, merge_lanes, Cascade, Lanes, Scalar, Walker, LANES, LEAF_ROWS};
use super::Geometry;
use crate::alloc::try_vec;
use crate::element::Element;
use crate::error::Result;
use crate::kernels::simd::vectorized;
use crate::parallel::{chunks_for, for_chunks_mut, for_chunks_mut_dynamic};
use crate::tensor::Tensor;
use std::cell::RefCell;

/// Elements of one *piece*: the reduction of one output is cut into pieces of about
/// this many elements (a fixed function of the geometry), each folded on its own and
/// combined by a [`Cascade`]; pieces are also the unit handed to threads when there
/// are few outputs. Below two pieces of work an op runs on one thread.
pub const PIECE: usize = 32768;
/// Columns accumulated together by the outer (vectorised across outputs) loop.
pub const COLUMNS: usize = 4096;
/// Pieces computed at once when one output's pieces are split across threads (the
/// memory held for partials, whatever the input's size).
const BATCH: usize = 64;
/// Fewer outputs than this: split each output's pieces across threads instead of
/// splitting the outputs.
const FEW_OUTPUTS: usize = 8;

/// A reduction: an identity, how to read an input element into the accumulator type,
/// how to combine two accumulators, and how to turn the result into an output element.
pub struct Reducer<A, L, C, F, Z> {
    /// The value of an empty reduction (`0` for sum, `1` for prod, `-inf` for max).
    pub identity: A,
    /// Input element to accumulator.
    pub load: L,
    /// `combine(acc, x)`, `acc` holding earlier elements than `x`: partials are
    /// combined as a tree that keeps the order of the elements.
    pub combine: C,
    /// Accumulator to output element.
    pub finish: F,
    /// `true` for a result that the vector lanes (which interleave elements) may have
    /// picked among equal values in another order than the elements' (±0 for max and
    /// min): that output is folded again in element order.
    pub ambiguous: Z,
}

/// The loop chosen for a geometry.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind {
    /// Reduced dim `run` has input stride 1: fold contiguous runs.
    Inner { run: usize },
    /// Kept dim `vector` has input stride 1: accumulate rows into a vector of outputs.
    Outer { vector: usize },
    /// Neither: strided runs along the first reduced dim.
    Strided,
}

#[cfg_attr(unoptimized, inline)]
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

/// The elements of one output's reduction: `nrows` runs of `run_len` elements `stride`
/// apart, the runs at the offsets of the `rows` dims (first fastest).
struct Lines<'a> {
    run_len: usize,
    stride: isize,
    rows: &'a [(usize, isize, isize)],
    nrows: usize,
}

impl Lines<'_> {
    /// Number of pieces: runs longer than [`PIECE`] are cut into pieces of [`PIECE`]
    /// elements, shorter ones grouped `PIECE / run_len` to a piece.
    #[cfg_attr(unoptimized, inline)]
    fn npieces(&self) -> usize {
        if self.run_len >= PIECE {
            self.nrows * self.run_len.div_ceil(PIECE)
        } else {
            self.nrows.div_ceil(PIECE / self.run_len.max(1))
        }
    }

    /// Calls `f(row_offset + first_element_offset, n)` for each run (or part of a run)
    /// of piece `p`, in order.
    #[inline(always)]
    fn for_piece(&self, p: usize, mut f: impl FnMut(isize, usize)) {
        if self.run_len >= PIECE {
            let per_row = self.run_len.div_ceil(PIECE);
            let lo = (p % per_row) * PIECE;
            let n = PIECE.min(self.run_len - lo);
            let w = Walker::new(self.rows, p / per_row);
            f(w.a.wrapping_add((lo as isize).wrapping_mul(self.stride)), n);
        } else {
            let per_piece = PIECE / self.run_len.max(1);
            let (r0, r1) = (p * per_piece, self.nrows.min((p + 1) * per_piece));
            let mut w = Walker::new(self.rows, r0);
            for _ in r0..r1 {
                f(w.a, self.run_len);
                w.advance();
            }
        }
    }
}

/// Combines the `npieces` partials `piece(p)` in order with a [`Cascade`]; with
/// `split`, pieces are computed on several threads, [`BATCH`] at a time. The result
/// is the same either way.
fn over_pieces<P: Send>(
    npieces: usize,
    piece: &(impl Fn(usize) -> P + Sync),
    merge: &impl Fn(P, P) -> P,
    split: bool,
) -> Option<P> {
    if npieces == 1 {
        // A cascade of one partial is that partial (moving it through the cascade's
        // `Option`s cost each output row of an inner reduction a few copies).
        return Some(piece(0));
    }
    let mut cascade = Cascade::new();
    if !split || npieces < 2 {
        for p in 0..npieces {
            cascade.push(piece(p), merge);
        }
        return cascade.finish(merge);
    }
    let mut start = 0;
    while start < npieces {
        let end = npieces.min(start + BATCH);
        let mut parts: Vec<Option<P>> = (start..end).map(|_| None).collect();
        let chunks = chunks_for(end - start, 1);
        for_chunks_mut(&mut parts, (end - start).div_ceil(chunks), |s, ps| {
            for (i, x) in ps.iter_mut().enumerate() {
                *x = Some(piece(start + s + i));
            }
        });
        for x in parts.into_iter().flatten() {
            cascade.push(x, merge);
        }
        start = end;
    }
    cascade.finish(merge)
}

/// Reduces `input` (elements of type `T`) over `g` into `out_numel` outputs, returned in
/// the output's contiguous order. The accumulation loops run through
/// `simd::vectorized` (AVX2 from the AVX2 level up; same order of operations
/// either way).
/// Memory: the output, and per thread a few partials of at most [`COLUMNS`] elements
/// per level of the cascade (no table sized by the input).
///
/// # Errors
/// [`Error::OutOfMemory`](crate::error::Error::OutOfMemory) when the output cannot be
/// allocated.
pub fn reduce<T, A, O, L, C, F, Z>(
    input: &Tensor,
    g: &Geometry,
    out_numel: usize,
    r: &Reducer<A, L, C, F, Z>,
) -> Result<Vec<O>>
where
    T: Element,
    A: Copy + Send + Sync,
    O: Element,
    L: Fn(T) -> A + Sync,
    C: Fn(A, A) -> A + Sync,
    F: Fn(A) -> O + Sync,
    Z: Fn(A) -> bool + Sync,
{
    let mut out = try_vec(out_numel, (r.finish)(r.identity))?;
    if input.numel() == 0 || out_numel == 0 {
        return Ok(out);
    }
    let buf = input.storage().read();
    let data = buf.as_slice::<T>();
    let nd = g.shape.len();
    let is_reduced = |d: usize| g.out_strides[d] == 0 && g.shape[d] != 1;
    let is_kept = |d: usize| g.out_strides[d] != 0 && g.shape[d] != 1;
    let dims = |pick: &dyn Fn(usize) -> bool| -> Vec<(usize, isize, isize)> {
        (0..nd)
            .filter(|&d| pick(d))
            .map(|d| (g.shape[d], g.in_strides[d], g.out_strides[d]))
            .collect()
    };
    let base = g.in_offset as isize;
    match classify(g) {
        Kind::Outer { vector } => {
            let others = dims(&|d| is_kept(d) && d != vector);
            let rows = dims(&is_reduced);
            let v = (g.shape[vector], g.out_strides[vector]);
            outer(data, base, v, &others, &rows, r, &mut out)?;
        }
        kind => {
            let run = match kind {
                Kind::Inner { run } => Some(run),
                _ => (0..nd).find(|&d| is_reduced(d)),
            };
            let rows = dims(&|d| is_reduced(d) && Some(d) != run);
            let lines = Lines {
                run_len: run.map_or(1, |d| g.shape[d]),
                stride: run.map_or(0, |d| g.in_strides[d]),
                nrows: crate::layout::numel_of(rows.iter().map(|d| d.0)),
                rows: &rows,
            };
            let outputs = dims(&is_kept);
            inner(data, base, &lines, &outputs, r, &mut out)?;
        }
    }
    Ok(out)
}

/// The inner and strided loops: each output folds its [`Lines`], with [`Lanes`] when
/// runs are at least [`LANES`] long, else (or for an [`ambiguous`](Reducer::ambiguous)
/// result) with a [`Scalar`] accumulator in element order.
fn inner<T, A, O, L, C, F, Z>(
    data: &[T],
    base: isize,
    lines: &Lines<'_>,
    outputs: &[(usize, isize, isize)],
    r: &Reducer<A, L, C, F, Z>,
    out: &mut [O],
) -> Result<()>
where
    T: Element,
    A: Copy + Send + Sync,
    O: Element,
    L: Fn(T) -> A + Sync,
    C: Fn(A, A) -> A + Sync,
    F: Fn(A) -> O + Sync,
    Z: Fn(A) -> bool + Sync,
{
    let npieces = lines.npieces();
    let stride = lines.stride;
    let in_order = |start: isize, split: bool| -> A {
        // AVX2 (`vectorized`), not `widest`: the AVX-512 copy of this loop read rows
        // that stream from memory about 1.5x slower (benches/RESULTS.md, sum_cl_hw),
        // and was no faster on rows in cache.
        let piece = |p: usize| {
            vectorized(
                #[inline(always)]
                || {
                    let mut s = Scalar::new(r.identity);
                    lines.for_piece(p, |off, n| {
                        s.feed(
                            data,
                            start.wrapping_add(off),
                            stride,
                            n,
                            &r.load,
                            &r.combine,
                        )
                    });
                    s.finish(&r.combine)
                },
            )
        };
        over_pieces(npieces, &piece, &r.combine, split).unwrap_or(r.identity)
    };
    let one = |ib: isize, split: bool| -> A {
        let start = base.wrapping_add(ib);
        if lines.run_len < LANES {
            return in_order(start, split);
        }
        // AVX2 (`vectorized`), not `widest`: the AVX-512 copy of this loop read rows
        // that stream from memory about 1.5x slower (benches/RESULTS.md, sum_cl_hw),
        // and was no faster on rows in cache.
        let piece = |p: usize| {
            vectorized(
                #[inline(always)]
                || {
                    let mut l = Lanes::new(r.identity);
                    // Measured: this closure is left out of line (LLVM does), so its
                    // loop is SSE. Forced inline into the AVX2 copy, sum_lastdim
                    // ([4096, 4096] over the last dim, 2 threads) ran 1.2-1.3x slower
                    // in five alternating A/B runs, for reasons not found (a plain
                    // 2-thread loop runs the same at either width); it stays as is.
                    lines.for_piece(p, |off, n| {
                        let s = start.wrapping_add(off);
                        if stride == 1 {
                            let s = s as usize;
                            l.feed(&data[s..s + n], &r.load, &r.combine);
                        } else {
                            l.feed_strided(data, s, stride, n, &r.load, &r.combine);
                        }
                    });
                    l.finish(&r.combine)
                },
            )
        };
        let merge = |a, b| merge_lanes(a, b, &r.combine);
        let lanes = over_pieces(npieces, &piece, &merge, split);
        let acc = lanes.map_or(r.identity, |l| collapse(l, &r.combine));
        if (r.ambiguous)(acc) {
            in_order(start, split)
        } else {
            acc
        }
    };
    let n_out = crate::layout::numel_of(outputs.iter().map(|d| d.0));
    if n_out < FEW_OUTPUTS {
        let mut w = Walker::new(outputs, 0);
        for _ in 0..n_out {
            out[w.b as usize] = (r.finish)(one(w.a, true));
            w.advance();
        }
        return Ok(());
    }
    let per_output = lines.run_len.saturating_mul(lines.nrows).max(1);
    let chunks = chunks_for(n_out, (PIECE / per_output).max(1));
    let mut results = try_vec(n_out, (r.finish)(r.identity))?;
    // A few parts per thread, taken dynamically: on this 2-vCPU machine one CPU is
    // often slower for a while (shared), and a static half then waits for it
    // (sum_lastdim: median 0.85x its time with two static halves, 30 alternating runs).
    let parts = if chunks > 1 {
        (chunks * 8).min(n_out)
    } else {
        1
    };
    // Each output one contiguous run (one piece): the rows of a chunk are folded in
    // one loop, without `one`'s per-output closures and `over_pieces` (the same
    // `Lanes` fold, so the same results).
    let runs = stride == 1 && lines.nrows == 1 && npieces == 1 && lines.run_len >= LANES;
    for_chunks_mut_dynamic(&mut results, n_out.div_ceil(parts), |k0, rs| {
        if runs {
            return vectorized(
                #[inline(always)]
                || fold_runs(data, base, lines.run_len, outputs, k0, rs, r, &in_order),
            );
        }
        let mut w = Walker::new(outputs, k0);
        for x in rs.iter_mut() {
            *x = (r.finish)(one(w.a, false));
            w.advance();
        }
    });
    let mut w = Walker::new(outputs, 0);
    for v in results {
        out[w.b as usize] = v;
        w.advance();
    }
    Ok(())
}

/// The inner loop for outputs that are one contiguous run of `n >= LANES` elements
/// each (one piece): `rs[i]` gets output `k0 + i` (in the order of `outputs`), folded
/// by [`Lanes`] as `inner`'s `one` does, so with the same results. Inlined into
/// `vectorized`'s AVX2 copy (the fold loop in 256-bit vectors): sum_lastdim ([4096,
/// 4096] over the last dim, 2 threads) took 0.91-0.97x its time through `one`
/// (pairwise medians of 30-40 alternating runs, three times); compiled for SSE only,
/// 1.01x.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn fold_runs<T, A, O, L, C, F, Z>(
    data: &[T],
    base: isize,
    n: usize,
    outputs: &[(usize, isize, isize)],
    k0: usize,
    rs: &mut [O],
    r: &Reducer<A, L, C, F, Z>,
    in_order: &impl Fn(isize, bool) -> A,
) where
    T: Element,
    A: Copy,
    L: Fn(T) -> A,
    C: Fn(A, A) -> A,
    F: Fn(A) -> O,
    Z: Fn(A) -> bool,
{
    let mut w = Walker::new(outputs, k0);
    let mut l = Lanes::new(r.identity);
    for x in rs.iter_mut() {
        let s = base.wrapping_add(w.a);
        l.reset();
        l.feed(&data[s as usize..s as usize + n], &r.load, &r.combine);
        let acc = collapse(l.finish(&r.combine), &r.combine);
        let acc = if (r.ambiguous)(acc) {
            in_order(s, false)
        } else {
            acc
        };
        *x = (r.finish)(acc);
        w.advance();
    }
}

/// The outer loop: for each position of the `others` kept dims and each chunk of
/// [`COLUMNS`] along the contiguous kept dim `(len, out_step)`, rows (the positions of
/// the reduced dims) are accumulated into a vector of partials, [`LEAF_ROWS`] rows to
/// a leaf, leaves and pieces combined by [`Cascade`]s.
fn outer<T, A, O, L, C, F, Z>(
    data: &[T],
    base: isize,
    (len, out_step): (usize, isize),
    others: &[(usize, isize, isize)],
    rows: &[(usize, isize, isize)],
    r: &Reducer<A, L, C, F, Z>,
    out: &mut [O],
) -> Result<()>
where
    T: Element,
    A: Copy + Send + Sync,
    O: Element,
    L: Fn(T) -> A + Sync,
    C: Fn(A, A) -> A + Sync,
    F: Fn(A) -> O + Sync,
    Z: Fn(A) -> bool + Sync,
{
    let nrows = crate::layout::numel_of(rows.iter().map(|d| d.0));
    let nchunks = len.div_ceil(COLUMNS);
    let width = len.min(COLUMNS);
    // Rows per piece: about four pieces' worth of elements, whole leaves.
    let per_piece = (4 * PIECE / width)
        .max(LEAF_ROWS)
        .next_multiple_of(LEAF_ROWS);
    let npieces = nrows.div_ceil(per_piece);
    let merge_into = |mut a: Vec<A>, b: &[A]| {
        for (x, &y) in a.iter_mut().zip(b) {
            *x = (r.combine)(*x, y);
        }
        a
    };
    let merge = |a: Vec<A>, b: Vec<A>| merge_into(a, &b);
    // Item (k, c): position k of `others`, column chunk c.
    let item = |kc: usize, split: bool| -> Vec<A> {
        let (k, c) = (kc / nchunks, kc % nchunks);
        let (c0, c1) = (c * COLUMNS, len.min((c + 1) * COLUMNS));
        let start = base
            .wrapping_add(Walker::new(others, k).a)
            .wrapping_add(c0 as isize);
        let w = c1 - c0;
        // AVX2 (`vectorized`), not `widest`: the AVX-512 copy of this loop read rows
        // that stream from memory about 1.5x slower (benches/RESULTS.md, sum_cl_hw),
        // and was no faster on rows in cache.
        let piece = |p: usize| {
            vectorized(
                #[inline(always)]
                || {
                    // Leaf buffers come back through `spare` when merged: a piece
                    // allocates about log2(leaves) of them, not one per leaf.
                    let spare = RefCell::new(Vec::<Vec<A>>::new());
                    let merge_leaves = |a: Vec<A>, b: Vec<A>| {
                        let a = merge_into(a, &b);
                        spare.borrow_mut().push(b);
                        a
                    };
                    let mut cascade = Cascade::new();
                    let (r0, r1) = (p * per_piece, nrows.min((p + 1) * per_piece));
                    let mut walk = Walker::new(rows, r0);
                    let mut offs = [0usize; LEAF_ROWS];
                    let mut row = r0;
                    while row < r1 {
                        let n = LEAF_ROWS.min(r1 - row);
                        if let [(_, step, _)] = *rows {
                            // One row dim (the usual case after coalescing): the
                            // offsets are an arithmetic sequence.
                            for (i, o) in offs[..n].iter_mut().enumerate() {
                                let k = (row + i) as isize;
                                *o = start.wrapping_add(k.wrapping_mul(step)) as usize;
                            }
                        } else {
                            for o in &mut offs[..n] {
                                *o = start.wrapping_add(walk.a) as usize;
                                walk.advance();
                            }
                        }
                        let mut leaf = spare.borrow_mut().pop().unwrap_or_default();
                        leaf.resize(w, r.identity);
                        fold_leaf(data, &offs[..n], r, &mut leaf);
                        cascade.push(leaf, &merge_leaves);
                        row += n;
                    }
                    cascade
                        .finish(&merge_leaves)
                        .unwrap_or_else(|| vec![r.identity; w])
                },
            )
        };
        over_pieces(npieces, &piece, &merge, split).unwrap_or_else(|| vec![r.identity; w])
    };
    let n_others = crate::layout::numel_of(others.iter().map(|d| d.0));
    let items = n_others * nchunks;
    let mut write = |kc: usize, acc: Vec<A>| {
        let (k, c) = (kc / nchunks, kc % nchunks);
        let ob = Walker::new(others, k).b;
        for (j, a) in acc.into_iter().enumerate() {
            let o = ob.wrapping_add(((c * COLUMNS + j) as isize).wrapping_mul(out_step));
            out[o as usize] = (r.finish)(a);
        }
    };
    if items < FEW_OUTPUTS {
        for kc in 0..items {
            let acc = item(kc, true);
            write(kc, acc);
        }
        return Ok(());
    }
    let per_item = nrows.saturating_mul(width).max(1);
    let chunks = chunks_for(items, (PIECE / per_item).max(1));
    let mut results: Vec<Vec<A>> = try_vec(items, Vec::new())?;
    for_chunks_mut(&mut results, items.div_ceil(chunks), |k0, rs| {
        for (i, x) in rs.iter_mut().enumerate() {
            *x = item(k0 + i, false);
        }
    });
    for (kc, acc) in results.into_iter().enumerate() {
        write(kc, acc);
    }
    Ok(())
}

/// One leaf of the outer loop: the rows starting at `offs` (at most [`LEAF_ROWS`]),
/// `leaf.len()` columns each, folded in row order into `leaf` (every partial is
/// overwritten: the buffer is reused from leaf to leaf). Blocks of `2 * LANES` columns,
/// then one of [`LANES`], are folded in an array the compiler keeps in registers, one
/// block across all the rows before the next (the rows stay in L1 between blocks); the
/// last columns through the buffer in memory. Folded all through the buffer, each row
/// loaded and stored every partial: sum over the spatial dims of a channels-last
/// [8, 64, 56, 56] in cache took twice PyTorch's time on one thread (0.251 ms; blocks
/// of 32 alone 0.25, of 64 0.134, PyTorch 0.11). Each column is folded in the same
/// order either way.
#[inline(always)]
pub(super) fn fold_leaf<T, A, L, C, F, Z>(
    data: &[T],
    offs: &[usize],
    r: &Reducer<A, L, C, F, Z>,
    leaf: &mut [A],
) where
    T: Element,
    A: Copy,
    L: Fn(T) -> A,
    C: Fn(A, A) -> A,
{
    let w = leaf.len();
    let wide = w / (2 * LANES) * (2 * LANES);
    for (b, part) in leaf[..wide].chunks_exact_mut(2 * LANES).enumerate() {
        fold_block::<_, _, _, _, { 2 * LANES }>(data, offs, b * 2 * LANES, part, r);
    }
    let blocks = w / LANES;
    for (b, part) in leaf[wide..blocks * LANES]
        .chunks_exact_mut(LANES)
        .enumerate()
    {
        fold_block::<_, _, _, _, LANES>(data, offs, wide + b * LANES, part, r);
    }
    let c0 = blocks * LANES;
    if c0 < w {
        let tail = &mut leaf[c0..];
        tail.fill(r.identity);
        for &s in offs {
            for (a, &x) in tail.iter_mut().zip(&data[s + c0..s + w]) {
                *a = (r.combine)(*a, (r.load)(x));
            }
        }
    }
}

/// Columns `c0..c0 + N` of the rows at `offs` folded in row order into `part` (`N`
/// partials, in registers while the rows are read).
#[inline(always)]
fn fold_block<T, A, L, C, const N: usize>(
    data: &[T],
    offs: &[usize],
    c0: usize,
    part: &mut [A],
    r: &Reducer<A, L, C, impl Sized, impl Sized>,
) where
    T: Element,
    A: Copy,
    L: Fn(T) -> A,
    C: Fn(A, A) -> A,
{
    let mut acc = [r.identity; N];
    for &s in offs {
        let x = &data[s + c0..s + c0 + N];
        for j in 0..N {
            acc[j] = (r.combine)(acc[j], (r.load)(x[j]));
        }
    }
    part.copy_from_slice(&acc);
}

/// `argmax`/`argmin` along `dim` (`Some`) or over the flattened tensor (`None`): the
/// index (along `dim`, or in row-major order) of the first element that is greater
/// (`max`) or smaller than every earlier one, a NaN winning over every number (as
/// PyTorch). Outputs in row-major order of the kept dims. The reduction must not be
/// empty.
///
/// # Errors
/// [`Error::OutOfMemory`](crate::error::Error::OutOfMemory) when the output cannot be
/// allocated.
pub fn arg_reduce<T: Element>(input: &Tensor, dim: Option<usize>, max: bool) -> Result<Vec<i64>> {
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
        None => Ok(vec![scan(&mut input.layout().offsets().map(|i| data[i]))]),
        Some(_) if input.dim() == 0 => Ok(vec![0]),
        Some(d) => {
            let (sizes, strides) = (input.sizes(), input.strides());
            // Kept dims in row-major order, listed fastest first for the walker.
            let kept: Vec<(usize, isize, isize)> = (0..sizes.len())
                .rev()
                .filter(|&k| k != d)
                .map(|k| (sizes[k], strides[k], 0))
                .collect();
            let n_out = crate::layout::numel_of(kept.iter().map(|k| k.0));
            let (n, step) = (sizes[d], strides[d]);
            let base = input.storage_offset() as isize;
            let mut out = try_vec(n_out, 0i64)?;
            let chunks = chunks_for(n_out, (PIECE / n.max(1)).max(1));
            for_chunks_mut(&mut out, n_out.div_ceil(chunks), |k0, os| {
                let mut w = Walker::new(&kept, k0);
                for o in os.iter_mut() {
                    let start = base.wrapping_add(w.a);
                    *o = scan(
                        &mut (0..n as isize)
                            .map(|j| data[start.wrapping_add(j.wrapping_mul(step)) as usize]),
                    );
                    w.advance();
                }
            });
            Ok(out)
        }
    }
}
