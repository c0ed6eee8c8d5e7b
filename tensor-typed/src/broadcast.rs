//! `BroadcastShape<R>` / `Broadcast<S, R>`: PyTorch's broadcasting (`infer_size`) on types.
//!
//! Both shapes are aligned at the right. Each pair of dims goes through
//! [`BroadcastAt`]: two static dims must be equal or one of them 1 (else
//! `cannot broadcast (D<2>, D<3>) with (D<4>,): dim 1 is 3 vs 4`); a `Dyn` takes the
//! other side's dim when that is static and not 1, and the run time checks it.

use crate::checks::BroadcastOk;
use crate::dim::{BroadcastDim, CanBroadcast, Dim, DimOf, Dyn, NumDim, D};
use crate::list::{Len, LenOf, Rev, ReverseAcc};
use crate::shape::{Cons, IntoShape, ListOf, Nil, Shape, ShapeOf};
use std::ops::Sub;
use typenum::{Max, Maximum, B1};

/// One dim pair of a broadcast: `Self` (from `L`) with `Rhs` (from `R`) at output dim
/// `P` (a `D<i>`).
pub trait BroadcastAt<Rhs, L, R, P> {
    /// The broadcast dim.
    type Out: Dim;
}
impl<const A: usize, const B: usize, L, R, const I: usize> BroadcastAt<D<B>, L, R, D<I>> for D<A>
where
    D<A>: CanBroadcast<D<B>> + BroadcastDim<D<B>>,
    <D<A> as CanBroadcast<D<B>>>::Out: BroadcastOk<L, R, I, A, B>,
{
    type Out = <D<A> as BroadcastDim<D<B>>>::Out;
}
impl<const A: usize, L, R, P> BroadcastAt<Dyn, L, R, P> for D<A>
where
    D<A>: BroadcastDim<Dyn>,
{
    type Out = <D<A> as BroadcastDim<Dyn>>::Out;
}
impl<Y, L, R, P> BroadcastAt<Y, L, R, P> for Dyn
where
    Dyn: BroadcastDim<Y>,
{
    type Out = <Dyn as BroadcastDim<Y>>::Out;
}

/// Broadcast of two *reversed* dim lists; `I` is 1 + the output index of the heads.
pub trait BroadcastZip<Rhs, L, R, I> {
    /// The reversed broadcast list.
    type Out;
}
impl<L, R, I> BroadcastZip<Nil, L, R, I> for Nil {
    type Out = Nil;
}
impl<H, T, L, R, I> BroadcastZip<Nil, L, R, I> for Cons<H, T> {
    type Out = Cons<H, T>;
}
impl<H, T, L, R, I> BroadcastZip<Cons<H, T>, L, R, I> for Nil {
    type Out = Cons<H, T>;
}
impl<H1, T1, H2, T2, L, R, I> BroadcastZip<Cons<H2, T2>, L, R, I> for Cons<H1, T1>
where
    I: Sub<B1>,
    <I as Sub<B1>>::Output: NumDim,
    H1: BroadcastAt<H2, L, R, DimOf<<I as Sub<B1>>::Output>>,
    T1: BroadcastZip<T2, L, R, <I as Sub<B1>>::Output>,
{
    type Out = Cons<H1::Out, T1::Out>;
}

/// The broadcast of the dim lists `Self` and `Rhs`, with the tuple shapes `L`, `R` for
/// messages.
pub trait BroadcastList<Rhs, L, R> {
    /// The broadcast list.
    type Out;
}
impl<X, Y, L, R> BroadcastList<Y, L, R> for X
where
    X: Len + ReverseAcc<Nil>,
    Y: Len + ReverseAcc<Nil>,
    LenOf<X>: Max<LenOf<Y>>,
    Rev<X>: BroadcastZip<Rev<Y>, L, R, Maximum<LenOf<X>, LenOf<Y>>>,
    <Rev<X> as BroadcastZip<Rev<Y>, L, R, Maximum<LenOf<X>, LenOf<Y>>>>::Out: ReverseAcc<Nil>,
{
    type Out = Rev<<Rev<X> as BroadcastZip<Rev<Y>, L, R, Maximum<LenOf<X>, LenOf<Y>>>>::Out>;
}

/// `BroadcastShape<R>`: the shape of an elementwise op between shapes `Self` and `R`.
pub trait BroadcastShape<R: Shape>: Shape {
    /// The broadcast shape.
    type Output: Shape;
}
impl<S: Shape, R: Shape> BroadcastShape<R> for S
where
    ListOf<S>: BroadcastList<ListOf<R>, S, R>,
    <ListOf<S> as BroadcastList<ListOf<R>, S, R>>::Out: IntoShape,
{
    type Output = ShapeOf<<ListOf<S> as BroadcastList<ListOf<R>, S, R>>::Out>;
}
/// The broadcast of shapes `S` and `R` (`Broadcast<Shape![2, 3], Shape![3]>` is
/// `Shape![2, 3]`).
pub type Broadcast<S, R> = <S as BroadcastShape<R>>::Output;
