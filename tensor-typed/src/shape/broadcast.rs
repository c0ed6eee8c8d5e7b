//! `BroadcastShape<R>` / `Broadcast<S, R>`: PyTorch's broadcasting (`infer_size`) on types.
//!
//! Both shapes are aligned at the right. Each pair of dims goes through
//! [`BroadcastAt`]: two static dims must be equal or one of them 1 (else
//! `add: cannot broadcast (D<2>, D<3>) with (D<4>,): dim 1 is D<3> vs D<4>`); a `Dyn` takes the
//! other side's dim when that is static and not 1, and the run time checks it. The walk
//! stops at the first mismatch from the right ([`BroadcastStep`]), so one mistake is one
//! error.

use crate::shape::{Cons, IntoShape, ListOf, Nil, Shape, ShapeOf};
use crate::typelevel::checks::BroadcastOk;
use crate::typelevel::dim::{BroadcastDim, CanBroadcast, Dim, Dyn, StaticDim, D};
use crate::typelevel::list::{Len, LenOf, Pred, Rev, ReverseAcc};
use crate::typelevel::op;
use crate::typelevel::peano::{PMax, ToDim};
use typenum::{B0, B1};

/// One dim pair of a broadcast: `Self` with `Rhs`.
pub trait BroadcastAt<Rhs> {
    /// The broadcast dim (meaningful when `Ok` is `B1`).
    type Output: Dim;
    /// `B1` when the dims broadcast (or a `Dyn` defers the check to run time).
    type Ok;
}
impl<A: StaticDim, B: StaticDim> BroadcastAt<B> for A
where
    A: CanBroadcast<B> + BroadcastDim<B>,
{
    type Output = <A as BroadcastDim<B>>::Output;
    type Ok = <A as CanBroadcast<B>>::Output;
}
impl<A: StaticDim> BroadcastAt<Dyn> for A
where
    A: BroadcastDim<Dyn>,
{
    type Output = <A as BroadcastDim<Dyn>>::Output;
    type Ok = B1;
}
impl<Y> BroadcastAt<Y> for Dyn
where
    Dyn: BroadcastDim<Y>,
{
    type Output = <Dyn as BroadcastDim<Y>>::Output;
    type Ok = B1;
}

/// One step of [`BroadcastZip`], chosen by whether the heads `H1`, `H2` broadcast
/// (`Self` is that bit): `B1` goes on with the tails `T1`, `T2`; `B0` reports output dim
/// `P` (a `D<i>`) and stops, so only the last mismatching dim is reported (as PyTorch's
/// `infer_size`, which walks from the last dim).
pub trait BroadcastStep<H1, H2, T1, T2, L, R, P, Op> {
    /// The reversed broadcast list from these heads on.
    type Output;
}
impl<H1, H2, T1, T2, L, R, P, Op> BroadcastStep<H1, H2, T1, T2, L, R, P, Op> for B1
where
    H1: BroadcastAt<H2>,
    T1: BroadcastZip<T2, L, R, P, Op>,
{
    type Output =
        Cons<<H1 as BroadcastAt<H2>>::Output, <T1 as BroadcastZip<T2, L, R, P, Op>>::Output>;
}
impl<A, B, T1, T2, L, R, const I: usize, Op> BroadcastStep<A, B, T1, T2, L, R, D<I>, Op> for B0
where
    B0: BroadcastOk<Op, L, R, A, B, I>,
{
    // Never normalizes (the check fails): the broadcast has no made-up shape, so code
    // that uses the result adds no second error.
    type Output = <B0 as BroadcastOk<Op, L, R, A, B, I>>::Then<Nil>;
}

/// Broadcast of two *reversed* dim lists; `I` is 1 + the output index of the heads (a
/// `D<i>`).
pub trait BroadcastZip<Rhs, L, R, I, Op> {
    /// The reversed broadcast list.
    type Output;
}
impl<L, R, I, Op> BroadcastZip<Nil, L, R, I, Op> for Nil {
    type Output = Nil;
}
impl<H, T, L, R, I, Op> BroadcastZip<Nil, L, R, I, Op> for Cons<H, T> {
    type Output = Cons<H, T>;
}
impl<H, T, L, R, I, Op> BroadcastZip<Cons<H, T>, L, R, I, Op> for Nil {
    type Output = Cons<H, T>;
}
impl<H1, T1, H2, T2, L, R, I, Op> BroadcastZip<Cons<H2, T2>, L, R, I, Op> for Cons<H1, T1>
where
    I: Pred,
    H1: BroadcastAt<H2>,
    <H1 as BroadcastAt<H2>>::Ok: BroadcastStep<H1, H2, T1, T2, L, R, I::Output, Op>,
{
    type Output =
        <<H1 as BroadcastAt<H2>>::Ok as BroadcastStep<H1, H2, T1, T2, L, R, I::Output, Op>>::Output;
}

/// The larger rank of the dim lists `X` and `Y`, as `D<r>`.
pub type MaxRank<X, Y> = <<LenOf<X> as PMax<LenOf<Y>>>::Output as ToDim>::Dim;

/// The broadcast of the dim lists `Self` and `Rhs`, with the tuple shapes `L`, `R` for
/// messages.
pub trait BroadcastList<Rhs, L, R, Op> {
    /// The broadcast list.
    type Output;
}
impl<X, Y, L, R, Op> BroadcastList<Y, L, R, Op> for X
where
    X: Len + ReverseAcc<Nil>,
    Y: Len + ReverseAcc<Nil>,
    LenOf<X>: PMax<LenOf<Y>, Output: ToDim>,
    Rev<X>: BroadcastZip<Rev<Y>, L, R, MaxRank<X, Y>, Op>,
    <Rev<X> as BroadcastZip<Rev<Y>, L, R, MaxRank<X, Y>, Op>>::Output: ReverseAcc<Nil>,
{
    type Output = Rev<<Rev<X> as BroadcastZip<Rev<Y>, L, R, MaxRank<X, Y>, Op>>::Output>;
}

/// `BroadcastShape<R, Op>`: the shape of the elementwise op `Op` (a marker of
/// [`crate::typelevel::op`], named in the error) between shapes `Self` and `R`.
pub trait BroadcastShape<R: Shape, Op = op::broadcast>: Shape {
    /// The broadcast shape.
    type Output: Shape;
}
impl<S: Shape, R: Shape, Op> BroadcastShape<R, Op> for S
where
    ListOf<S>: BroadcastList<ListOf<R>, S, R, Op>,
    <ListOf<S> as BroadcastList<ListOf<R>, S, R, Op>>::Output: IntoShape,
{
    type Output = ShapeOf<<ListOf<S> as BroadcastList<ListOf<R>, S, R, Op>>::Output>;
}
/// The broadcast of shapes `S` and `R` (`Broadcast<Shape![2, 3], Shape![3]>` is
/// `Shape![2, 3]`), checked for the op `Op`.
pub type Broadcast<S, R, Op = op::broadcast> = <S as BroadcastShape<R, Op>>::Output;
