//! Typed elementwise binary ops: arithmetic with broadcasting and dtype promotion,
//! comparisons, `where_`, scalar operands, operators, and in-place variants.
//!
//! `&a + &b` has shape `Broadcast<Sa, Sb>` and element type `Promoted<Ta, Tb>`; a static
//! broadcast mistake is a compile error, a `Dyn` one panics with PyTorch's message (the
//! `try_` methods return it). In-place ops (`add_`) need the other shape to broadcast to
//! this one and the promoted type to cast safely into `T`. `sub` with a bool operand and
//! `pow` computed in bool do not compile (PyTorch refuses them for every shape).

// Generic params carry `Element`/`Shape` (what `Tensor` needs) and the where clauses
// carry the op's rules, so each reads on its own.
#![allow(clippy::multiple_bound_locations)]

use crate::ops::inplace::InplaceBroadcast;
use crate::shape::broadcast::{Broadcast, BroadcastShape};
use crate::shape::dtype::{CastsTo, FloatOf, Power, Promote, Promoted, Subtract, WithScalar};
use crate::shape::Shape;
use crate::tensor::Tensor;
use crate::typelevel::op;
use std::ops;
use tensor_core::{Element, Result, Scalar};
use tensor_macros::plain_form;

/// The tensor type of `Tensor<T1, S1> (op) Tensor<T2, S2>`.
pub type BinaryOut<T1, S1, T2, S2, Op = op::broadcast> =
    Tensor<Promoted<T1, T2>, Broadcast<S1, S2, Op>>;
/// The tensor type of a true division (float result).
pub type DivOut<T1, S1, T2, S2> =
    Tensor<<Promoted<T1, T2> as FloatOf>::Output, Broadcast<S1, S2, op::div>>;
/// The tensor type of a comparison (`bool` elements).
pub type CmpOut<S1, S2, Op = op::broadcast> = Tensor<bool, Broadcast<S1, S2, Op>>;

macro_rules! binary_methods {
    ($($name:ident $try_name:ident $torch:literal $(, $extra:ty: $bound:path)*;)*) => {
        impl<T: Element, S: Shape> Tensor<T, S> {$(
            #[doc = concat!("Elementwise `", $torch, "` with broadcasting and dtype promotion. Mirrors `torch.", $torch, "`.")]
            ///
            /// Compile error: static dims that do not broadcast.
            ///
            /// # Errors
            /// PyTorch's message when a `Dyn` dim does not broadcast; an allocation
            /// failure.
            #[plain_form]
            pub fn $try_name<T2: Element, S2: Shape>(&self, other: &Tensor<T2, S2>) -> Result<BinaryOut<T, S, T2, S2, op::$name>>
            where
                T: Promote<T2>,
                S: BroadcastShape<S2, op::$name>,
                $($extra: $bound,)*
            {
                Ok(wrap!(self.inner.$name(&other.inner)?))
            }
        )*}
    };
}
binary_methods! {
    add try_add "add";
    sub try_sub "sub", T: Subtract, T2: Subtract;
    mul try_mul "mul";
    maximum try_maximum "maximum";
    minimum try_minimum "minimum";
    pow try_pow "pow", Promoted<T, T2>: Power;
}

impl<T: Element, S: Shape> Tensor<T, S> {
    /// Elementwise true division (integers give `f32`). Mirrors `torch.div`.
    /// Compile error: static dims that do not broadcast.
    ///
    /// # Errors
    /// On a `Dyn` mismatch (PyTorch's message) or when memory runs out.
    #[plain_form]
    pub fn try_div<T2: Element, S2: Shape>(
        &self,
        other: &Tensor<T2, S2>,
    ) -> Result<DivOut<T, S, T2, S2>>
    where
        T: Promote<T2>,
        Promoted<T, T2>: FloatOf,
        S: BroadcastShape<S2, op::div>,
    {
        Ok(wrap!(self.inner.div(&other.inner)?))
    }
}

macro_rules! compare_methods {
    ($($name:ident $try_name:ident;)*) => {
        impl<T: Element, S: Shape> Tensor<T, S> {$(
            #[doc = concat!("Elementwise comparison `", stringify!($name), "` (after promotion), giving `bool`. Mirrors `torch.", stringify!($name), "`.")]
            ///
            /// # Errors
            /// PyTorch's message when a `Dyn` dim does not broadcast; an allocation
            /// failure.
            #[plain_form]
            pub fn $try_name<T2: Element, S2: Shape>(&self, other: &Tensor<T2, S2>) -> Result<CmpOut<S, S2, op::$name>>
            where
                T: Promote<T2>,
                S: BroadcastShape<S2, op::$name>,
            {
                Ok(wrap!(self.inner.$name(&other.inner)?))
            }
        )*}
    };
}
compare_methods! {
    eq try_eq; ne try_ne; lt try_lt; le try_le; gt try_gt; ge try_ge;
}

/// The tensor type of `cond.where_(x, y)`.
pub type WhereOut<C, T1, S1, T2, S2> =
    Tensor<Promoted<T1, T2>, Broadcast<Broadcast<C, S1, op::where_>, S2, op::where_>>;

impl<C: Shape> Tensor<bool, C> {
    /// `x` where `self` is true, else `y`, broadcasting all three. Mirrors
    /// `torch.where(cond, x, y)`.
    ///
    /// Compile error: static dims that do not broadcast.
    ///
    /// # Errors
    /// PyTorch's broadcast error (`The size of tensor a (3) must match the size of tensor
    /// b (4) at non-singleton dimension 0`) for `Dyn` dims that differ; `OutOfMemory`.
    #[plain_form]
    pub fn try_where_<T1: Element, S1: Shape, T2: Element, S2: Shape>(
        &self,
        x: &Tensor<T1, S1>,
        y: &Tensor<T2, S2>,
    ) -> Result<WhereOut<C, T1, S1, T2, S2>>
    where
        T1: Promote<T2>,
        C: BroadcastShape<S1, op::where_>,
        Broadcast<C, S1, op::where_>: BroadcastShape<S2, op::where_>,
    {
        Ok(wrap!(tensor_core::Tensor::where_(
            &self.inner,
            &x.inner,
            &y.inner,
        )?))
    }
}

macro_rules! scalar_methods {
    ($($name:ident $try_name:ident $core:ident $bound:path;)*) => {
        impl<T: Element, S: Shape> Tensor<T, S> {$(
            #[doc = concat!("`", stringify!($core), "` with a Rust number (a PyTorch wrapped number: `Tensor<i64> * 0.5` is `f32`).")]
            ///
            /// # Errors
            /// PyTorch's message when the number does not fit the result's dtype (`value
            /// cannot be converted to type uint8_t without overflow`); an allocation
            /// failure.
            #[plain_form]
            pub fn $try_name<N: Into<Scalar> + Copy>(&self, value: N) -> Result<Tensor<<T as WithScalar<N>>::Output, S>>
            where
                T: WithScalar<N> + $bound,
            {
                Ok(wrap!(self.inner.$name(value)?))
            }
        )*}
    };
}
scalar_methods! {
    add_scalar try_add_scalar add Element; sub_scalar try_sub_scalar sub Subtract;
    mul_scalar try_mul_scalar mul Element;
}

/// The tensor type of `t.div_scalar(n)`.
pub type DivScalarOut<T, S, N> = Tensor<<<T as WithScalar<N>>::Output as FloatOf>::Output, S>;

impl<T: Element, S: Shape> Tensor<T, S> {
    /// True division by a Rust number (integers give `f32`). Mirrors `torch.div`.
    ///
    /// # Errors
    /// As [`Self::try_add_scalar`].
    #[plain_form]
    pub fn try_div_scalar<N: Into<Scalar> + Copy>(&self, value: N) -> Result<DivScalarOut<T, S, N>>
    where
        T: WithScalar<N>,
        <T as WithScalar<N>>::Output: FloatOf,
    {
        Ok(wrap!(self.inner.div_scalar(value)?))
    }
}

impl<T: Element, S: Shape> Tensor<T, S> {
    /// Elementwise `self ** exponent` with a Rust number (a PyTorch wrapped number:
    /// `Tensor<i64>.pow_scalar(0.5)` is `f32`, `Tensor<f32>.pow_scalar(2)` stays `f32`).
    /// Mirrors `torch.pow(self, exponent)` (`pow.Tensor_Scalar`). Compile error: a
    /// computation in `bool`.
    ///
    /// ```
    /// use tensor_typed::prelude::*;
    /// let x = tensor![1.0f32, 2.0, 3.0];
    /// assert_eq!(x.pow_scalar(2).to_vec(), vec![1.0f32, 4.0, 9.0]);
    /// ```
    ///
    /// # Errors
    /// `Integers to negative integer powers are not allowed.` (PyTorch's message) for an
    /// integer tensor and a negative integer; an allocation failure.
    #[plain_form]
    pub fn try_pow_scalar<N: Into<Scalar> + Copy>(
        &self,
        exponent: N,
    ) -> Result<Tensor<<T as WithScalar<N>>::Output, S>>
    where
        T: WithScalar<N>,
        <T as WithScalar<N>>::Output: Power,
    {
        Ok(wrap!(self.inner.pow_scalar(exponent)?))
    }
}

macro_rules! inplace_methods {
    ($($name:ident $try_name:ident $(, $extra:ty: $bound:path)*;)*) => {
        impl<T: Element, S: Shape> Tensor<T, S> {$(
            #[doc = concat!("In-place `", stringify!($name), "`: writes into `self` (and every view of it). Mirrors `Tensor.", stringify!($name), "`.")]
            ///
            /// Compile errors: `other` does not broadcast to this shape (`in-place add_:
            /// output with shape (D<3>,) doesn't match the broadcast shape (D<2>, D<3>)`);
            /// the promoted type does not cast safely into `T` (`add_: result type f32
            /// can't be cast to the desired output type i64`).
            ///
            /// # Errors
            /// A `Dyn` mismatch or an overlapping `self` (PyTorch's message).
            #[plain_form]
            pub fn $try_name<T2: Element, S2: Shape>(&self, other: &Tensor<T2, S2>) -> Result<&Self>
            where
                T: Promote<T2>,
                Promoted<T, T2>: CastsTo<T, op::$name>,
                S: InplaceBroadcast<S2, op::$name>,
                $($extra: $bound,)*
            {
                self.inner.$name(&other.inner)?;
                Ok(self)
            }
        )*}
    };
}
inplace_methods! {
    add_ try_add_; sub_ try_sub_, T: Subtract, T2: Subtract; mul_ try_mul_; div_ try_div_;
}

// ---- operators ----------------------------------------------------------------------

macro_rules! operator {
    ($Trait:ident $method:ident $name:ident $(, $extra:ty: $bound:path)*) => {
        impl<'a, 'b, T: Element, S: Shape, T2: Element, S2: Shape> ops::$Trait<&'b Tensor<T2, S2>>
            for &'a Tensor<T, S>
        where
            T: Promote<T2>,
            S: BroadcastShape<S2, op::$name>,
            $($extra: $bound,)*
        {
            type Output = BinaryOut<T, S, T2, S2, op::$name>;
            #[track_caller]
            fn $method(self, rhs: &'b Tensor<T2, S2>) -> Self::Output {
                Tensor::<T, S>::$name(&self, rhs)
            }
        }
        impl<T: Element, S: Shape, T2: Element, S2: Shape> ops::$Trait<Tensor<T2, S2>>
            for Tensor<T, S>
        where
            T: Promote<T2>,
            S: BroadcastShape<S2, op::$name>,
            $($extra: $bound,)*
        {
            type Output = BinaryOut<T, S, T2, S2, op::$name>;
            #[track_caller]
            fn $method(self, rhs: Tensor<T2, S2>) -> Self::Output {
                Tensor::<T, S>::$name(&self, &rhs)
            }
        }
        impl<'b, T: Element, S: Shape, T2: Element, S2: Shape> ops::$Trait<&'b Tensor<T2, S2>>
            for Tensor<T, S>
        where
            T: Promote<T2>,
            S: BroadcastShape<S2, op::$name>,
            $($extra: $bound,)*
        {
            type Output = BinaryOut<T, S, T2, S2, op::$name>;
            #[track_caller]
            fn $method(self, rhs: &'b Tensor<T2, S2>) -> Self::Output {
                Tensor::<T, S>::$name(&self, rhs)
            }
        }
        impl<'a, T: Element, S: Shape, T2: Element, S2: Shape> ops::$Trait<Tensor<T2, S2>>
            for &'a Tensor<T, S>
        where
            T: Promote<T2>,
            S: BroadcastShape<S2, op::$name>,
            $($extra: $bound,)*
        {
            type Output = BinaryOut<T, S, T2, S2, op::$name>;
            #[track_caller]
            fn $method(self, rhs: Tensor<T2, S2>) -> Self::Output {
                Tensor::<T, S>::$name(&self, &rhs)
            }
        }
    };
}
operator!(Add add add);
operator!(Sub sub sub, T: Subtract, T2: Subtract);
operator!(Mul mul mul);

impl<T: Element, S: Shape, T2: Element, S2: Shape> ops::Div<&Tensor<T2, S2>> for &Tensor<T, S>
where
    T: Promote<T2>,
    Promoted<T, T2>: FloatOf,
    S: BroadcastShape<S2, op::div>,
{
    type Output = DivOut<T, S, T2, S2>;
    #[track_caller]
    fn div(self, rhs: &Tensor<T2, S2>) -> Self::Output {
        Tensor::div(self, rhs)
    }
}
impl<T: Element, S: Shape, T2: Element, S2: Shape> ops::Div<Tensor<T2, S2>> for Tensor<T, S>
where
    T: Promote<T2>,
    Promoted<T, T2>: FloatOf,
    S: BroadcastShape<S2, op::div>,
{
    type Output = DivOut<T, S, T2, S2>;
    #[track_caller]
    fn div(self, rhs: Tensor<T2, S2>) -> Self::Output {
        Tensor::div(&self, &rhs)
    }
}

macro_rules! scalar_operator {
    ($Trait:ident $method:ident $name:ident $bound:path: $($n:ty)*) => {$(
        impl<T: Element, S: Shape> ops::$Trait<$n> for &Tensor<T, S>
        where
            T: WithScalar<$n> + $bound,
        {
            type Output = Tensor<<T as WithScalar<$n>>::Output, S>;
            #[track_caller]
            fn $method(self, rhs: $n) -> Self::Output {
                Tensor::<T, S>::$name(&self, rhs)
            }
        }
        impl<T: Element, S: Shape> ops::$Trait<$n> for Tensor<T, S>
        where
            T: WithScalar<$n> + $bound,
        {
            type Output = Tensor<<T as WithScalar<$n>>::Output, S>;
            #[track_caller]
            fn $method(self, rhs: $n) -> Self::Output {
                Tensor::<T, S>::$name(&self, rhs)
            }
        }
    )*};
}
scalar_operator!(Add add add_scalar Element: f32 f64 i64 i32);
scalar_operator!(Sub sub sub_scalar Subtract: f32 f64 i64 i32);
scalar_operator!(Mul mul mul_scalar Element: f32 f64 i64 i32);

macro_rules! div_scalar_operator {
    ($($n:ty)*) => {$(
        impl<T: Element, S: Shape> ops::Div<$n> for &Tensor<T, S>
        where
            T: WithScalar<$n>,
            <T as WithScalar<$n>>::Output: FloatOf,
        {
            type Output = Tensor<<<T as WithScalar<$n>>::Output as FloatOf>::Output, S>;
            #[track_caller]
            fn div(self, rhs: $n) -> Self::Output {
                self.div_scalar(rhs)
            }
        }
    )*};
}
div_scalar_operator!(f32 f64 i64 i32);
