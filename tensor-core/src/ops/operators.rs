//! `std::ops` operators: `+ - * /` between tensors (owned or borrowed) and with `f64`,
//! `f32`, `i64` scalars on either side, and unary `-`. They panic with the message of
//! the `Result` method (`add`, `sub`, ...), as PyTorch raises.

use super::binary::{run, Arg, BinaryOp};
use crate::scalar::Scalar;
use crate::tensor::Tensor;
use std::ops::{Add, Div, Mul, Neg, Sub};

#[cfg_attr(unoptimized, inline)]
fn or_panic(r: crate::error::Result<Tensor>) -> Tensor {
    r.unwrap_or_else(|e| panic!("{e}"))
}

macro_rules! tensor_tensor {
    ($trait:ident, $method:ident, $op:expr) => {
        impl $trait<&Tensor> for &Tensor {
            type Output = Tensor;
            /// Elementwise with broadcasting and promotion; panics on error.
            #[cfg_attr(unoptimized, inline)]
            fn $method(self, rhs: &Tensor) -> Tensor {
                or_panic(run($op, Arg::T(self), Arg::T(rhs), None))
            }
        }
        impl $trait<Tensor> for &Tensor {
            type Output = Tensor;
            /// Elementwise with broadcasting and promotion; panics on error.
            #[cfg_attr(unoptimized, inline)]
            fn $method(self, rhs: Tensor) -> Tensor {
                or_panic(run($op, Arg::T(self), Arg::T(&rhs), None))
            }
        }
        impl $trait<&Tensor> for Tensor {
            type Output = Tensor;
            /// Elementwise with broadcasting and promotion; panics on error.
            #[cfg_attr(unoptimized, inline)]
            fn $method(self, rhs: &Tensor) -> Tensor {
                or_panic(run($op, Arg::T(&self), Arg::T(rhs), None))
            }
        }
        impl $trait<Tensor> for Tensor {
            type Output = Tensor;
            /// Elementwise with broadcasting and promotion; panics on error.
            #[cfg_attr(unoptimized, inline)]
            fn $method(self, rhs: Tensor) -> Tensor {
                or_panic(run($op, Arg::T(&self), Arg::T(&rhs), None))
            }
        }
    };
}

macro_rules! tensor_scalar {
    ($trait:ident, $method:ident, $op:expr, $($s:ty),*) => {$(
        impl $trait<$s> for &Tensor {
            type Output = Tensor;
            /// With a wrapped number; panics on error.
            #[cfg_attr(unoptimized, inline)]
            fn $method(self, rhs: $s) -> Tensor {
                or_panic(run($op, Arg::T(self), Arg::S(Scalar::from(rhs)), None))
            }
        }
        impl $trait<$s> for Tensor {
            type Output = Tensor;
            /// With a wrapped number; panics on error.
            #[cfg_attr(unoptimized, inline)]
            fn $method(self, rhs: $s) -> Tensor {
                or_panic(run($op, Arg::T(&self), Arg::S(Scalar::from(rhs)), None))
            }
        }
        impl $trait<&Tensor> for $s {
            type Output = Tensor;
            /// A wrapped number on the left (`2.0 - t`); panics on error.
            #[cfg_attr(unoptimized, inline)]
            fn $method(self, rhs: &Tensor) -> Tensor {
                or_panic(run($op, Arg::S(Scalar::from(self)), Arg::T(rhs), None))
            }
        }
        impl $trait<Tensor> for $s {
            type Output = Tensor;
            /// A wrapped number on the left (`2.0 - t`); panics on error.
            #[cfg_attr(unoptimized, inline)]
            fn $method(self, rhs: Tensor) -> Tensor {
                or_panic(run($op, Arg::S(Scalar::from(self)), Arg::T(&rhs), None))
            }
        }
    )*};
}

tensor_tensor!(Add, add, BinaryOp::Add);
tensor_tensor!(Sub, sub, BinaryOp::Sub);
tensor_tensor!(Mul, mul, BinaryOp::Mul);
tensor_tensor!(Div, div, BinaryOp::Div);
tensor_scalar!(Add, add, BinaryOp::Add, f64, f32, i64);
tensor_scalar!(Sub, sub, BinaryOp::Sub, f64, f32, i64);
tensor_scalar!(Mul, mul, BinaryOp::Mul, f64, f32, i64);
tensor_scalar!(Div, div, BinaryOp::Div, f64, f32, i64);

impl Neg for &Tensor {
    type Output = Tensor;
    /// `-t` (`torch.neg`); panics on a bool tensor with PyTorch's message.
    #[cfg_attr(unoptimized, inline)]
    fn neg(self) -> Tensor {
        or_panic(Tensor::neg(self))
    }
}

impl Neg for Tensor {
    type Output = Tensor;
    /// `-t` (`torch.neg`); panics on a bool tensor with PyTorch's message.
    #[cfg_attr(unoptimized, inline)]
    fn neg(self) -> Tensor {
        or_panic(Tensor::neg(&self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dtype::DType;

    #[test]
    fn operators_broadcast_and_promote() {
        let a = Tensor::from_vec(vec![1i64, 2], &[2]).unwrap();
        let b = Tensor::from_vec(vec![10i64, 20], &[2, 1]).unwrap();
        let r = &a + &b;
        assert_eq!(r.sizes(), &[2, 2]);
        assert_eq!(r.to_vec::<i64>().unwrap(), vec![11, 12, 21, 22]);
        let h = &a * 0.5f64;
        assert_eq!(h.dtype(), DType::F32);
        let r = 1i64 - &a;
        assert_eq!(r.to_vec::<i64>().unwrap(), vec![0, -1]);
        assert_eq!((-&a).to_vec::<i64>().unwrap(), vec![-1, -2]);
        assert_eq!((&a / 2i64).to_vec::<f32>().unwrap(), vec![0.5, 1.0]);
    }

    #[test]
    #[should_panic(expected = "Negation, the `-` operator, on a bool tensor is not supported")]
    fn neg_operator_on_bool_panics_with_pytorch_message() {
        let t = Tensor::zeros(&[1], DType::Bool).unwrap();
        let _ = -&t;
    }
}
