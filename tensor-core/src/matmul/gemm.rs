//! The GEMM backends: `matrixmultiply`'s strided SGEMM/DGEMM for `f32`/`f64`, a plain
//! `i`-`p`-`j` loop for integers (wrapping `i64` arithmetic) and for `f16`/`bf16`
//! (accumulating in `f32`).

use super::strided::Strided;
use crate::element::Element;
use half::{bf16, f16};

/// An element type with a matrix-product kernel.
pub(super) trait GemmElement: Element {
    /// `c = a · b` for an `m×k` matrix `a` and a `k×n` matrix `b`; `c` is row-major
    /// `m×n`, zero on entry; `k > 0`, `m, n > 0`.
    fn gemm(
        m: usize,
        k: usize,
        n: usize,
        a: Strided<'_, Self>,
        b: Strided<'_, Self>,
        c: &mut [Self],
    );

    /// `c = a · b` for one row `a` (`1×k`) read in place when `b`'s rows or columns are
    /// contiguous (`gemv.rs`); `false` (nothing done) when the type or layout has no
    /// such kernel and the caller runs [`GemmElement::gemm`].
    #[inline(always)]
    fn gemv(
        _k: usize,
        _n: usize,
        _a: Strided<'_, Self>,
        _b: Strided<'_, Self>,
        _c: &mut [Self],
    ) -> bool {
        false
    }
}

macro_rules! blas_gemm {
    ($t:ty, $f:path $(, $small:path, $gemv:path)?) => {
        impl GemmElement for $t {
            $(
                #[cfg_attr(unoptimized, inline)]
                fn gemv(k: usize, n: usize, a: Strided<'_, $t>, b: Strided<'_, $t>, c: &mut [$t]) -> bool {
                    $gemv(k, n, a, b, c)
                }
            )?
            #[cfg_attr(unoptimized, inline)]
            fn gemm(
                m: usize,
                k: usize,
                n: usize,
                a: Strided<'_, $t>,
                b: Strided<'_, $t>,
                c: &mut [$t],
            ) {
                debug_assert_eq!(c.len(), m * n);
                $(if $small(m, k, n, a, b, c) {
                    return;
                })?
                // SAFETY: `in_bounds` checked that every `(i, p)` of `a` (i < m, p < k)
                // and every `(p, j)` of `b` lies inside its slice, so the offsets are in
                // bounds and the GEMM reads only those elements; `c` is an exclusive,
                // row-major m×n slice (rsc = n, csc = 1) that aliases no input.
                unsafe {
                    $f(
                        m,
                        k,
                        n,
                        1.0,
                        a.data.as_ptr().offset(a.offset),
                        a.rs,
                        a.cs,
                        b.data.as_ptr().offset(b.offset),
                        b.rs,
                        b.cs,
                        0.0,
                        c.as_mut_ptr(),
                        n as isize,
                        1,
                    );
                }
            }
        }
    };
}
blas_gemm!(
    f32,
    matrixmultiply::sgemm,
    super::small::sgemm,
    super::gemv::sgemv
);
blas_gemm!(f64, matrixmultiply::dgemm);

/// The `i`-`p`-`j` loop: for each row of `a`, accumulate `a[i, p] * b[p, :]` into an
/// accumulator row of type `A`, then convert it into `c`. `ops` is
/// `(widen, mul_add, narrow)`: `T -> A`, `(acc, x, y) -> acc + x * y`, `A -> T`.
fn loop_gemm<T: Copy, A: Copy + Default>(
    m: usize,
    k: usize,
    n: usize,
    a: Strided<'_, T>,
    b: Strided<'_, T>,
    c: &mut [T],
    ops: (impl Fn(T) -> A, impl Fn(A, A, A) -> A, impl Fn(A) -> T),
) {
    let (widen, mul_add, narrow) = ops;
    let mut acc = vec![A::default(); n];
    for (i, row) in c.chunks_mut(n).enumerate().take(m) {
        acc.fill(A::default());
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
            fn gemm(m: usize, k: usize, n: usize, a: Strided<'_, $t>, b: Strided<'_, $t>, c: &mut [$t]) {
                let ops = (|x: $t| x.to_i64(), |s: i64, x: i64, y: i64| s.wrapping_add(x.wrapping_mul(y)), <$t>::from_i64);
                loop_gemm(m, k, n, a, b, c, ops);
            }
        }
    )*};
}
int_gemm!(u8, i8, i16, i32, i64);

macro_rules! half_gemm {
    ($($t:ty),*) => {$(
        impl GemmElement for $t {
            #[cfg_attr(unoptimized, inline)]
            fn gemm(m: usize, k: usize, n: usize, a: Strided<'_, $t>, b: Strided<'_, $t>, c: &mut [$t]) {
                let ops = (|x: $t| x.to_f32(), |s: f32, x: f32, y: f32| s + x * y, <$t>::from_f32);
                loop_gemm(m, k, n, a, b, c, ops);
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
    ) {
        let ops = (
            |x: bool| x,
            |s: bool, x: bool, y: bool| s | (x & y),
            |s: bool| s,
        );
        loop_gemm(m, k, n, a, b, c, ops);
    }
}
