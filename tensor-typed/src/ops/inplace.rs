//! `InplaceBroadcast<S2, Op>`: the shape rule of PyTorch's in-place ops (`add_`, …):
//! `self` is the output, so the broadcast of `self` with the other operand must be
//! `self`'s shape.
//!
//! Static shapes that do not broadcast are the broadcast error
//! (`add_: cannot broadcast (D<2>, D<3>) with (D<2>, D<4>): dim 1 is 3 vs 4`); shapes that do
//! broadcast, but to a larger shape, are PyTorch's in-place error
//! (`in-place sub_: output with shape (D<2>, D<3>) doesn't match the broadcast shape
//! (D<3>, D<2>, D<3>)`). A `Dyn` dim is checked at run time.

use crate::shape::broadcast::{Broadcast, BroadcastShape};
use crate::shape::check::Blame;
use crate::shape::{Cons, ListOf, Nil, Shape};
use crate::typelevel::dim::{And, Bool, DimEq};
use typenum::{B0, B1};

/// The in-place ops, as they are named in messages (the `Op` of [`InplaceBroadcast`]).
pub use crate::typelevel::op;

/// `ListEq<Rhs>`: `B1` when two dim lists have the same length and each pair of dims
/// may be equal ([`DimEq`]: a `Dyn` is checked at run time).
pub trait ListEq<Rhs> {
    /// `B1` or `B0`.
    type Output: Bool;
}
impl ListEq<Nil> for Nil {
    type Output = B1;
}
impl<H, T> ListEq<Cons<H, T>> for Nil {
    type Output = B0;
}
impl<H, T> ListEq<Nil> for Cons<H, T> {
    type Output = B0;
}
impl<H1, T1, H2, T2> ListEq<Cons<H2, T2>> for Cons<H1, T1>
where
    H1: DimEq<H2>,
    T1: ListEq<T2>,
    <H1 as DimEq<H2>>::Output: And<<T1 as ListEq<T2>>::Output>,
{
    type Output = <<H1 as DimEq<H2>>::Output as And<<T1 as ListEq<T2>>::Output>>::Output;
}

/// The check behind [`InplaceBroadcast`]: implemented only for `B1` (the broadcast
/// shape `B` is the output's shape `S`).
#[diagnostic::on_unimplemented(
    message = "in-place {Op}: output with shape {S} doesn't match the broadcast shape {B}",
    label = "the other operand would make the result larger than this tensor",
    note = "an in-place op writes into `self`: the other operand's shape must broadcast to `self`'s shape"
)]
pub trait InplaceOk<Op, S, B> {}
#[diagnostic::do_not_recommend]
impl<Op, S, B> InplaceOk<Op, S, B> for B1 {}

/// `InplaceBroadcast<S2, Op>`: an operand of shape `S2` may be combined in place into a
/// tensor of shape `Self` by the in-place op `Op` (PyTorch: the broadcast shape must be
/// the output's shape).
pub trait InplaceBroadcast<S2: Shape, Op>: Shape {}
impl<S: Shape, S2: Shape, Op> InplaceBroadcast<S2, Op> for S
where
    S: BroadcastShape<S2, Op>,
    ListOf<S>: ListEq<ListOf<Broadcast<S, S2, Op>>>,
    Blame<<ListOf<S> as ListEq<ListOf<Broadcast<S, S2, Op>>>>::Output, Op>:
        InplaceOk<Op, S, Broadcast<S, S2, Op>>,
{
}
