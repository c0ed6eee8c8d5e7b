//! The `Element` trait: which Rust type stores which [`DType`].

use crate::DType;
use half::{bf16, f16};
use num_traits::AsPrimitive;

/// A Rust type that is the storage type of one [`DType`].
///
/// Implemented for `bool`, `u8`, `i8`, `i16`, `i32`, `i64`, [`half::f16`],
/// [`half::bf16`], `f32` and `f64`. Conversions follow C++'s `static_cast`, as PyTorch's
/// `to(dtype)` does: floats truncate toward zero into integers, integers wrap when
/// narrowed, and anything non-zero is `true` as a bool.
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
    /// Narrows from `f64` like C++'s `static_cast` (Rust `as`: saturating for ints).
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

macro_rules! int_element {
    ($t:ty, $d:expr) => {
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
                v.as_()
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
int_element!(u8, DType::U8);
int_element!(i8, DType::I8);
int_element!(i16, DType::I16);
int_element!(i32, DType::I32);
int_element!(i64, DType::I64);

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
                <$t>::from_f64(v)
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
    fn large_i64_survives_i64_round_trip() {
        let v = (1i64 << 60) + 1;
        assert_eq!(v.cast::<i64>(), v);
    }
}
