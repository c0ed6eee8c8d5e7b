//! The generic unary / binary / ternary loops (see the module docs of [`super`]).

use super::inner::{classify, disjoint, InnerKind};
use super::simd::vectorized;
use super::stream::{stream_out, STREAM_MIN_BYTES};
use crate::element::Element;
use crate::iterator::{TensorIterator, Written};
use std::mem::{size_of, transmute_copy};
use std::slice;

/// Hands a kernel's 2-D loop to [`TensorIterator::for_each`]: as is (each kernel's loop
/// inlined into the tile loop), or without optimisation as a trait object, so the
/// iterator's loops are compiled once for all kernels ([`super::erased!`]).
#[inline(always)]
fn for_each2d<F>(iter: &TensorIterator, loop2d: F)
where
    F: Fn(&[*mut u8], &[isize], usize, usize) + Sync,
{
    iter.for_each(super::erased!(
        loop2d,
        dyn Fn(&[*mut u8], &[isize], usize, usize)
    ));
}

#[inline(always)]
fn esize<T>() -> isize {
    size_of::<T>() as isize
}

// ---- slice loops (reference arguments are `noalias`, so these vectorise) ----------------

// With `stream`, the output is written with non-temporal stores (see [`super::stream`]);
// the slices all have the output's length. Loops with one streaming input (and fills)
// do not stream: measured on AMD Zen 4, ordinary stores write such outputs faster,
// while loops reading two or more streams gain about a fifth.

#[inline(always)]
fn slices_1<A: Copy, O, F: Fn(A) -> O>(o: &mut [O], a: &[A], f: F) {
    for (x, &p) in o.iter_mut().zip(a) {
        *x = f(p);
    }
}

#[inline(always)]
fn slices_2<A: Copy, O: Copy, F: Fn(A, A) -> O>(o: &mut [O], a: &[A], b: &[A], f: F, stream: bool) {
    if stream {
        let (a, b) = (&a[..o.len()], &b[..o.len()]);
        return stream_out(o, |i| f(a[i], b[i]));
    }
    for ((x, &p), &q) in o.iter_mut().zip(a).zip(b) {
        *x = f(p, q);
    }
}

#[inline(always)]
fn slices_3<C: Copy, A: Copy, O: Copy, F: Fn(C, A, A) -> O>(
    o: &mut [O],
    c: &[C],
    a: &[A],
    b: &[A],
    f: F,
    stream: bool,
) {
    if stream {
        let (c, a, b) = (&c[..o.len()], &a[..o.len()], &b[..o.len()]);
        return stream_out(o, |i| f(c[i], a[i], b[i]));
    }
    for (((x, &r), &p), &q) in o.iter_mut().zip(c).zip(a).zip(b) {
        *x = f(r, p, q);
    }
}

/// Whether the kernel over `iter` streams its output (contiguous inner loops of at
/// least a few cache lines, output of at least [`STREAM_MIN_BYTES`]).
fn streams<O>(iter: &TensorIterator) -> bool {
    iter.numel().saturating_mul(size_of::<O>()) >= STREAM_MIN_BYTES
        && iter
            .shape()
            .first()
            .is_some_and(|&n| n * size_of::<O>() >= 256)
}

/// Builds `&mut [O]` over `n` elements at `o`.
///
/// # Safety
/// `o` must point at `n` initialised, aligned `O`s inside a storage whose write lock the
/// iterator holds, and no other live reference may cover them.
#[inline(always)]
unsafe fn out_slice<'a, O>(o: *mut u8, n: usize) -> &'a mut [O] {
    // SAFETY: guaranteed by the caller.
    unsafe { slice::from_raw_parts_mut(o.cast::<O>(), n) }
}

/// Builds `&[A]` over `n` elements at `a`.
///
/// # Safety
/// `a` must point at `n` initialised, aligned `A`s inside a locked storage, disjoint
/// from any live mutable slice.
#[inline(always)]
unsafe fn in_slice<'a, A>(a: *const u8, n: usize) -> &'a [A] {
    // SAFETY: guaranteed by the caller.
    unsafe { slice::from_raw_parts(a.cast::<A>(), n) }
}

// ---- unary --------------------------------------------------------------------------------

/// Runs `out = f(a)` over a built iterator with operands `[out, a]`; returns the proof
/// that every element of `out` was written.
pub(crate) fn unary<'it, A, O, F>(iter: &'it TensorIterator, f: F) -> Written<'it>
where
    A: Element,
    O: Element,
    F: Fn(A) -> O + Copy + Sync,
{
    #[cfg(unoptimized)]
    unary_walk::<A, O, F>(iter, f);
    #[cfg(not(unoptimized))]
    unary_fast::<A, O, F>(iter, f);
    // SAFETY: the loop above wrote operand 0, the output, at every point of the
    // iteration space.
    unsafe { Written::new(iter) }
}

/// [`unary`] with the specialised inner loops.
#[cfg_attr(unoptimized, allow(dead_code))]
fn unary_fast<A, O, F>(iter: &TensorIterator, f: F)
where
    A: Element,
    O: Element,
    F: Fn(A) -> O + Copy + Sync,
{
    for_each2d(iter, move |data, strides, n0, n1| {
        let (mut o, mut a) = (data[0], data[1] as *const u8);
        for j in 0..n1 {
            if j > 0 {
                o = o.wrapping_offset(strides[2]);
                a = a.wrapping_offset(strides[3]);
            }
            unary_inner::<A, O, F>(o, a, strides[0], strides[1], n0, f);
        }
    });
}

#[inline(always)]
fn unary_inner<A: Element, O: Element, F: Fn(A) -> O>(
    o: *mut u8,
    a: *const u8,
    so: isize,
    sa: isize,
    n: usize,
    f: F,
) {
    let (lo, la) = (n * size_of::<O>(), n * size_of::<A>());
    match classify(&[so, sa], &[esize::<O>(), esize::<A>()]) {
        InnerKind::Contiguous if disjoint(o, lo, a, la) => {
            // SAFETY: the iterator holds the storages' locks (write for the output) for
            // the whole loop; `o` and `a` point at `n` contiguous aligned elements inside
            // them (the plan's geometry), and the byte ranges are disjoint.
            let (os, xs) = unsafe { (out_slice::<O>(o, n), in_slice::<A>(a, n)) };
            slices_1(os, xs, f);
        }
        InnerKind::Contiguous if std::ptr::eq(o, a as *mut u8) && A::DTYPE == O::DTYPE => {
            // SAFETY: as above; the input is the output itself (in place) and `A` is
            // `O` (same dtype), so reading an element as `A` is a plain copy.
            let os = unsafe { out_slice::<O>(o, n) };
            for x in os.iter_mut() {
                // SAFETY: `A` and `O` are the same type (equal dtypes).
                let v: A = unsafe { transmute_copy(x) };
                *x = f(v);
            }
        }
        InnerKind::ScalarBroadcast(_) => {
            // SAFETY: `a` points at one initialised, aligned `A` in a locked storage; it
            // is read once before any write (PyTorch reads the scalar once per loop).
            let v = f(unsafe { a.cast::<A>().read() });
            // SAFETY: `o` points at `n` contiguous elements under the write lock; no
            // other reference to them is live.
            unsafe { out_slice::<O>(o, n) }.fill(v);
        }
        _ => {
            let (mut o, mut a) = (o, a);
            for _ in 0..n {
                // SAFETY: element i of each operand lies inside its locked storage (the
                // plan's geometry); raw reads and writes allow any overlap and run in
                // order.
                unsafe { o.cast::<O>().write(f(a.cast::<A>().read())) };
                o = o.wrapping_offset(so);
                a = a.wrapping_offset(sa);
            }
        }
    }
}

// ---- binary -------------------------------------------------------------------------------

/// Runs `out = f(a, b)` over a built iterator with operands `[out, a, b]`; returns the
/// proof that every element of `out` was written.
pub(crate) fn binary<'it, A, O, F>(iter: &'it TensorIterator, f: F) -> Written<'it>
where
    A: Element,
    O: Element,
    F: Fn(A, A) -> O + Copy + Sync,
{
    #[cfg(unoptimized)]
    binary_walk::<A, O, F>(iter, f);
    #[cfg(not(unoptimized))]
    binary_loops::<A, O, F, false>(iter, f);
    // SAFETY: the loop above wrote operand 0, the output, at every point of the
    // iteration space.
    unsafe { Written::new(iter) }
}

/// [`binary`] compiled with AVX2 and FMA at the AVX2 level (`simd::vectorized`), for
/// `f` that use `mul_add` (one instruction there, a library call otherwise). Plain
/// binary ops measured no faster this way, so they stay on [`binary`].
pub(crate) fn binary_fma<'it, A, O, F>(iter: &'it TensorIterator, f: F) -> Written<'it>
where
    A: Element,
    O: Element,
    F: Fn(A, A) -> O + Copy + Sync,
{
    #[cfg(unoptimized)]
    binary_walk::<A, O, F>(iter, f);
    #[cfg(not(unoptimized))]
    binary_loops::<A, O, F, true>(iter, f);
    // SAFETY: the loop above wrote operand 0, the output, at every point of the
    // iteration space.
    unsafe { Written::new(iter) }
}

#[cfg_attr(unoptimized, allow(dead_code))]
fn binary_loops<A, O, F, const FMA: bool>(iter: &TensorIterator, f: F)
where
    A: Element,
    O: Element,
    F: Fn(A, A) -> O + Copy + Sync,
{
    let stream = streams::<O>(iter);
    for_each2d(iter, move |data, strides, n0, n1| {
        let (mut o, mut a, mut b) = (data[0], data[1] as *const u8, data[2] as *const u8);
        for j in 0..n1 {
            if j > 0 {
                o = o.wrapping_offset(strides[3]);
                a = a.wrapping_offset(strides[4]);
                b = b.wrapping_offset(strides[5]);
            }
            let s = [strides[0], strides[1], strides[2]];
            if FMA {
                vectorized(
                    #[inline(always)]
                    || binary_inner::<A, O, F>(o, a, b, s, n0, f, stream),
                );
            } else {
                binary_inner::<A, O, F>(o, a, b, s, n0, f, stream);
            }
        }
    });
}

#[inline(always)]
fn binary_inner<A: Element, O: Element, F: Fn(A, A) -> O>(
    o: *mut u8,
    a: *const u8,
    b: *const u8,
    s: [isize; 3],
    n: usize,
    f: F,
    stream: bool,
) {
    let (lo, li) = (n * size_of::<O>(), n * size_of::<A>());
    let same_type = A::DTYPE == O::DTYPE;
    match classify(&s, &[esize::<O>(), esize::<A>(), esize::<A>()]) {
        InnerKind::Contiguous => {
            if disjoint(o, lo, a, li) && disjoint(o, lo, b, li) {
                // SAFETY: the iterator holds the locks for the whole loop; each pointer
                // covers `n` contiguous aligned elements inside its storage, and the
                // output's bytes are disjoint from both inputs'.
                let (os, xs, ys) = unsafe {
                    (
                        out_slice::<O>(o, n),
                        in_slice::<A>(a, n),
                        in_slice::<A>(b, n),
                    )
                };
                return slices_2(os, xs, ys, f, stream);
            }
            if same_type && std::ptr::eq(o, a as *mut u8) && disjoint(o, lo, b, li) {
                // SAFETY: as above, with `a` the output itself (in place); `A` is `O`.
                let (os, ys) = unsafe { (out_slice::<O>(o, n), in_slice::<A>(b, n)) };
                for (x, &q) in os.iter_mut().zip(ys) {
                    // SAFETY: `A` and `O` are the same type (equal dtypes).
                    let p: A = unsafe { transmute_copy(x) };
                    *x = f(p, q);
                }
                return;
            }
            if same_type && std::ptr::eq(o, b as *mut u8) && disjoint(o, lo, a, li) {
                // SAFETY: as above, with `b` the output itself (in place).
                let (os, xs) = unsafe { (out_slice::<O>(o, n), in_slice::<A>(a, n)) };
                for (x, &p) in os.iter_mut().zip(xs) {
                    // SAFETY: `A` and `O` are the same type (equal dtypes).
                    let q: A = unsafe { transmute_copy(x) };
                    *x = f(p, q);
                }
                return;
            }
        }
        InnerKind::ScalarBroadcast(k) => {
            let (v, other) = if k == 2 { (b, a) } else { (a, b) };
            // SAFETY: `v` points at one initialised aligned `A` in a locked storage,
            // read once before the loop writes.
            let v = unsafe { v.cast::<A>().read() };
            if disjoint(o, lo, other, li) {
                // SAFETY: contiguous, locked, disjoint ranges (see the contiguous case).
                let (os, xs) = unsafe { (out_slice::<O>(o, n), in_slice::<A>(other, n)) };
                // AVX2 whatever the kernel's flag: a broadcast row is short (an outer
                // product's, a bias's) and was instruction-bound in 128-bit vectors.
                return vectorized(
                    #[inline(always)]
                    || {
                        if k == 2 {
                            slices_1(os, xs, |p| f(p, v))
                        } else {
                            slices_1(os, xs, |q| f(v, q))
                        }
                    },
                );
            }
            if same_type && std::ptr::eq(o, other as *mut u8) {
                // SAFETY: in place on the output's own elements; `A` is `O`.
                let os = unsafe { out_slice::<O>(o, n) };
                for x in os.iter_mut() {
                    // SAFETY: `A` and `O` are the same type (equal dtypes).
                    let p: A = unsafe { transmute_copy(x) };
                    *x = if k == 2 { f(p, v) } else { f(v, p) };
                }
                return;
            }
        }
        InnerKind::Strided => {}
    }
    let (mut o, mut a, mut b) = (o, a, b);
    for _ in 0..n {
        // SAFETY: element i of each operand lies inside its locked storage (the plan's
        // geometry); raw reads and writes allow any overlap and run in order.
        unsafe {
            o.cast::<O>()
                .write(f(a.cast::<A>().read(), b.cast::<A>().read()))
        };
        o = o.wrapping_offset(s[0]);
        a = a.wrapping_offset(s[1]);
        b = b.wrapping_offset(s[2]);
    }
}

// ---- ternary ------------------------------------------------------------------------------

/// Runs `out = f(c, a, b)` over a built iterator with operands `[out, c, a, b]`
/// (`c` may have another type, e.g. the bool condition of `where`); returns the proof
/// that every element of `out` was written.
pub(crate) fn ternary<'it, C, A, O, F>(iter: &'it TensorIterator, f: F) -> Written<'it>
where
    C: Element,
    A: Element,
    O: Element,
    F: Fn(C, A, A) -> O + Copy + Sync,
{
    #[cfg(unoptimized)]
    ternary_walk::<C, A, O, F>(iter, f);
    #[cfg(not(unoptimized))]
    ternary_fast::<C, A, O, F>(iter, f);
    // SAFETY: the loop above wrote operand 0, the output, at every point of the
    // iteration space.
    unsafe { Written::new(iter) }
}

/// [`ternary`] with the slice loop for contiguous, disjoint operands.
#[cfg_attr(unoptimized, allow(dead_code))]
fn ternary_fast<C, A, O, F>(iter: &TensorIterator, f: F)
where
    C: Element,
    A: Element,
    O: Element,
    F: Fn(C, A, A) -> O + Copy + Sync,
{
    let stream = streams::<O>(iter);
    for_each2d(iter, move |data, s, n0, n1| {
        let mut p = [data[0] as *const u8, data[1], data[2], data[3]];
        for j in 0..n1 {
            if j > 0 {
                for (k, q) in p.iter_mut().enumerate() {
                    *q = q.wrapping_offset(s[4 + k]);
                }
            }
            let s = [s[0], s[1], s[2], s[3]];
            // Through `vectorized`: addcmul's `mul_add` is one FMA instruction there.
            vectorized(
                #[inline(always)]
                || ternary_inner::<C, A, O, F>(p, s, n0, f, stream),
            );
        }
    });
}

#[inline(always)]
fn ternary_inner<C: Element, A: Element, O: Element, F: Fn(C, A, A) -> O>(
    p: [*const u8; 4],
    s: [isize; 4],
    n: usize,
    f: F,
    stream: bool,
) {
    let o = p[0] as *mut u8;
    let lo = n * size_of::<O>();
    let sizes = [esize::<O>(), esize::<C>(), esize::<A>(), esize::<A>()];
    let kind = classify(&s, &sizes);
    if kind == InnerKind::ScalarBroadcast(2)
        && disjoint(o, lo, p[1], n * size_of::<C>())
        && disjoint(o, lo, p[2], size_of::<A>())
    {
        // A stride-0 `a` (masked_fill's value) read once, so the loop over `c`, `b` and
        // the output vectorises; `b` may be the output itself (in place).
        // SAFETY: element 0 of `a` lies inside its locked storage.
        let a0 = unsafe { p[2].cast::<A>().read() };
        if p[3] == p[0] && size_of::<A>() == size_of::<O>() {
            // SAFETY: locked storages, `n` contiguous aligned elements of the output
            // (which is `b`, read before each write) and of `c`, disjoint from it.
            let (os, cs) = unsafe { (out_slice::<O>(o, n), in_slice::<C>(p[1], n)) };
            for (x, &r) in os.iter_mut().zip(cs) {
                // SAFETY: `b` is the output's bytes, of `A`'s size: the element read is
                // the one about to be overwritten.
                let q = unsafe { (x as *mut O).cast::<A>().read() };
                *x = f(r, a0, q);
            }
            return;
        }
        if disjoint(o, lo, p[3], n * size_of::<A>()) {
            // SAFETY: locked storages, `n` contiguous aligned elements of the output, `c`
            // and `b`, the output's bytes disjoint from both inputs'.
            let (os, cs, bs) = unsafe {
                (
                    out_slice::<O>(o, n),
                    in_slice::<C>(p[1], n),
                    in_slice::<A>(p[3], n),
                )
            };
            for ((x, &r), &q) in os.iter_mut().zip(cs).zip(bs) {
                *x = f(r, a0, q);
            }
            return;
        }
    }
    if kind == InnerKind::Contiguous
        && disjoint(o, lo, p[1], n * size_of::<C>())
        && disjoint(o, lo, p[2], n * size_of::<A>())
        && disjoint(o, lo, p[3], n * size_of::<A>())
    {
        // SAFETY: locked storages, `n` contiguous aligned elements per operand, output
        // bytes disjoint from every input's.
        let (os, cs, xs, ys) = unsafe {
            (
                out_slice::<O>(o, n),
                in_slice::<C>(p[1], n),
                in_slice::<A>(p[2], n),
                in_slice::<A>(p[3], n),
            )
        };
        return slices_3(os, cs, xs, ys, f, stream);
    }
    let (mut o, mut c, mut a, mut b) = (o, p[1], p[2], p[3]);
    for _ in 0..n {
        // SAFETY: element i of each operand lies inside its locked storage; raw reads
        // and writes allow any overlap and run in order.
        unsafe {
            let r = f(
                c.cast::<C>().read(),
                a.cast::<A>().read(),
                b.cast::<A>().read(),
            );
            o.cast::<O>().write(r);
        }
        o = o.wrapping_offset(s[0]);
        c = c.wrapping_offset(s[1]);
        a = a.wrapping_offset(s[2]);
        b = b.wrapping_offset(s[3]);
    }
}

// ---- pointer walks (builds without optimisation) ------------------------------------------

// At `opt-level = 0` nothing is vectorised, so the slice, in-place and broadcast loops
// above buy no speed, only compile time (one copy of each per op and dtype). Under
// `cfg(unoptimized)` (see build.rs) the kernels run these walks instead. They compute
// the same values in the same order: the slice loops run on disjoint operands (or on
// the output in place), where the order of elements is not observable, and every other
// case already falls back to the walk. The one difference kept is the scalar broadcast:
// the fast loops read a stride-0 input once per inner loop where they do (PyTorch's
// vectorised loop does too), so the walks read it once in exactly those cases.

/// Which input of a binary inner loop the fast path reads once (1 or 2), or 0: input
/// `k` has stride 0, the others step by their element size, and the output's bytes are
/// disjoint from the other input's or are exactly them (in place, `same_type`).
#[cfg_attr(not(any(unoptimized, test)), allow(dead_code))]
#[cfg_attr(unoptimized, inline)]
fn binary_reads_once(
    p: [*const u8; 3],
    s: [isize; 3],
    sizes: [isize; 3],
    n: usize,
    same_type: bool,
) -> usize {
    let InnerKind::ScalarBroadcast(k) = classify(&s, &sizes) else {
        return 0;
    };
    let other = if k == 2 { p[1] } else { p[2] };
    let (lo, li) = (n * sizes[0] as usize, n * sizes[1] as usize);
    if disjoint(p[0], lo, other, li) || (same_type && std::ptr::eq(p[0], other)) {
        k
    } else {
        0
    }
}

/// [`unary`] as one pointer walk per inner loop.
#[cfg_attr(not(any(unoptimized, test)), allow(dead_code))]
fn unary_walk<A, O, F>(iter: &TensorIterator, f: F)
where
    A: Element,
    O: Element,
    F: Fn(A) -> O + Copy + Sync,
{
    for_each2d(iter, move |data, s, n0, n1| {
        // The fast path's `ScalarBroadcast` (the output steps by its element size, the
        // input has stride 0): the value computed once and filled in.
        let once = s[0] == esize::<O>() && s[1] == 0;
        for j in 0..n1 {
            let j = j as isize;
            let mut o = data[0].wrapping_offset(j.wrapping_mul(s[2]));
            let mut a = data[1].wrapping_offset(j.wrapping_mul(s[3])) as *const u8;
            let mut value = O::ZERO;
            if once {
                // SAFETY: `a` points at an element inside its locked storage (the plan's
                // geometry), read before any write of this inner loop.
                value = f(unsafe { a.cast::<A>().read() });
            }
            for _ in 0..n0 {
                // SAFETY: element i of each operand lies inside its locked storage (the
                // output's write-locked); raw reads and writes allow any overlap.
                unsafe {
                    if !once {
                        value = f(a.cast::<A>().read());
                    }
                    o.cast::<O>().write(value);
                }
                o = o.wrapping_offset(s[0]);
                a = a.wrapping_offset(s[1]);
            }
        }
    });
}

/// [`binary`] (and [`binary_fma`]) as one pointer walk per inner loop.
#[cfg_attr(not(any(unoptimized, test)), allow(dead_code))]
fn binary_walk<A, O, F>(iter: &TensorIterator, f: F)
where
    A: Element,
    O: Element,
    F: Fn(A, A) -> O + Copy + Sync,
{
    let sizes = [esize::<O>(), esize::<A>(), esize::<A>()];
    let same_type = A::DTYPE == O::DTYPE;
    for_each2d(iter, move |data, s, n0, n1| {
        for j in 0..n1 {
            let j = j as isize;
            let mut o = data[0].wrapping_offset(j.wrapping_mul(s[3]));
            let mut a = data[1].wrapping_offset(j.wrapping_mul(s[4])) as *const u8;
            let mut b = data[2].wrapping_offset(j.wrapping_mul(s[5])) as *const u8;
            let (mut sa, mut sb) = (s[1], s[2]);
            // A value read once is kept here and walked with stride 0.
            let mut once = [A::ZERO];
            match binary_reads_once([o as *const u8, a, b], [s[0], sa, sb], sizes, n0, same_type) {
                1 => {
                    // SAFETY: `a` points at an element inside its locked storage (the
                    // plan's geometry), read before any write of this inner loop.
                    once[0] = unsafe { a.cast::<A>().read() };
                    (a, sa) = (once.as_ptr().cast::<u8>(), 0);
                }
                2 => {
                    // SAFETY: as above, for `b`.
                    once[0] = unsafe { b.cast::<A>().read() };
                    (b, sb) = (once.as_ptr().cast::<u8>(), 0);
                }
                _ => {}
            }
            for _ in 0..n0 {
                // SAFETY: element i of each operand lies inside its locked storage (the
                // plan's geometry) or is `once`; raw reads and writes allow any overlap
                // and run in order, as the fast path's strided loop.
                unsafe {
                    let r = f(a.cast::<A>().read(), b.cast::<A>().read());
                    o.cast::<O>().write(r);
                }
                o = o.wrapping_offset(s[0]);
                a = a.wrapping_offset(sa);
                b = b.wrapping_offset(sb);
            }
        }
    });
}

/// [`ternary`] as one pointer walk per inner loop.
#[cfg_attr(not(any(unoptimized, test)), allow(dead_code))]
fn ternary_walk<C, A, O, F>(iter: &TensorIterator, f: F)
where
    C: Element,
    A: Element,
    O: Element,
    F: Fn(C, A, A) -> O + Copy + Sync,
{
    for_each2d(iter, move |data, s, n0, n1| {
        for j in 0..n1 {
            let j = j as isize;
            let mut o = data[0].wrapping_offset(j.wrapping_mul(s[4]));
            let mut c = data[1].wrapping_offset(j.wrapping_mul(s[5])) as *const u8;
            let mut a = data[2].wrapping_offset(j.wrapping_mul(s[6])) as *const u8;
            let mut b = data[3].wrapping_offset(j.wrapping_mul(s[7])) as *const u8;
            for _ in 0..n0 {
                // SAFETY: element i of each operand lies inside its locked storage; raw
                // reads and writes allow any overlap and run in order.
                unsafe {
                    let r = f(
                        c.cast::<C>().read(),
                        a.cast::<A>().read(),
                        b.cast::<A>().read(),
                    );
                    o.cast::<O>().write(r);
                }
                o = o.wrapping_offset(s[0]);
                c = c.wrapping_offset(s[1]);
                a = a.wrapping_offset(s[2]);
                b = b.wrapping_offset(s[3]);
            }
        }
    });
}

// ---- nullary ------------------------------------------------------------------------------

/// Writes `value` to every element of the single output of `iter` (`fill_`).
pub(crate) fn nullary_fill<O: Element>(iter: &TensorIterator, value: O) {
    for_each2d(iter, move |data, s, n0, n1| {
        let mut o = data[0];
        for j in 0..n1 {
            if j > 0 {
                o = o.wrapping_offset(s[1]);
            }
            if s[0] == esize::<O>() {
                // SAFETY: `n0` contiguous aligned elements under the write lock.
                unsafe { out_slice::<O>(o, n0) }.fill(value);
            } else {
                let mut q = o;
                for _ in 0..n0 {
                    // SAFETY: element i lies inside the locked storage.
                    unsafe { q.cast::<O>().write(value) };
                    q = q.wrapping_offset(s[0]);
                }
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::iterator::TensorIteratorConfig;
    use crate::tensor::Tensor;

    /// Views of one storage (`0, 1, 2, ...` as f32) as `(sizes, strides, offset)`,
    /// output first; no overlap checks, so that overlapping cases reach the kernels.
    type Views<'a> = &'a [View];

    /// `(sizes, strides, storage_offset)` of one view.
    type View = (&'static [usize], &'static [isize], usize);

    /// Runs `kernel` on fresh copies of the storage and returns the storage afterwards.
    fn run_on(len: usize, views: Views<'_>, kernel: &dyn Fn(&TensorIterator)) -> Vec<f32> {
        let base = Tensor::from_vec((0..len).map(|i| i as f32 * 0.5 - 3.0).collect(), &[len])
            .expect("base");
        let ts: Vec<Tensor> = views
            .iter()
            .map(|(sz, st, off)| base.as_strided(sz, st, *off).expect("view"))
            .collect();
        let mut config = TensorIteratorConfig::new()
            .set_check_mem_overlap(false)
            .resize_outputs(false)
            .add_output(&ts[0]);
        for t in &ts[1..] {
            config = config.add_input(t);
        }
        kernel(&TensorIterator::build(config).expect("iterator"));
        base.to_vec::<f32>().expect("values")
    }

    /// Layouts of `[out, in]`, `[out, a, b]` and `[out, c, a, b]` covering each inner
    /// loop of the fast path: contiguous, in place, scalar broadcast (disjoint, in place
    /// and overlapping the output; for `[out, c, a, b]` a scalar `a` beside `b` disjoint
    /// or in place), strided, and an output overlapping its input.
    fn cases(arity: usize) -> Vec<Vec<View>> {
        let c: View = (&[4, 8], &[8, 1], 0);
        let d: View = (&[4, 8], &[8, 1], 40);
        let e: View = (&[4, 8], &[8, 1], 80);
        let bcast: View = (&[4, 8], &[1, 0], 3);
        let bcast_in_out: View = (&[4, 8], &[0, 0], 9);
        let transposed: View = (&[4, 8], &[1, 4], 40);
        let shifted: View = (&[4, 8], &[8, 1], 1);
        let long: View = (&[3, 70], &[70, 1], 0);
        let long_in: View = (&[3, 70], &[70, 1], 300);
        let long_bcast: View = (&[3, 70], &[0, 0], 20);
        let long_scalar: View = (&[3, 70], &[0, 0], 550);
        let mut out = vec![
            vec![c, d, e, d],
            vec![c, c, e, d],
            vec![c, d, c, d],
            vec![c, d, bcast, e],
            vec![c, bcast, d, bcast],
            vec![c, c, bcast, c],
            vec![c, bcast_in_out, bcast_in_out, c],
            vec![c, c, bcast_in_out, bcast_in_out],
            vec![c, transposed, d, transposed],
            vec![c, shifted, shifted, e],
            vec![c, shifted, bcast, shifted],
            vec![c, bcast, shifted, bcast],
            vec![shifted, c, c, c],
            vec![long, long_in, long_bcast, long_in],
            vec![long, long_bcast, long, long_bcast],
            vec![long, long_in, long_scalar, long],
            vec![long, long_in, long_scalar, long_in],
        ];
        for v in &mut out {
            v.truncate(arity + 1);
        }
        out
    }

    #[test]
    fn walks_compute_what_the_fast_loops_compute() {
        let len = 600;
        for views in cases(1) {
            let f = |x: f32| x * 2.0 + 1.0;
            let fast = run_on(len, &views, &|it| unary_fast::<f32, f32, _>(it, f));
            let walk = run_on(len, &views, &|it| unary_walk::<f32, f32, _>(it, f));
            assert_eq!(fast, walk, "unary {views:?}");
        }
        for views in cases(2) {
            let f = |x: f32, y: f32| x * 3.0 - y;
            let fast = run_on(len, &views, &|it| binary_loops::<f32, f32, _, false>(it, f));
            let fma = run_on(len, &views, &|it| binary_loops::<f32, f32, _, true>(it, f));
            let walk = run_on(len, &views, &|it| binary_walk::<f32, f32, _>(it, f));
            assert_eq!(fast, walk, "binary {views:?}");
            assert_eq!(fma, walk, "binary_fma {views:?}");
        }
        for views in cases(3) {
            let f = |c: f32, x: f32, y: f32| if c > 0.0 { x - y } else { x * y };
            let fast = run_on(len, &views, &|it| ternary_fast::<f32, f32, f32, _>(it, f));
            let walk = run_on(len, &views, &|it| ternary_walk::<f32, f32, f32, _>(it, f));
            assert_eq!(fast, walk, "ternary {views:?}");
        }
    }
}
