//! `ReshapeTo<T>` (PyTorch's `reshape`/`view` target check) and `Numel` on types.
//!
//! When both shapes are fully static their element counts must be equal (a compile
//! error otherwise); when either has a `Dyn` dim the run time checks it
//! (`shape '[4, 5]' is invalid for input of size 15`).

use crate::shape::{Cons, ListOf, Nil, Shape};
use crate::typelevel::checks::{Blame, ReshapeOk};
use crate::typelevel::dim::Pick;
use crate::typelevel::dim::{Dyn, StaticDim};
use std::ops::Mul;
use typenum::{IsEqual, UInt, UTerm, Unsigned, B1, U1};

/// Product of two element counts, where `Dyn` absorbs.
pub trait MulNum<Rhs> {
    /// The product (typenum or `Dyn`).
    type Output;
}
impl<R> MulNum<R> for Dyn {
    type Output = Dyn;
}
impl MulNum<Dyn> for UTerm {
    type Output = Dyn;
}
impl<U, B> MulNum<Dyn> for UInt<U, B> {
    type Output = Dyn;
}
impl<R: Unsigned> MulNum<R> for UTerm {
    type Output = UTerm;
}
impl<U, B, R: Unsigned> MulNum<R> for UInt<U, B>
where
    UInt<U, B>: Mul<R>,
{
    type Output = <UInt<U, B> as Mul<R>>::Output;
}

/// The size of one dim as an element count: its typenum number, or `Dyn`.
pub trait DimCount {
    /// The typenum unsigned (or `Dyn`).
    type N;
}
impl<X: StaticDim> DimCount for X {
    type N = X::Num;
}
impl DimCount for Dyn {
    type N = Dyn;
}

/// The element count of a dim list: a typenum unsigned, or `Dyn` if any dim is `Dyn`.
pub trait Numel {
    /// The element count.
    type N;
}
impl Numel for Nil {
    type N = U1;
}
impl<H: DimCount, T: Numel> Numel for Cons<H, T>
where
    H::N: MulNum<T::N>,
{
    type N = <H::N as MulNum<T::N>>::Output;
}

/// Compares two element counts: `B1` when equal or when either is `Dyn` (checked at
/// run time), else `B0`.
pub trait NumelEq<Rhs> {
    /// `B1` or `B0`.
    type Output;
}
impl<R> NumelEq<R> for Dyn {
    type Output = B1;
}
impl NumelEq<Dyn> for UTerm {
    type Output = B1;
}
impl<U, B> NumelEq<Dyn> for UInt<U, B> {
    type Output = B1;
}
impl<R: Unsigned> NumelEq<R> for UTerm
where
    UTerm: IsEqual<R>,
{
    type Output = <UTerm as IsEqual<R>>::Output;
}
impl<U, B, R: Unsigned> NumelEq<R> for UInt<U, B>
where
    UInt<U, B>: IsEqual<R>,
{
    type Output = <UInt<U, B> as IsEqual<R>>::Output;
}

/// `ReshapeTo<T>`: shape `Self` may be reshaped to `T` (equal element counts when both
/// are static).
pub trait ReshapeTo<T: Shape>: Shape {}
impl<S: Shape, T: Shape> ReshapeTo<T> for S
where
    ListOf<S>: Numel,
    ListOf<T>: Numel,
    <ListOf<S> as Numel>::N: NumelEq<<ListOf<T> as Numel>::N>,
    <<ListOf<S> as Numel>::N as NumelEq<<ListOf<T> as Numel>::N>>::Output: Pick,
    // `Self` of a failure is the target `T`: with `S` rustc would report this bound
    // ("`S: ReshapeTo<T>` is not satisfied") instead of the check's message.
    Blame<<<ListOf<S> as Numel>::N as NumelEq<<ListOf<T> as Numel>::N>>::Output, T>:
        ReshapeOk<S, T>,
{
}
