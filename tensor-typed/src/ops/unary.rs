//! Typed unary ops, one per row of tensor-core's op table
//! (`tensor-core/src/ops/unary/defs.rs`, `__unary_ops!`), each as `try_x` and `x`
//! (`#[plain_form(add_try)]` names them from the row's key) and their in-place forms
//! `try_x_` and `x_`. An `all` row keeps the element type, bounded by the op's element
//! rule below (`neg` and `relu` of a bool tensor do not compile: PyTorch refuses them);
//! a `float` row gives `FloatOf<T>` (integers become `f32`, as in PyTorch), and its
//! in-place form takes float tensors only.

use crate::shape::dtype::FloatOf;
use crate::shape::dtype::{Negate, Relu};
use crate::shape::Shape;
use crate::tensor::Tensor;
use tensor_core::{Element, Result};
use tensor_macros::plain_form;

/// The typed methods of each row of tensor-core's unary table.
macro_rules! typed_unary {
    ($( $name:ident {
        variant: $V:ident, inplace: $inplace:ident, out: $out:ident,
        torch: $torch:literal, doc: $what:literal,
        kernel: $kind:ident $kernel:tt,
        $($field:tt)*
    } )*) => {
        $( typed_unary!(@$kind [$name $inplace $torch $what]); )*
    };
    (@all [$name:ident $($row:tt)*]) => {
        typed_unary!(@rule $name [$name $($row)*]);
    };
    // The element rule of each `all` row, keyed by the op: what `T` must be
    // (`shape::dtype`; `Element`: any element type). A `float` row's is `FloatOf`.
    (@rule neg $row:tt) => { typed_unary!(@all_with Negate $row); };
    (@rule abs $row:tt) => { typed_unary!(@all_with Element $row); };
    (@rule relu $row:tt) => { typed_unary!(@all_with Relu $row); };
    (@rule $other:ident $row:tt) => {
        compile_error!(concat!(
            "tensor-typed has no element rule for the unary op `", stringify!($other),
            "`: add `(@rule ", stringify!($other), " $row:tt)` in tensor-typed/src/ops/unary.rs"
        ));
    };
    (@all_with $rule:ident [$name:ident $inplace:ident $torch:literal $what:literal]) => {
        impl<T: Element, S: Shape> Tensor<T, S> {
            #[doc = concat!("Elementwise `", $torch, "` (", $what, "), same element type and shape. Mirrors `torch.", $torch, "`.")]
            ///
            /// # Errors
            /// `OutOfMemory` when the result cannot be allocated.
            #[plain_form(add_try)]
            pub fn $name(&self) -> Result<Tensor<T, S>>
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
            #[plain_form(add_try)]
            pub fn $inplace(&self) -> Result<&Self>
            where
                T: $rule,
            {
                self.inner.$inplace()?;
                Ok(self)
            }
        }
    };
    (@float [$name:ident $inplace:ident $torch:literal $what:literal]) => {
        impl<T: Element + FloatOf, S: Shape> Tensor<T, S> {
            #[doc = concat!("Elementwise `", $torch, "` (", $what, "); integer inputs give `f32`. Mirrors `torch.", $torch, "`.")]
            ///
            /// # Errors
            /// `OutOfMemory` when the result cannot be allocated.
            #[plain_form(add_try)]
            pub fn $name(&self) -> Result<Tensor<<T as FloatOf>::Output, S>> {
                Ok(wrap!(self.inner.$name()?))
            }
        }

        impl<T: Element + FloatOf<Output = T>, S: Shape> Tensor<T, S> {
            #[doc = concat!("In-place `", $torch, "` (float tensors only). Mirrors `Tensor.", $torch, "_`.")]
            ///
            /// # Errors
            /// PyTorch's internal-overlap error for an expanded `self`; autograd's
            /// in-place errors (a leaf that requires grad).
            #[plain_form(add_try)]
            pub fn $inplace(&self) -> Result<&Self> {
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
