//! `SameShape`: two shapes of the same rank that agree on every dim static in both, so
//! a run-time check (`check_shape`) can turn one into the other.

use crate::shape::{Cons, ListOf, Nil, Shape};
use crate::typelevel::checks::{SameDimOk, SameRankOk};
use crate::typelevel::dim::{DimEq, Dyn, StaticDim, D};
use crate::typelevel::list::{Len, LenOf, Next};
use crate::typelevel::peano::PEq;
use typenum::{B0, B1};

/// One dim of `check_shape`: `Self` (from `S`) vs `Y` (from `T`) at index `P`.
pub trait SameAt<Y, S, T, P> {}
impl<A: StaticDim, B: StaticDim, S, T, const I: usize> SameAt<B, S, T, D<I>> for A
where
    A: DimEq<B>,
    <A as DimEq<B>>::Output: SameDimOk<S, T, A, B, I>,
{
}
impl<A: StaticDim, S, T, P> SameAt<Dyn, S, T, P> for A {}
impl<Y, S, T, P> SameAt<Y, S, T, P> for Dyn {}

/// Zips two dim lists of the same length for `check_shape`; `J` is the index of the
/// heads (a `D<j>`).
pub trait SameZip<Y, S, T, J> {}
impl<S, T, J> SameZip<Nil, S, T, J> for Nil {}
impl<H1, T1, H2, T2, S, T, const J: usize> SameZip<Cons<H2, T2>, S, T, D<J>> for Cons<H1, T1>
where
    D<J>: Next,
    H1: SameAt<H2, S, T, D<J>>,
    T1: SameZip<T2, S, T, <D<J> as Next>::Output>,
{
}

/// `check_shape` after comparing the ranks (`Self` is `B1` when they are equal): the
/// dims are compared only when the ranks agree, so a rank mismatch is one error.
pub trait SameDims<S, T> {}
impl<S: Shape, T: Shape> SameDims<S, T> for B1 where ListOf<S>: SameZip<ListOf<T>, S, T, D<0>> {}
impl<S, T> SameDims<S, T> for B0 where B0: SameRankOk<S, T> {}

/// `SameShape<T>`: shapes `Self` and `T` have the same rank and agree on every dim that
/// is static in both (so a run-time check can turn one into the other).
pub trait SameShape<T: Shape>: Shape {}
impl<S: Shape, T: Shape> SameShape<T> for S
where
    ListOf<S>: Len,
    ListOf<T>: Len,
    LenOf<ListOf<S>>: PEq<LenOf<ListOf<T>>>,
    <LenOf<ListOf<S>> as PEq<LenOf<ListOf<T>>>>::Output: SameDims<S, T>,
{
}
