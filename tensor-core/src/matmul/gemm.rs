//! The GEMM backends: the `gemm` crate's packing kernels for `f32`/`f64` (`packed.rs`),
//! after `small.rs`'s direct kernel for narrow `f32` products, `few_rows.rs`'s strips
//! for a few `f32` rows times a row-major weight, and `gemv.rs`'s dot products for one
//! `f32` row times a transposed weight; a plain `i`-`p`-`j` loop for
//! integers (wrapping `i64` arithmetic) and for `f16`/`bf16` (accumulating in `f32`).
//!
//! Every backend computes `c = a · b`, or `c += a · b` when asked to accumulate (`addmm`,
//! whose `c` holds the broadcast input on entry).

use super::packed;
use super::strided::Strided;
use crate::element::Element;
use half::{bf16, f16};

/// An element type with a matrix-product kernel.
pub(super) trait GemmElement: Element {
    /// Whether [`GemmElement::gemm`] splits one product over rayon's pool itself when
    /// given `threads` (the packing kernels split along rows and columns); when `false`,
    /// the caller splits a large product by rows.
    const SPLITS: bool = false;

    /// `c = a · b` (`c += a · b` when `accumulate`) for an `m×k` matrix `a` and a `k×n`
    /// matrix `b`; `c` is row-major `m×n`; `k, m, n > 0`. `threads`: whether the kernel
    /// may use rayon's pool (never inside a parallel region).
    #[allow(clippy::too_many_arguments)]
    fn gemm(
        m: usize,
        k: usize,
        n: usize,
        a: Strided<'_, Self>,
        b: Strided<'_, Self>,
        c: &mut [Self],
        accumulate: bool,
        threads: bool,
    );

    /// `c = a · b` (or `+=`) for one row `a` (`1×k`) read in place when `b`'s columns
    /// are contiguous (`gemv.rs`); `false` (nothing done) when the type or layout has no
    /// such kernel and the caller runs [`GemmElement::gemm`].
    #[inline(always)]
    fn gemv(
        _k: usize,
        _n: usize,
        _a: Strided<'_, Self>,
        _b: Strided<'_, Self>,
        _c: &mut [Self],
        _accumulate: bool,
    ) -> bool {
        false
    }
}

impl GemmElement for f32 {
    const SPLITS: bool = true;

    #[cfg_attr(unoptimized, inline)]
    fn gemv(
        k: usize,
        n: usize,
        a: Strided<'_, f32>,
        b: Strided<'_, f32>,
        c: &mut [f32],
        accumulate: bool,
    ) -> bool {
        super::gemv::sgemv(k, n, a, b, c, accumulate)
    }

    #[cfg_attr(unoptimized, inline)]
    fn gemm(
        m: usize,
        k: usize,
        n: usize,
        a: Strided<'_, f32>,
        b: Strided<'_, f32>,
        c: &mut [f32],
        accumulate: bool,
        threads: bool,
    ) {
        if super::small::sgemm(m, k, n, a, b, c, accumulate) {
            return;
        }
        if super::few_rows::sgemm(m, k, n, a, b, c, accumulate, threads) {
            return;
        }
        packed::gemm((m, k, n), a, b, c, accumulate, threads);
    }
}

impl GemmElement for f64 {
    const SPLITS: bool = true;

    #[cfg_attr(unoptimized, inline)]
    fn gemm(
        m: usize,
        k: usize,
        n: usize,
        a: Strided<'_, f64>,
        b: Strided<'_, f64>,
        c: &mut [f64],
        accumulate: bool,
        threads: bool,
    ) {
        packed::gemm((m, k, n), a, b, c, accumulate, threads);
    }
}

/// The `i`-`p`-`j` loop: for each row of `a`, accumulate `a[i, p] * b[p, :]` into an
/// accumulator row of type `A` (starting from `c`'s row when `accumulate`, else from
/// zero), then convert it into `c`. `ops` is
/// `(widen, mul_add, narrow)`: `T -> A`, `(acc, x, y) -> acc + x * y`, `A -> T`.
#[allow(clippy::too_many_arguments)]
fn loop_gemm<T: Copy, A: Copy + Default>(
    m: usize,
    k: usize,
    n: usize,
    a: Strided<'_, T>,
    b: Strided<'_, T>,
    c: &mut [T],
    accumulate: bool,
    ops: (impl Fn(T) -> A, impl Fn(A, A, A) -> A, impl Fn(A) -> T),
) {
    let (widen, mul_add, narrow) = ops;
    let mut acc = vec![A::default(); n];
    for (i, row) in c.chunks_mut(n).enumerate().take(m) {
        if accumulate {
            for (s, &o) in acc.iter_mut().zip(row.iter()) {
                *s = widen(o);
            }
        } else {
            acc.fill(A::default());
        }
        for p in 0..k {
            let x = widen(a.at(i, p));
            for (j, s) in acc.iter_mut().enumerate() {
                *s = mul_add(*s, x, widen(b.at(p, j)));
            }
        }
        for (o, &s) in row.iter_mut().zip(&acc) {
            *o = narrow(s);
        }
    }
}

macro_rules! int_gemm {
    ($($t:ty),*) => {$(
        impl GemmElement for $t {
            #[cfg_attr(unoptimized, inline)]
            fn gemm(m: usize, k: usize, n: usize, a: Strided<'_, $t>, b: Strided<'_, $t>, c: &mut [$t], accumulate: bool, _threads: bool) {
                let ops = (|x: $t| x.to_i64(), |s: i64, x: i64, y: i64| s.wrapping_add(x.wrapping_mul(y)), <$t>::from_i64);
                loop_gemm(m, k, n, a, b, c, accumulate, ops);
            }
        }
    )*};
}
int_gemm!(u8, i8, i16, i32, i64);

macro_rules! half_gemm {
    ($($t:ty),*) => {$(
        impl GemmElement for $t {
            #[cfg_attr(unoptimized, inline)]
            fn gemm(m: usize, k: usize, n: usize, a: Strided<'_, $t>, b: Strided<'_, $t>, c: &mut [$t], accumulate: bool, _threads: bool) {
                let ops = (|x: $t| x.to_f32(), |s: f32, x: f32, y: f32| s + x * y, <$t>::from_f32);
                loop_gemm(m, k, n, a, b, c, accumulate, ops);
            }
        }
    )*};
}
half_gemm!(f16, bf16);

impl GemmElement for bool {
    /// Never called: `matmul` rejects bool operands before dispatch.
    #[cfg_attr(unoptimized, inline)]
    fn gemm(
        m: usize,
        k: usize,
        n: usize,
        a: Strided<'_, bool>,
        b: Strided<'_, bool>,
        c: &mut [bool],
        accumulate: bool,
        _threads: bool,
    ) {
        let ops = (
            |x: bool| x,
            |s: bool, x: bool, y: bool| s | (x & y),
            |s: bool| s,
        );
        loop_gemm(m, k, n, a, b, c, accumulate, ops);
    }
}
