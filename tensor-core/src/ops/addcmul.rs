//! `torch.addcmul(self, tensor1, tensor2, value)`: `self + value * tensor1 * tensor2`,
//! functional, in place (`addcmul_`) and with an output (`addcmul_out`).
//!
//! Arithmetic as PyTorch 2.15's CPU kernel computes it (checked element by element
//! against torch): floats evaluate `fma(value * t1, t2, self)` (the compiler contracts
//! `self + value * t1 * t2` into a fused multiply-add); float16/bfloat16 do the same in
//! `f32` ("opmath") with `value` kept as `f32`, rounding once at the end; integers wrap.

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::iterator::{TensorIterator, TensorIteratorConfig, Written};
use crate::kernels::arith::Arith;
use crate::kernels::ternary;
use crate::scalar::cast::checked_scalar;
use crate::scalar::Scalar;
use crate::tensor::Tensor;
use half::{bf16, f16};

/// float16/bfloat16 computed in `f32`: `fma(v * a, b, s)` rounded once to `T`.
fn reduced_float<T: Element16>(iter: &TensorIterator, value: Scalar) -> Result<Written<'_>> {
    let v = checked_scalar::<f32>(value, "addcmul")?;
    Ok(ternary::<T, T, T, _>(iter, move |s: T, a: T, b: T| {
        T::from_opmath((v * a.to_opmath()).mul_add(b.to_opmath(), s.to_opmath()))
    }))
}

/// The 16-bit floats and their `f32` opmath conversions.
trait Element16: crate::element::Element {
    fn to_opmath(self) -> f32;
    fn from_opmath(x: f32) -> Self;
}

impl Element16 for f16 {
    #[inline(always)]
    fn to_opmath(self) -> f32 {
        self.to_f32()
    }
    #[inline(always)]
    fn from_opmath(x: f32) -> Self {
        f16::from_f32(x)
    }
}

impl Element16 for bf16 {
    #[inline(always)]
    fn to_opmath(self) -> f32 {
        self.to_f32()
    }
    #[inline(always)]
    fn from_opmath(x: f32) -> Self {
        bf16::from_f32(x)
    }
}

/// Integers: `s + v * a * b`, wrapping, `v` checked into `T`'s range.
fn integral<T: Arith>(iter: &TensorIterator, value: Scalar) -> Result<Written<'_>> {
    let v = checked_scalar::<T>(value, "addcmul")?;
    Ok(ternary::<T, T, T, _>(iter, move |s: T, a: T, b: T| {
        <T as Arith>::addcmul(s, a, b, v)
    }))
}

/// `addcmul_cpu_kernel`, dispatched on the iterator's common dtype.
#[cfg_attr(unoptimized, inline)]
fn kernel(iter: &TensorIterator, value: Scalar) -> Result<Written<'_>> {
    match iter.dtype(0) {
        DType::Bool => Err(Error::UnsupportedDType {
            message: "\"addcmul_cpu_out\" not implemented for 'Bool'".into(),
        }),
        DType::U8 => integral::<u8>(iter, value),
        DType::I8 => integral::<i8>(iter, value),
        DType::I16 => integral::<i16>(iter, value),
        DType::I32 => integral::<i32>(iter, value),
        DType::I64 => integral::<i64>(iter, value),
        DType::F16 => reduced_float::<f16>(iter, value),
        DType::BF16 => reduced_float::<bf16>(iter, value),
        DType::F32 => {
            let v = checked_scalar::<f32>(value, "addcmul")?;
            Ok(ternary::<f32, f32, f32, _>(iter, move |s, a, b| {
                (v * a).mul_add(b, s)
            }))
        }
        DType::F64 => {
            let v = checked_scalar::<f64>(value, "addcmul")?;
            Ok(ternary::<f64, f64, f64, _>(iter, move |s, a, b| {
                (v * a).mul_add(b, s)
            }))
        }
    }
}

/// `build_ternary_op(out, self, tensor1, tensor2)` + the kernel + `cast_outputs`.
/// Returns the written tensor.
#[cfg_attr(unoptimized, inline)]
fn run(
    input: &Tensor,
    tensor1: &Tensor,
    tensor2: &Tensor,
    value: Scalar,
    out: Option<&Tensor>,
) -> Result<Tensor> {
    let config = TensorIteratorConfig::ternary_op(out, input, tensor1, tensor2);
    let iter = TensorIterator::build_and_run(config, |iter| kernel(iter, value))?;
    Ok(iter.final_output(0).alias())
}

impl Tensor {
    /// `torch.addcmul(self, tensor1, tensor2, value=value)`:
    /// `self + value * tensor1 * tensor2`. The three sizes broadcast to the result's;
    /// the result's dtype is their promoted dtype (`torch.result_type`), and `value` is
    /// converted to it (to `f32` for float16/bfloat16, which compute in `f32` and round
    /// once). Strides follow the operands' layout.
    ///
    /// # Errors
    /// [`Error::Broadcast`]; [`Error::UnsupportedDType`] for bool
    /// (`"addcmul_cpu_out" not implemented for 'Bool'`); [`Error::InvalidArgument`]
    /// when `value` does not fit the dtype
    /// (`value cannot be converted to type int8_t without overflow`).
    #[cfg_attr(unoptimized, inline)]
    pub fn addcmul(&self, tensor1: &Tensor, tensor2: &Tensor, value: Scalar) -> Result<Tensor> {
        crate::autograd::apply(
            &[self, tensor1, tensor2],
            || run(self, tensor1, tensor2, value, None),
            |_| crate::autograd::AddcmulBackward {
                t1: crate::autograd::SavedTensor::input(tensor1),
                t2: crate::autograd::SavedTensor::input(tensor2),
                value,
            },
        )
    }

    /// `Tensor.addcmul_(tensor1, tensor2, value=value)`: `self += value * tensor1 *
    /// tensor2` in place; `tensor1`, `tensor2` broadcast to `self`'s sizes.
    ///
    /// # Errors
    /// As [`addcmul`](Self::addcmul); [`Error::OutputShape`] when the broadcast shape is
    /// not `self`'s; [`Error::UnsafeCast`] when the promoted dtype cannot be stored in
    /// `self` (`result type Float can't be cast to the desired output type Long`);
    /// [`Error::InternalOverlap`] / [`Error::PartialOverlap`].
    #[cfg_attr(unoptimized, inline)]
    pub fn addcmul_(&self, tensor1: &Tensor, tensor2: &Tensor, value: Scalar) -> Result<()> {
        if crate::autograd::needs_grad(&[self, tensor1, tensor2]) {
            return crate::autograd::inplace_rebase(self, |old| {
                old.addcmul(tensor1, tensor2, value)
            });
        }
        crate::autograd::check_writable(self)?;
        run(self, tensor1, tensor2, value, Some(self))?;
        crate::autograd::wrote(self);
        Ok(())
    }

    /// `torch.addcmul(self, tensor1, tensor2, value=value, out=out)`:
    /// [`addcmul`](Self::addcmul) written into `out` (computed in the promoted dtype and
    /// cast to `out`'s when they differ). An `out` whose sizes are not the broadcast
    /// shape is resized. Returns the tensor written: `out`, or a fresh tensor when `out`
    /// had to be resized (a PyTorch `resize_` cannot change this handle).
    ///
    /// # Errors
    /// As [`addcmul`](Self::addcmul); [`Error::UnsafeCast`] for `out`'s dtype; overlap
    /// errors.
    #[cfg_attr(unoptimized, inline)]
    pub fn addcmul_out(
        &self,
        tensor1: &Tensor,
        tensor2: &Tensor,
        value: Scalar,
        out: &Tensor,
    ) -> Result<Tensor> {
        crate::autograd::check_out("addcmul", &[self, tensor1, tensor2], out)?;
        let r = run(self, tensor1, tensor2, value, Some(out))?;
        crate::autograd::wrote(out);
        Ok(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::longs;

    #[test]
    fn addcmul_float_half_value() {
        let s = Tensor::from_vec(vec![1.0f32, 2.0], &[2]).unwrap();
        let r = s.addcmul(&s, &s, Scalar::Float(0.5)).unwrap();
        assert_eq!(r.to_vec::<f32>().unwrap(), vec![1.5, 4.0]);
    }

    #[test]
    fn addcmul_int_with_float_value_truncates_value() {
        // torch.tensor([1, 2]).addcmul(s, s, value=0.5) -> [1, 2] (value.to<int64_t>() == 0)
        let s = longs(&[1, 2]);
        let r = s.addcmul(&s, &s, Scalar::Float(0.5)).unwrap();
        assert_eq!(r.to_vec::<i64>().unwrap(), vec![1, 2]);
    }

    #[test]
    fn addcmul_inplace_int() {
        // s.clone().addcmul_(s, s, value=2) -> [3, 10]
        let s = longs(&[1, 2]);
        let t = longs(&[1, 2]);
        t.addcmul_(&s, &s, Scalar::Int(2)).unwrap();
        assert_eq!(t.to_vec::<i64>().unwrap(), vec![3, 10]);
    }

    #[test]
    fn addcmul_inplace_int_with_float_tensor_errors() {
        let t = longs(&[1, 2]);
        let f = Tensor::from_vec(vec![1.0f32, 2.0], &[2]).unwrap();
        let e = t.addcmul_(&f, &longs(&[1, 2]), Scalar::Int(2));
        assert_eq!(
            e.unwrap_err().to_string(),
            "result type Float can't be cast to the desired output type Long"
        );
        assert_eq!(t.to_vec::<i64>().unwrap(), vec![1, 2]);
    }

    #[test]
    fn addcmul_inplace_float_with_int_tensors() {
        let t = Tensor::from_vec(vec![1.0f32, 2.0], &[2]).unwrap();
        let s = longs(&[1, 2]);
        t.addcmul_(&s, &s, Scalar::Int(2)).unwrap();
        assert_eq!(t.dtype(), DType::F32);
        assert_eq!(t.to_vec::<f32>().unwrap(), vec![3.0, 10.0]);
    }

    #[test]
    fn addcmul_inplace_broadcast_to_larger_shape_errors() {
        let t = Tensor::from_vec(vec![1.0f32, 2.0], &[2]).unwrap();
        let big = Tensor::ones(&[2, 2], DType::F32).unwrap();
        let e = t.addcmul_(
            &Tensor::ones(&[2], DType::F32).unwrap(),
            &big,
            Scalar::Int(2),
        );
        assert_eq!(
            e.unwrap_err().to_string(),
            "output with shape [2] doesn't match the broadcast shape [2, 2]"
        );
    }

    #[test]
    fn addcmul_inplace_expanded_is_internal_overlap() {
        let t = Tensor::zeros(&[1], DType::F32)
            .unwrap()
            .expand(&[3])
            .unwrap();
        let one = Tensor::ones(&[3], DType::F32).unwrap();
        assert_eq!(
            t.addcmul_(&one, &one, Scalar::Int(1)).unwrap_err(),
            Error::InternalOverlap
        );
    }

    #[test]
    fn addcmul_out_resizes_and_casts_up() {
        // torch.addcmul(long, long, long, value=2, out=empty(0)) -> float32 [3., 10.]
        let s = longs(&[1, 2]);
        let out = Tensor::empty(&[0], DType::F32).unwrap();
        let r = s.addcmul_out(&s, &s, Scalar::Int(2), &out).unwrap();
        assert_eq!(r.dtype(), DType::F32);
        assert_eq!(r.to_vec::<f32>().unwrap(), vec![3.0, 10.0]);
        // out=int32 from int64 inputs: Long -> Int is a safe (same-kind) cast.
        let out = Tensor::zeros(&[2], DType::I32).unwrap();
        s.addcmul_out(&s, &s, Scalar::Int(2), &out).unwrap();
        assert_eq!(out.to_vec::<i32>().unwrap(), vec![3, 10]);
    }

    #[test]
    fn addcmul_out_float_result_into_long_errors() {
        let s = longs(&[1, 2]);
        let f = Tensor::from_vec(vec![1.0f32, 2.0], &[2]).unwrap();
        let out = Tensor::empty(&[0], DType::I64).unwrap();
        assert_eq!(
            s.addcmul_out(&s, &f, Scalar::Int(2), &out)
                .unwrap_err()
                .to_string(),
            "result type Float can't be cast to the desired output type Long"
        );
    }

    #[test]
    fn addcmul_bool_is_not_implemented() {
        let b = Tensor::ones(&[2], DType::Bool).unwrap();
        assert_eq!(
            b.addcmul(&b, &b, Scalar::Bool(true))
                .unwrap_err()
                .to_string(),
            "\"addcmul_cpu_out\" not implemented for 'Bool'"
        );
    }

    #[test]
    fn addcmul_int8_value_overflow_errors() {
        let s = Tensor::from_vec(vec![1i8, 2], &[2]).unwrap();
        let e = s
            .addcmul(&s, &s, Scalar::Int(1000))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("value cannot be converted to type int8_t without overflow"),
            "{e}"
        );
        // -128 fits: 1 + -128 * 1 * 1 = -127; 2 + -128 * 4 wraps to 2.
        let r = s.addcmul(&s, &s, Scalar::Int(-128)).unwrap();
        assert_eq!(r.to_vec::<i8>().unwrap(), vec![-127, 2]);
    }

    #[test]
    fn addcmul_uint8_negative_value_wraps() {
        // torch uint8 [1, 2].addcmul(s, s, value=-129) -> [128, 254]
        let s = Tensor::from_vec(vec![1u8, 2], &[2]).unwrap();
        let r = s.addcmul(&s, &s, Scalar::Int(-129)).unwrap();
        assert_eq!(r.to_vec::<u8>().unwrap(), vec![128, 254]);
    }

    fn one<T: crate::element::Element>(v: T) -> Tensor {
        Tensor::from_vec(vec![v], &[1]).unwrap()
    }

    #[test]
    fn addcmul_f16_value_kept_as_f32_not_rounded_to_half() {
        // torch: addcmul(half 0, half 3, half 1, value=0.1) == 0.300048828125; rounding
        // value to half first would give 0.2998046875.
        let h = |x: f32| one(f16::from_f32(x));
        let r = h(0.0)
            .addcmul(&h(3.0), &h(1.0), Scalar::Float(0.1))
            .unwrap();
        assert_eq!(r.to_vec::<f16>().unwrap()[0].to_f64(), 0.300048828125);
        // bfloat16 (0, 3, 3): torch 0.8984375, rounded value 0.90234375.
        let b = |x: f32| one(bf16::from_f32(x));
        let r = b(0.0)
            .addcmul(&b(3.0), &b(3.0), Scalar::Float(0.1))
            .unwrap();
        assert_eq!(r.to_vec::<bf16>().unwrap()[0].to_f32(), 0.8984375);
    }

    #[test]
    fn addcmul_f32_and_f64_fuse_like_torch() {
        // Values from torch 2.15 CPU, where the unfused `s + v * a * b` differs by 1 ulp.
        let r = one(-0.292_912_54_f32)
            .addcmul(
                &one(-0.601_576_5_f32),
                &one(-0.864_037_9_f32),
                Scalar::Float(0.1),
            )
            .unwrap();
        assert_eq!(r.to_vec::<f32>().unwrap()[0], -0.240_934_06_f32);
        let r = one(-0.28678029775619507_f64)
            .addcmul(
                &one(1.396010398864746_f64),
                &one(-0.9762163162231445_f64),
                Scalar::Float(0.1),
            )
            .unwrap();
        assert_eq!(r.to_vec::<f64>().unwrap()[0], -0.4230611106550896);
    }

    #[test]
    fn addcmul_f16_huge_value_names_float() {
        let s = Tensor::ones(&[2], DType::F16).unwrap();
        let e = s.addcmul(&s, &s, Scalar::Float(1e300)).unwrap_err();
        assert!(e
            .to_string()
            .contains("value cannot be converted to type float without overflow"));
        // 1e6 fits f32, overflows half only at the end: inf (as torch).
        let r = s.addcmul(&s, &s, Scalar::Float(1e6)).unwrap();
        assert!(r.to_vec::<f16>().unwrap().iter().all(|x| x.is_infinite()));
    }
}
