//! Unary elementwise ops: `neg abs exp log sqrt relu sigmoid tanh`, each functional,
//! in place (`neg_`) and with an output (`neg_out`).

use crate::autograd;
use crate::error::{Error, Result};
use crate::iterator::{TensorIterator, TensorIteratorConfig};
use crate::kernels::arith::{Arith, FloatMath};
use crate::kernels::unary;
use crate::{dispatch_dtype, DType, Tensor};

/// The unary ops and how PyTorch builds their iterator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum UnaryOp {
    Neg,
    Abs,
    Relu,
    Exp,
    Log,
    Sqrt,
    Sigmoid,
    Tanh,
}

impl UnaryOp {
    /// `build_unary_float_op` (integral inputs compute in float32) vs `build_unary_op`.
    #[cfg_attr(unoptimized, inline)]
    fn is_float_op(self) -> bool {
        matches!(
            self,
            UnaryOp::Exp | UnaryOp::Log | UnaryOp::Sqrt | UnaryOp::Sigmoid | UnaryOp::Tanh
        )
    }

    /// The meta-function checks PyTorch runs before building the iterator.
    #[cfg_attr(unoptimized, inline)]
    fn check(self, input: &Tensor) -> Result<()> {
        if input.dtype() != DType::Bool {
            return Ok(());
        }
        let message = match self {
            UnaryOp::Neg => "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.",
            UnaryOp::Relu => "Boolean inputs not supported for relu",
            _ => return Ok(()),
        };
        Err(Error::UnsupportedDType {
            message: message.into(),
        })
    }
}

#[cfg_attr(unoptimized, inline)]
fn float_kernel(iter: &TensorIterator, op: UnaryOp) {
    fn run<T: FloatMath>(iter: &TensorIterator, op: UnaryOp) {
        // Without optimisation (build.rs) one loop per dtype serves every op, chosen
        // per element: nothing is vectorised there, and it is less code to compile.
        #[cfg(unoptimized)]
        unary::<T, T, _>(iter, move |x: T| match op {
            UnaryOp::Exp => T::exp(x),
            UnaryOp::Log => T::ln(x),
            UnaryOp::Sqrt => T::sqrt(x),
            UnaryOp::Sigmoid => T::sigmoid(x),
            _ => T::tanh(x),
        });
        #[cfg(not(unoptimized))]
        match op {
            UnaryOp::Exp => unary::<T, T, _>(iter, <T as FloatMath>::exp),
            UnaryOp::Log => unary::<T, T, _>(iter, <T as FloatMath>::ln),
            UnaryOp::Sqrt => unary::<T, T, _>(iter, <T as FloatMath>::sqrt),
            UnaryOp::Sigmoid => unary::<T, T, _>(iter, <T as FloatMath>::sigmoid),
            UnaryOp::Tanh => unary::<T, T, _>(iter, <T as FloatMath>::tanh),
            _ => unreachable!("not a float op"),
        }
    }
    match iter.dtype(0) {
        DType::F16 => run::<half::f16>(iter, op),
        DType::BF16 => run::<half::bf16>(iter, op),
        DType::F32 => run::<f32>(iter, op),
        DType::F64 => run::<f64>(iter, op),
        d => unreachable!("float op computed in {d}"),
    }
}

#[cfg_attr(unoptimized, inline)]
fn kernel(iter: &TensorIterator, op: UnaryOp) {
    if op.is_float_op() {
        return float_kernel(iter, op);
    }
    #[cfg(unoptimized)]
    dispatch_dtype!(iter.dtype(0), T, {
        unary::<T, T, _>(iter, move |x: T| match op {
            UnaryOp::Neg => <T as Arith>::neg(x),
            UnaryOp::Abs => <T as Arith>::abs(x),
            _ => <T as Arith>::clamp(x, Some(<T as crate::Element>::ZERO), None),
        })
    });
    #[cfg(not(unoptimized))]
    dispatch_dtype!(iter.dtype(0), T, {
        match op {
            UnaryOp::Neg => unary::<T, T, _>(iter, <T as Arith>::neg),
            UnaryOp::Abs => unary::<T, T, _>(iter, <T as Arith>::abs),
            UnaryOp::Relu => unary::<T, T, _>(iter, |x: T| {
                <T as Arith>::clamp(x, Some(<T as crate::Element>::ZERO), None)
            }),
            _ => unreachable!("a float op"),
        }
    })
}

/// Builds the iterator for `op` on `input` writing `out` (allocated when `None`), runs
/// the kernel and copies temporaries back. Returns the written tensor.
#[cfg_attr(unoptimized, inline)]
fn run(op: UnaryOp, input: &Tensor, out: Option<&Tensor>) -> Result<Tensor> {
    op.check(input)?;
    if let Some(o) = out {
        autograd::check_writable(o)?;
    }
    let config = if op.is_float_op() {
        TensorIteratorConfig::unary_float_op(out, input)
    } else {
        TensorIteratorConfig::unary_op(out, input)
    };
    // SAFETY: the kernel below writes every output element, then `cast_outputs` runs,
    // before the output is handed out.
    let mut iter = TensorIterator::build(unsafe { config.kernel_writes_every_output() })?;
    kernel(&iter, op);
    iter.cast_outputs()?;
    if let Some(o) = out {
        autograd::wrote(o);
    }
    Ok(iter.final_output(0).alias())
}

impl UnaryOp {
    #[cfg_attr(unoptimized, inline)]
    fn grad(self) -> autograd::UnaryGrad {
        match self {
            UnaryOp::Neg => autograd::UnaryGrad::Neg,
            UnaryOp::Abs => autograd::UnaryGrad::Abs,
            UnaryOp::Relu => autograd::UnaryGrad::Relu,
            UnaryOp::Exp => autograd::UnaryGrad::Exp,
            UnaryOp::Log => autograd::UnaryGrad::Log,
            UnaryOp::Sqrt => autograd::UnaryGrad::Sqrt,
            UnaryOp::Sigmoid => autograd::UnaryGrad::Sigmoid,
            UnaryOp::Tanh => autograd::UnaryGrad::Tanh,
        }
    }
}

macro_rules! unary_methods {
    ($($name:ident, $inplace:ident, $out:ident, $op:expr, $torch:literal, $what:literal;)*) => {
        impl Tensor {
            $(
                #[doc = concat!("`torch.", $torch, "(self)`: ", $what, ", elementwise, in a new tensor of")]
                /// the same sizes (strides follow the input's layout as PyTorch's
                /// TensorIterator does).
                ///
                /// # Errors
                /// [`Error::UnsupportedDType`] where PyTorch rejects the dtype (bool for
                /// `neg` and `relu`).
                #[cfg_attr(unoptimized, inline)]
                pub fn $name(&self) -> Result<Tensor> {
                    autograd::apply(
                        &[self],
                        || run($op, self, None),
                        |out| autograd::UnaryBackward::new($op.grad(), self, out),
                    )
                }

                #[doc = concat!("`Tensor.", $torch, "_()`: ", $what, " in place.")]
                ///
                /// # Errors
                /// As the functional form; [`Error::InternalOverlap`] when `self` has
                /// overlapping elements; [`Error::UnsafeCast`] when the result dtype
                /// cannot be stored in `self` (float ops on integral tensors).
                #[cfg_attr(unoptimized, inline)]
                pub fn $inplace(&self) -> Result<()> {
                    if autograd::needs_grad(&[self]) {
                        return autograd::inplace_rebase(self, |old| old.$name());
                    }
                    run($op, self, Some(self)).map(|_| ())
                }

                #[doc = concat!("`torch.", $torch, "(self, out=out)`: ", $what, " written into `out`.")]
                /// Returns the tensor written: `out` itself, or a fresh tensor when `out`
                /// had to be resized (a PyTorch `resize_` cannot change this handle).
                ///
                /// # Errors
                /// As the functional form; overlap errors;
                /// [`Error::DTypeMismatch`] / [`Error::UnsafeCast`] for `out`'s dtype.
                #[cfg_attr(unoptimized, inline)]
                pub fn $out(&self, out: &Tensor) -> Result<Tensor> {
                    autograd::check_out($torch, &[self], out)?;
                    run($op, self, Some(out))
                }
            )*
        }
    };
}

unary_methods! {
    neg, neg_, neg_out, UnaryOp::Neg, "neg", "negation `-x`";
    abs, abs_, abs_out, UnaryOp::Abs, "abs", "absolute value";
    relu, relu_, relu_out, UnaryOp::Relu, "relu", "`max(x, 0)` (NaN stays NaN)";
    exp, exp_, exp_out, UnaryOp::Exp, "exp", "`e^x` (integral inputs compute in float32)";
    log, log_, log_out, UnaryOp::Log, "log", "natural log (integral inputs compute in float32)";
    sqrt, sqrt_, sqrt_out, UnaryOp::Sqrt, "sqrt", "square root (integral inputs compute in float32)";
    sigmoid, sigmoid_, sigmoid_out, UnaryOp::Sigmoid, "sigmoid", "`1 / (1 + e^-x)` (integral inputs compute in float32)";
    tanh, tanh_, tanh_out, UnaryOp::Tanh, "tanh", "hyperbolic tangent (integral inputs compute in float32)";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neg_of_bool_is_rejected_with_pytorch_message() {
        let t = Tensor::zeros(&[2], DType::Bool).unwrap();
        let e = t.neg().unwrap_err();
        assert!(matches!(e, Error::UnsupportedDType { .. }));
        assert!(e
            .to_string()
            .starts_with("Negation, the `-` operator, on a bool tensor"));
    }

    #[test]
    fn exp_of_int_is_float32() {
        let t = Tensor::from_vec(vec![0i64, 1], &[2]).unwrap();
        let e = t.exp().unwrap();
        assert_eq!(e.dtype(), DType::F32);
        assert_eq!(e.to_vec::<f32>().unwrap(), vec![1.0, std::f32::consts::E]);
        assert_eq!(
            t.exp_().unwrap_err().to_string(),
            "result type Float can't be cast to the desired output type Long"
        );
    }

    #[test]
    fn neg_out_of_other_dtype_is_an_error() {
        let t = Tensor::zeros(&[2], DType::F32).unwrap();
        let out = Tensor::zeros(&[2], DType::F64).unwrap();
        assert!(t
            .neg_out(&out)
            .unwrap_err()
            .to_string()
            .contains("Found dtype Double but expected Float"));
    }

    #[test]
    fn relu_and_neg_in_place() {
        let t = Tensor::from_vec(vec![-1.0f32, 2.0, f32::NAN], &[3]).unwrap();
        let r = t.relu().unwrap().to_vec::<f32>().unwrap();
        assert_eq!(&r[..2], &[0.0, 2.0]);
        assert!(r[2].is_nan());
        t.neg_().unwrap();
        assert_eq!(t.to_vec::<f32>().unwrap()[..2], [1.0, -2.0]);
    }
}
