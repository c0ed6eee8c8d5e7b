//! `Float`: the arithmetic of the types tensor-core's float kernels compute in, `f32`
//! and `f64` (PyTorch's `opmath_type`; `f16` and `bf16` are widened to `f32` first).
//!
//! Each method calls the std method of the same name (`from_usize` is an `as` cast), so
//! a generic kernel gives the same bits as one written for `f32` or `f64`. Our own trait
//! rather than `num_traits::Float`, which would put num-traits, libm and autocfg in
//! every build for these few methods.

use std::ops::{Add, Div, Mul, Neg, Sub};

/// `f32` or `f64` as a generic kernel uses it: arithmetic, comparisons, constants and
/// the std functions the kernels call.
pub(crate) trait Float:
    Copy
    + PartialOrd
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
{
    /// `0.0`.
    fn zero() -> Self;
    /// `1.0`.
    fn one() -> Self;
    /// A quiet NaN.
    fn nan() -> Self;
    /// `-∞`.
    fn neg_infinity() -> Self;
    /// The nearest value to `n` (an element count).
    fn from_usize(n: usize) -> Self;
    /// `e^self`.
    fn exp(self) -> Self;
    /// The natural logarithm.
    fn ln(self) -> Self;
    /// The square root.
    fn sqrt(self) -> Self;
    /// The smaller of two values; a NaN loses to a number (IEEE `minNum`).
    fn min(self, other: Self) -> Self;
    /// The larger of two values; a NaN loses to a number (IEEE `maxNum`).
    fn max(self, other: Self) -> Self;
    /// `true` for `±∞`.
    fn is_infinite(self) -> bool;
}

macro_rules! float {
    ($t:ident) => {
        impl Float for $t {
            #[inline(always)]
            fn zero() -> $t {
                0.0
            }
            #[inline(always)]
            fn one() -> $t {
                1.0
            }
            #[inline(always)]
            fn nan() -> $t {
                $t::NAN
            }
            #[inline(always)]
            fn neg_infinity() -> $t {
                $t::NEG_INFINITY
            }
            #[inline(always)]
            fn from_usize(n: usize) -> $t {
                n as $t
            }
            #[inline(always)]
            fn exp(self) -> $t {
                $t::exp(self)
            }
            #[inline(always)]
            fn ln(self) -> $t {
                $t::ln(self)
            }
            #[inline(always)]
            fn sqrt(self) -> $t {
                $t::sqrt(self)
            }
            #[inline(always)]
            fn min(self, other: $t) -> $t {
                $t::min(self, other)
            }
            #[inline(always)]
            fn max(self, other: $t) -> $t {
                $t::max(self, other)
            }
            #[inline(always)]
            fn is_infinite(self) -> bool {
                $t::is_infinite(self)
            }
        }
    };
}
float!(f32);
float!(f64);
