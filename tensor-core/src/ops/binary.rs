//! Binary elementwise ops: `add sub mul div maximum minimum pow`, with tensors or Rust
//! scalars (wrapped numbers), functional, in place and with an output.

use crate::error::{Error, Result};
use crate::iterator::{TensorIterator, TensorIteratorConfig};
use crate::kernels::arith::Arith;
use crate::kernels::binary;
use crate::{dispatch_dtype, DType, Scalar, Tensor};

/// An operand of a binary op: a tensor or a wrapped number.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Arg<'a> {
    /// A tensor.
    T(&'a Tensor),
    /// A Rust number, promoted as PyTorch's wrapped numbers.
    S(Scalar),
}

impl Arg<'_> {
    pub(crate) fn dtype(&self) -> DType {
        match self {
            Arg::T(t) => t.dtype(),
            Arg::S(s) => s.dtype(),
        }
    }

    pub(crate) fn add_to(self, config: TensorIteratorConfig) -> TensorIteratorConfig {
        match self {
            Arg::T(t) => config.add_const_input(t),
            Arg::S(s) => config.add_scalar_input(s),
        }
    }
}

/// The binary arithmetic ops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Maximum,
    Minimum,
    Pow,
}

fn unsupported(message: &str) -> Error {
    Error::UnsupportedDType {
        message: message.into(),
    }
}

/// PyTorch's `sub_check`.
fn sub_check(a: DType, b: DType) -> Result<()> {
    if a == DType::Bool && b == DType::Bool {
        return Err(unsupported("Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead."));
    }
    if a == DType::Bool || b == DType::Bool {
        return Err(unsupported("Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead."));
    }
    Ok(())
}

fn kernel(iter: &TensorIterator, op: BinaryOp) -> Result<()> {
    let dtype = iter.dtype(0);
    if op == BinaryOp::Pow && dtype == DType::Bool {
        return Err(unsupported("\"pow\" not implemented for 'Bool'"));
    }
    dispatch_dtype!(dtype, T, {
        match op {
            BinaryOp::Add => binary::<T, T, _>(iter, <T as Arith>::add),
            BinaryOp::Sub => binary::<T, T, _>(iter, <T as Arith>::sub),
            BinaryOp::Mul => binary::<T, T, _>(iter, <T as Arith>::mul),
            BinaryOp::Div => binary::<T, T, _>(iter, <T as Arith>::div),
            BinaryOp::Maximum => binary::<T, T, _>(iter, <T as Arith>::maximum),
            BinaryOp::Minimum => binary::<T, T, _>(iter, <T as Arith>::minimum),
            BinaryOp::Pow => binary::<T, T, _>(iter, <T as Arith>::pow),
        }
    });
    Ok(())
}

/// Builds `build_binary_op` (or `build_binary_float_op` for `div`) on `out`, `a`, `b`,
/// runs the kernel and copies temporaries back. Returns the written tensor.
pub(crate) fn run(op: BinaryOp, a: Arg<'_>, b: Arg<'_>, out: Option<&Tensor>) -> Result<Tensor> {
    if op == BinaryOp::Sub {
        sub_check(a.dtype(), b.dtype())?;
    }
    let config = TensorIteratorConfig::new()
        .set_check_mem_overlap(true)
        .allow_cpu_scalars(true)
        .promote_inputs_to_common_dtype(true)
        .cast_common_dtype_to_outputs(true)
        .enforce_safe_casting_to_output(true)
        .promote_integer_inputs_to_float(op == BinaryOp::Div)
        .add_maybe_output(out);
    let config = b.add_to(a.add_to(config));
    let mut iter = TensorIterator::build(config)?;
    kernel(&iter, op)?;
    iter.cast_outputs()?;
    Ok(iter.final_output(0).alias())
}

macro_rules! binary_methods {
    ($($name:ident, $inplace:ident, $out:ident, $op:expr, $torch:literal, $what:literal;)*) => {
        impl Tensor {
            $(
                #[doc = concat!("`torch.", $torch, "(self, other)`: ", $what, ", broadcasting both and")]
                /// computing in their promoted dtype (`torch.result_type`). The result's
                /// strides follow the operands' layout (the TensorIterator's perm, the
                /// left operand first).
                ///
                /// # Errors
                /// [`Error::Broadcast`] when the shapes do not broadcast;
                /// [`Error::UnsupportedDType`] where PyTorch rejects a dtype (bool `sub`).
                pub fn $name(&self, other: &Tensor) -> Result<Tensor> {
                    run($op, Arg::T(self), Arg::T(other), None)
                }

                #[doc = concat!("`Tensor.", $torch, "_(other)`: ", $what, " in place; `other` broadcasts to `self`.")]
                ///
                /// # Errors
                /// As the functional form; [`Error::OutputShape`] when the broadcast
                /// shape is not `self`'s; [`Error::UnsafeCast`] when the promoted dtype
                /// cannot be stored in `self`; [`Error::InternalOverlap`] /
                /// [`Error::PartialOverlap`].
                pub fn $inplace(&self, other: &Tensor) -> Result<()> {
                    run($op, Arg::T(self), Arg::T(other), Some(self)).map(|_| ())
                }

                #[doc = concat!("`torch.", $torch, "(self, other, out=out)`: ", $what, " written into `out`.")]
                /// Returns the tensor written: `out`, or a fresh tensor when `out` had to
                /// be resized (a PyTorch `resize_` cannot change this handle).
                ///
                /// # Errors
                /// As the functional form; [`Error::UnsafeCast`] for `out`'s dtype;
                /// overlap errors.
                pub fn $out(&self, other: &Tensor, out: &Tensor) -> Result<Tensor> {
                    run($op, Arg::T(self), Arg::T(other), Some(out))
                }

            )*
        }
    };
}

binary_methods! {
    add, add_, add_out, BinaryOp::Add, "add", "sum `self + other`";
    sub, sub_, sub_out, BinaryOp::Sub, "sub", "difference `self - other`";
    mul, mul_, mul_out, BinaryOp::Mul, "mul", "product `self * other`";
    div, div_, div_out, BinaryOp::Div, "div", "true division `self / other` (integral inputs divide in float32)";
    maximum, maximum_, maximum_out, BinaryOp::Maximum, "maximum", "elementwise maximum (NaN if either is NaN)";
    minimum, minimum_, minimum_out, BinaryOp::Minimum, "minimum", "elementwise minimum (NaN if either is NaN)";
    pow, pow_, pow_out, BinaryOp::Pow, "pow", "power `self ** other` (integers: `powi`)";
}

macro_rules! binary_scalar_methods {
    ($($scalar:ident, $scalar_inplace:ident, $op:expr, $torch:literal, $what:literal;)*) => {
        impl Tensor {
            $(
                #[doc = concat!("`torch.", $torch, "(self, scalar)`: ", $what, " with a Rust number, which")]
                /// promotes as a wrapped number (`int32 tensor + 2.5 -> float32`,
                /// `int8 tensor + 1000 -> int8`).
                ///
                /// # Errors
                /// As the tensor form.
                pub fn $scalar(&self, other: impl Into<Scalar>) -> Result<Tensor> {
                    run($op, Arg::T(self), Arg::S(other.into()), None)
                }

                #[doc = concat!("`Tensor.", $torch, "_(scalar)`: ", $what, " with a Rust number, in place.")]
                ///
                /// # Errors
                /// As the in-place tensor form.
                pub fn $scalar_inplace(&self, other: impl Into<Scalar>) -> Result<()> {
                    run($op, Arg::T(self), Arg::S(other.into()), Some(self)).map(|_| ())
                }
            )*
        }
    };
}

binary_scalar_methods! {
    add_scalar, add_scalar_, BinaryOp::Add, "add", "sum `self + other`";
    sub_scalar, sub_scalar_, BinaryOp::Sub, "sub", "difference `self - other`";
    mul_scalar, mul_scalar_, BinaryOp::Mul, "mul", "product `self * other`";
    div_scalar, div_scalar_, BinaryOp::Div, "div", "true division `self / other` (integral inputs divide in float32)";
    maximum_scalar, maximum_scalar_, BinaryOp::Maximum, "maximum", "elementwise maximum (NaN if either is NaN)";
    minimum_scalar, minimum_scalar_, BinaryOp::Minimum, "minimum", "elementwise minimum (NaN if either is NaN)";
}

impl Tensor {
    /// `torch.pow(self, exponent)` with a Rust number exponent (`pow.Tensor_Scalar`):
    /// computes in `result_type(self, exponent)`; integral tensors raised to a negative
    /// integer are rejected.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] `Integers to negative integer powers are not allowed.`
    pub fn pow_scalar(&self, exponent: impl Into<Scalar>) -> Result<Tensor> {
        let e = exponent.into();
        if self.dtype().is_integral(true) {
            if let Scalar::Int(i) = e {
                if i < 0 {
                    return Err(Error::InvalidArgument {
                        op: "pow",
                        message: "Integers to negative integer powers are not allowed.".into(),
                    });
                }
            }
        }
        let common = crate::result_type(&[crate::Operand::Tensor(self), crate::Operand::Scalar(e)]);
        let base = self.to_dtype(common)?;
        let iter = TensorIterator::build(TensorIteratorConfig::unary_op(None, &base))?;
        if common == DType::Bool {
            return Err(unsupported("\"pow\" not implemented for 'Bool'"));
        }
        dispatch_dtype!(common, T, {
            let e = crate::tensor::scalar_to::<T>(e);
            crate::kernels::unary::<T, T, _>(&iter, move |x: T| <T as Arith>::pow(x, e));
        });
        Ok(iter.output(0).alias())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn int_plus_float_scalar_is_float32() {
        let t = Tensor::from_vec(vec![1i32, 2], &[2]).unwrap();
        let r = t.add_scalar(2.5).unwrap();
        assert_eq!(r.dtype(), DType::F32);
        assert_eq!(r.to_vec::<f32>().unwrap(), vec![3.5, 4.5]);
    }

    #[test]
    fn int_div_int_is_float32() {
        let a = Tensor::from_vec(vec![1i64, 3], &[2]).unwrap();
        let b = Tensor::from_vec(vec![2i64, 2], &[2]).unwrap();
        let r = a.div(&b).unwrap();
        assert_eq!(r.dtype(), DType::F32);
        assert_eq!(r.to_vec::<f32>().unwrap(), vec![0.5, 1.5]);
    }

    #[test]
    fn bool_sub_is_rejected() {
        let a = Tensor::zeros(&[2], DType::Bool).unwrap();
        let e = a.sub(&a).unwrap_err().to_string();
        assert!(e.starts_with("Subtraction, the `-` operator, with two bool tensors"));
        let f = Tensor::zeros(&[2], DType::F32).unwrap();
        assert!(f
            .sub(&a)
            .unwrap_err()
            .to_string()
            .contains("with a bool tensor"));
    }

    #[test]
    fn add_in_place_broadcast_mismatch() {
        let a = Tensor::zeros(&[3], DType::F32).unwrap();
        let b = Tensor::zeros(&[2, 3], DType::F32).unwrap();
        assert_eq!(
            a.add_(&b).unwrap_err().to_string(),
            "output with shape [3] doesn't match the broadcast shape [2, 3]"
        );
    }

    #[test]
    fn pow_scalar_promotes_like_pytorch() {
        let t = Tensor::from_vec(vec![2i64, 3], &[2]).unwrap();
        assert_eq!(
            t.pow_scalar(2).unwrap().to_vec::<i64>().unwrap(),
            vec![4, 9]
        );
        let f = t.pow_scalar(0.5).unwrap();
        assert_eq!(f.dtype(), DType::F32);
        assert!(t.pow_scalar(-1).is_err());
    }
}
