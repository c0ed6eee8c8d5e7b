//! The `Element` trait: which Rust type stores which [`DType`].

use crate::dtype::DType;
use half::{bf16, f16};
use num_traits::AsPrimitive;

/// A Rust type that is the storage type of one [`DType`].
///
/// Implemented for `bool`, `u8`, `i8`, `i16`, `i32`, `i64`, [`half::f16`],
/// [`half::bf16`], `f32` and `f64`. Conversions follow C++'s `static_cast`, as PyTorch's
/// `to(dtype)` does on x86-64: floats truncate toward zero into integers, integers wrap
/// when narrowed, and anything non-zero is `true` as a bool. A float outside the
/// target's range is converted as the compiled C++ does (see [`Element::from_f64`]):
/// `300.0 → uint8` is `44`, `NaN → int32` is `i32::MIN`.
pub trait Element:
    Copy + Send + Sync + 'static + Default + PartialEq + PartialOrd + std::fmt::Debug
{
    /// The dtype this type stores.
    const DTYPE: DType;
    /// The additive identity.
    const ZERO: Self;
    /// The multiplicative identity.
    const ONE: Self;
    /// Widens to `f64` (exact for every type but `i64` beyond 2^53).
    fn to_f64(self) -> f64;
    /// Narrows from `f64` like PyTorch's `c10::convert` compiled for x86-64.
    ///
    /// Integer targets truncate toward zero with the SSE conversion C++ compiles
    /// `static_cast` to, which gives the "integer indefinite" value (the type's minimum)
    /// for NaN and for values out of the converted width, then wrap into the target:
    /// - `i64`: `cvttsd2si` to 64 bits (NaN, `±inf`, `|v| ≥ 2^63` → `i64::MIN`);
    /// - `i32`, `i16`, `i8`: `cvttsd2si` to 32 bits (NaN and values outside `i32` →
    ///   `i32::MIN`), then the low bits (`1e10 → i32` is `i32::MIN`, `40000.0 → i16` is
    ///   `-25536`);
    /// - `u8`: through `int64_t` (c10's `static_cast_with_inter_type<uint8_t, _>`), then
    ///   the low byte: `300.0 → 44`, `-1.0 → 255`, NaN → `0`;
    /// - `bool`: `v != 0` (NaN is `true`);
    /// - floats round to nearest; `f16`/`bf16` go through `f32` as c10's constructors do.
    ///
    /// The value of an `f32`, `f16` or `bf16` widened to `f64` is exact, so one rule per
    /// target serves every float source.
    fn from_f64(v: f64) -> Self;
    /// Widens an integral or bool value to `i64` (floats truncate).
    fn to_i64(self) -> i64;
    /// Converts from `i64` like C++'s `static_cast` (wrapping for narrower ints).
    fn from_i64(v: i64) -> Self;
    /// Converts to another element type as PyTorch's `to(dtype)` does.
    #[inline(always)]
    fn cast<U: Element>(self) -> U {
        if Self::DTYPE.is_floating() {
            U::from_f64(self.to_f64())
        } else {
            U::from_i64(self.to_i64())
        }
    }
}

impl Element for bool {
    const DTYPE: DType = DType::Bool;
    const ZERO: Self = false;
    const ONE: Self = true;
    #[inline(always)]
    fn to_f64(self) -> f64 {
        self as u8 as f64
    }
    #[inline(always)]
    fn from_f64(v: f64) -> Self {
        v != 0.0
    }
    #[inline(always)]
    fn to_i64(self) -> i64 {
        self as i64
    }
    #[inline(always)]
    fn from_i64(v: i64) -> Self {
        v != 0
    }
}

/// `cvttsd2si` to 64 bits: truncation toward zero, `i64::MIN` for NaN and out of range.
#[inline(always)]
fn truncate_i64(v: f64) -> i64 {
    // 2^63 is exact in f64; `-2^63 <= v < 2^63` is exactly the convertible range.
    if (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&v) {
        v as i64
    } else {
        i64::MIN
    }
}

/// `cvttsd2si` to 32 bits: truncation toward zero, `i32::MIN` for NaN and when the
/// truncated value does not fit in `i32`.
#[inline(always)]
fn truncate_i32(v: f64) -> i32 {
    if v > -2_147_483_649.0 && v < 2_147_483_648.0 {
        v as i32
    } else {
        i32::MIN
    }
}

macro_rules! int_element {
    ($t:ty, $d:expr, $from_float:expr) => {
        impl Element for $t {
            const DTYPE: DType = $d;
            const ZERO: Self = 0;
            const ONE: Self = 1;
            #[inline(always)]
            fn to_f64(self) -> f64 {
                self.as_()
            }
            #[inline(always)]
            fn from_f64(v: f64) -> Self {
                $from_float(v)
            }
            #[inline(always)]
            fn to_i64(self) -> i64 {
                self.as_()
            }
            #[inline(always)]
            fn from_i64(v: i64) -> Self {
                v.as_()
            }
        }
    };
}
int_element!(u8, DType::U8, |v| truncate_i64(v) as u8);
int_element!(i8, DType::I8, |v| truncate_i32(v) as i8);
int_element!(i16, DType::I16, |v| truncate_i32(v) as i16);
int_element!(i32, DType::I32, truncate_i32);
int_element!(i64, DType::I64, truncate_i64);

macro_rules! float_element {
    ($t:ty, $d:expr) => {
        impl Element for $t {
            const DTYPE: DType = $d;
            const ZERO: Self = 0.0;
            const ONE: Self = 1.0;
            #[inline(always)]
            fn to_f64(self) -> f64 {
                self as f64
            }
            #[inline(always)]
            fn from_f64(v: f64) -> Self {
                v as $t
            }
            #[inline(always)]
            fn to_i64(self) -> i64 {
                self as i64
            }
            #[inline(always)]
            fn from_i64(v: i64) -> Self {
                v as $t
            }
        }
    };
}
float_element!(f32, DType::F32);
float_element!(f64, DType::F64);

macro_rules! half_element {
    ($t:ty, $d:expr) => {
        impl Element for $t {
            const DTYPE: DType = $d;
            const ZERO: Self = <$t>::ZERO;
            const ONE: Self = <$t>::ONE;
            #[inline(always)]
            fn to_f64(self) -> f64 {
                self.to_f64()
            }
            #[inline(always)]
            fn from_f64(v: f64) -> Self {
                // c10::Half / c10::BFloat16 are built from a float: double → float →
                // half (two roundings, as PyTorch's cast of a double tensor).
                <$t>::from_f32(v as f32)
            }
            #[inline(always)]
            fn to_i64(self) -> i64 {
                self.to_f32() as i64
            }
            #[inline(always)]
            fn from_i64(v: i64) -> Self {
                <$t>::from_f32(v as f32)
            }
        }
    };
}
half_element!(f16, DType::F16);
half_element!(bf16, DType::BF16);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_to_int_truncates_toward_zero() {
        assert_eq!((-2.7f32).cast::<i32>(), -2);
        assert_eq!(2.5f64.cast::<u8>(), 2);
    }

    #[test]
    fn int_narrowing_wraps() {
        assert_eq!(300i64.cast::<u8>(), 44);
        assert!(3i32.cast::<bool>());
        assert!(!0.0f32.cast::<bool>());
    }

    #[test]
    fn float_300_to_uint8_wraps_to_44() {
        assert_eq!(300.0f32.cast::<u8>(), 44);
        assert_eq!(300.7f64.cast::<u8>(), 44);
        assert_eq!(u8::from_f64(256.0), 0);
    }

    #[test]
    fn negative_float_to_uint8_wraps_through_int64() {
        assert_eq!((-1.0f32).cast::<u8>(), 255);
        assert_eq!((-1.9f64).cast::<u8>(), 255);
        assert_eq!((-129.0f32).cast::<u8>(), 127);
        // Through int64, not int32: 2^32 + 3 keeps its low byte.
        assert_eq!(u8::from_f64(4_294_967_299.0), 3);
    }

    #[test]
    fn nan_and_inf_to_integers_are_the_integer_indefinite_value() {
        assert_eq!(i32::from_f64(f64::NAN), i32::MIN);
        assert_eq!(i64::from_f64(f64::NAN), i64::MIN);
        assert_eq!(i64::from_f64(f64::INFINITY), i64::MIN);
        assert_eq!(i64::from_f64(f64::NEG_INFINITY), i64::MIN);
        assert_eq!(i32::from_f64(f64::INFINITY), i32::MIN);
        // i32::MIN narrowed: low bits are zero.
        assert_eq!(i16::from_f64(f64::NAN), 0);
        assert_eq!(i8::from_f64(f64::NAN), 0);
        assert_eq!(u8::from_f64(f64::NAN), 0);
        assert!(bool::from_f64(f64::NAN));
        assert_eq!(f32::NAN.cast::<i32>(), i32::MIN);
    }

    #[test]
    fn float_1e10_to_int32_is_int_min() {
        assert_eq!(i32::from_f64(1e10), i32::MIN);
        assert_eq!(i32::from_f64(-1e10), i32::MIN);
        assert_eq!(1e10f32.cast::<i64>(), 10_000_000_000);
    }

    #[test]
    fn int32_range_edges_convert_exactly() {
        assert_eq!(i32::from_f64(2_147_483_647.9), i32::MAX);
        assert_eq!(i32::from_f64(2_147_483_648.0), i32::MIN);
        assert_eq!(i32::from_f64(-2_147_483_648.9), i32::MIN);
        assert_eq!(i32::from_f64(-2_147_483_649.0), i32::MIN);
        assert_eq!(i32::from_f64(-2_147_483_647.5), -2_147_483_647);
    }

    #[test]
    fn int64_range_edges_convert_exactly() {
        assert_eq!(
            i64::from_f64(9.223372036854775e18),
            9_223_372_036_854_774_784
        );
        assert_eq!(i64::from_f64(9_223_372_036_854_775_808.0), i64::MIN);
        assert_eq!(i64::from_f64(-9_223_372_036_854_775_808.0), i64::MIN);
        assert_eq!(i64::from_f64(-1e19), i64::MIN);
    }

    #[test]
    fn float_to_int16_and_int8_narrow_from_int32() {
        assert_eq!(i16::from_f64(40000.0), -25536);
        assert_eq!(i8::from_f64(200.0), -56);
        assert_eq!(i8::from_f64(-129.5), 127);
        assert_eq!(i16::from_f64(1e10), 0);
    }

    #[test]
    fn double_to_half_rounds_through_float() {
        // 1 + 2^-11 + 2^-40: correctly rounded to f16 it is 1 + 2^-10; through f32 (as
        // c10::Half(float(x)) does) the 2^-40 is lost first and the tie rounds to even.
        let v = 1.0 + 2f64.powi(-11) + 2f64.powi(-40);
        assert_eq!(<f16 as Element>::from_f64(v), f16::ONE);
        assert_eq!(v.cast::<bf16>(), bf16::ONE);
    }

    #[test]
    fn large_i64_survives_i64_round_trip() {
        let v = (1i64 << 60) + 1;
        assert_eq!(v.cast::<i64>(), v);
    }
}
