//! Rules on one or two dims of a shape, with dims given as PyTorch does: a signed index
//! (`-1` is the last dim). softmax/log_softmax (the dim in range), transpose (swap two
//! dims), unsqueeze (insert `D<1>`), squeeze (remove a dim that is 1 or `Dyn`), narrow (a
//! dim becomes `LEN`), stack (insert the count), and the list edits behind them.
//!
//! A signed dim `D` of a shape of rank `r` is wrapped as PyTorch's `maybe_wrap_dim`:
//! in range when `-r <= D < r` (a 0-d tensor counts as rank 1); [`WrapDim`] is a
//! generated table for ranks 0..=9 and dims -9..=9, giving the Peano position and an
//! `Ok` bit that the methods turn into `Dimension out of range` errors.

use crate::shape::check::check;
use crate::shape::check::Blame;
use crate::shape::{Cons, ListOf, Nil, Shape};
use crate::typelevel::dim::dim_rule;
use crate::typelevel::dim::Bool;
use crate::typelevel::peano::{S, Z};
use typenum::{B0, B1};

/// A signed dim index `D` as a type (the methods take `const D: isize`).
pub struct SDim<const D: isize>;

/// Wraps signed dim `Self` for a list of length `R` (a Peano number).
pub trait WrapDim<R> {
    /// The Peano position (`Z` when out of range).
    type Pos;
    /// `B1` when the dim is in range.
    type Ok: Bool;
}
include!(concat!(env!("OUT_DIR"), "/signed_table.rs"));

/// The rank of shape `X` as a Peano number.
pub type RankOf<X> = <X as Shape>::Rank;
/// Peano position of signed dim `D` in shape `X`.
pub type PosOf<X, const D: isize> = <SDim<D> as WrapDim<RankOf<X>>>::Pos;
/// Whether signed dim `D` is in range for shape `X`: `B1`, else `X` (the `Self` of the
/// failed check, see [`Blame`]).
pub type DimOkOf<X, const D: isize> = Blame<<SDim<D> as WrapDim<RankOf<X>>>::Ok, X>;
/// Peano position of signed dim `D` for an op that adds a dim to `X` (unsqueeze, stack).
pub type NewPosOf<X, const D: isize> = <SDim<D> as WrapDim<S<RankOf<X>>>>::Pos;
/// Whether signed dim `D` is in range for an op that adds a dim to `X`: `B1`, else `X`.
pub type NewDimOkOf<X, const D: isize> = Blame<<SDim<D> as WrapDim<S<RankOf<X>>>>::Ok, X>;

/// The element of a list at Peano position `P` (`Nil` beyond the end: callers check).
pub trait At<P> {
    /// The element.
    type Output;
}
impl<P> At<P> for Nil {
    type Output = crate::typelevel::dim::Dyn;
}
impl<H, T> At<Z> for Cons<H, T> {
    type Output = H;
}
impl<H, T: At<P>, P> At<S<P>> for Cons<H, T> {
    type Output = T::Output;
}
/// The dim of shape `X` at Peano position `P`.
pub type DimAt<X, P> = <ListOf<X> as At<P>>::Output;

/// The list without its element at Peano position `P`.
pub trait RemoveAt<P> {
    /// The shorter list.
    type Output;
}
impl<P> RemoveAt<P> for Nil {
    type Output = Nil;
}
impl<H, T> RemoveAt<Z> for Cons<H, T> {
    type Output = T;
}
impl<H, T: RemoveAt<P>, P> RemoveAt<S<P>> for Cons<H, T> {
    type Output = Cons<H, T::Output>;
}

/// The list with `X` inserted at Peano position `P`.
pub trait InsertAt<P, X> {
    /// The longer list.
    type Output;
}
impl<L, X> InsertAt<Z, X> for L {
    type Output = Cons<X, L>;
}
impl<P, X> InsertAt<S<P>, X> for Nil {
    type Output = Nil;
}
impl<H, T: InsertAt<P, X>, P, X> InsertAt<S<P>, X> for Cons<H, T> {
    type Output = Cons<H, T::Output>;
}

/// The list with its element at Peano position `P` replaced by `X`.
pub trait SetAt<P, X> {
    /// The list.
    type Output;
}
impl<P, X> SetAt<P, X> for Nil {
    type Output = Nil;
}
impl<H, T, X> SetAt<Z, X> for Cons<H, T> {
    type Output = Cons<X, T>;
}
impl<H, T: SetAt<P, X>, P, X> SetAt<S<P>, X> for Cons<H, T> {
    type Output = Cons<H, T::Output>;
}

/// Appends `X` to the list.
pub trait Push<X> {
    /// The longer list.
    type Output;
}
impl<X> Push<X> for Nil {
    type Output = Cons<X, Nil>;
}
impl<H, T: Push<X>, X> Push<X> for Cons<H, T> {
    type Output = Cons<H, T::Output>;
}

dim_rule! {
/// `B1` when dim `Self` may be squeezed: static 1, or `Dyn` (checked at run time); else
/// the op marker `squeeze` (the `Self` of the failed check, see [`Blame`]).
pub trait Squeezable {
    /// `B1` or `Self`.
    type Output;
}
}
#[diagnostic::do_not_recommend]
impl<const N: usize> Squeezable for crate::typelevel::dim::D<N>
where
    Self: crate::typelevel::dim::IsOne<Output: crate::typelevel::dim::Pick>,
{
    type Output =
        Blame<<Self as crate::typelevel::dim::IsOne>::Output, crate::typelevel::op::squeeze>;
}
#[diagnostic::do_not_recommend]
impl<H, L> Squeezable for crate::typelevel::dim::K<H, L> {
    type Output = crate::typelevel::op::squeeze;
}
#[diagnostic::do_not_recommend]
impl Squeezable for crate::typelevel::dim::Dyn {
    type Output = B1;
}
/// A name is never a 1 to squeeze (its name says what it is), even a run-time one.
#[diagnostic::do_not_recommend]
impl<X: crate::typelevel::named::NamedDim> Squeezable for X {
    type Output = crate::typelevel::op::squeeze;
}

/// `B1` when `Self` (a Peano rank) is at least 2 (tril/triu).
pub trait AtLeast2 {
    /// `B1` or `B0`.
    type Output: Bool;
}
impl AtLeast2 for Z {
    type Output = B0;
}
impl AtLeast2 for S<Z> {
    type Output = B0;
}
impl<P> AtLeast2 for S<S<P>> {
    type Output = B1;
}

/// The shapes of the single-dim ops, as type aliases over the list edits.
pub mod out {
    use super::*;
    use crate::shape::ShapeOf;
    use crate::typelevel::dim::D;

    /// `transpose::<A, B>` of `X`.
    pub type Transposed<X, const A: isize, const B: isize> = ShapeOf<
        <<ListOf<X> as SetAt<PosOf<X, A>, DimAt<X, PosOf<X, B>>>>::Output as SetAt<
            PosOf<X, B>,
            DimAt<X, PosOf<X, A>>,
        >>::Output,
    >;
    /// `unsqueeze::<A>` of `X`.
    pub type Unsqueezed<X, const A: isize> =
        ShapeOf<<ListOf<X> as InsertAt<NewPosOf<X, A>, D<1>>>::Output>;
    /// `squeeze::<A>` of `X`.
    pub type Squeezed<X, const A: isize> = ShapeOf<<ListOf<X> as RemoveAt<PosOf<X, A>>>::Output>;
    /// `narrow::<A, START, LEN>` of `X`.
    pub type Narrowed<X, const A: isize, const LEN: usize> =
        ShapeOf<<ListOf<X> as SetAt<PosOf<X, A>, D<LEN>>>::Output>;
    /// `stack::<A>` of `N` tensors of shape `X`.
    pub type Stacked<X, const A: isize, const N: usize> =
        ShapeOf<<ListOf<X> as InsertAt<NewPosOf<X, A>, D<N>>>::Output>;
}

/// A signed dim `D` of op `Op` is in range for shape `S` (PyTorch's `maybe_wrap_dim`).
#[diagnostic::on_unimplemented(
    message = "{Op}: dim {D} is out of range for shape {S}",
    label = "Dimension out of range: a dim of a tensor of rank r lies in [-r, r)"
)]
pub trait DimInRange<Op, S, const D: isize> {
    /// `X` when the dim is in range.
    type Then<X>;
}
#[diagnostic::do_not_recommend]
impl<Op, S, const D: isize> DimInRange<Op, S, D> for B1 {
    type Then<X> = X;
}

check! {
    /// `squeeze::<D>` of `S`: the dim `X` is 1 (or `Dyn`, checked at run time).
    #[diagnostic::on_unimplemented(
        message = "squeeze: dim of size {X} of shape {S} cannot be squeezed",
        label = "only a dim of size 1 can be squeezed"
    )]
    SqueezeOk<S, X;>
}

check! {
    /// `narrow` of `S`: `START + LEN` fits in the dim `X`.
    #[diagnostic::on_unimplemented(
        message = "narrow: start ({START}) + length ({LEN}) exceeds dimension size ({X}) of shape {S}",
        label = "the narrowed range ends past the dim"
    )]
    NarrowOk<S, X; START, LEN>
}

#[cfg(test)]
mod tests {
    use super::out::*;
    use crate::typelevel::dim::{Dyn, D};
    use tensor_macros::Shape;

    fn same<A: 'static, B: 'static>() -> bool {
        std::any::TypeId::of::<A>() == std::any::TypeId::of::<B>()
    }

    #[test]
    fn signed_dims_edit_the_right_position() {
        type X = Shape![2, 3, 4];
        assert!(same::<Transposed<X, -2, -1>, Shape![2, 4, 3]>());
        assert!(same::<Transposed<X, 0, 2>, Shape![4, 3, 2]>());
        assert!(same::<Unsqueezed<X, 0>, Shape![1, 2, 3, 4]>());
        assert!(same::<Unsqueezed<X, -1>, Shape![2, 3, 4, 1]>());
        assert!(same::<Squeezed<Shape![2, 1, Dyn], 1>, (D<2>, Dyn)>());
        assert!(same::<Narrowed<X, -1, 2>, Shape![2, 3, 2]>());
        assert!(same::<Stacked<X, 1, 5>, Shape![2, 5, 3, 4]>());
    }
}
