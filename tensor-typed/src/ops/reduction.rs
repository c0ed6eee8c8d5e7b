//! Typed reductions over an axis list `A` (`Axes![1]`): the reduced dims are removed, or
//! kept as `D<1>` by the `_keepdim` variants. Axes out of range or repeated are compile
//! errors (`sum: axis 2 is out of range for shape (D<2>, D<3>)`).
//!
//! Result types as in PyTorch: `sum` of integers or bool is `i64`; `mean` needs a float
//! tensor; `amax`/`amin` keep `T`; `argmax`/`argmin` give `i64` and do not compile for
//! bool. Each has a `try_` form returning the run-time error (`amax`/`argmax` over an
//! empty `Dyn` axis) instead of panicking.

use crate::shape::axes::{AxisList, Keepdim, NoKeepdim, ReduceOver, Reduced, ReducedKeepdim};
use crate::shape::dims::SDim;
use crate::shape::dtype::ArgReduce;
use crate::shape::Shape;
use crate::tensor::Tensor;
use crate::typelevel::op;
use tensor_core::half::{bf16, f16};
use tensor_core::{Element, Result};
use tensor_macros::plain_form;

/// The element type of `sum`/`prod`: integers and bool accumulate in `i64`.
pub trait SumOf: Element {
    /// The result element type.
    type Output: Element;
}
macro_rules! sum_of {
    ($($a:ty => $b:ty;)*) => {$( impl SumOf for $a { type Output = $b; } )*};
}
sum_of! {
    bool => i64; u8 => i64; i8 => i64; i16 => i64; i32 => i64; i64 => i64;
    f16 => f16; bf16 => bf16; f32 => f32; f64 => f64;
}

/// A floating element type (`mean` needs one, as in PyTorch).
#[diagnostic::on_unimplemented(
    message = "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: {Self}",
    label = "cast to a float type first, e.g. `.cast::<f32>()`"
)]
pub trait Float: Element {}
#[diagnostic::do_not_recommend]
impl Float for f16 {}
#[diagnostic::do_not_recommend]
impl Float for bf16 {}
#[diagnostic::do_not_recommend]
impl Float for f32 {}
#[diagnostic::do_not_recommend]
impl Float for f64 {}

macro_rules! reductions {
    ($($name:ident $try_name:ident $try_keep:ident $out:ty, $bound:path;)*) => {
        impl<T: Element, S: Shape> Tensor<T, S> {$(
            #[doc = concat!("`", stringify!($name), "` over the axes `A`, removing them. Mirrors `torch.", stringify!($name), "(dim=A)`.")]
            ///
            /// # Errors
            /// PyTorch's message for `amax`/`amin` over an empty `Dyn` axis; an allocation
            /// failure.
            #[plain_form]
            pub fn $try_name<A: AxisList>(&self) -> Result<Tensor<$out, Reduced<S, A, op::$name>>>
            where
                T: $bound,
                S: ReduceOver<A, NoKeepdim, op::$name>,
            {
                Ok(wrap!(self.inner.$name(&A::indices(), false)?))
            }

            #[doc = concat!("`", stringify!($name), "` over the axes `A`, keeping them as size 1. Mirrors `torch.", stringify!($name), "(dim=A, keepdim=True)`.")]
            ///
            /// # Errors
            /// As the form without `_keepdim`.
            #[plain_form]
            pub fn $try_keep<A: AxisList>(&self) -> Result<Tensor<$out, ReducedKeepdim<S, A, op::$name>>>
            where
                T: $bound,
                S: ReduceOver<A, Keepdim, op::$name>,
            {
                Ok(wrap!(self.inner.$name(&A::indices(), true)?))
            }
        )*}
    };
}
reductions! {
    sum try_sum try_sum_keepdim <T as SumOf>::Output, SumOf;
    mean try_mean try_mean_keepdim T, Float;
    amax try_amax try_amax_keepdim T, Element;
    amin try_amin try_amin_keepdim T, Element;
}

impl<T: Element, S: Shape> Tensor<T, S> {
    /// Sum of all elements, a 0-d tensor. Mirrors `torch.sum(t)`.
    ///
    /// # Errors
    /// `OutOfMemory` when the result cannot be allocated.
    #[plain_form]
    pub fn try_sum_all(&self) -> Result<Tensor<<T as SumOf>::Output, ()>>
    where
        T: SumOf,
    {
        Ok(wrap!(self.inner.sum(&[], false)?))
    }

    /// Largest element, a 0-d tensor. Mirrors `torch.max(t)` (`torch.amax(t)`).
    ///
    /// # Errors
    /// `amax(): Expected reduction dim to be specified for input.numel() == 0.` for a
    /// tensor with no elements.
    #[plain_form]
    pub fn try_max_all(&self) -> Result<Tensor<T, ()>> {
        Ok(wrap!(self.inner.amax(&[], false)?))
    }

    /// Smallest element, a 0-d tensor. Mirrors `torch.min(t)` (`torch.amin(t)`).
    ///
    /// # Errors
    /// As [`Self::try_max_all`], naming `amin`.
    #[plain_form]
    pub fn try_min_all(&self) -> Result<Tensor<T, ()>> {
        Ok(wrap!(self.inner.amin(&[], false)?))
    }

    /// Mean of all elements, a 0-d tensor. Mirrors `torch.mean(t)`.
    ///
    /// # Errors
    /// `OutOfMemory` when the result cannot be allocated.
    #[plain_form]
    pub fn try_mean_all(&self) -> Result<Tensor<T, ()>>
    where
        T: Float,
    {
        Ok(wrap!(self.inner.mean(&[], false)?))
    }

    /// Index of the largest element along axis `AX` (first on ties), removing it.
    /// Mirrors `torch.argmax(t, dim=AX)`; `AX` is signed as PyTorch's dim (`argmax::<-1>`
    /// is over the last dim). Compile errors: `AX` out of range; a bool
    /// tensor.
    ///
    /// # Errors
    /// 0 to have non-zero size.` for an empty `Dyn` axis) instead of panicking.
    #[allow(clippy::type_complexity)]
    #[plain_form]
    pub fn try_argmax<const AX: isize>(
        &self,
    ) -> Result<Tensor<i64, Reduced<S, (SDim<AX>,), op::argmax>>>
    where
        T: ArgReduce,
        S: ReduceOver<(SDim<AX>,), NoKeepdim, op::argmax>,
    {
        Ok(wrap!(self.inner.argmax(Some(AX as i64), false)?))
    }

    /// Index of the smallest element along axis `AX`. Mirrors `torch.argmin(t, dim=AX)`.
    ///
    /// # Errors
    /// When the axis is an empty `Dyn`.
    #[allow(clippy::type_complexity)]
    #[plain_form]
    pub fn try_argmin<const AX: isize>(
        &self,
    ) -> Result<Tensor<i64, Reduced<S, (SDim<AX>,), op::argmin>>>
    where
        T: ArgReduce,
        S: ReduceOver<(SDim<AX>,), NoKeepdim, op::argmin>,
    {
        Ok(wrap!(self.inner.argmin(Some(AX as i64), false)?))
    }

    /// [`Self::argmax`] keeping the axis as size 1.
    ///
    /// # Errors
    /// As [`Self::argmax`].
    #[allow(clippy::type_complexity)]
    #[plain_form]
    pub fn try_argmax_keepdim<const AX: isize>(
        &self,
    ) -> Result<Tensor<i64, ReducedKeepdim<S, (SDim<AX>,), op::argmax>>>
    where
        T: ArgReduce,
        S: ReduceOver<(SDim<AX>,), Keepdim, op::argmax>,
    {
        Ok(wrap!(self.inner.argmax(Some(AX as i64), true)?))
    }
}
