//! Per-type scalar arithmetic with PyTorch's CPU semantics: integers wrap, floats follow
//! IEEE with NaN-propagating `maximum`/`minimum`, bool is logical, and float16/bfloat16
//! compute through `f32` and round once (PyTorch's `opmath_t`).

use crate::element::Element;
use half::{bf16, f16};

/// Elementwise arithmetic on one element type.
pub(crate) trait Arith: Element {
    /// `a + b` (bool: `a || b`; ints wrap).
    fn add(a: Self, b: Self) -> Self;
    /// `a - b` (ints wrap; bool rejected before the kernel).
    fn sub(a: Self, b: Self) -> Self;
    /// `a * b` (bool: `a && b`; ints wrap).
    fn mul(a: Self, b: Self) -> Self;
    /// `a / b` (true division for floats; ints truncate, `x / 0 == 0`).
    fn div(a: Self, b: Self) -> Self;
    /// `-a` (ints wrap).
    fn neg(a: Self) -> Self;
    /// `|a|` (ints wrap at the minimum).
    fn abs(a: Self) -> Self;
    /// `torch.maximum`: NaN if either is NaN.
    fn maximum(a: Self, b: Self) -> Self;
    /// `torch.minimum`: NaN if either is NaN.
    fn minimum(a: Self, b: Self) -> Self;
    /// `torch.pow`: `powi` for ints (negative exponents give 0 except for bases ±1).
    fn pow(a: Self, b: Self) -> Self;
    /// `self + value * t1 * t2` (addcmul), `value` already converted.
    fn addcmul(s: Self, t1: Self, t2: Self, value: Self) -> Self;
    /// `max(a, 0)` (`clamp_min(a, 0)`): NaN stays NaN.
    #[inline(always)]
    fn relu(a: Self) -> Self {
        Self::clamp(a, Some(Self::ZERO), None)
    }
    /// `std::min(std::max(a, lo), hi)`: NaN stays NaN; `lo > hi` gives `hi`.
    #[inline(always)]
    fn clamp(a: Self, lo: Option<Self>, hi: Option<Self>) -> Self {
        let mut x = a;
        if let Some(lo) = lo {
            if x < lo {
                x = lo;
            }
        }
        if let Some(hi) = hi {
            if hi < x {
                x = hi;
            }
        }
        x
    }
}

/// The floating types' math: each element is computed in `Self::Math` (`f32` for `f16`,
/// `bf16` and `f32`, `f64` for `f64`: PyTorch's `opmath_type`) and rounded back once, so a
/// unary float op is one closure over num-traits' `Float` (`|x| x.exp()`), written once
/// for every float dtype (the table in `ops/unary/defs.rs`).
pub(crate) trait FloatMath: Arith {
    /// The type the math is done in.
    type Math: num_traits::Float;
    /// `f` applied to `a` widened to [`FloatMath::Math`], rounded back to `Self`.
    fn map(a: Self, f: impl Fn(Self::Math) -> Self::Math) -> Self;
}

impl Arith for bool {
    #[inline(always)]
    fn add(a: Self, b: Self) -> Self {
        a | b
    }
    #[inline(always)]
    fn sub(a: Self, b: Self) -> Self {
        a ^ b
    }
    #[inline(always)]
    fn mul(a: Self, b: Self) -> Self {
        a & b
    }
    #[inline(always)]
    fn div(a: Self, _b: Self) -> Self {
        a
    }
    #[inline(always)]
    fn neg(a: Self) -> Self {
        a
    }
    #[inline(always)]
    fn abs(a: Self) -> Self {
        a
    }
    #[inline(always)]
    fn maximum(a: Self, b: Self) -> Self {
        a | b
    }
    #[inline(always)]
    fn minimum(a: Self, b: Self) -> Self {
        a & b
    }
    #[inline(always)]
    fn pow(a: Self, b: Self) -> Self {
        a | !b
    }
    #[inline(always)]
    fn addcmul(s: Self, t1: Self, t2: Self, value: Self) -> Self {
        s | (value & t1 & t2)
    }
}

macro_rules! int_arith {
    ($t:ty, $signed:expr) => {
        impl Arith for $t {
            #[inline(always)]
            fn add(a: Self, b: Self) -> Self {
                a.wrapping_add(b)
            }
            #[inline(always)]
            fn sub(a: Self, b: Self) -> Self {
                a.wrapping_sub(b)
            }
            #[inline(always)]
            fn mul(a: Self, b: Self) -> Self {
                a.wrapping_mul(b)
            }
            #[inline(always)]
            fn div(a: Self, b: Self) -> Self {
                if b == 0 {
                    0
                } else {
                    a.wrapping_div(b)
                }
            }
            #[inline(always)]
            fn neg(a: Self) -> Self {
                (0 as $t).wrapping_sub(a)
            }
            #[inline(always)]
            #[allow(unused_comparisons)]
            fn abs(a: Self) -> Self {
                if a < 0 {
                    (0 as $t).wrapping_sub(a)
                } else {
                    a
                }
            }
            #[inline(always)]
            fn maximum(a: Self, b: Self) -> Self {
                if a < b {
                    b
                } else {
                    a
                }
            }
            #[inline(always)]
            fn minimum(a: Self, b: Self) -> Self {
                if b < a {
                    b
                } else {
                    a
                }
            }
            #[inline(always)]
            #[allow(unused_comparisons)]
            fn pow(a: Self, b: Self) -> Self {
                if $signed && b < 0 {
                    if a == 1 {
                        return 1;
                    }
                    if $signed && a == (0 as $t).wrapping_sub(1) {
                        return if b % 2 != 0 { a } else { 1 };
                    }
                    return 0;
                }
                let (mut base, mut e, mut result): ($t, $t, $t) = (a, b, 1);
                while e != 0 {
                    if e & 1 != 0 {
                        result = result.wrapping_mul(base);
                    }
                    base = base.wrapping_mul(base);
                    e >>= 1;
                }
                result
            }
            #[inline(always)]
            fn addcmul(s: Self, t1: Self, t2: Self, value: Self) -> Self {
                s.wrapping_add(value.wrapping_mul(t1).wrapping_mul(t2))
            }
        }
    };
}
int_arith!(u8, false);
int_arith!(i8, true);
int_arith!(i16, true);
int_arith!(i32, true);
int_arith!(i64, true);

macro_rules! float_arith {
    ($t:ty) => {
        impl Arith for $t {
            #[inline(always)]
            fn add(a: Self, b: Self) -> Self {
                a + b
            }
            #[inline(always)]
            fn sub(a: Self, b: Self) -> Self {
                a - b
            }
            #[inline(always)]
            fn mul(a: Self, b: Self) -> Self {
                a * b
            }
            #[inline(always)]
            fn div(a: Self, b: Self) -> Self {
                a / b
            }
            #[inline(always)]
            fn neg(a: Self) -> Self {
                -a
            }
            #[inline(always)]
            fn abs(a: Self) -> Self {
                a.abs()
            }
            #[inline(always)]
            fn maximum(a: Self, b: Self) -> Self {
                if a.is_nan() || b.is_nan() {
                    <$t>::NAN
                } else if a < b {
                    b
                } else {
                    a
                }
            }
            #[inline(always)]
            fn minimum(a: Self, b: Self) -> Self {
                if a.is_nan() || b.is_nan() {
                    <$t>::NAN
                } else if b < a {
                    b
                } else {
                    a
                }
            }
            #[inline(always)]
            fn pow(a: Self, b: Self) -> Self {
                a.powf(b)
            }
            #[inline(always)]
            fn addcmul(s: Self, t1: Self, t2: Self, value: Self) -> Self {
                s + value * t1 * t2
            }
        }

        impl FloatMath for $t {
            type Math = $t;
            #[inline(always)]
            fn map(a: Self, f: impl Fn($t) -> $t) -> Self {
                f(a)
            }
        }
    };
}
float_arith!(f32);
float_arith!(f64);

macro_rules! half_arith {
    ($t:ty) => {
        impl Arith for $t {
            #[inline(always)]
            fn add(a: Self, b: Self) -> Self {
                <$t>::from_f32(a.to_f32() + b.to_f32())
            }
            #[inline(always)]
            fn sub(a: Self, b: Self) -> Self {
                <$t>::from_f32(a.to_f32() - b.to_f32())
            }
            #[inline(always)]
            fn mul(a: Self, b: Self) -> Self {
                <$t>::from_f32(a.to_f32() * b.to_f32())
            }
            #[inline(always)]
            fn div(a: Self, b: Self) -> Self {
                <$t>::from_f32(a.to_f32() / b.to_f32())
            }
            #[inline(always)]
            fn neg(a: Self) -> Self {
                -a
            }
            #[inline(always)]
            fn abs(a: Self) -> Self {
                <$t>::from_f32(a.to_f32().abs())
            }
            #[inline(always)]
            fn maximum(a: Self, b: Self) -> Self {
                <$t>::from_f32(<f32 as Arith>::maximum(a.to_f32(), b.to_f32()))
            }
            #[inline(always)]
            fn minimum(a: Self, b: Self) -> Self {
                <$t>::from_f32(<f32 as Arith>::minimum(a.to_f32(), b.to_f32()))
            }
            #[inline(always)]
            fn pow(a: Self, b: Self) -> Self {
                <$t>::from_f32(a.to_f32().powf(b.to_f32()))
            }
            #[inline(always)]
            fn addcmul(s: Self, t1: Self, t2: Self, value: Self) -> Self {
                <$t>::from_f32(s.to_f32() + value.to_f32() * t1.to_f32() * t2.to_f32())
            }
        }

        impl FloatMath for $t {
            type Math = f32;
            #[inline(always)]
            fn map(a: Self, f: impl Fn(f32) -> f32) -> Self {
                <$t>::from_f32(f(a.to_f32()))
            }
        }
    };
}
half_arith!(f16);
half_arith!(bf16);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_pow_with_negative_exponent() {
        assert_eq!(<i32 as Arith>::pow(2, -1), 0);
        assert_eq!(<i32 as Arith>::pow(1, -3), 1);
        assert_eq!(<i32 as Arith>::pow(-1, -3), -1);
        assert_eq!(<i32 as Arith>::pow(-1, -2), 1);
        assert_eq!(<i64 as Arith>::pow(3, 4), 81);
    }

    #[test]
    fn maximum_propagates_nan() {
        assert!(<f32 as Arith>::maximum(1.0, f32::NAN).is_nan());
        assert!(<f64 as Arith>::minimum(f64::NAN, 1.0).is_nan());
        assert_eq!(<f32 as Arith>::clamp(5.0, Some(3.0), Some(1.0)), 1.0);
        assert!(<f32 as Arith>::clamp(f32::NAN, Some(0.0), None).is_nan());
    }

    #[test]
    fn ints_wrap() {
        assert_eq!(<i8 as Arith>::add(127, 1), -128);
        assert_eq!(<u8 as Arith>::neg(1), 255);
        assert_eq!(<i32 as Arith>::abs(i32::MIN), i32::MIN);
    }
}
