//! c10's checked `Scalar::to<T>()`: converting a Rust number operand (addcmul's `value`,
//! add's `alpha`, clamp's bounds) to the element type a kernel computes in, with
//! PyTorch's overflow rule and message.

use crate::dtype::DType;
use crate::element::Element;
use crate::error::{Error, Result};
use crate::scalar::Scalar;
use half::{bf16, f16};

/// The C++ type name c10 prints in `value cannot be converted to type {name} without
/// overflow` (`c10::demangle_type` of the kernel's `scalar_t`).
#[cfg_attr(unoptimized, inline)]
fn cpp_scalar_name(dtype: DType) -> &'static str {
    match dtype {
        DType::Bool => "bool",
        DType::U8 => "uint8_t",
        DType::I8 => "int8_t",
        DType::I16 => "int16_t",
        DType::I32 => "int",
        DType::I64 => "int64_t",
        DType::F16 => "c10::Half",
        DType::BF16 => "c10::BFloat16",
        DType::F32 => "float",
        DType::F64 => "double",
    }
}

/// `(lowest, max)` of `dtype` as `f64` (`std::numeric_limits<scalar_t>`).
#[cfg_attr(unoptimized, inline)]
fn limits(dtype: DType) -> (f64, f64) {
    match dtype {
        DType::Bool => (0.0, 1.0), // not consulted: nothing overflows bool
        DType::U8 => (0.0, u8::MAX as f64),
        DType::I8 => (i8::MIN as f64, i8::MAX as f64),
        DType::I16 => (i16::MIN as f64, i16::MAX as f64),
        DType::I32 => (i32::MIN as f64, i32::MAX as f64),
        DType::I64 => (i64::MIN as f64, i64::MAX as f64),
        DType::F16 => (f16::MIN.to_f64(), f16::MAX.to_f64()),
        DType::BF16 => (bf16::MIN.to_f64(), bf16::MAX.to_f64()),
        DType::F32 => (f32::MIN as f64, f32::MAX as f64),
        DType::F64 => (f64::MIN, f64::MAX),
    }
}

/// c10's `overflows<To, From>(f)` for a Scalar converted to `dtype`.
///
/// - from bool, or to bool: never (`torch.add(bools, bools, alpha=2)` is accepted);
/// - from an integer: outside `[lowest, max]`, except that uint8 also accepts negatives
///   down to `-255` (two's-complement wrap);
/// - from a float: infinity never overflows a floating target, NaN overflows an
///   integral one, else outside `[lowest, max]`.
#[cfg_attr(unoptimized, inline)]
fn overflows(value: Scalar, dtype: DType) -> bool {
    let (lowest, max) = limits(dtype);
    match value {
        _ if dtype == DType::Bool => false,
        Scalar::Bool(_) => false,
        Scalar::Int(i) => match dtype {
            DType::I64 => false,
            DType::U8 => {
                let (i, max) = (i as i128, max as i128);
                i > max || (i < 0 && -i > max)
            }
            _ => (i as f64) < lowest || (i as f64) > max,
        },
        Scalar::Float(f) => {
            if dtype.is_floating() && f.is_infinite() {
                return false;
            }
            if !dtype.is_floating() && f.is_nan() {
                return true;
            }
            f < lowest || f > max
        }
    }
}

/// Converts `value` to `T` as c10's `Scalar::to<T>()` does: checked against `T`'s
/// range ([`overflows`]), then cast (floats truncate toward zero into integers;
/// integers wrap into narrower ones; float16/bfloat16 go through `f32` as c10's
/// constructors do).
///
/// # Errors
/// [`Error::InvalidArgument`] for `op` with PyTorch's message
/// `value cannot be converted to type int8_t without overflow`.
pub(crate) fn checked_scalar<T: Element>(value: Scalar, op: &'static str) -> Result<T> {
    if overflows(value, T::DTYPE) {
        return Err(Error::InvalidArgument {
            op,
            message: format!(
                "value cannot be converted to type {} without overflow",
                cpp_scalar_name(T::DTYPE)
            ),
        });
    }
    Ok(match value {
        Scalar::Bool(b) => T::from_i64(b as i64),
        Scalar::Int(i) => T::from_i64(i),
        Scalar::Float(f) if matches!(T::DTYPE, DType::F16 | DType::BF16) => {
            T::from_f64(f as f32 as f64)
        }
        Scalar::Float(f) => T::from_f64(f),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message<T: Element>(value: Scalar) -> String {
        checked_scalar::<T>(value, "op").unwrap_err().to_string()
    }

    #[test]
    fn int8_value_out_of_range_names_int8_t() {
        assert_eq!(
            message::<i8>(Scalar::Int(1000)),
            "op: value cannot be converted to type int8_t without overflow"
        );
        assert!(message::<i8>(Scalar::Int(-129)).contains("int8_t"));
        assert!(message::<i8>(Scalar::Float(300.5)).contains("int8_t"));
        assert_eq!(checked_scalar::<i8>(Scalar::Int(-128), "op"), Ok(-128));
        assert_eq!(checked_scalar::<i8>(Scalar::Float(-2.7), "op"), Ok(-2));
    }

    #[test]
    fn uint8_accepts_negative_ints_down_to_minus_255() {
        assert_eq!(checked_scalar::<u8>(Scalar::Int(-1), "op"), Ok(255));
        assert_eq!(checked_scalar::<u8>(Scalar::Int(-129), "op"), Ok(127));
        assert!(message::<u8>(Scalar::Int(-256)).contains("uint8_t"));
        assert!(message::<u8>(Scalar::Int(256)).contains("uint8_t"));
        assert!(message::<u8>(Scalar::Float(-0.5)).contains("uint8_t"));
    }

    #[test]
    fn float_targets_accept_inf_and_nan_but_not_finite_overflow() {
        assert_eq!(
            checked_scalar::<f32>(Scalar::Float(f64::INFINITY), "op"),
            Ok(f32::INFINITY)
        );
        assert!(checked_scalar::<f16>(Scalar::Float(f64::NAN), "op")
            .unwrap()
            .is_nan());
        assert!(message::<f32>(Scalar::Float(1e300)).contains("type float without"));
        assert!(message::<f16>(Scalar::Float(65519.0)).contains("c10::Half"));
        assert!(message::<f16>(Scalar::Int(70000)).contains("c10::Half"));
        assert!(message::<bf16>(Scalar::Float(1e300)).contains("c10::BFloat16"));
        assert!(message::<i32>(Scalar::Int(1 << 40)).contains("type int without"));
        assert!(message::<i64>(Scalar::Float(f64::NAN)).contains("int64_t"));
        assert_eq!(checked_scalar::<f64>(Scalar::Float(1e300), "op"), Ok(1e300));
    }
}
