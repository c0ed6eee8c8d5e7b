//! The accumulation building blocks of the reduction loops: a pairwise [`Cascade`] of
//! partial results, the [`Lanes`] accumulator that folds runs into [`LANES`]
//! independent accumulators, and the [`Walker`] that steps through the offsets of a
//! set of dims without listing them.
//!
//! Accuracy (PyTorch's `cascade_sum` in aten/src/ATen/native/cpu/SumKernel.cpp bounds the
//! error of float sums by accumulating over several levels): here each accumulator
//! folds at most a *leaf* of elements in order ([`LEAF_STEPS`] chunks per lane,
//! [`LEAF_ELEMS`] elements in scalar mode, [`LEAF_ROWS`] rows in the outer loop), and
//! leaves are combined as a binary tree (a binary counter over the leaves), so the
//! error of a sum of `n` elements grows with `log2(n)` instead of `n`. The tree keeps
//! the order of the sequence (a left partial is always combined with the partial that
//! follows it), so "the first of equal values" stays the first.

/// Independent accumulators used when folding a run (vector lanes): lane `j` takes
/// elements `j`, `j + LANES`, ... of each run.
pub const LANES: usize = 32;
/// Chunks of [`LANES`] elements each lane folds in order before its leaf is handed to
/// the cascade.
pub const LEAF_STEPS: usize = 16;
/// Elements a scalar leaf folds in order (whole runs: a leaf ends after the run that
/// reaches this count).
pub const LEAF_ELEMS: usize = 32;
/// Rows the outer loop folds into one vector of partials before handing it to the
/// cascade.
pub const LEAF_ROWS: usize = 32;

/// Levels of a [`Cascade`] held in place: `2^INLINE - 1` partials fit before the first
/// allocation (a cascade is made per output row, so a heap `Vec` from the first push was
/// an allocation per row).
const INLINE: usize = 8;

/// Pairwise combination of a sequence of partials: pushing the `k`-th partial merges it
/// with the partials of the complete subtrees before it (the set bits of `k`), so that
/// at most `log2(n) + 1` partials are held. `merge(a, b)` gets `a` earlier than `b`.
pub struct Cascade<P> {
    /// The first [`INLINE`] levels.
    low: [Option<P>; INLINE],
    /// Levels from [`INLINE`] up, for sequences of `2^INLINE` partials or more.
    high: Vec<Option<P>>,
    count: u64,
}

impl<P> Default for Cascade<P> {
    fn default() -> Cascade<P> {
        Cascade::new()
    }
}

impl<P> Cascade<P> {
    /// An empty cascade.
    #[inline(always)]
    pub fn new() -> Cascade<P> {
        Cascade {
            low: std::array::from_fn(|_| None),
            high: Vec::new(),
            count: 0,
        }
    }

    #[inline(always)]
    fn level(&mut self, level: usize) -> &mut Option<P> {
        if level < INLINE {
            &mut self.low[level]
        } else {
            let i = level - INLINE;
            if i == self.high.len() {
                self.high.push(None);
            }
            &mut self.high[i]
        }
    }

    /// Appends the partial `x` to the sequence.
    #[inline(always)]
    pub fn push(&mut self, x: P, merge: &impl Fn(P, P) -> P) {
        let mut x = x;
        let mut level = 0;
        while self.count >> level & 1 == 1 {
            // The bit is set, so the level holds a partial.
            if let Some(earlier) = self.level(level).take() {
                x = merge(earlier, x);
            }
            level += 1;
        }
        *self.level(level) = Some(x);
        self.count += 1;
    }

    /// The combination of every partial pushed, in order (earliest subtree first), or
    /// `None` when nothing was pushed.
    #[inline(always)]
    pub fn finish(self, merge: &impl Fn(P, P) -> P) -> Option<P> {
        let mut acc: Option<P> = None;
        // Highest level first: it holds the earliest subtree.
        let levels = self
            .high
            .into_iter()
            .rev()
            .chain(self.low.into_iter().rev());
        for x in levels.flatten() {
            acc = Some(match acc {
                None => x,
                Some(a) => merge(a, x),
            });
        }
        acc
    }
}

/// `[a[j] ∘ b[j]]` for each lane.
#[inline(always)]
pub fn merge_lanes<A: Copy>(
    a: [A; LANES],
    b: [A; LANES],
    combine: &impl Fn(A, A) -> A,
) -> [A; LANES] {
    let mut out = a;
    for j in 0..LANES {
        out[j] = combine(a[j], b[j]);
    }
    out
}

/// Levels of a [`Lanes`] tree held in place: a piece of the inner loop has at most
/// `2 * PIECE / LANES / LEAF_STEPS` = 128 leaves, so the overflow is never used there.
const LANE_LEVELS: usize = 8;

/// [`LANES`] accumulators folding runs chunk by chunk (a run's tail goes to the first
/// lanes), a leaf every [`LEAF_STEPS`] chunks, leaves combined pairwise as a
/// [`Cascade`] does (the same tree, so the same results), but merged in place in
/// arrays of lanes: through a `Cascade<[A; LANES]>` each leaf moved its lanes
/// through `Option`s a few times and merged them one lane at a time, which cost
/// sum_lastdim ([4096, 4096] over the last dim) about a fifth of its time.
pub struct Lanes<A> {
    acc: [A; LANES],
    steps: usize,
    identity: A,
    /// Leaves pushed so far: level `l` holds a partial when bit `l` is set.
    leaves: u64,
    /// The first [`LANE_LEVELS`] levels of the tree.
    low: [[A; LANES]; LANE_LEVELS],
    /// Levels from [`LANE_LEVELS`] up (grown as needed).
    high: Vec<[A; LANES]>,
}

/// `a[j] = a[j] ∘ b[j]` for each lane (`a` earlier).
#[inline(always)]
fn merge_into<A: Copy>(a: &mut [A; LANES], b: &[A; LANES], combine: &impl Fn(A, A) -> A) {
    for (x, &y) in a.iter_mut().zip(b) {
        *x = combine(*x, y);
    }
}

impl<A: Copy> Lanes<A> {
    /// Accumulators at `identity`.
    #[inline(always)]
    pub fn new(identity: A) -> Lanes<A> {
        Lanes {
            acc: [identity; LANES],
            steps: 0,
            identity,
            leaves: 0,
            low: [[identity; LANES]; LANE_LEVELS],
            high: Vec::new(),
        }
    }

    /// Back to a fresh accumulator at the identity, keeping the storage of the tree
    /// (its levels are written before they are read): for a loop over many short
    /// reductions, which would otherwise set a kilobyte of levels per reduction.
    #[inline(always)]
    pub fn reset(&mut self) {
        self.acc = [self.identity; LANES];
        self.steps = 0;
        self.leaves = 0;
    }

    #[inline(always)]
    fn step_done(&mut self, n: usize, combine: &impl Fn(A, A) -> A) {
        self.steps += n;
        if self.steps >= LEAF_STEPS {
            self.flush(combine);
        }
    }

    /// Pushes the accumulators as a leaf (a binary counter over the leaves, as
    /// [`Cascade::push`]: the leaf is merged into the partials of the complete subtrees
    /// before it, earliest first) and restarts them at the identity.
    #[inline(always)]
    fn flush(&mut self, combine: &impl Fn(A, A) -> A) {
        let mut level = 0;
        while self.leaves >> level & 1 == 1 {
            let earlier = if level < LANE_LEVELS {
                &self.low[level]
            } else {
                &self.high[level - LANE_LEVELS]
            };
            // By value: merged in place (`&mut self.acc`), the lanes were split into
            // 32 scalars in some callers, which cost sum over the last dim of
            // [1024, 1024] a fifth of its time.
            self.acc = merge_lanes(*earlier, self.acc, combine);
            level += 1;
        }
        if level < LANE_LEVELS {
            self.low[level] = self.acc;
        } else {
            let i = level - LANE_LEVELS;
            if i == self.high.len() {
                self.high.push(self.acc);
            } else {
                self.high[i] = self.acc;
            }
        }
        self.leaves += 1;
        self.acc = [self.identity; LANES];
        self.steps = 0;
    }

    /// Folds the contiguous `run`.
    #[inline(always)]
    pub fn feed<T: Copy>(
        &mut self,
        run: &[T],
        load: &impl Fn(T) -> A,
        combine: &impl Fn(A, A) -> A,
    ) {
        let (chunks, tail) = run.as_chunks::<LANES>();
        let mut rest = chunks;
        while !rest.is_empty() {
            let take = (LEAF_STEPS - self.steps).min(rest.len());
            let mut acc = self.acc;
            for c in &rest[..take] {
                for j in 0..LANES {
                    acc[j] = combine(acc[j], load(c[j]));
                }
            }
            self.acc = acc;
            rest = &rest[take..];
            self.step_done(take, combine);
        }
        if !tail.is_empty() {
            for (a, &x) in self.acc.iter_mut().zip(tail) {
                *a = combine(*a, load(x));
            }
            self.step_done(1, combine);
        }
    }

    /// Folds the `n` elements `data[start + i * stride]`.
    #[inline(always)]
    pub fn feed_strided<T: Copy>(
        &mut self,
        data: &[T],
        start: isize,
        stride: isize,
        n: usize,
        load: &impl Fn(T) -> A,
        combine: &impl Fn(A, A) -> A,
    ) {
        let at = |i: usize| data[start.wrapping_add((i as isize).wrapping_mul(stride)) as usize];
        let full = n / LANES;
        let mut k = 0;
        while k < full {
            let take = (LEAF_STEPS - self.steps).min(full - k);
            let mut acc = self.acc;
            for c in k..k + take {
                for (j, a) in acc.iter_mut().enumerate() {
                    *a = combine(*a, load(at(c * LANES + j)));
                }
            }
            self.acc = acc;
            k += take;
            self.step_done(take, combine);
        }
        let done = full * LANES;
        if done < n {
            for (j, a) in self.acc[..n - done].iter_mut().enumerate() {
                *a = combine(*a, load(at(done + j)));
            }
            self.step_done(1, combine);
        }
    }

    /// The lanes after the last leaf (each lane's partials combined in order: the
    /// highest level, the earliest subtree, first, as [`Cascade::finish`]). The
    /// accumulator is spent: feed it no more. (By reference: taken by value, its
    /// kilobyte of levels was copied for each output row.)
    #[inline(always)]
    pub fn finish(&mut self, combine: &impl Fn(A, A) -> A) -> [A; LANES] {
        if self.steps > 0 {
            self.flush(combine);
        }
        let levels = (u64::BITS - self.leaves.leading_zeros()) as usize;
        let mut acc: Option<[A; LANES]> = None;
        for level in (0..levels).rev() {
            if self.leaves >> level & 1 == 1 {
                let x = if level < LANE_LEVELS {
                    &self.low[level]
                } else {
                    &self.high[level - LANE_LEVELS]
                };
                match &mut acc {
                    None => acc = Some(*x),
                    Some(a) => merge_into(a, x, combine),
                }
            }
        }
        acc.unwrap_or([self.identity; LANES])
    }
}

/// The lanes combined as a tree: lane `j` with lane `j + 16`, then with `j + 8`, ..,
/// `j + 1`, the lower lane first (five vector steps; in lane order, 31 dependent
/// combines cost sum_lastdim's rows of 1024 in cache about as much as their loads).
/// The lanes interleave the elements anyway, so no order of them is the elements'
/// order. A float sum's rounding depends on the order (this tree's, like PyTorch's
/// vector reduction, differs from a sequential fold in the last bits); a reducer that
/// picks among equal values (±0 for max) marks such a result
/// [`ambiguous`](super::kernels::Reducer::ambiguous) and it is folded again in order.
#[inline(always)]
pub fn collapse<A: Copy>(mut lanes: [A; LANES], combine: &impl Fn(A, A) -> A) -> A {
    let mut w = LANES;
    while w > 1 {
        w /= 2;
        for j in 0..w {
            lanes[j] = combine(lanes[j], lanes[j + w]);
        }
    }
    lanes[0]
}

/// A scalar accumulator: elements folded in order into leaves of about
/// [`LEAF_ELEMS`] elements, leaves combined by a [`Cascade`].
pub struct Scalar<A> {
    acc: A,
    count: usize,
    identity: A,
    cascade: Cascade<A>,
}

impl<A: Copy> Scalar<A> {
    /// An accumulator at `identity`.
    pub fn new(identity: A) -> Scalar<A> {
        Scalar {
            acc: identity,
            count: 0,
            identity,
            cascade: Cascade::new(),
        }
    }

    /// Folds the `n` elements `data[start + i * stride]` (one run) in order.
    #[inline(always)]
    pub fn feed<T: Copy>(
        &mut self,
        data: &[T],
        start: isize,
        stride: isize,
        n: usize,
        load: &impl Fn(T) -> A,
        combine: &impl Fn(A, A) -> A,
    ) {
        let mut acc = self.acc;
        if stride == 1 {
            let s = start as usize;
            for &x in &data[s..s + n] {
                acc = combine(acc, load(x));
            }
        } else {
            for i in 0..n {
                let at = start.wrapping_add((i as isize).wrapping_mul(stride));
                acc = combine(acc, load(data[at as usize]));
            }
        }
        self.acc = acc;
        self.count += n;
        if self.count >= LEAF_ELEMS {
            self.cascade.push(self.acc, combine);
            self.acc = self.identity;
            self.count = 0;
        }
    }

    /// The combination of every element fed, in order.
    pub fn finish(mut self, combine: &impl Fn(A, A) -> A) -> A {
        if self.count > 0 {
            self.cascade.push(self.acc, combine);
        }
        self.cascade.finish(combine).unwrap_or(self.identity)
    }
}

/// Steps through the positions of dims `(size, stride_a, stride_b)` (first dim
/// fastest) from a linear index, keeping `Σ i·stride_a` and `Σ i·stride_b`: the offsets
/// of the current position in two tensors, without a table of all offsets.
pub struct Walker<'a> {
    dims: &'a [(usize, isize, isize)],
    index: Vec<usize>,
    /// Offset in the first tensor (elements).
    pub a: isize,
    /// Offset in the second tensor (elements).
    pub b: isize,
}

impl<'a> Walker<'a> {
    /// The walker at linear position `start` (which must be below the product of the
    /// sizes, or equal to it for an empty walk).
    #[cfg_attr(unoptimized, inline)]
    pub fn new(dims: &'a [(usize, isize, isize)], start: usize) -> Walker<'a> {
        let mut index = vec![0usize; dims.len()];
        let (mut a, mut b, mut rest) = (0isize, 0isize, start);
        for (i, &(size, sa, sb)) in index.iter_mut().zip(dims) {
            if size > 0 {
                *i = rest % size;
                rest /= size;
            }
            a = a.wrapping_add((*i as isize).wrapping_mul(sa));
            b = b.wrapping_add((*i as isize).wrapping_mul(sb));
        }
        Walker { dims, index, a, b }
    }

    /// Moves to the next position (first dim fastest).
    #[inline]
    pub fn advance(&mut self) {
        for (i, &(size, sa, sb)) in self.index.iter_mut().zip(self.dims) {
            *i += 1;
            self.a = self.a.wrapping_add(sa);
            self.b = self.b.wrapping_add(sb);
            if *i < size {
                return;
            }
            let back = size as isize;
            self.a = self.a.wrapping_sub(back.wrapping_mul(sa));
            self.b = self.b.wrapping_sub(back.wrapping_mul(sb));
            *i = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walker_lists_first_dim_fastest_from_any_start() {
        let dims = [(2, 1, 10), (3, 100, 0)];
        let mut w = Walker::new(&dims, 0);
        let mut seen = Vec::new();
        for _ in 0..6 {
            seen.push((w.a, w.b));
            w.advance();
        }
        assert_eq!(
            seen,
            vec![(0, 0), (1, 10), (100, 0), (101, 10), (200, 0), (201, 10)]
        );
        let w = Walker::new(&dims, 3);
        assert_eq!((w.a, w.b), (101, 10));
    }

    #[test]
    fn cascade_combines_in_order_as_a_pairwise_tree() {
        let mut c = Cascade::new();
        for s in ["a", "b", "c", "d", "e"] {
            c.push(s.to_string(), &|x: String, y: String| format!("({x}{y})"));
        }
        let r = c.finish(&|x: String, y: String| format!("({x}{y})"));
        assert_eq!(r.unwrap(), "(((ab)(cd))e)");
    }

    #[test]
    fn cascade_past_its_inline_levels_keeps_order_and_count() {
        for n in [0usize, 1, 5, 255, 256, 257, 1000, 70_000] {
            let mut c = Cascade::new();
            let mut depth = Cascade::new();
            for i in 0..n {
                c.push(vec![i], &|mut a: Vec<usize>, b: Vec<usize>| {
                    a.extend(b);
                    a
                });
                depth.push(0u32, &|a: u32, b: u32| a.max(b) + 1);
            }
            let joined = c.finish(&|mut a: Vec<usize>, b: Vec<usize>| {
                a.extend(b);
                a
            });
            assert_eq!(joined.unwrap_or_default(), (0..n).collect::<Vec<_>>());
            // A pairwise tree: depth about log2(n), never n.
            let d = depth.finish(&|a: u32, b: u32| a.max(b) + 1).unwrap_or(0);
            assert!(d as usize <= 2 * (usize::BITS - n.leading_zeros()) as usize);
        }
    }

    #[test]
    fn lanes_sum_long_and_short_runs() {
        let v: Vec<f64> = (0..10_000).map(|i| i as f64).collect();
        let add = |a: f64, b: f64| a + b;
        let mut l = Lanes::new(0.0);
        l.feed(&v, &|x| x, &add);
        l.feed(&v[..3], &|x| x, &add);
        assert_eq!(collapse(l.finish(&add), &add), 49_995_000.0 + 3.0);
        let mut s = Lanes::new(0.0);
        s.feed_strided(&v, 1, 3, 3333, &|x| x, &add);
        let want: f64 = (0..3333).map(|i| (1 + 3 * i) as f64).sum();
        assert_eq!(collapse(s.finish(&add), &add), want);
    }

    #[test]
    fn lanes_combine_leaves_as_the_cascade_does_past_the_inline_levels() {
        // An order-sensitive, non-associative combine: equal results mean the same
        // tree. Leaves of LEAF_STEPS chunks, the rest (chunks and tail) one more leaf.
        let comb = |a: u64, b: u64| a.wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(7) ^ b;
        let leaf = LANES * LEAF_STEPS;
        for nleaves in [0usize, 1, 2, 3, 7, 8, 9, 255, 256, 257, 600] {
            for extra in [0usize, 5, LANES, LANES + 3] {
                let n = nleaves * leaf + extra;
                let v: Vec<u64> = (0..n as u64).map(|i| i * 2654435761 + 1).collect();
                let mut l = Lanes::new(0u64);
                l.feed(&v, &|x| x, &comb);
                let got = l.finish(&comb);
                let mut want = Cascade::new();
                for part in v.chunks(leaf) {
                    let mut acc = [0u64; LANES];
                    for c in part.chunks(LANES) {
                        for (a, &x) in acc.iter_mut().zip(c) {
                            *a = comb(*a, x);
                        }
                    }
                    want.push(acc, &|a, b| merge_lanes(a, b, &comb));
                }
                let want = want.finish(&|a, b| merge_lanes(a, b, &comb));
                assert_eq!(
                    got,
                    want.unwrap_or([0; LANES]),
                    "{nleaves} leaves + {extra}"
                );
            }
        }
    }

    #[test]
    fn scalar_accumulator_folds_runs_in_order() {
        let v: Vec<f64> = (0..100).map(|i| i as f64).collect();
        let add = |a: f64, b: f64| a + b;
        let mut s = Scalar::new(0.0);
        for r in 0..10 {
            s.feed(&v, 10 * r, 1, 10, &|x| x, &add);
        }
        assert_eq!(s.finish(&add), 4950.0);
    }
}
