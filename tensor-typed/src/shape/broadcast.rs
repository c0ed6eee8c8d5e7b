//! `BroadcastShape<R>` / `Broadcast<S, R>`: PyTorch's broadcasting (`infer_size`) on types.
//!
//! Both shapes are aligned at the right. Each pair of dims goes through
//! [`BroadcastAt`]: two static dims must be equal or one of them 1 (else
//! `add: cannot broadcast (D<2>, D<3>) with (D<4>,): dim 1 is D<3> vs D<4>`); a `Dyn` takes the
//! other side's dim when that is static and not 1, and the run time checks it. The walk
//! stops at the first mismatch from the right ([`BroadcastStep`]), so one mistake is one
//! error.

use crate::shape::check::check;
use crate::shape::mismatch::{DimVsName, Mismatched, NameVsDim, NamesDiffer, ThenDiffer};
use crate::shape::{Cons, FromRev, Nil, Shape};
use crate::typelevel::dim::{BroadcastDim, Dim, DimEq, Dyn, IsOne, NamedOr, Or, D, K};
use crate::typelevel::list::{LenOf, Pred};
use crate::typelevel::named::{IsNamed, NamedDim};
use crate::typelevel::op;
use crate::typelevel::peano::{PMax, ToDim};
use std::marker::PhantomData;
use typenum::{B0, B1};

pub use crate::typelevel::dim::{BroadcastAt, BroadcastAtBySize, BroadcastLhs, BroadcastRhs};
// A static dim with any dim: asks whether `A` is 1, then whether `B` is, and compares
// them only when neither is (the verdict of `CanBroadcast` and `BroadcastDim`, in fewer
// steps for the trait solver, which solves each step again in borrowck and codegen).
// Against `Dyn` or a named run-time dim the comparison holds (the run time checks it)
// and keeps the static dim ([`NamedOr`]).
#[diagnostic::do_not_recommend]
impl<const N: usize, B> BroadcastAt<B> for D<N>
where
    D<N>: IsOne,
    <D<N> as IsOne>::Output: BroadcastLhs<D<N>, B>,
{
    type Output = <<D<N> as IsOne>::Output as BroadcastLhs<D<N>, B>>::Output;
    type Ok = <<D<N> as IsOne>::Output as BroadcastLhs<D<N>, B>>::Ok;
}
// A `K` is never 1: straight to the question whether `B` is.
#[diagnostic::do_not_recommend]
impl<H, L, B: IsOne> BroadcastAt<B> for K<H, L>
where
    <B as IsOne>::Output: BroadcastRhs<K<H, L>, B>,
{
    type Output = <<B as IsOne>::Output as BroadcastRhs<K<H, L>, B>>::Output;
    type Ok = <<B as IsOne>::Output as BroadcastRhs<K<H, L>, B>>::Ok;
}
impl<A, B: Dim> BroadcastLhs<A, B> for B1 {
    type Output = B;
    type Ok = B1;
}
impl<A, B: IsOne> BroadcastLhs<A, B> for B0
where
    <B as IsOne>::Output: BroadcastRhs<A, B>,
{
    type Output = <<B as IsOne>::Output as BroadcastRhs<A, B>>::Output;
    type Ok = <<B as IsOne>::Output as BroadcastRhs<A, B>>::Ok;
}
impl<A: Dim, B> BroadcastRhs<A, B> for B1 {
    type Output = A;
    type Ok = B1;
}
impl<A: Dim + DimEq<B>, B: NamedOr<A>> BroadcastRhs<A, B> for B0 {
    type Output = <B as NamedOr<A>>::Out;
    type Ok = <A as DimEq<B>>::Output;
}
#[diagnostic::do_not_recommend]
impl<Y> BroadcastAt<Y> for Dyn
where
    Dyn: BroadcastDim<Y>,
{
    type Output = <Dyn as BroadcastDim<Y>>::Output;
    type Ok = B1;
}
/// A name with `B`, by its size ([`BroadcastAtBySize`]).
#[diagnostic::do_not_recommend]
impl<X: NamedDim, B> BroadcastAt<B> for X
where
    X::Size: BroadcastAtBySize<X, B>,
{
    type Output = <X::Size as BroadcastAtBySize<X, B>>::Output;
    type Ok = <X::Size as BroadcastAtBySize<X, B>>::Ok;
}
impl<const N: usize, X, B: IsOne> BroadcastAtBySize<X, B> for D<N>
where
    <B as IsOne>::Output: BroadcastRhs<X, B>,
{
    type Output = <<B as IsOne>::Output as BroadcastRhs<X, B>>::Output;
    type Ok = <<B as IsOne>::Output as BroadcastRhs<X, B>>::Ok;
}
impl<H, L, X, B: IsOne> BroadcastAtBySize<X, B> for K<H, L>
where
    <B as IsOne>::Output: BroadcastRhs<X, B>,
{
    type Output = <<B as IsOne>::Output as BroadcastRhs<X, B>>::Output;
    type Ok = <<B as IsOne>::Output as BroadcastRhs<X, B>>::Ok;
}
impl<X: BroadcastDim<B> + DimEq<B>, B: IsOne> BroadcastAtBySize<X, B> for Dyn
where
    <X as DimEq<B>>::Output: Or<<B as IsOne>::Output>,
{
    type Output = <X as BroadcastDim<B>>::Output;
    type Ok = <<X as DimEq<B>>::Output as Or<<B as IsOne>::Output>>::Output;
}

/// One step of [`BroadcastZip`], chosen by whether the heads `H1`, `H2` broadcast
/// (`Self` is that bit): `B1` goes on with the tails `T1`, `T2`; `B0` stops with the
/// verdict of the heads at output dim `P` (a `D<i>`: [`Mismatch`], or a verdict of
/// [`crate::shape::mismatch`] when a head is named), so only the last mismatching dim is
/// reported (as PyTorch's `infer_size`, which walks from the last dim).
pub trait BroadcastStep<H1, H2, T1, T2, P> {
    /// The reversed broadcast list from these heads on (meaningless after a mismatch).
    type Output;
    /// `B1`, or the first [`Mismatch`] from the right.
    type Verdict;
}
impl<H1, H2, T1, T2, P> BroadcastStep<H1, H2, T1, T2, P> for B1
where
    H1: BroadcastAt<H2>,
    T1: BroadcastZip<T2, P>,
{
    type Output = Cons<<H1 as BroadcastAt<H2>>::Output, <T1 as BroadcastZip<T2, P>>::Output>;
    type Verdict = <T1 as BroadcastZip<T2, P>>::Verdict;
}
impl<A, B, T1, T2, P> BroadcastStep<A, B, T1, T2, P> for B0
where
    B0: ThenDiffer<Mismatch<A, B, P>>,
{
    type Output = Nil;
    type Verdict = <B0 as ThenDiffer<Mismatch<A, B, P>>>::Verdict<B1>;
}

/// Broadcast of two *reversed* dim lists; `I` is 1 + the output index of the heads (a
/// `D<i>`). Never fails: a mismatch is the `Verdict`, checked once by
/// [`BroadcastShape`] (so the error names the shapes, not these lists).
pub trait BroadcastZip<Rhs, I> {
    /// The reversed broadcast list.
    type Output;
    /// `B1`, or the first [`Mismatch`] from the right.
    type Verdict;
}
impl<I> BroadcastZip<Nil, I> for Nil {
    type Output = Nil;
    type Verdict = B1;
}
impl<H, T, I> BroadcastZip<Nil, I> for Cons<H, T> {
    type Output = Cons<H, T>;
    type Verdict = B1;
}
impl<H, T, I> BroadcastZip<Cons<H, T>, I> for Nil {
    type Output = Cons<H, T>;
    type Verdict = B1;
}
impl<H1, T1, H2, T2, I> BroadcastZip<Cons<H2, T2>, I> for Cons<H1, T1>
where
    I: Pred,
    H1: BroadcastAt<H2>,
    <H1 as BroadcastAt<H2>>::Ok: BroadcastStep<H1, H2, T1, T2, I::Output>,
{
    type Output = <<H1 as BroadcastAt<H2>>::Ok as BroadcastStep<H1, H2, T1, T2, I::Output>>::Output;
    type Verdict =
        <<H1 as BroadcastAt<H2>>::Ok as BroadcastStep<H1, H2, T1, T2, I::Output>>::Verdict;
}

/// The verdict of a broadcast whose static dims `A` (left) and `B` (right) at output dim
/// `P` (a `D<i>`) do not broadcast.
pub struct Mismatch<A, B, P>(PhantomData<(A, B, P)>);
impl<A: IsNamed, B: IsNamed, P> Mismatched for Mismatch<A, B, P> {
    type A = A;
    type B = B;
    type At = P;
}

/// The check of a broadcast verdict (`B1`, a [`Mismatch`] or a named one) of op `Op`
/// between shapes `L` and `R`: a `Mismatch` is the error `BroadcastOk`, whose `Self` is
/// the op; a [`NamesDiffer`], [`NameVsDim`] or [`DimVsName`] the error of that check for
/// names (`BroadcastNamesOk`, ..), which prints each name's size beside it.
pub trait BroadcastVerdict<Op, L, R> {
    /// `X` when the shapes broadcast; no type otherwise (see `check!`).
    type Then<X>;
}
#[diagnostic::do_not_recommend]
impl<Op, L, R> BroadcastVerdict<Op, L, R> for B1 {
    type Then<X> = X;
}
impl<Op, L, R, A, B, const I: usize> BroadcastVerdict<Op, L, R> for Mismatch<A, B, D<I>>
where
    Op: BroadcastOk<Op, L, R, A, B, I>,
{
    type Then<X> = <Op as BroadcastOk<Op, L, R, A, B, I>>::Then<X>;
}
impl<Op, L, R, A: NamedDim, B: NamedDim, const I: usize> BroadcastVerdict<Op, L, R>
    for NamesDiffer<A, B, D<I>>
where
    Op: BroadcastNamesOk<Op, L, R, A, A::Size, B, B::Size, I>,
{
    type Then<X> = <Op as BroadcastNamesOk<Op, L, R, A, A::Size, B, B::Size, I>>::Then<X>;
}
impl<Op, L, R, A: NamedDim, B, const I: usize> BroadcastVerdict<Op, L, R> for NameVsDim<A, B, D<I>>
where
    Op: BroadcastNameDimOk<Op, L, R, A, A::Size, B, I>,
{
    type Then<X> = <Op as BroadcastNameDimOk<Op, L, R, A, A::Size, B, I>>::Then<X>;
}
impl<Op, L, R, A, B: NamedDim, const I: usize> BroadcastVerdict<Op, L, R> for DimVsName<A, B, D<I>>
where
    Op: BroadcastDimNameOk<Op, L, R, A, B, B::Size, I>,
{
    type Then<X> = <Op as BroadcastDimNameOk<Op, L, R, A, B, B::Size, I>>::Then<X>;
}

/// The larger rank of the dim lists `X` and `Y`, as `D<r>`.
pub type MaxRank<X, Y> = <<LenOf<X> as PMax<LenOf<Y>>>::Output as ToDim>::Dim;

/// The larger rank of shapes `S` and `R`, as `D<r>`.
type MaxRankOf<S, R> = <<<S as Shape>::Rank as PMax<<R as Shape>::Rank>>::Output as ToDim>::Dim;
/// The broadcast of shapes `S` and `R`, on their reversed dim lists.
type ZipOf<S, R> = <<S as Shape>::Rev as BroadcastZip<<R as Shape>::Rev, MaxRankOf<S, R>>>::Output;
/// The verdict of the broadcast of shapes `S` and `R`.
type VerdictOf<S, R> =
    <<S as Shape>::Rev as BroadcastZip<<R as Shape>::Rev, MaxRankOf<S, R>>>::Verdict;

/// `BroadcastShape<R, Op>`: the shape of the elementwise op `Op` (a marker of
/// [`crate::typelevel::op`], named in the error) between shapes `Self` and `R`.
pub trait BroadcastShape<R: Shape, Op = op::broadcast>: Shape {
    /// The broadcast shape.
    type Output: Shape;
}
impl<S: Shape, R: Shape, Op> BroadcastShape<R, Op> for S
where
    S::Rank: PMax<R::Rank, Output: ToDim>,
    S::Rev: BroadcastZip<R::Rev, MaxRankOf<S, R>>,
    VerdictOf<S, R>: BroadcastVerdict<Op, S, R>,
    <VerdictOf<S, R> as BroadcastVerdict<Op, S, R>>::Then<ZipOf<S, R>>: FromRev,
{
    type Output =
        <<VerdictOf<S, R> as BroadcastVerdict<Op, S, R>>::Then<ZipOf<S, R>> as FromRev>::Shape;
}
/// The broadcast of shapes `S` and `R` (`Broadcast<Shape![2, 3], Shape![3]>` is
/// `Shape![2, 3]`), checked for the op `Op`.
pub type Broadcast<S, R, Op = op::broadcast> = <S as BroadcastShape<R, Op>>::Output;

check! {
    /// Broadcasting `L` with `R` in op `Op`: output dim `I` pairs the static dims `A`
    /// and `B`.
    #[diagnostic::on_unimplemented(
        message = "{Op}: cannot broadcast {L} with {R}: dim {I} is {A} vs {B}",
        label = "these shapes do not broadcast",
        note = "two static dims broadcast when they are equal or one of them is 1; two different named dims never do"
    )]
    BroadcastOk<Op, L, R, A, B; I>
}

check! {
    /// [`BroadcastOk`] of two names `A` and `B`, of sizes `SA` and `SB`.
    #[diagnostic::on_unimplemented(
        message = "{Op}: cannot broadcast {L} with {R}: dim {I} is {A} ({SA}) vs {B} ({SB})",
        label = "these shapes do not broadcast",
        note = "two static dims broadcast when they are equal or one of them is 1; two different named dims never do"
    )]
    BroadcastNamesOk<Op, L, R, A, SA, B, SB; I>
}

check! {
    /// [`BroadcastOk`] of the name `A` of size `SA` and the unnamed dim `B`.
    #[diagnostic::on_unimplemented(
        message = "{Op}: cannot broadcast {L} with {R}: dim {I} is {A} ({SA}) vs {B}",
        label = "these shapes do not broadcast",
        note = "two static dims broadcast when they are equal or one of them is 1; two different named dims never do"
    )]
    BroadcastNameDimOk<Op, L, R, A, SA, B; I>
}

check! {
    /// [`BroadcastOk`] of the unnamed dim `A` and the name `B` of size `SB`.
    #[diagnostic::on_unimplemented(
        message = "{Op}: cannot broadcast {L} with {R}: dim {I} is {A} vs {B} ({SB})",
        label = "these shapes do not broadcast",
        note = "two static dims broadcast when they are equal or one of them is 1; two different named dims never do"
    )]
    BroadcastDimNameOk<Op, L, R, A, B, SB; I>
}
