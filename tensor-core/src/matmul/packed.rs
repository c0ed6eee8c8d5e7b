//! The packing GEMM of `f32`/`f64` products: the `gemm` crate's kernels (`gemm-f32`,
//! `gemm-f64`; candle's and faer's GEMM), called without the `gemm` crate's front end so
//! that its complex and half-precision kernels are not compiled.
//!
//! The crate picks its micro-kernel once, at the first call, from the CPU: AVX-512F
//! (16 f32 lanes), else AVX2 with FMA, else a scalar kernel ([`capability`] names the
//! same choice). Its packing splits a product along rows and columns of the result over
//! rayon's pool (`Parallelism::Rayon`), so a product of few rows and many columns (a
//! sequence of 9 tokens through a `768 × 3072` weight) keeps every thread busy, where a
//! split by rows alone cannot.

use super::strided::Strided;
use gemm_common::Parallelism;

/// The element types the `gemm` crate's kernels serve.
pub(crate) trait Packed: Copy + 'static {
    /// `gemm-f32`'s or `gemm-f64`'s entry point (chosen for the CPU at its first call):
    /// `dst = dst + lhs · rhs` (`dst` read only when `read_dst`) for an `m×n` `dst`,
    /// `m×k` `lhs` and `k×n` `rhs`, each given as (pointer, column stride, row stride).
    ///
    /// # Safety
    /// Every element the strides reach must be valid to read (`lhs`, `rhs`) or write
    /// (`dst`), and `dst` must alias neither input.
    unsafe fn kernel(
        mnk: (usize, usize, usize),
        dst: (*mut Self, isize, isize),
        read_dst: bool,
        lhs: (*const Self, isize, isize),
        rhs: (*const Self, isize, isize),
        parallelism: Parallelism,
    );
}

macro_rules! packed {
    ($t:ty, $get:path) => {
        impl Packed for $t {
            #[inline(always)]
            unsafe fn kernel(
                (m, n, k): (usize, usize, usize),
                dst: (*mut $t, isize, isize),
                read_dst: bool,
                lhs: (*const $t, isize, isize),
                rhs: (*const $t, isize, isize),
                parallelism: Parallelism,
            ) {
                // SAFETY: the caller's contract is the kernel's (alpha = beta = 1, no
                // conjugation).
                unsafe {
                    $get()(
                        m,
                        n,
                        k,
                        dst.0,
                        dst.1,
                        dst.2,
                        read_dst,
                        lhs.0,
                        lhs.1,
                        lhs.2,
                        rhs.0,
                        rhs.1,
                        rhs.2,
                        1.0,
                        1.0,
                        false,
                        false,
                        false,
                        parallelism,
                    )
                }
            }
        }
    };
}
packed!(f32, gemm_f32::gemm::f32::get_gemm_fn);
packed!(f64, gemm_f64::gemm::f64::get_gemm_fn);

/// `c = a · b` (or `c += a · b` when `accumulate`) for an `m×k` `a` and a `k×n` `b`
/// read through their strides; `c` is row-major `m×n`. `threads`: whether the crate may
/// split the product over rayon's pool (false inside a parallel region or for a small
/// product). `m, k, n > 0`.
///
/// Every `(i, p)` of `a` and `(p, j)` of `b` must lie inside its slice (the plan's
/// `in_bounds` checked it); `c` holds `m · n` values.
#[inline(always)]
pub(super) fn gemm<T: Packed>(
    (m, k, n): (usize, usize, usize),
    a: Strided<'_, T>,
    b: Strided<'_, T>,
    c: &mut [T],
    accumulate: bool,
    threads: bool,
) {
    assert!(
        c.len() >= m * n,
        "packed gemm: output of {} for {m}x{n}",
        c.len()
    );
    let parallelism = if threads {
        Parallelism::Rayon(rayon::current_num_threads())
    } else {
        Parallelism::None
    };
    // The crate's kernels want a column-major result: `cᵀ = bᵀ · aᵀ` with `cᵀ`
    // column-major is our row-major `c` (what the `gemm` crate's front end does for a
    // row-major destination). A negative stride along `k` is walked from its other end
    // in both operands (as that front end does too).
    let (mut lhs, mut lhs_cs, lhs_rs) = (b.offset, b.rs, b.cs);
    let (mut rhs, rhs_cs, mut rhs_rs) = (a.offset, a.rs, a.cs);
    if lhs_cs < 0 {
        lhs += (k as isize - 1) * lhs_cs;
        lhs_cs = -lhs_cs;
        rhs += (k as isize - 1) * rhs_rs;
        rhs_rs = -rhs_rs;
    }
    // SAFETY: `lhs` and `rhs` are offsets of elements of `b` and `a` (their first
    // element along `k` after the reversal), and with the plan's bounds check every
    // element the kernel reads (rows `0..n`, columns `0..k` of `bᵀ`; rows `0..k`, columns
    // `0..m` of `aᵀ`, at the strides given) lies in `b.data` / `a.data`; `c` is an
    // exclusive slice of at least `m · n` values that aliases neither input, written as
    // the column-major `n × m` matrix `cᵀ` (column stride `n`, row stride 1).
    unsafe {
        T::kernel(
            (n, m, k),
            (c.as_mut_ptr(), n as isize, 1),
            accumulate,
            (b.data.as_ptr().offset(lhs), lhs_cs, lhs_rs),
            (a.data.as_ptr().offset(rhs), rhs_cs, rhs_rs),
            parallelism,
        );
    }
}

/// `c = a · b` (or `c += a · b` when `accumulate`) on raw matrices given as (pointer,
/// row stride, column stride) in elements: `a` is `m×k`, `b` `k×n`, `c` `m×n`, each
/// stride positive. `threads` as in [`gemm`]. What the convolutions' im2col products
/// call.
///
/// # Safety
/// Every element of `a`, `b` and `c` under the strides is valid to read (and, for `c`,
/// to write); `c`'s elements alias neither each other nor `a` or `b`; `c` is read only
/// when `accumulate`, and must then be initialised.
#[inline(always)]
pub(crate) unsafe fn gemm_raw<T: Packed>(
    (m, k, n): (usize, usize, usize),
    a: (*const T, isize, isize),
    b: (*const T, isize, isize),
    c: (*mut T, isize, isize),
    accumulate: bool,
    threads: bool,
) {
    let parallelism = if threads {
        Parallelism::Rayon(rayon::current_num_threads())
    } else {
        Parallelism::None
    };
    // As in `gemm`: `cᵀ = bᵀ · aᵀ`, each given as (pointer, column stride, row stride).
    // SAFETY: the caller's contract; `cᵀ[j, i]` is `c[i, j]` (column stride = c's row
    // stride), `bᵀ[j, p]` is `b[p, j]`, `aᵀ[p, i]` is `a[i, p]`.
    unsafe {
        T::kernel(
            (n, m, k),
            (c.0, c.1, c.2),
            accumulate,
            (b.0, b.1, b.2),
            (a.0, a.1, a.2),
            parallelism,
        );
    }
}
