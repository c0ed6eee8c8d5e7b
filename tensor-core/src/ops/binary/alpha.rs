//! `torch.add(a, b, alpha=...)` and `torch.sub(a, b, alpha=...)`: `a ± alpha * b` in one
//! pass (float32/float64 with a fused multiply-add, as PyTorch's CPU kernel).

use super::{build_and_run, Arg, BinaryOp};
use crate::autograd;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::iterator::{TensorIterator, Written};
use crate::kernels::arith::Arith;
use crate::kernels::{binary, binary_fma};
use crate::scalar::cast::checked_scalar;
use crate::scalar::Scalar;
use crate::tensor::Tensor;
/// PyTorch's `alpha_check` on the common dtype of the built iterator.
#[cfg_attr(unoptimized, inline)]
fn alpha_check(op: &'static str, dtype: DType, alpha: Scalar) -> Result<()> {
    if matches!(alpha, Scalar::Bool(_)) && dtype != DType::Bool {
        return Err(Error::InvalidArgument {
            op,
            message: "Boolean alpha only supported for Boolean results.".into(),
        });
    }
    if !dtype.is_floating() && matches!(alpha, Scalar::Float(_)) {
        return Err(Error::InvalidArgument {
            op,
            message:
                "For integral input tensors, argument alpha must not be a floating point number."
                    .into(),
        });
    }
    Ok(())
}

/// `a + alpha * b` with each operation rounded to `T` (PyTorch's ufunc `add` on
/// `scalar_t`: integers wrap, bool is logical, float16/bfloat16 round after the product
/// and after the sum).
fn add_alpha_rounded<'it, T: Arith>(
    iter: &'it TensorIterator,
    alpha: Scalar,
    op: &'static str,
) -> Result<Written<'it>> {
    let al = checked_scalar::<T>(alpha, op)?;
    Ok(binary::<T, T, _>(iter, move |x: T, y: T| {
        <T as Arith>::add(x, <T as Arith>::mul(al, y))
    }))
}

/// `add_kernel` with `alpha`: float32/float64 compute `fma(alpha, b, a)` as PyTorch's
/// CPU build does (its compiler contracts `a + alpha * b`; checked against torch 2.15
/// element by element), the other dtypes [`add_alpha_rounded`].
#[cfg_attr(unoptimized, inline)]
fn alpha_kernel<'it>(
    iter: &'it TensorIterator,
    alpha: Scalar,
    op: &'static str,
) -> Result<Written<'it>> {
    match iter.dtype(0) {
        DType::F32 => {
            let al = checked_scalar::<f32>(alpha, op)?;
            Ok(binary_fma::<f32, f32, _>(iter, move |x, y| {
                al.mul_add(y, x)
            }))
        }
        DType::F64 => {
            let al = checked_scalar::<f64>(alpha, op)?;
            Ok(binary_fma::<f64, f64, _>(iter, move |x, y| {
                al.mul_add(y, x)
            }))
        }
        DType::Bool => add_alpha_rounded::<bool>(iter, alpha, op),
        DType::U8 => add_alpha_rounded::<u8>(iter, alpha, op),
        DType::I8 => add_alpha_rounded::<i8>(iter, alpha, op),
        DType::I16 => add_alpha_rounded::<i16>(iter, alpha, op),
        DType::I32 => add_alpha_rounded::<i32>(iter, alpha, op),
        DType::I64 => add_alpha_rounded::<i64>(iter, alpha, op),
        DType::F16 => add_alpha_rounded::<half::f16>(iter, alpha, op),
        DType::BF16 => add_alpha_rounded::<half::bf16>(iter, alpha, op),
    }
}

/// `add.out` / `sub.out` with `alpha`: `sub_check`, `build_binary_op`, `alpha_check` on
/// the common dtype, then `a + alpha * b` (`sub` runs `add` with `-alpha`). Returns the
/// written tensor.
#[cfg_attr(unoptimized, inline)]
fn run_alpha(
    op: BinaryOp,
    a: &Tensor,
    b: &Tensor,
    alpha: Scalar,
    out: Option<&Tensor>,
) -> Result<Tensor> {
    let name = if op == BinaryOp::Sub { "sub" } else { "add" };
    if let Some(o) = out {
        autograd::check_writable(o)?;
    }
    let alpha_of_add = match (op, alpha) {
        (BinaryOp::Sub, Scalar::Int(i)) => Scalar::Int(i.wrapping_neg()),
        (BinaryOp::Sub, Scalar::Float(f)) => Scalar::Float(-f),
        (_, alpha) => alpha,
    };
    let iter = build_and_run(op, Arg::T(a), Arg::T(b), out, |iter| {
        alpha_check(name, iter.dtype(0), alpha)?;
        alpha_kernel(iter, alpha_of_add, name)
    })?;
    if let Some(o) = out {
        autograd::wrote(o);
    }
    Ok(iter.final_output(0).alias())
}

/// The backward node of `a ± alpha * b`.
#[cfg_attr(unoptimized, inline)]
fn alpha_node(op: BinaryOp, alpha: Scalar) -> autograd::AddBackward {
    let negate = op == BinaryOp::Sub;
    let factor = match alpha {
        Scalar::Int(i) => Scalar::Int(if negate { -i } else { i }),
        Scalar::Float(f) => Scalar::Float(if negate { -f } else { f }),
        Scalar::Bool(b) => Scalar::Int(if negate { -(b as i64) } else { b as i64 }),
    };
    autograd::AddBackward {
        name: if negate {
            "SubBackward0"
        } else {
            "AddBackward0"
        },
        other_factor: Some(factor),
    }
}

macro_rules! alpha_methods {
    ($($name:ident, $inplace:ident, $out:ident, $op:expr, $torch:literal, $what:literal;)*) => {
        impl Tensor {
            $(
                #[doc = concat!("`torch.", $torch, "(self, other, alpha=alpha)`: ", $what, ", broadcasting")]
                /// both and computing in their promoted dtype, `alpha` converted to it
                /// (float32/float64 use one fused multiply-add, as PyTorch's CPU kernel).
                ///
                /// # Errors
                /// [`Error::Broadcast`]; [`Error::UnsupportedDType`] as the form without
                /// `alpha`; [`Error::InvalidArgument`] for a float `alpha` with an
                /// integral (or bool) result (`For integral input tensors, argument alpha
                /// must not be a floating point number.`), a bool `alpha` with a
                /// non-bool result (`Boolean alpha only supported for Boolean
                /// results.`), or an `alpha` that overflows the dtype
                /// (`value cannot be converted to type int8_t without overflow`).
                pub fn $name(&self, other: &Tensor, alpha: impl Into<Scalar>) -> Result<Tensor> {
                    let alpha = alpha.into();
                    autograd::apply(
                        &[self, other],
                        || run_alpha($op, self, other, alpha, None),
                        |_| alpha_node($op, alpha),
                    )
                }

                #[doc = concat!("`Tensor.", $torch, "_(other, alpha=alpha)`: ", $what, " in place; `other` broadcasts to `self`.")]
                ///
                /// # Errors
                /// As the functional form; [`Error::OutputShape`];
                /// [`Error::UnsafeCast`] when the promoted dtype cannot be stored in
                /// `self`; overlap errors.
                pub fn $inplace(&self, other: &Tensor, alpha: impl Into<Scalar>) -> Result<()> {
                    let alpha = alpha.into();
                    if autograd::needs_grad(&[self, other]) {
                        return autograd::inplace_rebase(self, |old| old.$name(other, alpha));
                    }
                    run_alpha($op, self, other, alpha, Some(self)).map(|_| ())
                }

                #[doc = concat!("`torch.", $torch, "(self, other, alpha=alpha, out=out)`: ", $what, " written into `out`.")]
                /// `alpha` is checked against the common dtype of the inputs, not `out`'s.
                /// Returns the tensor written: `out`, or a fresh tensor when `out` had to
                /// be resized.
                ///
                /// # Errors
                /// As the functional form; [`Error::UnsafeCast`] for `out`'s dtype;
                /// overlap errors.
                pub fn $out(&self, other: &Tensor, alpha: impl Into<Scalar>, out: &Tensor) -> Result<Tensor> {
                    autograd::check_out($torch, &[self, other], out)?;
                    run_alpha($op, self, other, alpha.into(), Some(out))
                }
            )*
        }
    };
}

alpha_methods! {
    add_alpha, add_alpha_, add_alpha_out, BinaryOp::Add, "add", "`self + alpha * other`";
    sub_alpha, sub_alpha_, sub_alpha_out, BinaryOp::Sub, "sub", "`self - alpha * other`";
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::{err, longs};

    #[test]
    fn add_alpha_int() {
        // torch.add([1, 2], [10, 20], alpha=2) -> [21, 42]; sub -> [-19, -38]
        let (a, b) = (longs(&[1, 2]), longs(&[10, 20]));
        assert_eq!(
            a.add_alpha(&b, 2).unwrap().to_vec::<i64>().unwrap(),
            vec![21, 42]
        );
        assert_eq!(
            a.sub_alpha(&b, 2).unwrap().to_vec::<i64>().unwrap(),
            vec![-19, -38]
        );
    }

    #[test]
    fn add_alpha_float_with_int_tensor_errors() {
        let (a, b) = (longs(&[1, 2]), longs(&[10, 20]));
        let msg = "For integral input tensors, argument alpha must not be a floating point number.";
        assert!(err(a.add_alpha(&b, 2.5)).contains(msg));
        assert!(err(a.add_alpha(&b, 2.0)).contains(msg));
        assert!(err(a.sub_alpha(&b, 2.5)).contains(msg));
        assert!(err(a.add_alpha_(&b, 2.5)).contains(msg));
        // Checked on the common dtype (Long), not on a float out.
        let out = Tensor::empty(&[2], DType::F32).unwrap();
        assert!(err(a.add_alpha_out(&b, 2.5, &out)).contains(msg));
        let bools = Tensor::ones(&[2], DType::Bool).unwrap();
        assert!(err(bools.add_alpha(&bools, 0.5)).contains(msg));
    }

    #[test]
    fn add_alpha_bool_with_non_bool_result_errors() {
        let (a, b) = (longs(&[1, 2]), longs(&[10, 20]));
        let msg = "Boolean alpha only supported for Boolean results.";
        assert!(err(a.add_alpha(&b, true)).contains(msg));
        assert!(err(a.sub_alpha(&b, true)).contains(msg));
    }

    #[test]
    fn add_alpha_bool_tensors() {
        // torch.add([F, T], [T, T], alpha=0) -> [F, T]; alpha=2 -> [T, T]
        let a = Tensor::from_vec(vec![false, true], &[2]).unwrap();
        let b = Tensor::from_vec(vec![true, true], &[2]).unwrap();
        let r = a.add_alpha(&b, 0).unwrap();
        assert_eq!(r.to_vec::<bool>().unwrap(), vec![false, true]);
        let r = a.add_alpha(&b, 2).unwrap();
        assert_eq!(r.to_vec::<bool>().unwrap(), vec![true, true]);
        let r = a.add_alpha(&b, true).unwrap();
        assert_eq!(r.to_vec::<bool>().unwrap(), vec![true, true]);
        assert!(err(a.sub_alpha(&b, true)).contains("with two bool tensors"));
    }

    #[test]
    fn add_alpha_promotes_int_and_float() {
        // torch.add(long [1, 2], float [10, 20], alpha=2.5) -> float32 [26, 52]
        let a = longs(&[1, 2]);
        let b = Tensor::from_vec(vec![10.0f32, 20.0], &[2]).unwrap();
        let r = a.add_alpha(&b, 2.5).unwrap();
        assert_eq!(r.dtype(), DType::F32);
        assert_eq!(r.to_vec::<f32>().unwrap(), vec![26.0, 52.0]);
        assert!(err(a.add_alpha_(&b, 2))
            .contains("result type Float can't be cast to the desired output type Long"));
        let f = Tensor::from_vec(vec![1.0f32, 2.0], &[2]).unwrap();
        f.add_alpha_(&longs(&[10, 20]), 2.5).unwrap();
        assert_eq!(f.to_vec::<f32>().unwrap(), vec![26.0, 52.0]);
    }

    #[test]
    fn add_alpha_int8_overflow_and_sub_negates_alpha() {
        let a = Tensor::from_vec(vec![1i8, 2], &[2]).unwrap();
        let b = Tensor::from_vec(vec![10i8, 20], &[2]).unwrap();
        assert!(err(a.add_alpha(&b, 200))
            .contains("value cannot be converted to type int8_t without overflow"));
        // sub runs add with -alpha: alpha=128 -> -128 fits; alpha=-128 -> 128 does not.
        let r = a.sub_alpha(&b, 128).unwrap();
        assert_eq!(r.to_vec::<i8>().unwrap(), vec![1, 2]);
        assert!(err(a.sub_alpha(&b, -128)).contains("int8_t"));
    }

    #[test]
    fn sub_alpha_uint8_wraps() {
        // torch.sub(uint8 [10, 20], uint8 [1, 2], alpha=2) -> [8, 16]; add alpha=-1 -> [247, 238]
        let a = Tensor::from_vec(vec![10u8, 20], &[2]).unwrap();
        let b = Tensor::from_vec(vec![1u8, 2], &[2]).unwrap();
        assert_eq!(
            a.sub_alpha(&b, 2).unwrap().to_vec::<u8>().unwrap(),
            vec![8, 16]
        );
        let r = b.add_alpha(&a, -1).unwrap();
        assert_eq!(r.to_vec::<u8>().unwrap(), vec![247, 238]);
    }

    #[test]
    fn add_alpha_f32_and_f64_fuse_like_torch() {
        // torch 2.15 CPU; the unfused `a + alpha * b` is 1 ulp away for these.
        let a = Tensor::from_vec(vec![0.071_527_734_f32], &[1]).unwrap();
        let b = Tensor::from_vec(vec![-0.257_645_07_f32], &[1]).unwrap();
        let r = a.add_alpha(&b, 0.1).unwrap();
        assert_eq!(r.to_vec::<f32>().unwrap()[0], 0.045_763_228_f32);
        let a = a.to_dtype(DType::F64).unwrap();
        let b = b.to_dtype(DType::F64).unwrap();
        let r = a.add_alpha(&b, 0.1).unwrap();
        assert_eq!(r.to_vec::<f64>().unwrap()[0], 0.04576322734355926);
    }

    #[test]
    fn add_alpha_f16_rounds_product_and_sum() {
        // torch.add(half 3.0, half 1.0009765625, alpha=7.7) -> 10.703125 (one rounding in
        // f32 would give 10.7109375); torch.sub(half 3, half 1.0009765625, alpha=3) -> -0.00390625.
        let h = |x: f32| Tensor::from_vec(vec![half::f16::from_f32(x)], &[1]).unwrap();
        let r = h(3.0).add_alpha(&h(1.000_976_6), 7.7).unwrap();
        assert_eq!(r.to_vec::<half::f16>().unwrap()[0].to_f32(), 10.703125);
        let r = h(3.0).sub_alpha(&h(1.000_976_6), 3).unwrap();
        assert_eq!(r.to_vec::<half::f16>().unwrap()[0].to_f32(), -0.00390625);
        assert!(err(h(1.0).add_alpha(&h(1.0), 1e5)).contains("c10::Half"));
    }

    #[test]
    fn add_alpha_out_resizes() {
        let (a, b) = (longs(&[1, 2]), longs(&[10, 20]));
        let out = Tensor::empty(&[0], DType::I64).unwrap();
        let r = a.sub_alpha_out(&b, 3, &out).unwrap();
        assert_eq!(r.to_vec::<i64>().unwrap(), vec![-29, -58]);
    }
}
