//! Typed unary ops. `neg`, `abs`, `relu` keep the element type; `exp`, `log`, `sqrt`,
//! `sigmoid`, `tanh` give a float (`FloatOf<T>`: integers become `f32`, as in PyTorch).
//! In-place variants (`exp_`) exist where the result type is `T` itself. `neg` and `relu`
//! of a bool tensor do not compile (PyTorch refuses them).

use crate::ops::or_panic;
use crate::shape::promote::FloatOf;
use crate::shape::Shape;
use crate::tensor::Tensor;
use crate::typelevel::dtype_rules::{Negate, Relu};
use tensor_core::Element;

macro_rules! same_type_unary {
    ($($name:ident $inplace:ident $bound:path;)*) => {
        impl<T: Element, S: Shape> Tensor<T, S> {$(
            #[doc = concat!("Elementwise `", stringify!($name), "`, same element type and shape. Mirrors `torch.", stringify!($name), "`.")]
            pub fn $name(&self) -> Tensor<T, S>
            where
                T: $bound,
            {
                wrap!(or_panic(self.inner.$name()))
            }

            #[doc = concat!("In-place `", stringify!($name), "`. Mirrors `Tensor.", stringify!($inplace), "`.")]
            pub fn $inplace(&self) -> &Self
            where
                T: $bound,
            {
                or_panic(self.inner.$inplace());
                self
            }
        )*}
    };
}
same_type_unary! {
    neg neg_ Negate; abs abs_ Element; relu relu_ Relu;
}

macro_rules! float_unary {
    ($($name:ident $inplace:ident;)*) => {
        impl<T: Element + FloatOf, S: Shape> Tensor<T, S> {$(
            #[doc = concat!("Elementwise `", stringify!($name), "`; integer inputs give `f32`. Mirrors `torch.", stringify!($name), "`.")]
            pub fn $name(&self) -> Tensor<<T as FloatOf>::Output, S> {
                wrap!(or_panic(self.inner.$name()))
            }
        )*}

        impl<T: Element + FloatOf<Output = T>, S: Shape> Tensor<T, S> {$(
            #[doc = concat!("In-place `", stringify!($name), "` (float tensors only). Mirrors `Tensor.", stringify!($inplace), "`.")]
            pub fn $inplace(&self) -> &Self {
                or_panic(self.inner.$inplace());
                self
            }
        )*}
    };
}
float_unary! {
    exp exp_; log log_; sqrt sqrt_; sigmoid sigmoid_; tanh tanh_;
}

impl<T: Negate, S: Shape> std::ops::Neg for &Tensor<T, S> {
    type Output = Tensor<T, S>;
    fn neg(self) -> Tensor<T, S> {
        Tensor::neg(self)
    }
}

impl<T: Negate, S: Shape> std::ops::Neg for Tensor<T, S> {
    type Output = Tensor<T, S>;
    fn neg(self) -> Tensor<T, S> {
        Tensor::neg(&self)
    }
}
