//! Typed unary ops, one per row of tensor-core's op table (`ops/unary/defs.rs`):
//! `all` rows (`neg`, `abs`, `relu`) keep the element type, bounded by the row's element
//! rule (`neg` and `relu` of a bool tensor do not compile: PyTorch refuses them);
//! `float` rows (`exp`, `log`, `sqrt`, `sigmoid`, `tanh`, `sin`, `cos`) give a float
//! (`FloatOf<T>`: integers become `f32`, as in PyTorch), and have an in-place variant
//! (`exp_`) where the result type is `T` itself.

use crate::shape::dtype::FloatOf;
use crate::shape::dtype::{Negate, Relu};
use crate::shape::Shape;
use crate::tensor::Tensor;
use tensor_core::{Element, Result};
use tensor_macros::plain_form;

/// The typed methods of one row: `all` rows keep `T` (bounded by the row's rule),
/// `float` rows give `FloatOf<T>`.
macro_rules! typed_unary {
    ($( $name:ident $V:ident $inplace:ident $out:ident $try_name:ident $try_inplace:ident
        $torch:literal $what:literal
        $kind:ident $kernel:tt $rule:ident $bool_error:tt $node:tt
        $domain:ident $partial:ident ; )*) => {
        $( typed_unary!(@$kind $name $inplace $try_name $try_inplace $torch $what $rule); )*
    };
    (@all $name:ident $inplace:ident $try_name:ident $try_inplace:ident $torch:literal $what:literal $rule:ident) => {
        impl<T: Element, S: Shape> Tensor<T, S> {
            #[doc = concat!("Elementwise `", $torch, "` (", $what, "), same element type and shape. Mirrors `torch.", $torch, "`.")]
            ///
            /// # Errors
            /// `OutOfMemory` when the result cannot be allocated.
            #[plain_form]
            pub fn $try_name(&self) -> Result<Tensor<T, S>>
            where
                T: $rule,
            {
                Ok(wrap!(self.inner.$name()?))
            }

            #[doc = concat!("In-place `", $torch, "`. Mirrors `Tensor.", $torch, "_`.")]
            ///
            /// # Errors
            /// PyTorch's internal-overlap error for an expanded `self`; autograd's
            /// in-place errors (a leaf that requires grad).
            #[plain_form]
            pub fn $try_inplace(&self) -> Result<&Self>
            where
                T: $rule,
            {
                self.inner.$inplace()?;
                Ok(self)
            }
        }
    };
    (@float $name:ident $inplace:ident $try_name:ident $try_inplace:ident $torch:literal $what:literal $rule:ident) => {
        impl<T: Element + FloatOf, S: Shape> Tensor<T, S> {
            #[doc = concat!("Elementwise `", $torch, "` (", $what, "); integer inputs give `f32`. Mirrors `torch.", $torch, "`.")]
            ///
            /// # Errors
            /// `OutOfMemory` when the result cannot be allocated.
            #[plain_form]
            pub fn $try_name(&self) -> Result<Tensor<<T as FloatOf>::Output, S>> {
                Ok(wrap!(self.inner.$name()?))
            }
        }

        impl<T: Element + FloatOf<Output = T>, S: Shape> Tensor<T, S> {
            #[doc = concat!("In-place `", $torch, "` (float tensors only). Mirrors `Tensor.", $torch, "_`.")]
            ///
            /// # Errors
            /// PyTorch's internal-overlap error for an expanded `self`; autograd's
            /// in-place errors (a leaf that requires grad).
            #[plain_form]
            pub fn $try_inplace(&self) -> Result<&Self> {
                self.inner.$inplace()?;
                Ok(self)
            }
        }
    };
}
tensor_core::__unary_ops!(typed_unary);

impl<T: Negate, S: Shape> std::ops::Neg for &Tensor<T, S> {
    type Output = Tensor<T, S>;
    #[track_caller]
    fn neg(self) -> Tensor<T, S> {
        Tensor::neg(self)
    }
}

impl<T: Negate, S: Shape> std::ops::Neg for Tensor<T, S> {
    type Output = Tensor<T, S>;
    #[track_caller]
    fn neg(self) -> Tensor<T, S> {
        Tensor::neg(&self)
    }
}
