//! `ReshapeTo<T>` (PyTorch's `reshape`/`view` target check) and `Numel` on types.
//!
//! When both shapes are fully static their element counts must be equal (a compile
//! error otherwise); when either has a `Dyn` dim the run time checks it
//! (`shape '[4, 5]' is invalid for input of size 15`). Leading dims that both shapes
//! share (equal static dims) are set aside before multiplying ([`NumelCmp`]): they do
//! not change whether the counts are equal, and products are the costly part for the
//! compiler.

use crate::shape::check::check;
use crate::shape::check::Blame;
use crate::shape::{Cons, ListOf, Nil, Shape};
use crate::typelevel::decimal::{DCons, DNil, Dg1, ListEq, MulBy};
use crate::typelevel::dim::dim_rule;
use crate::typelevel::dim::{DimEq, Dyn, Pick, StaticDim, D, K};
use crate::typelevel::named::NamedDim;
use typenum::{Bit, B0, B1};

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

dim_rule! {
/// The size of one dim as an element count: its decimal digits, or `Dyn`.
pub trait DimCount {
    /// The digits (or `Dyn`).
    type N;
}
}
#[diagnostic::do_not_recommend]
impl<const N: usize> DimCount for D<N>
where
    D<N>: StaticDim,
{
    type N = <D<N> as StaticDim>::Digits;
}
#[diagnostic::do_not_recommend]
impl<H, L> DimCount for K<H, L>
where
    K<H, L>: StaticDim,
{
    type N = <K<H, L> as StaticDim>::Digits;
}
#[diagnostic::do_not_recommend]
impl DimCount for Dyn {
    type N = Dyn;
}
/// A name counts as its size.
#[diagnostic::do_not_recommend]
impl<X: NamedDim> DimCount for X
where
    X::Size: DimCount,
{
    type N = <X::Size as DimCount>::N;
}

/// The element count of a dim list: its decimal digits, or `Dyn` if any dim is `Dyn`.
pub trait Numel {
    /// The element count.
    type N;
}
impl Numel for Nil {
    type N = DCons<Dg1, DNil>;
}
impl<H: DimCount> Numel for Cons<H, Nil> {
    type N = H::N;
}
impl<H: DimCount, H2, T> Numel for Cons<H, Cons<H2, T>>
where
    Cons<H2, T>: Numel,
    H::N: MulNum<<Cons<H2, T> as Numel>::N>,
{
    type N = <H::N as MulNum<<Cons<H2, T> as Numel>::N>>::Output;
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

/// Compares the element counts of two dim lists ([`NumelEq`] of their [`Numel`]s),
/// setting aside leading dims that are the same static dim in both.
pub trait NumelCmp<Rhs> {
    /// `B1` when equal or when a `Dyn` defers the check to run time, else `B0`.
    type Output;
}
impl<L, R> NumelCmp<R> for L
where
    L: SharedHead<R>,
    <L as SharedHead<R>>::Output: CmpSel<L, R>,
{
    type Output = <<L as SharedHead<R>>::Output as CmpSel<L, R>>::Output;
}

/// Whether two dim lists start with the same static dim: `B1` or `B0` (also for an
/// empty list or a `Dyn`, which are not set aside).
pub trait SharedHead<Rhs> {
    /// `B1` or `B0`.
    type Output;
}
impl<R> SharedHead<R> for Nil {
    type Output = B0;
}
impl<H, T> SharedHead<Nil> for Cons<H, T> {
    type Output = B0;
}
impl<H1: StaticEq<H2>, T1, H2, T2> SharedHead<Cons<H2, T2>> for Cons<H1, T1> {
    type Output = <H1 as StaticEq<H2>>::Output;
}
dim_rule! {
/// `B1` for two static dims of equal size (named or not: the element count reads only
/// sizes); `B0` for two different ones or when either is `Dyn` or a run-time name.
pub trait StaticEq<Rhs> {
    /// `B1` or `B0`.
    type Output: Bit;
}
}
#[diagnostic::do_not_recommend]
impl<const A: usize, const B: usize> StaticEq<D<B>> for D<A>
where
    D<A>: DimEq<D<B>>,
{
    type Output = <D<A> as DimEq<D<B>>>::Output;
}
#[diagnostic::do_not_recommend]
impl<const A: usize, H, L> StaticEq<K<H, L>> for D<A> {
    type Output = B0;
}
#[diagnostic::do_not_recommend]
impl<H, L, const B: usize> StaticEq<D<B>> for K<H, L> {
    type Output = B0;
}
#[diagnostic::do_not_recommend]
impl<H1, L1, H2, L2> StaticEq<K<H2, L2>> for K<H1, L1>
where
    K<H1, L1>: DimEq<K<H2, L2>>,
{
    type Output = <K<H1, L1> as DimEq<K<H2, L2>>>::Output;
}
#[diagnostic::do_not_recommend]
impl<const A: usize> StaticEq<Dyn> for D<A> {
    type Output = B0;
}
#[diagnostic::do_not_recommend]
impl<H, L> StaticEq<Dyn> for K<H, L> {
    type Output = B0;
}
#[diagnostic::do_not_recommend]
impl<Y> StaticEq<Y> for Dyn {
    type Output = B0;
}
// A static dim and a name: the name's size against the dim (symmetric; asked of the
// size, so that a name not yet inferred nests no projections).
#[diagnostic::do_not_recommend]
impl<const A: usize, Y: NamedDim> StaticEq<Y> for D<A>
where
    Y::Size: StaticEq<D<A>>,
{
    type Output = <Y::Size as StaticEq<D<A>>>::Output;
}
#[diagnostic::do_not_recommend]
impl<H, L, Y: NamedDim> StaticEq<Y> for K<H, L>
where
    Y::Size: StaticEq<K<H, L>>,
{
    type Output = <Y::Size as StaticEq<K<H, L>>>::Output;
}
#[diagnostic::do_not_recommend]
impl<X: NamedDim, Y> StaticEq<Y> for X
where
    X::Size: StaticEq<Y>,
{
    type Output = <X::Size as StaticEq<Y>>::Output;
}

/// [`NumelCmp`] after looking at the heads (`Self`: `B1` when they are the same static
/// dim).
pub trait CmpSel<L, R> {
    /// `B1` or `B0`.
    type Output;
}
impl<L: Numel, R: Numel> CmpSel<L, R> for B0
where
    L::N: NumelEq<R::N>,
{
    type Output = <L::N as NumelEq<R::N>>::Output;
}
impl<H: StaticDim, T1, H2, T2> CmpSel<Cons<H, T1>, Cons<H2, T2>> for B1
where
    H::Digits: ZeroOr<T1, T2>,
{
    type Output = <H::Digits as ZeroOr<T1, T2>>::Output;
}
/// The shared head's digits `Self`: a head of 0 makes both counts 0 (`B1`); any other
/// compares the tails `T1`, `T2`.
pub trait ZeroOr<T1, T2> {
    /// `B1` or `B0`.
    type Output;
}
impl<T1, T2> ZeroOr<T1, T2> for DNil {
    type Output = B1;
}
impl<D, R, T1: NumelCmp<T2>, T2> ZeroOr<T1, T2> for DCons<D, R> {
    type Output = <T1 as NumelCmp<T2>>::Output;
}

/// `ReshapeTo<T>`: shape `Self` may be reshaped to `T` (equal element counts when both
/// are static).
pub trait ReshapeTo<T: Shape>: Shape {}
impl<S: Shape, T: Shape> ReshapeTo<T> for S
where
    ListOf<S>: NumelCmp<ListOf<T>>,
    <ListOf<S> as NumelCmp<ListOf<T>>>::Output: Pick,
    // `Self` of a failure is the target `T`: with `S` rustc would report this bound
    // ("`S: ReshapeTo<T>` is not satisfied") instead of the check's message.
    Blame<<ListOf<S> as NumelCmp<ListOf<T>>>::Output, T>: ReshapeOk<S, T>,
{
}

check! {
    /// Reshaping `S` to `T`: both element counts static and different.
    #[diagnostic::on_unimplemented(
        message = "cannot reshape {S} into {T}: the element counts differ",
        label = "reshape must keep the number of elements",
        note = "a shape with a `Dyn` dim is checked at run time instead"
    )]
    ReshapeOk<S, T;>
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmp<L: NumelCmp<R, Output: Bit>, R>() -> bool {
        <L::Output as Bit>::BOOL
    }
    type L3<A, B, C> = Cons<A, Cons<B, Cons<C, Nil>>>;
    type L2<A, B> = Cons<A, Cons<B, Nil>>;
    type L1<A> = Cons<A, Nil>;

    #[test]
    fn element_counts_with_and_without_shared_heads() {
        type B = K<K<D<196>, D<611>>, D<0>>;
        assert!(cmp::<L3<D<4>, D<6>, D<5>>, L2<D<4>, D<30>>>());
        assert!(cmp::<L3<D<4>, D<6>, D<5>>, L2<D<24>, D<5>>>());
        assert!(!cmp::<L3<D<4>, D<6>, D<5>>, L2<D<4>, D<31>>>());
        assert!(cmp::<L3<B, D<6>, D<5>>, L2<B, D<30>>>());
        assert!(cmp::<L2<D<6>, D<5>>, L1<D<30>>>());
        assert!(cmp::<L1<D<30>>, L3<D<2>, D<3>, D<5>>>());
        assert!(cmp::<Nil, L2<D<1>, D<1>>>());
        assert!(!cmp::<Nil, L1<D<2>>>());
        // A shared 0 makes both counts 0; a `Dyn` anywhere defers to run time.
        assert!(cmp::<L2<D<0>, D<3>>, L2<D<0>, D<5>>>());
        assert!(!cmp::<L2<D<0>, D<3>>, L2<D<3>, D<5>>>());
        assert!(cmp::<L2<D<0>, D<3>>, L2<D<3>, D<0>>>());
        assert!(cmp::<L2<Dyn, D<3>>, L2<Dyn, D<5>>>());
        assert!(cmp::<L2<D<2>, Dyn>, L2<D<2>, D<5>>>());
        assert!(cmp::<L2<D<4>, D<3>>, L2<D<2>, Dyn>>());
    }
}
