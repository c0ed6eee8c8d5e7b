//! `SameShape`: two shapes of the same rank that agree on every dim static in both, so
//! a run-time check (`check_shape`) can turn one into the other. The ranks are compared
//! first, then the dims from the left; the first mistake is a verdict type checked once
//! by [`SameShape`].

use crate::shape::dims::RankOf;
use crate::shape::{Cons, ListOf, Nil, Shape};
use crate::typelevel::checks::{SameDimOk, SameRankOk};
use crate::typelevel::dim::{Bool, DimEq, Pick, D};
use crate::typelevel::list::{Len, Next};
use crate::typelevel::op;
use crate::typelevel::peano::PEq;
use std::marker::PhantomData;
use typenum::B1;

/// The verdict of a `check_shape` between shapes of different ranks.
pub struct RanksDiffer;
/// The verdict of a `check_shape` whose static dims `A` and `B` at index `P` (a `D<i>`)
/// differ.
pub struct DimsDiffer<A, B, P>(PhantomData<(A, B, P)>);

/// Whether one dim of `check_shape` holds: `Self` vs `Y`.
pub trait SameAt<Y> {
    /// `B1` when the dims unify ([`DimEq`]: equal, or either is `Dyn`, names compared).
    type Ok: Bool;
}
// One impl for every dim: a `Dyn` (or a named run-time dim against an unnamed one)
// unifies by [`DimEq`] too.
impl<A: DimEq<B, Output: Bool>, B> SameAt<B> for A {
    type Ok = <A as DimEq<B>>::Output;
}

/// Zips two dim lists for `check_shape`; `J` is the index of the heads (a `D<j>`).
/// Never fails: the first mismatch is the `Verdict`.
pub trait SameZip<Y, J> {
    /// `B1`, or the first [`DimsDiffer`] ([`RanksDiffer`] past the end of one list).
    type Verdict;
}
impl<J> SameZip<Nil, J> for Nil {
    type Verdict = B1;
}
impl<H, T, J> SameZip<Cons<H, T>, J> for Nil {
    type Verdict = RanksDiffer;
}
impl<H, T, J> SameZip<Nil, J> for Cons<H, T> {
    type Verdict = RanksDiffer;
}
impl<H1, T1, H2, T2, const J: usize> SameZip<Cons<H2, T2>, D<J>> for Cons<H1, T1>
where
    D<J>: Next,
    H1: SameAt<H2>,
    T1: SameZip<T2, <D<J> as Next>::Output>,
{
    type Verdict = <<H1 as SameAt<H2>>::Ok as Pick>::Out<
        <T1 as SameZip<T2, <D<J> as Next>::Output>>::Verdict,
        DimsDiffer<H1, H2, D<J>>,
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

/// The verdict of comparing the dim lists `LS` and `LT` of shapes `S` and `T`: the ranks
/// first, then the dims.
pub type SameVerdictOf<S, T, LS, LT> = <<RankOf<S> as PEq<RankOf<T>>>::Output as Pick>::Out<
    <LS as SameZip<LT, D<0>>>::Verdict,
    RanksDiffer,
>;

/// `SameShape<T>`: shapes `Self` and `T` have the same rank and agree on every dim that
/// is static in both (so a run-time check can turn one into the other).
pub trait SameShape<T: Shape>: Shape {}
impl<S: Shape, T: Shape> SameShape<T> for S
where
    RankOf<S>: PEq<RankOf<T>>,
    ListOf<S>: Len + SameZip<ListOf<T>, D<0>>,
    ListOf<T>: Len,
    SameVerdictOf<S, T, ListOf<S>, ListOf<T>>: SameVerdict<op::check_shape, S, T>,
{
}
