//! `MatmulWith<R>`: the shape of PyTorch's `matmul` on types.
//!
//! `[K]·[K]` → `[]`; `[K]·[.., K, M]` → `[.., M]`; `[.., N, K]·[K]` → `[.., N]`;
//! `[.., N, K]·[.., K, M]` → `[broadcast(..), N, M]`. The inner dims must be equal when
//! both are static (`cannot matmul (D<2>, D<3>) by (D<4>, D<5>): inner dims are D<3> vs D<4>`);
//! a `Dyn` inner dim is checked at run time.

use crate::shape::broadcast::{
    BroadcastDimNameOk, BroadcastNameDimOk, BroadcastNamesOk, BroadcastOk,
};
use crate::shape::broadcast::{BroadcastZip, MaxRank, Mismatch};
use crate::shape::check::check;
use crate::shape::check::Blame;
use crate::shape::mismatch::{DimVsName, Inner, Mismatched, NameVsDim, NamesDiffer, ThenDiffer};
use crate::shape::{Cons, FromRev, Nil, Shape};
use crate::typelevel::dim::{DimEq, D};
use crate::typelevel::list::{Len, LenOf};
use crate::typelevel::named::{IsNamed, NamedDim};
use crate::typelevel::op;
use crate::typelevel::peano::{PMax, ToDim};
use std::marker::PhantomData;
use typenum::{B0, B1};

/// The inner dims of a matmul: `Self` (last dim of the left operand) vs `K`. Two different
/// static dims are the verdict [`InnerMismatch`] (or, when one is named, a verdict of
/// [`crate::shape::mismatch`] at [`Inner`]); it fails only for dims it cannot compare:
/// two different type parameters of generic code (which never unify), or a `D<N>` out of
/// range.
#[diagnostic::on_unimplemented(
    message = "cannot matmul: inner dims are {Self} vs {K}",
    label = "the last dim of the left operand must be the second-to-last of the right",
    note = "two different dim type parameters never unify, whatever they are instantiated with; a dim type parameter unifies with itself"
)]
pub trait InnerDim<K> {
    /// `B1`, or the mismatch.
    type Verdict;
}
// One impl for every dim, through [`DimEq`] (names compared; a `Dyn` unifies with
// anything, so its verdict is `B1`).
#[diagnostic::do_not_recommend]
impl<A: DimEq<B>, B> InnerDim<B> for A
where
    <A as DimEq<B>>::Output: ThenDiffer<InnerMismatch<A, B>>,
{
    type Verdict = <<A as DimEq<B>>::Output as ThenDiffer<InnerMismatch<A, B>>>::Verdict<B1>;
}

/// The verdict of a matmul whose static inner dims `A` and `B` differ.
pub struct InnerMismatch<A, B>(PhantomData<(A, B)>);
impl<A: IsNamed, B: IsNamed> Mismatched for InnerMismatch<A, B> {
    type A = A;
    type B = B;
    type At = Inner;
}

/// The inner-dim verdict if it is a mismatch, else the batch dims' verdict `V`.
pub trait ThenBatch<V> {
    /// The verdict reported.
    type Output;
}
impl<V> ThenBatch<V> for B1 {
    type Output = V;
}
impl<A, B, V> ThenBatch<V> for InnerMismatch<A, B> {
    type Output = InnerMismatch<A, B>;
}
impl<A, B, V> ThenBatch<V> for NamesDiffer<A, B, Inner> {
    type Output = Self;
}
impl<A, B, V> ThenBatch<V> for NameVsDim<A, B, Inner> {
    type Output = Self;
}
impl<A, B, V> ThenBatch<V> for DimVsName<A, B, Inner> {
    type Output = Self;
}

/// Matmul over reversed dim lists.
pub trait MatmulRev<Rhs> {
    /// The reversed output list.
    type Output;
    /// `B1`, or `B0` when an operand is 0-d (reported by the method's
    /// `MatmulRankOk` bound, so that the error reads as ours and not as a missing method).
    type Ok: crate::typelevel::dim::Bool;
    /// `B1`, an [`InnerMismatch`] or a batch [`Mismatch`] (checked by [`MatmulWith`]).
    type Verdict;
}
// [] · x and x · []: an error (both must be at least 1-d). One impl per form of `x`, so
// that the check waits until the right operand's shape is known.
impl MatmulRev<Nil> for Nil {
    type Output = Nil;
    type Ok = B0;
    type Verdict = B1;
}
impl<H, T> MatmulRev<Cons<H, T>> for Nil {
    type Output = Nil;
    type Ok = B0;
    type Verdict = B1;
}
impl<H, T> MatmulRev<Nil> for Cons<H, T> {
    type Output = Nil;
    type Ok = B0;
    type Verdict = B1;
}
// [K] · [K] → []
impl<K1: InnerDim<K2>, K2> MatmulRev<Cons<K2, Nil>> for Cons<K1, Nil> {
    type Output = Nil;
    type Ok = B1;
    type Verdict = K1::Verdict;
}
// [K] · [.., K, M] → [.., M]
impl<K1: InnerDim<K2>, K2, M, Rb> MatmulRev<Cons<M, Cons<K2, Rb>>> for Cons<K1, Nil> {
    type Output = Cons<M, Rb>;
    type Ok = B1;
    type Verdict = K1::Verdict;
}
// [.., N, K] · [K] → [.., N]
impl<K1: InnerDim<K2>, K2, N, Lb> MatmulRev<Cons<K2, Nil>> for Cons<K1, Cons<N, Lb>> {
    type Output = Cons<N, Lb>;
    type Ok = B1;
    type Verdict = K1::Verdict;
}
// [.., N, K] · [.., K, M] → [b, N, M]
impl<K1, K2, N, Lb, M, Rb> MatmulRev<Cons<M, Cons<K2, Rb>>> for Cons<K1, Cons<N, Lb>>
where
    K1: InnerDim<K2>,
    Lb: Len,
    Rb: Len,
    LenOf<Lb>: PMax<LenOf<Rb>, Output: ToDim>,
    Lb: BroadcastZip<Rb, MaxRank<Lb, Rb>>,
    K1::Verdict: ThenBatch<<Lb as BroadcastZip<Rb, MaxRank<Lb, Rb>>>::Verdict>,
{
    type Output = Cons<M, Cons<N, <Lb as BroadcastZip<Rb, MaxRank<Lb, Rb>>>::Output>>;
    type Ok = B1;
    type Verdict =
        <K1::Verdict as ThenBatch<<Lb as BroadcastZip<Rb, MaxRank<Lb, Rb>>>::Verdict>>::Output;
}

/// The check of a matmul verdict of `L` by `R`: an [`InnerMismatch`] is the error
/// `MatmulOk`, a batch [`Mismatch`] the broadcast error (`Self` is the op marker); the
/// verdicts of named dims ([`NamesDiffer`], ..: at [`Inner`] or at a batch dim) those
/// errors for names (`MatmulNamesOk`, `BroadcastNamesOk`, ..).
pub trait MatmulVerdict<L, R> {
    /// `X` when the verdict is `B1`; no type otherwise (see `check!`).
    type Then<X>;
}
#[diagnostic::do_not_recommend]
impl<L, R> MatmulVerdict<L, R> for B1 {
    type Then<X> = X;
}
impl<L, R, A, B> MatmulVerdict<L, R> for InnerMismatch<A, B>
where
    op::matmul: MatmulOk<L, R, A, B>,
{
    type Then<X> = <op::matmul as MatmulOk<L, R, A, B>>::Then<X>;
}
impl<L, R, A, B, const I: usize> MatmulVerdict<L, R> for Mismatch<A, B, D<I>>
where
    op::matmul: BroadcastOk<op::matmul, L, R, A, B, I>,
{
    type Then<X> = <op::matmul as BroadcastOk<op::matmul, L, R, A, B, I>>::Then<X>;
}
impl<L, R, A: NamedDim, B: NamedDim> MatmulVerdict<L, R> for NamesDiffer<A, B, Inner>
where
    op::matmul: MatmulNamesOk<L, R, A, A::Size, B, B::Size>,
{
    type Then<X> = <op::matmul as MatmulNamesOk<L, R, A, A::Size, B, B::Size>>::Then<X>;
}
impl<L, R, A: NamedDim, B> MatmulVerdict<L, R> for NameVsDim<A, B, Inner>
where
    op::matmul: MatmulNameDimOk<L, R, A, A::Size, B>,
{
    type Then<X> = <op::matmul as MatmulNameDimOk<L, R, A, A::Size, B>>::Then<X>;
}
impl<L, R, A, B: NamedDim> MatmulVerdict<L, R> for DimVsName<A, B, Inner>
where
    op::matmul: MatmulDimNameOk<L, R, A, B, B::Size>,
{
    type Then<X> = <op::matmul as MatmulDimNameOk<L, R, A, B, B::Size>>::Then<X>;
}
impl<L, R, A: NamedDim, B: NamedDim, const I: usize> MatmulVerdict<L, R> for NamesDiffer<A, B, D<I>>
where
    op::matmul: BroadcastNamesOk<op::matmul, L, R, A, A::Size, B, B::Size, I>,
{
    type Then<X> =
        <op::matmul as BroadcastNamesOk<op::matmul, L, R, A, A::Size, B, B::Size, I>>::Then<X>;
}
impl<L, R, A: NamedDim, B, const I: usize> MatmulVerdict<L, R> for NameVsDim<A, B, D<I>>
where
    op::matmul: BroadcastNameDimOk<op::matmul, L, R, A, A::Size, B, I>,
{
    type Then<X> = <op::matmul as BroadcastNameDimOk<op::matmul, L, R, A, A::Size, B, I>>::Then<X>;
}
impl<L, R, A, B: NamedDim, const I: usize> MatmulVerdict<L, R> for DimVsName<A, B, D<I>>
where
    op::matmul: BroadcastDimNameOk<op::matmul, L, R, A, B, B::Size, I>,
{
    type Then<X> = <op::matmul as BroadcastDimNameOk<op::matmul, L, R, A, B, B::Size, I>>::Then<X>;
}

/// The reversed matmul list of `S` by `R`.
type RevMatmul<S, R> = <<S as Shape>::Rev as MatmulRev<<R as Shape>::Rev>>::Output;
/// The verdict of the matmul of `S` by `R`.
type MatmulVerdictOf<S, R> = <<S as Shape>::Rev as MatmulRev<<R as Shape>::Rev>>::Verdict;

/// `MatmulWith<R>`: the shape of `matmul(Self, R)`.
///
/// The rank rule (both operands at least 1-d) is the separate bound
/// `<S as MatmulWith<R>>::Ok: MatmulRankOk<S, R>` on the methods.
pub trait MatmulWith<R: Shape>: Shape {
    /// The product's shape.
    type Output: Shape;
    /// `B1` when both operands have at least one dim, else `Self` (the `Self` of the
    /// failed check, see [`Blame`]).
    type Ok;
}
impl<S: Shape, R: Shape> MatmulWith<R> for S
where
    S::Rev: MatmulRev<R::Rev>,
    MatmulVerdictOf<S, R>: MatmulVerdict<S, R>,
    <MatmulVerdictOf<S, R> as MatmulVerdict<S, R>>::Then<RevMatmul<S, R>>: FromRev,
{
    type Output =
        <<MatmulVerdictOf<S, R> as MatmulVerdict<S, R>>::Then<RevMatmul<S, R>> as FromRev>::Shape;
    type Ok = Blame<<S::Rev as MatmulRev<R::Rev>>::Ok, S>;
}
/// The shape of `matmul(S, R)` (`MatmulOut<Shape![Dyn, 64], Shape![64, 10]>` is
/// `Shape![Dyn, 10]`).
pub type MatmulOut<S, R> = <S as MatmulWith<R>>::Output;

/// The bound a generic function states to call `matmul` on shapes it does not know:
/// `S: CanMatmul<R>` holds exactly when `Tensor<T, S>::matmul(&Tensor<T, R>)` compiles
/// (the inner dims agree and both operands have a dim), and gives the product's shape
/// as [`MatmulOut<S, R>`]. It is [`MatmulWith`] together with its rank check, so a
/// generic layer needs no hidden bound; a caller whose shapes do not multiply gets the
/// matmul error at its call (`cannot matmul (Dyn, D<3>) by (D<4>, D<5>): inner dims are
/// D<3> vs D<4>`).
///
/// ```
/// use tensor_typed::prelude::*;
/// use tensor_typed::shape::matmul_dims::{CanMatmul, MatmulOut};
///
/// /// A two-layer MLP for any input shape and any widths: `relu(x @ w1) @ w2`.
/// fn mlp<S, I: Dim, H: Dim, O: Dim>(
///     x: &Tensor<f32, S>,
///     w1: &Tensor<f32, (I, H)>,
///     w2: &Tensor<f32, (H, O)>,
/// ) -> Tensor<f32, MatmulOut<MatmulOut<S, (I, H)>, (H, O)>>
/// where
///     S: CanMatmul<(I, H)>,
///     MatmulOut<S, (I, H)>: CanMatmul<(H, O)>,
/// {
///     x.matmul(w1).relu().matmul(w2)
/// }
///
/// let x = Tensor::<f32, Shape![Dyn, 8, 4]>::ones_with(&[2, 8, 4])?;
/// let y: Tensor<f32, Shape![Dyn, 8, 3]> = mlp(&x, &Tensor::<f32, Shape![4, 16]>::ones(), &Tensor::<f32, Shape![16, 3]>::ones());
/// assert_eq!(y.dims(), &[2, 8, 3]);
/// # Ok::<(), tensor_typed::Error>(())
/// ```
pub trait CanMatmul<R: Shape>:
    Sized + MatmulWith<R, Ok: crate::shape::matmul_dims::MatmulRankOk<Self, R>>
{
}
impl<S, R: Shape> CanMatmul<R> for S where
    S: MatmulWith<R, Ok: crate::shape::matmul_dims::MatmulRankOk<S, R>>
{
}

check! {
    /// Matrix product of `L` and `R`: the inner dims `A` and `B` must match.
    #[diagnostic::on_unimplemented(
        message = "cannot matmul {L} by {R}: inner dims are {A} vs {B}",
        label = "the last dim of the left operand must equal the second-to-last of the right",
        note = "a named dim matches only its own name, an unnamed dim of its size, or `Dyn`"
    )]
    MatmulOk<L, R, A, B;>
}

check! {
    /// [`MatmulOk`] of two names `A` and `B`, of sizes `SA` and `SB`.
    #[diagnostic::on_unimplemented(
        message = "cannot matmul {L} by {R}: inner dims are {A} ({SA}) vs {B} ({SB})",
        label = "the last dim of the left operand must equal the second-to-last of the right",
        note = "a named dim matches only its own name, an unnamed dim of its size, or `Dyn`"
    )]
    MatmulNamesOk<L, R, A, SA, B, SB;>
}

check! {
    /// [`MatmulOk`] of the name `A` of size `SA` and the unnamed dim `B`.
    #[diagnostic::on_unimplemented(
        message = "cannot matmul {L} by {R}: inner dims are {A} ({SA}) vs {B}",
        label = "the last dim of the left operand must equal the second-to-last of the right",
        note = "a named dim matches only its own name, an unnamed dim of its size, or `Dyn`"
    )]
    MatmulNameDimOk<L, R, A, SA, B;>
}

check! {
    /// [`MatmulOk`] of the unnamed dim `A` and the name `B` of size `SB`.
    #[diagnostic::on_unimplemented(
        message = "cannot matmul {L} by {R}: inner dims are {A} vs {B} ({SB})",
        label = "the last dim of the left operand must equal the second-to-last of the right",
        note = "a named dim matches only its own name, an unnamed dim of its size, or `Dyn`"
    )]
    MatmulDimNameOk<L, R, A, B, SB;>
}

check! {
    /// `matmul` of `L` by `R`: both need at least one dim (never holds: used on `B0`).
    #[diagnostic::on_unimplemented(
        message = "cannot matmul {L} by {R}: both arguments to matmul need to be at least 1D",
        label = "matmul of a 0-d tensor"
    )]
    MatmulRankOk<L, R;>
}
