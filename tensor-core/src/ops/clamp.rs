//! `torch.clamp(self, min, max)` with Rust-number bounds: functional, in place
//! (`clamp_`) and with an output (`clamp_out`), following PyTorch 2.15's `clamp` meta
//! function and CPU kernels:
//!
//! 1. at least one bound; a non-floating tensor is promoted with the bounds as wrapped
//!    numbers (`int tensor.clamp(0.5)` is float32), which in place is an error;
//! 2. `build_unary_op(out, self.to(result_type))` (an `out` of another dtype is an error);
//! 3. a NaN bound fills the result with NaN;
//! 4. integral results: a `min` above the dtype's range or a `max` below it is an error,
//!    other bounds saturate to the range; floating results: bounds are converted with
//!    c10's overflow check (infinities pass);
//! 5. `min(max(x, min), max)`: NaN stays NaN, `min > max` gives `max`.

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::iterator::{is_same, ResultTypeState, TensorIterator, TensorIteratorConfig, Written};
use crate::kernels::arith::Arith;
use crate::kernels::unary;
use crate::scalar::cast::checked_scalar;
use crate::scalar::Scalar;
use crate::tensor::Tensor;
use half::{bf16, f16};

/// A double as C++'s default `ostream << double` prints it (`%g`, 6 significant digits):
/// `300`, `-1`, `1.09951e+12`.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn cpp_double(v: f64) -> String {
    if v.is_nan() {
        return "nan".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "inf".into() } else { "-inf".into() };
    }
    if v == 0.0 {
        return if v.is_sign_negative() {
            "-0".into()
        } else {
            "0".into()
        };
    }
    #[cfg_attr(unoptimized, inline)]
    fn strip(s: &str) -> &str {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.')
        } else {
            s
        }
    }
    let sci = format!("{v:.5e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if !(-4..6).contains(&exp) {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{}e{sign}{:02}", strip(mantissa), exp.abs())
    } else {
        let fixed = format!("{v:.*}", (5 - exp) as usize);
        strip(&fixed).to_string()
    }
}

/// The bounds as given, and the kernel name PyTorch names in its bool error.
#[derive(Clone, Copy)]
struct Bounds {
    min: Option<Scalar>,
    max: Option<Scalar>,
}

impl Bounds {
    #[cfg_attr(unoptimized, inline)]
    fn kernel_name(self) -> &'static str {
        match (self.min, self.max) {
            (Some(_), Some(_)) => "clamp_scalar_cpu",
            (Some(_), None) => "clamp_min_scalar_cpu",
            _ => "clamp_max_scalar_cpu",
        }
    }

    #[cfg_attr(unoptimized, inline)]
    fn has_nan(self) -> bool {
        [self.min, self.max]
            .into_iter()
            .flatten()
            .any(|s| matches!(s, Scalar::Float(f) if f.is_nan()))
    }
}

/// Integral dtypes: checks the bounds against `T`'s range and saturates them.
fn integral<T: Arith>(
    iter: &TensorIterator,
    b: Bounds,
    lowest: i64,
    max: i64,
) -> Result<Written<'_>> {
    let as_i64 = |s: Scalar| match s {
        Scalar::Bool(v) => v as i64,
        Scalar::Int(v) => v,
        Scalar::Float(f) => f as i64, // unreachable: a float bound promotes to float
    };
    let out_of_range = |which: &str, v: i64| Error::InvalidArgument {
        op: "clamp",
        message: format!(
            "Clamp {which} value {} is outside the representable range of {}",
            cpp_double(v as f64),
            T::DTYPE.scalar_type_name()
        ),
    };
    let lo = match b.min.map(as_i64) {
        Some(v) if v > max => return Err(out_of_range("min", v)),
        Some(v) => Some(T::from_i64(v.max(lowest))),
        None => None,
    };
    let hi = match b.max.map(as_i64) {
        Some(v) if v < lowest => return Err(out_of_range("max", v)),
        Some(v) => Some(T::from_i64(v.min(max))),
        None => None,
    };
    Ok(unary::<T, T, _>(iter, move |x: T| {
        <T as Arith>::clamp(x, lo, hi)
    }))
}

/// Floating dtypes: a NaN bound fills NaN; else the bounds are checked into `T`.
fn floating<T: Arith>(iter: &TensorIterator, b: Bounds) -> Result<Written<'_>> {
    if b.has_nan() {
        let nan = T::from_f64(f64::NAN);
        return Ok(unary::<T, T, _>(iter, move |_: T| nan));
    }
    let lo = b.min.map(|s| checked_scalar::<T>(s, "clamp")).transpose()?;
    let hi = b.max.map(|s| checked_scalar::<T>(s, "clamp")).transpose()?;
    Ok(unary::<T, T, _>(iter, move |x: T| {
        <T as Arith>::clamp(x, lo, hi)
    }))
}

/// `clamp_out`'s body on the built iterator, dispatched on the result dtype.
#[cfg_attr(unoptimized, inline)]
fn kernel(iter: &TensorIterator, b: Bounds) -> Result<Written<'_>> {
    match iter.dtype(0) {
        DType::Bool => Err(Error::UnsupportedDType {
            message: format!("\"{}\" not implemented for 'Bool'", b.kernel_name()),
        }),
        DType::U8 => integral::<u8>(iter, b, 0, u8::MAX as i64),
        DType::I8 => integral::<i8>(iter, b, i8::MIN as i64, i8::MAX as i64),
        DType::I16 => integral::<i16>(iter, b, i16::MIN as i64, i16::MAX as i64),
        DType::I32 => integral::<i32>(iter, b, i32::MIN as i64, i32::MAX as i64),
        DType::I64 => integral::<i64>(iter, b, i64::MIN, i64::MAX),
        DType::F16 => floating::<f16>(iter, b),
        DType::BF16 => floating::<bf16>(iter, b),
        DType::F32 => floating::<f32>(iter, b),
        DType::F64 => floating::<f64>(iter, b),
    }
}

/// The `clamp` meta function + `clamp_out`. Returns the written tensor.
#[cfg_attr(unoptimized, inline)]
fn run(
    input: &Tensor,
    min: Option<Scalar>,
    max: Option<Scalar>,
    out: Option<&Tensor>,
) -> Result<Tensor> {
    if min.is_none() && max.is_none() {
        return Err(Error::InvalidArgument {
            op: "clamp",
            message: "torch.clamp: At least one of 'min' or 'max' must not be None".into(),
        });
    }
    let mut dtype = input.dtype();
    if !dtype.is_floating() {
        let mut state = ResultTypeState::default();
        state.update(dtype, input.dim(), false);
        for s in [min, max].into_iter().flatten() {
            state.update(s.dtype(), 0, true);
        }
        dtype = state.result().unwrap_or(dtype);
        if dtype != input.dtype() && out.is_some_and(|o| is_same(o, input)) {
            return Err(Error::InvalidArgument {
                op: "clamp",
                message: format!(
                    "result type {} can't be cast to the desired output type {}",
                    dtype.scalar_type_name(),
                    input.dtype().type_meta_name()
                ),
            });
        }
    }
    let promoted = input.to_dtype(dtype)?;
    let config = TensorIteratorConfig::unary_op(out, &promoted);
    let iter = TensorIterator::build_and_run(config, |iter| kernel(iter, Bounds { min, max }))?;
    Ok(iter.final_output(0).alias())
}

impl Tensor {
    /// `torch.clamp(self, min, max)`: `min(max(x, min), max)` elementwise, same sizes as
    /// `self` (NaN stays NaN; `min > max` gives `max`; a NaN bound gives all NaN). A
    /// non-floating tensor is first promoted with the bounds as wrapped numbers
    /// (`int64 tensor.clamp(0.5)` is float32; a bool tensor with int bounds is int64).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when both bounds are `None`
    /// (`torch.clamp: At least one of 'min' or 'max' must not be None`), for an integral
    /// bound outside the dtype's range (`Clamp min value 300 is outside the
    /// representable range of Byte`), or a float bound that overflows a floating dtype
    /// (`value cannot be converted to type c10::Half without overflow`);
    /// [`Error::UnsupportedDType`] for bool (`"clamp_scalar_cpu" not implemented for
    /// 'Bool'`).
    #[cfg_attr(unoptimized, inline)]
    pub fn clamp(&self, min: Option<Scalar>, max: Option<Scalar>) -> Result<Tensor> {
        crate::autograd::apply(
            &[self],
            || run(self, min, max, None),
            |_| crate::autograd::ClampBackward {
                x: crate::autograd::SavedTensor::input(self),
                min,
                max,
            },
        )
    }

    /// `Tensor.clamp_(min, max)`: [`clamp`](Self::clamp) in place. The bounds must not
    /// promote `self`'s dtype.
    ///
    /// # Errors
    /// As [`clamp`](Self::clamp); [`Error::InvalidArgument`] when the bounds promote the
    /// dtype, with PyTorch's message naming the C++ type
    /// (`result type Float can't be cast to the desired output type long int`);
    /// [`Error::InternalOverlap`] when `self` has overlapping elements.
    #[cfg_attr(unoptimized, inline)]
    pub fn clamp_(&self, min: Option<Scalar>, max: Option<Scalar>) -> Result<()> {
        if crate::autograd::needs_grad(&[self]) {
            return crate::autograd::inplace_rebase(self, |old| old.clamp(min, max));
        }
        crate::autograd::check_writable(self)?;
        run(self, min, max, Some(self))?;
        crate::autograd::wrote(self);
        Ok(())
    }

    /// `torch.clamp(self, min, max, out=out)`: [`clamp`](Self::clamp) written into `out`,
    /// whose dtype must be the result dtype exactly. An `out` whose sizes differ from
    /// `self`'s is resized. Returns the tensor written: `out`, or a fresh tensor when
    /// `out` had to be resized (a PyTorch `resize_` cannot change this handle).
    ///
    /// # Errors
    /// As [`clamp`](Self::clamp); [`Error::DTypeMismatch`] when `out`'s dtype is not the
    /// result dtype (`Found dtype Long but expected Float`); overlap errors.
    #[cfg_attr(unoptimized, inline)]
    pub fn clamp_out(
        &self,
        min: Option<Scalar>,
        max: Option<Scalar>,
        out: &Tensor,
    ) -> Result<Tensor> {
        crate::autograd::check_out("clamp", &[self], out)?;
        let r = run(self, min, max, Some(out))?;
        crate::autograd::wrote(out);
        Ok(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::{err, longs};

    #[test]
    fn clamp_int_with_float_bound_promotes_to_float32() {
        let i = longs(&[-3, 5]);
        let c = i.clamp(Some(Scalar::Float(0.5)), None).unwrap();
        assert_eq!(c.dtype(), DType::F32);
        assert_eq!(c.to_vec::<f32>().unwrap(), vec![0.5, 5.0]);
        let c = i.clamp(Some(Scalar::Int(0)), Some(Scalar::Int(2))).unwrap();
        assert_eq!(c.to_vec::<i64>().unwrap(), vec![0, 2]);
    }

    #[test]
    fn clamp_without_bounds_errors() {
        let e = err(longs(&[1]).clamp_(None, None));
        assert!(e.contains("torch.clamp: At least one of 'min' or 'max' must not be None"));
    }

    #[test]
    fn clamp_inplace_int_with_float_bound_errors() {
        let i = longs(&[-3, 5]);
        assert_eq!(
            err(i.clamp_(Some(Scalar::Float(0.5)), None)),
            "clamp: result type Float can't be cast to the desired output type long int"
        );
        let i8s = Tensor::from_vec(vec![1i8], &[1]).unwrap();
        assert!(err(i8s.clamp_(None, Some(Scalar::Float(2.5))))
            .contains("result type Float can't be cast to the desired output type signed char"));
        // A NaN bound on an int tensor is also a promotion, hence the same error.
        assert!(err(i.clamp_(Some(Scalar::Float(f64::NAN)), None)).contains("long int"));
        assert_eq!(i.to_vec::<i64>().unwrap(), vec![-3, 5]);
    }

    #[test]
    fn clamp_inplace_bool_with_int_bounds_errors() {
        let b = Tensor::zeros(&[2], DType::Bool).unwrap();
        assert!(err(b.clamp_(Some(Scalar::Int(0)), Some(Scalar::Int(1))))
            .contains("result type Long can't be cast to the desired output type bool"));
    }

    #[test]
    fn clamp_inplace_int_with_int_bounds() {
        let i = longs(&[-3, 5]);
        i.clamp_(Some(Scalar::Int(0)), Some(Scalar::Int(2)))
            .unwrap();
        assert_eq!(i.to_vec::<i64>().unwrap(), vec![0, 2]);
    }

    #[test]
    fn clamp_inplace_expanded_is_internal_overlap() {
        let t = Tensor::zeros(&[1], DType::F32)
            .unwrap()
            .expand(&[3])
            .unwrap();
        assert_eq!(
            t.clamp_(Some(Scalar::Float(0.5)), None).unwrap_err(),
            Error::InternalOverlap
        );
    }

    #[test]
    fn clamp_out_dtype_must_be_result_dtype() {
        let i = longs(&[-3, 5]);
        let long_out = Tensor::empty(&[0], DType::I64).unwrap();
        assert!(err(i.clamp_out(Some(Scalar::Float(0.5)), None, &long_out))
            .contains("Found dtype Long but expected Float"));
        let float_out = Tensor::empty(&[0], DType::F32).unwrap();
        assert!(
            err(i.clamp_out(Some(Scalar::Int(0)), Some(Scalar::Int(2)), &float_out))
                .contains("Found dtype Float but expected Long")
        );
        let r = i
            .clamp_out(Some(Scalar::Float(0.5)), None, &float_out)
            .unwrap();
        assert_eq!(r.to_vec::<f32>().unwrap(), vec![0.5, 5.0]);
    }

    #[test]
    fn clamp_out_transposed_keeps_out_strides() {
        let x = Tensor::full(&[2, 3], 5.0, DType::F32).unwrap();
        let out = Tensor::empty(&[3, 2], DType::F32).unwrap().t().unwrap();
        let r = x
            .clamp_out(Some(Scalar::Int(0)), Some(Scalar::Int(1)), &out)
            .unwrap();
        assert_eq!(r.strides(), &[1, 2]);
        assert_eq!(out.to_vec::<f32>().unwrap(), vec![1.0; 6]);
    }

    #[test]
    fn clamp_bool_is_not_implemented_with_kernel_name() {
        let b = Tensor::zeros(&[2], DType::Bool).unwrap();
        let t = Some(Scalar::Bool(true));
        assert_eq!(
            err(b.clamp(t, None)),
            "\"clamp_min_scalar_cpu\" not implemented for 'Bool'"
        );
        assert!(err(b.clamp(None, t)).contains("\"clamp_max_scalar_cpu\""));
        assert!(err(b.clamp(t, t)).contains("\"clamp_scalar_cpu\""));
        // Int bounds promote bool to int64: [True, False].clamp(0, 1) -> [1, 0].
        let b = Tensor::from_vec(vec![true, false], &[2]).unwrap();
        let r = b.clamp(Some(Scalar::Int(0)), Some(Scalar::Int(1))).unwrap();
        assert_eq!(r.to_vec::<i64>().unwrap(), vec![1, 0]);
    }

    #[test]
    fn clamp_nan_bound_fills_nan() {
        let x = Tensor::from_vec(vec![1.0f32, -2.0, f32::NAN], &[3]).unwrap();
        for (lo, hi) in [
            (Some(Scalar::Float(f64::NAN)), Some(Scalar::Int(1))),
            (Some(Scalar::Float(f64::NAN)), None),
            (None, Some(Scalar::Float(f64::NAN))),
        ] {
            let r = x.clamp(lo, hi).unwrap().to_vec::<f32>().unwrap();
            assert!(r.iter().all(|v| v.is_nan()), "{r:?}");
        }
        // int tensor with a NaN bound: float32 NaNs.
        let r = longs(&[1, -2])
            .clamp(Some(Scalar::Float(f64::NAN)), Some(Scalar::Int(1)))
            .unwrap();
        assert_eq!(r.dtype(), DType::F32);
        assert!(r.to_vec::<f32>().unwrap().iter().all(|v| v.is_nan()));
        // half with NaN and an overflowing bound: NaN wins, no conversion error.
        let h = Tensor::ones(&[2], DType::F16).unwrap();
        let r = h
            .clamp(Some(Scalar::Float(f64::NAN)), Some(Scalar::Float(1e6)))
            .unwrap();
        assert!(r.to_vec::<f16>().unwrap().iter().all(|v| v.is_nan()));
    }

    #[test]
    fn clamp_min_above_max_gives_max_and_keeps_nan() {
        let x = Tensor::from_vec(vec![0.0f32, -5.0, 10.0, f32::NAN], &[4]).unwrap();
        let r = x
            .clamp(Some(Scalar::Int(3)), Some(Scalar::Int(1)))
            .unwrap()
            .to_vec::<f32>()
            .unwrap();
        assert_eq!(&r[..3], &[1.0, 1.0, 1.0]);
        assert!(r[3].is_nan());
    }

    #[test]
    fn clamp_int_bound_outside_dtype_range_errors() {
        let u = Tensor::from_vec(vec![1u8, 2], &[2]).unwrap();
        assert!(err(u.clamp(Some(Scalar::Int(300)), None))
            .contains("Clamp min value 300 is outside the representable range of Byte"));
        assert!(err(u.clamp(None, Some(Scalar::Int(-1))))
            .contains("Clamp max value -1 is outside the representable range of Byte"));
        // min is checked first.
        assert!(
            err(u.clamp(Some(Scalar::Int(300)), Some(Scalar::Int(-5)))).contains("min value 300")
        );
        let i = Tensor::from_vec(vec![1i32, 2], &[2]).unwrap();
        assert!(err(i.clamp(Some(Scalar::Int(1 << 40)), None))
            .contains("Clamp min value 1.09951e+12 is outside the representable range of Int"));
        let s = Tensor::from_vec(vec![1i16, 2], &[2]).unwrap();
        assert!(err(s.clamp(Some(Scalar::Int(1_234_567)), None))
            .contains("Clamp min value 1.23457e+06 is outside the representable range of Short"));
        // In place and out= see the same check.
        assert!(err(u.clamp_(Some(Scalar::Int(300)), None)).contains("of Byte"));
    }

    #[test]
    fn clamp_int_bound_beyond_dtype_range_saturates() {
        // torch int8 [1, -2, 100].clamp(-1000, 1000) -> [1, -2, 100];
        // uint8 [1, 254, 100].clamp(-100000, 50) -> [1, 50, 50].
        let c = Tensor::from_vec(vec![1i8, -2, 100], &[3]).unwrap();
        let r = c
            .clamp(Some(Scalar::Int(-1000)), Some(Scalar::Int(1000)))
            .unwrap();
        assert_eq!(r.to_vec::<i8>().unwrap(), vec![1, -2, 100]);
        let u = Tensor::from_vec(vec![1u8, 254, 100], &[3]).unwrap();
        let r = u
            .clamp(Some(Scalar::Int(-100_000)), Some(Scalar::Int(50)))
            .unwrap();
        assert_eq!(r.to_vec::<u8>().unwrap(), vec![1, 50, 50]);
        // int16 (300, 50) is in range: min > max gives max.
        let s = Tensor::from_vec(vec![1i16, -2, 100], &[3]).unwrap();
        let r = s
            .clamp(Some(Scalar::Int(300)), Some(Scalar::Int(50)))
            .unwrap();
        assert_eq!(r.to_vec::<i16>().unwrap(), vec![50, 50, 50]);
    }

    #[test]
    fn clamp_half_bound_overflow_errors_but_inf_passes() {
        let h = Tensor::from_vec(vec![f16::from_f32(1.0), f16::from_f32(2.0)], &[2]).unwrap();
        assert!(
            err(h.clamp(Some(Scalar::Float(-1e6)), Some(Scalar::Int(1))))
                .contains("value cannot be converted to type c10::Half without overflow")
        );
        assert!(err(h.clamp(None, Some(Scalar::Int(65519)))).contains("c10::Half"));
        let r = h
            .clamp(
                Some(Scalar::Float(f64::NEG_INFINITY)),
                Some(Scalar::Float(f64::INFINITY)),
            )
            .unwrap();
        assert_eq!(r.to_vec::<f16>().unwrap()[1].to_f32(), 2.0);
        let f = Tensor::ones(&[1], DType::F32).unwrap();
        assert!(err(f.clamp(None, Some(Scalar::Float(1e300))))
            .contains("value cannot be converted to type float without overflow"));
    }

    #[test]
    fn clamp_keeps_signed_zero() {
        // torch [0.0, -0.0].clamp(min=0.0) -> [0.0, -0.0]
        let z = Tensor::from_vec(vec![0.0f32, -0.0], &[2]).unwrap();
        let r = z.clamp(Some(Scalar::Float(0.0)), None).unwrap();
        let r = r.to_vec::<f32>().unwrap();
        assert!(r[1].is_sign_negative() && !r[0].is_sign_negative());
    }

    #[test]
    fn cpp_double_prints_like_ostream() {
        assert_eq!(cpp_double(300.0), "300");
        assert_eq!(cpp_double(-1.0), "-1");
        assert_eq!(cpp_double(123_456.0), "123456");
        assert_eq!(cpp_double(1_234_567.0), "1.23457e+06");
        assert_eq!(cpp_double(1e11), "1e+11");
        assert_eq!(cpp_double(-9.223_372_036_854_776e18), "-9.22337e+18");
        assert_eq!(cpp_double(-2_148_717_215.0), "-2.14872e+09");
        assert_eq!(cpp_double(0.5), "0.5");
        assert_eq!(cpp_double(1e-5), "1e-05");
    }
}
