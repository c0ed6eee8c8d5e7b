//! The float arithmetic of the kernels: the accumulation type of each float dtype
//! (PyTorch's `opmath_type`: `f32` for `f16`, `bf16` and `f32`; `f64` for `f64`), the
//! one trait that maps an element to it ([`FloatAcc`], used by the nn kernels, their
//! backward and the float reductions), the one dispatch over the float dtypes
//! ([`dispatch_float`]), and an `exp` for `f32` that LLVM vectorises (a polynomial, as
//! Sleef's or Cephes', instead of a libm call per element).

use crate::dtype::DType;
use crate::element::Element;
use crate::error::{Error, Result};
use half::{bf16, f16};
use num_traits::Float;

/// The type a kernel computes in: `f32` or `f64` (an element type itself, so a kernel
/// can load its values into it and store them from it).
pub(crate) trait Acc:
    Float + Element + Send + Sync + Default + std::iter::Sum + 'static
{
    /// `e^x`, accurate to about an ulp.
    fn exp_fast(self) -> Self;
    /// `e^x` as [`Acc::exp_fast`], its polynomial in fused multiply-adds: one
    /// instruction each in a loop run through `widest` or `vectorized` (both enable
    /// FMA), a libm `fma` call each anywhere else (the same value, slowly). For the row
    /// kernels, which always run through `widest`.
    fn exp_fused(self) -> Self;
    /// Conversion from an `f64` constant.
    fn c(v: f64) -> Self;
}

impl Acc for f32 {
    #[inline(always)]
    fn exp_fast(self) -> f32 {
        exp_f32(self)
    }
    #[inline(always)]
    fn exp_fused(self) -> f32 {
        exp_f32_fused(self)
    }
    #[inline(always)]
    fn c(v: f64) -> f32 {
        v as f32
    }
}

impl Acc for f64 {
    #[inline(always)]
    fn exp_fast(self) -> f64 {
        self.exp()
    }
    #[inline(always)]
    fn exp_fused(self) -> f64 {
        self.exp()
    }
    #[inline(always)]
    fn c(v: f64) -> f64 {
        v
    }
}

/// A float element and the type PyTorch accumulates it in on CPU (`f32` for `f16`,
/// `bf16` and `f32`; `f64` for `f64`).
pub(crate) trait FloatAcc: Element {
    /// The accumulation type (`at::opmath_type`).
    type A: Acc;
    /// Widens to the accumulation type (exact).
    fn up(self) -> Self::A;
    /// Rounds from the accumulation type to nearest.
    fn down(a: Self::A) -> Self;
}

macro_rules! float_acc {
    ($t:ty, $a:ty, $up:expr, $down:expr) => {
        impl FloatAcc for $t {
            type A = $a;
            #[inline(always)]
            fn up(self) -> $a {
                $up(self)
            }
            #[inline(always)]
            fn down(a: $a) -> $t {
                $down(a)
            }
        }
    };
}
float_acc!(f32, f32, |x| x, |a| a);
float_acc!(f64, f64, |x| x, |a| a);
float_acc!(f16, f32, f16::to_f32, f16::from_f32);
float_acc!(bf16, f32, bf16::to_f32, bf16::from_f32);

/// PyTorch's `AT_DISPATCH_FLOATING_TYPES_AND2(Half, BFloat16, ...)` failure:
/// `"{kernel}" not implemented for 'Long'`.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn not_implemented(kernel: &str, dtype: DType) -> Error {
    Error::UnsupportedDType {
        message: format!(
            "\"{kernel}\" not implemented for '{}'",
            dtype.scalar_type_name()
        ),
    }
}

/// Runs `$body` with `$T` bound to the element type of a float `$dtype`; any other
/// dtype is PyTorch's `"{$kernel}" not implemented for '...'` error. A kernel that
/// computes in the accumulation type only names it `<T as FloatAcc>::A`.
macro_rules! dispatch_float {
    ($dtype:expr, $kernel:expr, $T:ident, $body:expr) => {
        match $dtype {
            $crate::dtype::DType::F32 => {
                type $T = f32;
                $body
            }
            $crate::dtype::DType::F64 => {
                type $T = f64;
                $body
            }
            $crate::dtype::DType::F16 => {
                type $T = half::f16;
                $body
            }
            $crate::dtype::DType::BF16 => {
                type $T = half::bf16;
                $body
            }
            other => Err($crate::kernels::acc::not_implemented($kernel, other)),
        }
    };
}
pub(crate) use dispatch_float;

/// `Ok(())` when `dtype` is a float dtype, else the kernel's not-implemented error.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn check_float(dtype: DType, kernel: &str) -> Result<()> {
    if dtype.is_floating() {
        Ok(())
    } else {
        Err(not_implemented(kernel, dtype))
    }
}

/// `e^x` in `f32` (Cephes' `expf`: `x = n ln2 + r`, `|r| <= ln2 / 2`, a degree-7
/// polynomial for `e^r`, then `2^n` built from bits, in two factors so that results
/// down to the subnormals and up to `f32::MAX` are right). Within about 1 ulp of the
/// exact value; `NaN` in, `NaN` out; `x > 88.73` is `inf`, `x < -103.98` is `0`.
/// Branch-free, so a loop over it vectorises.
#[inline(always)]
pub(crate) fn exp_f32(x: f32) -> f32 {
    exp_poly::<false>(x)
}

/// [`exp_f32`] with its multiply-adds fused (`mul_add`, exact, so the value does not
/// depend on the CPU): 23 vector instructions per 16 elements at AVX-512 instead of 35,
/// the difference between softmax's row loop being compute bound and not. Within
/// about 1 ulp of the exact value, the limits of [`exp_f32`].
#[inline(always)]
pub(crate) fn exp_f32_fused(x: f32) -> f32 {
    exp_poly::<true>(x)
}

/// `a * b + c`, fused (one rounding) when `FUSED`, else a multiply and an add.
#[inline(always)]
fn madd<const FUSED: bool>(a: f32, b: f32, c: f32) -> f32 {
    if FUSED {
        a.mul_add(b, c)
    } else {
        a * b + c
    }
}

/// The body of [`exp_f32`] (`FUSED = false`: each step a multiply and an add, in
/// Cephes' order) and [`exp_f32_fused`].
#[inline(always)]
fn exp_poly<const FUSED: bool>(x: f32) -> f32 {
    const LOG2E: f32 = std::f32::consts::LOG2_E;
    const LN2_HI: f32 = 0.693_359_4;
    const LN2_LO: f32 = -2.121_944_4e-4;
    // Round to nearest by the 1.5 * 2^23 trick (no libm call, vectorises on SSE2).
    const ROUND: f32 = 12_582_912.0;
    // `clamp` keeps a NaN.
    let x = x.clamp(-104.0, 88.8);
    let n = madd::<FUSED>(x, LOG2E, ROUND) - ROUND;
    // x - n ln2, with ln2 in two parts.
    let r = madd::<FUSED>(-n, LN2_LO, madd::<FUSED>(-n, LN2_HI, x));
    let mut p = 1.987_569_1e-4_f32;
    for c in [
        1.398_199_9e-3,
        8.333_452e-3,
        4.166_579_6e-2,
        1.666_666_5e-1,
        0.5,
    ] {
        p = madd::<FUSED>(p, r, c);
    }
    let y = madd::<FUSED>(p * r, r, r) + 1.0;
    // 2^n as 2^n1 * 2^n2 (n in [-150, 128], each half in [-75, 64]).
    let n1 = madd::<FUSED>(n, 0.5, ROUND) - ROUND;
    let n2 = n - n1;
    y * pow2(n1) * pow2(n2)
}

/// `2^k` for an integer-valued `k` in `[-126, 127]`, from bits: `k + 127 + 2^23` holds
/// the biased exponent in its low mantissa bits, which the shift moves into place
/// (integer ops only, so it vectorises; no float-to-int conversion).
#[inline(always)]
fn pow2(k: f32) -> f32 {
    f32::from_bits((k + (127.0 + 8_388_608.0)).to_bits() << 23)
}

/// `1 / (1 + e^-x)` in the accumulation type.
#[inline(always)]
pub(crate) fn sigmoid<A: Acc>(x: A) -> A {
    A::one() / (A::one() + (-x).exp_fast())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Asserts `exp` is within 2 ulp of `f64::exp` over [-103, 88.7] (normal
    /// results) and has `exp_f32`'s limits: `inf`, `0`, `NaN`, subnormals.
    fn check_exp(exp: fn(f32) -> f32) {
        let mut x = -103.0f32;
        while x < 88.7 {
            let want = (x as f64).exp();
            let got = exp(x) as f64;
            let ulp = (want as f32).abs() * f32::EPSILON;
            if want > 1.2e-38 {
                assert!(
                    (got - want).abs() <= 2.0 * ulp as f64,
                    "exp({x}) = {got}, want {want}"
                );
            }
            x += 0.0137;
        }
        assert_eq!(exp(0.0), 1.0);
        assert_eq!(exp(f32::NEG_INFINITY), 0.0);
        assert_eq!(exp(f32::INFINITY), f32::INFINITY);
        assert_eq!(exp(89.0), f32::INFINITY);
        assert!(exp(f32::NAN).is_nan());
        assert!(exp(-100.0) > 0.0);
    }

    #[test]
    fn exp_f32_within_two_ulp_of_f64_exp_and_its_limits() {
        check_exp(exp_f32);
    }

    #[test]
    fn exp_f32_fused_within_two_ulp_of_f64_exp_and_its_limits() {
        check_exp(exp_f32_fused);
    }
}
