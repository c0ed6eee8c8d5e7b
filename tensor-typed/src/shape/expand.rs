//! `ExpandTo<T>` (PyTorch's `expand`) and `RepeatBy<R>` (`repeat`) on types.
//!
//! expand: the target has at least as many dims; aligned at the right, each static dim
//! must equal the target or be 1; a `Dyn` target dim keeps the tensor's size (`-1`);
//! new leading dims must be static. repeat: at least as many repeat counts as dims,
//! all static; output dim = dim × count (`Dyn` stays `Dyn`); extra leading counts become
//! new dims. (repeat is lowered to the runtime's reshape → expand → reshape.)

use crate::shape::{Cons, IntoShape, ListOf, Nil, Shape, ShapeOf};
use crate::typelevel::arith::DimMul;
use crate::typelevel::checks::ExpandOk;
use crate::typelevel::dim::{DimEq, Dyn, IsOne, Or, StaticDim, D, K};
use crate::typelevel::list::{Len, LenOf, Pred, Rev, ReverseAcc};
use crate::typelevel::peano::ToDim;

/// One dim of an expand: tensor dim `Self` to target dim `T` at target index `P`.
pub trait ExpandAt<T, S, Tgt, P> {}
impl<A: StaticDim, B: StaticDim, S, Tgt, const I: usize> ExpandAt<B, S, Tgt, D<I>> for A
where
    A: DimEq<B> + IsOne,
    <A as DimEq<B>>::Output: Or<<A as IsOne>::Output>,
    <<A as DimEq<B>>::Output as Or<<A as IsOne>::Output>>::Output: ExpandOk<S, Tgt, A, B, I>,
{
}
impl<A: StaticDim, S, Tgt, P> ExpandAt<Dyn, S, Tgt, P> for A {}
impl<T, S, Tgt, P> ExpandAt<T, S, Tgt, P> for Dyn {}

/// A new leading dim of an expand target must be static.
#[diagnostic::on_unimplemented(
    message = "cannot expand {S} to {Tgt}: a new leading dim must be static, found `Dyn`",
    label = "the size of a new leading dim cannot be inferred"
)]
pub trait StaticLeading<S, Tgt> {}
impl<S, Tgt> StaticLeading<S, Tgt> for Nil {}
// One impl per static form (not a blanket over `StaticDim`), so that a `Dyn` finds no
// impl and the error is this trait's message.
impl<const N: usize, T: StaticLeading<S, Tgt>, S, Tgt> StaticLeading<S, Tgt> for Cons<D<N>, T> {}
impl<H, L, T: StaticLeading<S, Tgt>, S, Tgt> StaticLeading<S, Tgt> for Cons<K<H, L>, T> {}

/// Expand over reversed lists; `I` is 1 + the target index of the heads (a `D<i>`).
#[diagnostic::on_unimplemented(
    message = "cannot expand {S} to {Tgt}: the target has fewer dims than the tensor",
    label = "expand cannot remove dims"
)]
pub trait ExpandZip<T, S, Tgt, I> {}
impl<S, Tgt, I> ExpandZip<Nil, S, Tgt, I> for Nil {}
impl<H, T, S, Tgt, I> ExpandZip<Cons<H, T>, S, Tgt, I> for Nil where
    Cons<H, T>: StaticLeading<S, Tgt>
{
}
impl<H1, T1, H2, T2, S, Tgt, I> ExpandZip<Cons<H2, T2>, S, Tgt, I> for Cons<H1, T1>
where
    I: Pred,
    H1: ExpandAt<H2, S, Tgt, I::Output>,
    T1: ExpandZip<T2, S, Tgt, I::Output>,
{
}

/// `ExpandTo<T>`: shape `Self` can be expanded to `T` (PyTorch's `expand`).
pub trait ExpandTo<T: Shape>: Shape {}
impl<S: Shape, T: Shape> ExpandTo<T> for S
where
    ListOf<S>: ReverseAcc<Nil>,
    ListOf<T>: ReverseAcc<Nil> + Len,
    LenOf<ListOf<T>>: ToDim,
    Rev<ListOf<S>>: ExpandZip<Rev<ListOf<T>>, S, T, <LenOf<ListOf<T>> as ToDim>::Dim>,
{
}

/// One dim of a repeat: dim `Self` times count `R` (a static dim).
#[diagnostic::on_unimplemented(
    message = "repeat: repeat counts must be static dims, found {R}",
    label = "write the repeat counts as numbers in Shape![..]"
)]
pub trait RepeatAt<R> {
    /// The repeated dim.
    type Output;
}
impl<X: DimMul<D<B>>, const B: usize> RepeatAt<D<B>> for X {
    type Output = <X as DimMul<D<B>>>::Output;
}
impl<X: DimMul<K<H, L>>, H, L> RepeatAt<K<H, L>> for X {
    type Output = <X as DimMul<K<H, L>>>::Output;
}

/// Repeat over reversed lists.
#[diagnostic::on_unimplemented(
    message = "cannot repeat {S} by {Rep}: the number of repeat dims can not be smaller than the number of dims of the tensor",
    label = "give one repeat count per dim (or more)"
)]
pub trait RepeatZip<R, S, Rep> {
    /// The reversed output list.
    type Output;
}
impl<S, Rep> RepeatZip<Nil, S, Rep> for Nil {
    type Output = Nil;
}
impl<H, T, S, Rep> RepeatZip<Cons<H, T>, S, Rep> for Nil
where
    D<1>: RepeatAt<H>,
    Nil: RepeatZip<T, S, Rep>,
{
    type Output = Cons<<D<1> as RepeatAt<H>>::Output, <Nil as RepeatZip<T, S, Rep>>::Output>;
}
impl<H1, T1, H2, T2, S, Rep> RepeatZip<Cons<H2, T2>, S, Rep> for Cons<H1, T1>
where
    H1: RepeatAt<H2>,
    T1: RepeatZip<T2, S, Rep>,
{
    type Output = Cons<H1::Output, T1::Output>;
}

/// `RepeatBy<R>`: the shape of `repeat` by the counts `R` (PyTorch's `repeat`).
pub trait RepeatBy<R: Shape>: Shape {
    /// The repeated shape.
    type Output: Shape;
}
impl<S: Shape, R: Shape> RepeatBy<R> for S
where
    ListOf<S>: ReverseAcc<Nil>,
    ListOf<R>: ReverseAcc<Nil>,
    Rev<ListOf<S>>: RepeatZip<Rev<ListOf<R>>, S, R>,
    <Rev<ListOf<S>> as RepeatZip<Rev<ListOf<R>>, S, R>>::Output: ReverseAcc<Nil>,
    Rev<<Rev<ListOf<S>> as RepeatZip<Rev<ListOf<R>>, S, R>>::Output>: IntoShape,
{
    type Output = ShapeOf<Rev<<Rev<ListOf<S>> as RepeatZip<Rev<ListOf<R>>, S, R>>::Output>>;
}
/// The shape of `S` repeated by `R` (`Repeated<Shape![2, 3], Shape![2, 1, 2]>` is
/// `Shape![2, 2, 6]`).
pub type Repeated<S, R> = <S as RepeatBy<R>>::Output;
