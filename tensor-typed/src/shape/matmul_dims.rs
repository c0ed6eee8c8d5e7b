//! `MatmulWith<R>`: the shape of PyTorch's `matmul` on types.
//!
//! `[K]·[K]` → `[]`; `[K]·[.., K, M]` → `[.., M]`; `[.., N, K]·[K]` → `[.., N]`;
//! `[.., N, K]·[.., K, M]` → `[broadcast(..), N, M]`. The inner dims must be equal when
//! both are static (`cannot matmul (D<2>, D<3>) by (D<4>, D<5>): inner dims are D<3> vs D<4>`);
//! a `Dyn` inner dim is checked at run time.

use crate::shape::broadcast::{BroadcastZip, MaxRank};
use crate::shape::{Cons, IntoShape, ListOf, Nil, Shape, ShapeOf};
use crate::typelevel::checks::MatmulOk;
use crate::typelevel::dim::{DimEq, Dyn, StaticDim};
use crate::typelevel::list::{Len, LenOf, Rev, ReverseAcc};
use crate::typelevel::op;
use crate::typelevel::peano::{PMax, ToDim};
use typenum::{B0, B1};

/// The inner-dim check of a matmul of `L` by `R`: `Self` (last dim of `L`) vs `K`.
pub trait InnerDim<K, L, R> {}
impl<A: StaticDim, B: StaticDim, L, R> InnerDim<B, L, R> for A
where
    A: DimEq<B>,
    <A as DimEq<B>>::Output: MatmulOk<L, R, A, B>,
{
}
impl<A: StaticDim, L, R> InnerDim<Dyn, L, R> for A {}
impl<K, L, R> InnerDim<K, L, R> for Dyn {}

/// Matmul over reversed dim lists.
pub trait MatmulRev<Rhs, L, R> {
    /// The reversed output list.
    type Output;
    /// `B1`, or `B0` when an operand is 0-d (reported by the method's
    /// `MatmulRankOk` bound, so that the error reads as ours and not as a missing method).
    type Ok;
}
// [] · x and x · []: an error (both must be at least 1-d). One impl per form of `x`, so
// that the check waits until the right operand's shape is known.
impl<L, R> MatmulRev<Nil, L, R> for Nil {
    type Output = Nil;
    type Ok = B0;
}
impl<H, T, L, R> MatmulRev<Cons<H, T>, L, R> for Nil {
    type Output = Nil;
    type Ok = B0;
}
impl<H, T, L, R> MatmulRev<Nil, L, R> for Cons<H, T> {
    type Output = Nil;
    type Ok = B0;
}
// [K] · [K] → []
impl<K1: InnerDim<K2, L, R>, K2, L, R> MatmulRev<Cons<K2, Nil>, L, R> for Cons<K1, Nil> {
    type Output = Nil;
    type Ok = B1;
}
// [K] · [.., K, M] → [.., M]
impl<K1: InnerDim<K2, L, R>, K2, M, Rb, L, R> MatmulRev<Cons<M, Cons<K2, Rb>>, L, R>
    for Cons<K1, Nil>
{
    type Output = Cons<M, Rb>;
    type Ok = B1;
}
// [.., N, K] · [K] → [.., N]
impl<K1: InnerDim<K2, L, R>, K2, N, Lb, L, R> MatmulRev<Cons<K2, Nil>, L, R>
    for Cons<K1, Cons<N, Lb>>
{
    type Output = Cons<N, Lb>;
    type Ok = B1;
}
// [.., N, K] · [.., K, M] → [b, N, M]
impl<K1, K2, N, Lb, M, Rb, L, R> MatmulRev<Cons<M, Cons<K2, Rb>>, L, R> for Cons<K1, Cons<N, Lb>>
where
    K1: InnerDim<K2, L, R>,
    Lb: Len,
    Rb: Len,
    LenOf<Lb>: PMax<LenOf<Rb>, Output: ToDim>,
    Lb: BroadcastZip<Rb, L, R, MaxRank<Lb, Rb>, op::matmul>,
{
    type Output =
        Cons<M, Cons<N, <Lb as BroadcastZip<Rb, L, R, MaxRank<Lb, Rb>, op::matmul>>::Output>>;
    type Ok = B1;
}

/// `MatmulWith<R>`: the shape of `matmul(Self, R)`.
///
/// The rank rule (both operands at least 1-d) is the separate bound
/// `<S as MatmulWith<R>>::Ok: MatmulRankOk<S, R>` on the methods.
pub trait MatmulWith<R: Shape>: Shape {
    /// The product's shape.
    type Output: Shape;
    /// `B1` when both operands have at least one dim, else `B0`.
    type Ok;
}
impl<S: Shape, R: Shape> MatmulWith<R> for S
where
    ListOf<S>: ReverseAcc<Nil>,
    ListOf<R>: ReverseAcc<Nil>,
    Rev<ListOf<S>>: MatmulRev<Rev<ListOf<R>>, S, R>,
    <Rev<ListOf<S>> as MatmulRev<Rev<ListOf<R>>, S, R>>::Output: ReverseAcc<Nil>,
    Rev<<Rev<ListOf<S>> as MatmulRev<Rev<ListOf<R>>, S, R>>::Output>: IntoShape,
{
    type Output = ShapeOf<Rev<<Rev<ListOf<S>> as MatmulRev<Rev<ListOf<R>>, S, R>>::Output>>;
    type Ok = <Rev<ListOf<S>> as MatmulRev<Rev<ListOf<R>>, S, R>>::Ok;
}
/// The shape of `matmul(S, R)` (`MatmulOut<Shape![Dyn, 64], Shape![64, 10]>` is
/// `Shape![Dyn, 10]`).
pub type MatmulOut<S, R> = <S as MatmulWith<R>>::Output;
