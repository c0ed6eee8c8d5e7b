//! `SameShape`: two shapes of the same rank that agree on every dim static in both, so
//! a run-time check (`check_shape`) can turn one into the other. The ranks are compared
//! first, then the dims from the left; the first mistake is a verdict type checked once
//! by [`SameShape`].

use crate::shape::check::check;
use crate::shape::dims::RankOf;
use crate::shape::mismatch::{DimVsName, Mismatched, NameVsDim, NamesDiffer, ThenDiffer};
use crate::shape::{Cons, ListOf, Nil, Shape};
use crate::typelevel::dim::{Bool, DimEq, Pick, D};
use crate::typelevel::list::{Len, Next};
use crate::typelevel::named::{IsNamed, NamedDim, SizeOf};
use crate::typelevel::op;
use crate::typelevel::peano::PEq;
use std::marker::PhantomData;
use typenum::B1;

/// The verdict of a `check_shape` between shapes of different ranks.
pub struct RanksDiffer;
/// The verdict of a `check_shape` whose static dims `A` and `B` at index `P` (a `D<i>`)
/// differ.
pub struct DimsDiffer<A, B, P>(PhantomData<(A, B, P)>);
impl<A: IsNamed, B: IsNamed, P> Mismatched for DimsDiffer<A, B, P> {
    type A = A;
    type B = B;
    type At = P;
}

/// Whether one dim of `check_shape` (`M` is `op::check_shape`) or `rename` (`M` is
/// `op::rename`) holds: `Self` vs `Y`.
pub trait SameAt<Y, M> {
    /// `B1` when the dims unify ([`DimEq`]: equal, or either is `Dyn`, names compared;
    /// for `rename`, their sizes).
    type Ok: Bool;
}
// One impl for every dim: a `Dyn` (or a named run-time dim against an unnamed one)
// unifies by [`DimEq`] too.
impl<A: DimEq<B, Output: Bool>, B> SameAt<B, op::check_shape> for A {
    type Ok = <A as DimEq<B>>::Output;
}
// `rename` compares the sizes ([`SizeOf`]), whatever the names.
impl<A: SizeOf, B: SizeOf> SameAt<B, op::rename> for A
where
    A::Unnamed: DimEq<B::Unnamed, Output: Bool>,
{
    type Ok = <A::Unnamed as DimEq<B::Unnamed>>::Output;
}

/// Zips two dim lists for `check_shape` or `rename` (`M`, see [`SameAt`]); `J` is the
/// index of the heads (a `D<j>`). Never fails: the first mismatch is the `Verdict`.
pub trait SameZip<Y, J, M> {
    /// `B1`, or the first [`DimsDiffer`] (or, when a dim is named, a verdict of
    /// [`crate::shape::mismatch`]; [`RanksDiffer`] past the end of one list).
    type Verdict;
}
impl<J, M> SameZip<Nil, J, M> for Nil {
    type Verdict = B1;
}
impl<H, T, J, M> SameZip<Cons<H, T>, J, M> for Nil {
    type Verdict = RanksDiffer;
}
impl<H, T, J, M> SameZip<Nil, J, M> for Cons<H, T> {
    type Verdict = RanksDiffer;
}
impl<H1, T1, H2, T2, const J: usize, M> SameZip<Cons<H2, T2>, D<J>, M> for Cons<H1, T1>
where
    D<J>: Next,
    H1: SameAt<H2, M>,
    T1: SameZip<T2, <D<J> as Next>::Output, M>,
    <H1 as SameAt<H2, M>>::Ok: ThenDiffer<DimsDiffer<H1, H2, D<J>>>,
{
    type Verdict = <<H1 as SameAt<H2, M>>::Ok as ThenDiffer<DimsDiffer<H1, H2, D<J>>>>::Verdict<
        <T1 as SameZip<T2, <D<J> as Next>::Output, M>>::Verdict,
    >;
}

/// The check of a `check_shape` (or `rename`: `Op`) verdict from `S` to `T`.
pub trait SameVerdict<Op, S, T> {}
#[diagnostic::do_not_recommend]
impl<Op, S, T> SameVerdict<Op, S, T> for B1 {}
// The failed check blames the target: rustc reports a failure whose `Self` is the root
// bound's `Self` (`S: SameShape<..>`) as that bound, without this check's message.
impl<Op, S, T> SameVerdict<Op, S, T> for RanksDiffer where T: SameRankOk<Op, S, T> {}
impl<Op, S, T, A, B, const I: usize> SameVerdict<Op, S, T> for DimsDiffer<A, B, D<I>> where
    Op: SameDimOk<Op, S, T, A, B, I>
{
}
impl<Op, S, T, A: NamedDim, B: NamedDim, const I: usize> SameVerdict<Op, S, T>
    for NamesDiffer<A, B, D<I>>
where
    Op: SameDimNamesOk<Op, S, T, A, A::Size, B, B::Size, I>,
{
}
impl<Op, S, T, A: NamedDim, B, const I: usize> SameVerdict<Op, S, T> for NameVsDim<A, B, D<I>> where
    Op: SameDimNameDimOk<Op, S, T, A, A::Size, B, I>
{
}
impl<Op, S, T, A, B: NamedDim, const I: usize> SameVerdict<Op, S, T> for DimVsName<A, B, D<I>> where
    Op: SameDimDimNameOk<Op, S, T, A, B, B::Size, I>
{
}

/// The verdict of `check_shape` or `rename` (`M`, see [`SameAt`]) from shape `S` to
/// `T`: the ranks first, then the dims.
pub type SameVerdictOf<S, T, M> = <<RankOf<S> as PEq<RankOf<T>>>::Output as Pick>::Out<
    <ListOf<S> as SameZip<ListOf<T>, D<0>, M>>::Verdict,
    RanksDiffer,
>;

/// `SameShape<T>`: shapes `Self` and `T` have the same rank and agree on every dim that
/// is static in both (so a run-time check can turn one into the other).
pub trait SameShape<T: Shape>: Shape {}
impl<S: Shape, T: Shape> SameShape<T> for S
where
    RankOf<S>: PEq<RankOf<T>>,
    ListOf<S>: Len + SameZip<ListOf<T>, D<0>, op::check_shape>,
    ListOf<T>: Len,
    SameVerdictOf<S, T, op::check_shape>: SameVerdict<op::check_shape, S, T>,
{
}

check! {
    /// `check_shape` (or `rename`, `Op`) from `S` to `T`: dim `I` is `A` vs `B`.
    #[diagnostic::on_unimplemented(
        message = "{Op}: shape {S} can never be {T}: dim {I} is {A} vs {B}",
        label = "static dims must agree; only `Dyn` dims are checked at run time"
    )]
    SameDimOk<Op, S, T, A, B; I>
}

check! {
    /// [`SameDimOk`] of two names `A` and `B`, of sizes `SA` and `SB`.
    #[diagnostic::on_unimplemented(
        message = "{Op}: shape {S} can never be {T}: dim {I} is {A} ({SA}) vs {B} ({SB})",
        label = "static dims must agree; only `Dyn` dims are checked at run time"
    )]
    SameDimNamesOk<Op, S, T, A, SA, B, SB; I>
}

check! {
    /// [`SameDimOk`] of the name `A` of size `SA` and the unnamed dim `B`.
    #[diagnostic::on_unimplemented(
        message = "{Op}: shape {S} can never be {T}: dim {I} is {A} ({SA}) vs {B}",
        label = "static dims must agree; only `Dyn` dims are checked at run time"
    )]
    SameDimNameDimOk<Op, S, T, A, SA, B; I>
}

check! {
    /// [`SameDimOk`] of the unnamed dim `A` and the name `B` of size `SB`.
    #[diagnostic::on_unimplemented(
        message = "{Op}: shape {S} can never be {T}: dim {I} is {A} vs {B} ({SB})",
        label = "static dims must agree; only `Dyn` dims are checked at run time"
    )]
    SameDimDimNameOk<Op, S, T, A, B, SB; I>
}

check! {
    /// `check_shape` (or `rename`, `Op`) from `S` to `T`: the ranks must be equal (the
    /// `Self` of a failure is `T`).
    #[diagnostic::on_unimplemented(
        message = "{Op}: shape {S} can never be {T}: the ranks differ",
        label = "{Op} keeps the rank"
    )]
    SameRankOk<Op, S, T;>
}
