//! `ReshapeTo<T>` (PyTorch's `reshape`/`view` target check) and `Numel` on types.
//!
//! When both shapes are fully static their element counts must be equal (a compile
//! error otherwise); when either has a `Dyn` dim the run time checks it
//! (`shape '[4, 5]' is invalid for input of size 15`).

use crate::shape::{Cons, ListOf, Nil, Shape};
use crate::typelevel::checks::ReshapeOk;
use crate::typelevel::decimal::{DCons, DNil, Dg1, ListEq, MulBy};
use crate::typelevel::dim::{Dyn, StaticDim};
use typenum::B1;

/// Product of two element counts (decimal digit lists, see
/// [`crate::typelevel::decimal`]), where `Dyn` absorbs.
pub trait MulNum<Rhs> {
    /// The product (digits or `Dyn`).
    type Output;
}
impl<R> MulNum<R> for Dyn {
    type Output = Dyn;
}
impl MulNum<Dyn> for DNil {
    type Output = Dyn;
}
impl<D, T> MulNum<Dyn> for DCons<D, T> {
    type Output = Dyn;
}
impl MulNum<DNil> for DNil {
    type Output = DNil;
}
impl<D, T> MulNum<DCons<D, T>> for DNil {
    type Output = DNil;
}
impl<D, T> MulNum<DNil> for DCons<D, T> {
    type Output = DNil;
}
impl<E, U, D, T> MulNum<DCons<E, U>> for DCons<D, T>
where
    DCons<D, T>: MulBy<DCons<E, U>>,
{
    // `R · Self`: walks the digits of the dim (`Self`, usually the shorter) over the
    // product of the dims after it (`R`).
    type Output = <DCons<D, T> as MulBy<DCons<E, U>>>::Output;
}

/// The size of one dim as an element count: its decimal digits, or `Dyn`.
pub trait DimCount {
    /// The digits (or `Dyn`).
    type N;
}
impl<X: StaticDim> DimCount for X {
    type N = X::Digits;
}
impl DimCount for Dyn {
    type N = Dyn;
}

/// The element count of a dim list: its decimal digits, or `Dyn` if any dim is `Dyn`.
pub trait Numel {
    /// The element count.
    type N;
}
impl Numel for Nil {
    type N = DCons<Dg1, DNil>;
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
impl NumelEq<Dyn> for DNil {
    type Output = B1;
}
impl<D, T> NumelEq<Dyn> for DCons<D, T> {
    type Output = B1;
}
impl<R> NumelEq<R> for DNil
where
    DNil: ListEq<R>,
{
    type Output = <DNil as ListEq<R>>::Output;
}
impl<D, T, R> NumelEq<R> for DCons<D, T>
where
    DCons<D, T>: ListEq<R>,
{
    type Output = <DCons<D, T> as ListEq<R>>::Output;
}

/// `ReshapeTo<T>`: shape `Self` may be reshaped to `T` (equal element counts when both
/// are static).
pub trait ReshapeTo<T: Shape>: Shape {}
impl<S: Shape, T: Shape> ReshapeTo<T> for S
where
    ListOf<S>: Numel,
    ListOf<T>: Numel,
    <ListOf<S> as Numel>::N: NumelEq<<ListOf<T> as Numel>::N>,
    <<ListOf<S> as Numel>::N as NumelEq<<ListOf<T> as Numel>::N>>::Output: ReshapeOk<S, T>,
{
}
