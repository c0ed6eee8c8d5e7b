//! `PermuteBy<A>` (PyTorch's `permute`) and `ReduceOver<A>` (reductions over axes) on
//! types. Axis lists are `Axes![..]` tuples of `Ax<I>`.
//!
//! permute: as many axes as dims, each in range, none repeated; output dim `j` is input
//! dim `A[j]`. reduce: each axis in range and not repeated; the reduced dims are removed
//! (or set to `D<1>` with keepdim).

use crate::shape::{Cons, IntoShape, ListOf, Nil, Shape, ShapeOf};
use crate::typelevel::checks::{AxisInRange, AxisUnique, PermuteRankOk};
use crate::typelevel::dim::{Ax, If, Select, D};
use crate::typelevel::list::{ContainsAxis, GetAt, Len, LenOf};
use crate::typelevel::op;
use crate::typelevel::peano::{AxisPos, FromDim, PEq, PLt, ToDim, S as Succ, Z};
use std::marker::PhantomData;
use typenum::B1;

/// An axis list: a tuple of `Ax<I>` (`Axes![1, 0]` is `(Ax<1>, Ax<0>)`).
pub trait AxisList: 'static {
    /// The same axes as a cons list.
    type List;
    /// The axis indices.
    fn indices() -> Vec<i64>;
}

macro_rules! axis_tuples {
    ($( ($($i:ident),*) => $list:ty ;)*) => {$(
        impl<$(const $i: usize),*> AxisList for ($(Ax<$i>,)*) {
            type List = $list;
            fn indices() -> Vec<i64> {
                vec![$($i as i64),*]
            }
        }
    )*};
}
axis_tuples! {
    () => Nil;
    (A) => Cons<Ax<A>, Nil>;
    (A, B) => Cons<Ax<A>, Cons<Ax<B>, Nil>>;
    (A, B, C) => Cons<Ax<A>, Cons<Ax<B>, Cons<Ax<C>, Nil>>>;
    (A, B, C, E) => Cons<Ax<A>, Cons<Ax<B>, Cons<Ax<C>, Cons<Ax<E>, Nil>>>>;
    (A, B, C, E, F) => Cons<Ax<A>, Cons<Ax<B>, Cons<Ax<C>, Cons<Ax<E>, Cons<Ax<F>, Nil>>>>>;
    (A, B, C, E, F, G) =>
        Cons<Ax<A>, Cons<Ax<B>, Cons<Ax<C>, Cons<Ax<E>, Cons<Ax<F>, Cons<Ax<G>, Nil>>>>>>;
    (A, B, C, E, F, G, H) =>
        Cons<Ax<A>, Cons<Ax<B>, Cons<Ax<C>, Cons<Ax<E>, Cons<Ax<F>, Cons<Ax<G>, Cons<Ax<H>, Nil>>>>>>>;
    (A, B, C, E, F, G, H, I) =>
        Cons<Ax<A>, Cons<Ax<B>, Cons<Ax<C>, Cons<Ax<E>, Cons<Ax<F>, Cons<Ax<G>, Cons<Ax<H>, Cons<Ax<I>, Nil>>>>>>>>;
}

/// Checks each axis of the list `Self` (the rest of `A`) against the shape `S` of rank
/// `R` (a `D<r>`): in range and not repeated later.
pub trait AxesValid<S, A, R, Op> {}
impl<S, A, R, Op> AxesValid<S, A, R, Op> for Nil {}
impl<const K: usize, T, S, A, R, Op> AxesValid<S, A, R, Op> for Cons<Ax<K>, T>
where
    Ax<K>: AxisPos,
    R: FromDim,
    Pos<K>: PLt<R::P>,
    <Pos<K> as PLt<R::P>>::Output: AxisInRange<Op, S, K>,
    T: ContainsAxis<Pos<K>> + AxesValid<S, A, R, Op>,
    <T as ContainsAxis<Pos<K>>>::Output: crate::typelevel::dim::Not,
    <<T as ContainsAxis<Pos<K>>>::Output as crate::typelevel::dim::Not>::Output:
        AxisUnique<Op, A, K>,
{
}

/// The Peano index of axis `K`.
type Pos<const K: usize> = <Ax<K> as AxisPos>::P;

/// The rank of shape `S` as `D<r>`.
type Rank<S> = <LenOf<ListOf<S>> as ToDim>::Dim;

/// Picks the dims of list `L` at the axes of the list `Self`.
pub trait PickAxes<L> {
    /// The picked dims.
    type Output;
}
impl<L> PickAxes<L> for Nil {
    type Output = Nil;
}
impl<const K: usize, T: PickAxes<L>, L> PickAxes<L> for Cons<Ax<K>, T>
where
    Ax<K>: AxisPos,
    L: GetAt<Pos<K>>,
{
    type Output = Cons<<L as GetAt<Pos<K>>>::Output, T::Output>;
}

/// A well-formed axis list (`Nil` or `Cons`), as opposed to [`AxesError`].
pub trait AxisCons {}
impl AxisCons for Nil {}
impl<H, T> AxisCons for Cons<H, T> {}

/// What `Axes![..]` expands to when it holds a mistake (a negative axis), next to the
/// `compile_error!` that reports it: every operation accepts it (permute and reductions
/// keep the shape), so the macro's error is the only one. `E` is the (empty) type the
/// `compile_error!` leaves behind.
pub struct AxesError<E>(PhantomData<E>);

impl<E: 'static> AxisList for AxesError<E> {
    type List = AxesError<E>;
    fn indices() -> Vec<i64> {
        Vec::new()
    }
}

/// The shape of `S` permuted by the axis list `Self` (`A` is the tuple, for messages).
pub trait PermuteList<S, A> {
    /// The permuted shape.
    type Output: Shape;
}
impl<L: AxisCons, S: Shape, A> PermuteList<S, A> for L
where
    ListOf<S>: Len,
    L: Len,
    LenOf<L>: PEq<LenOf<ListOf<S>>>,
    <LenOf<L> as PEq<LenOf<ListOf<S>>>>::Output: PermuteRankOk<S, A>,
    LenOf<ListOf<S>>: ToDim,
    L: AxesValid<S, A, Rank<S>, op::permute> + PickAxes<ListOf<S>>,
    <L as PickAxes<ListOf<S>>>::Output: IntoShape,
{
    type Output = ShapeOf<<L as PickAxes<ListOf<S>>>::Output>;
}
#[diagnostic::do_not_recommend]
impl<S: Shape, A, E> PermuteList<S, A> for AxesError<E> {
    type Output = S;
}

/// `PermuteBy<A>`: the shape of `permute` by the axis list `A`.
pub trait PermuteBy<A: AxisList>: Shape {
    /// The permuted shape.
    type Output: Shape;
}
impl<S: Shape, A: AxisList> PermuteBy<A> for S
where
    A::List: PermuteList<S, A>,
{
    type Output = <A::List as PermuteList<S, A>>::Output;
}
/// The shape `S` permuted by the axes `A` (`Permuted<Shape![2, 3], Axes![1, 0]>` is
/// `Shape![3, 2]`).
pub type Permuted<S, A> = <S as PermuteBy<A>>::Output;

/// Drops (or, with `Keep = B1`, sets to `D<1>`) the dims of list `Self` whose index
/// (starting at Peano `J`) is in the axis list `A`.
pub trait DropAxes<A, J, Keep> {
    /// The remaining dims.
    type Output;
}
impl<A, J, Keep> DropAxes<A, J, Keep> for Nil {
    type Output = Nil;
}
impl<H, T, A, J, Keep> DropAxes<A, J, Keep> for Cons<H, T>
where
    A: ContainsAxis<J>,
    T: DropAxes<A, Succ<J>, Keep>,
    Keep: Select<
        Cons<D<1>, <T as DropAxes<A, Succ<J>, Keep>>::Output>,
        <T as DropAxes<A, Succ<J>, Keep>>::Output,
    >,
    <A as ContainsAxis<J>>::Output: Select<
        If<
            Keep,
            Cons<D<1>, <T as DropAxes<A, Succ<J>, Keep>>::Output>,
            <T as DropAxes<A, Succ<J>, Keep>>::Output,
        >,
        Cons<H, <T as DropAxes<A, Succ<J>, Keep>>::Output>,
    >,
{
    type Output = If<
        <A as ContainsAxis<J>>::Output,
        If<
            Keep,
            Cons<D<1>, <T as DropAxes<A, Succ<J>, Keep>>::Output>,
            <T as DropAxes<A, Succ<J>, Keep>>::Output,
        >,
        Cons<H, <T as DropAxes<A, Succ<J>, Keep>>::Output>,
    >;
}

/// The shape of `S` reduced over the axis list `Self` (`A` is the tuple, for messages).
pub trait ReduceList<S, A, Keep, Op> {
    /// The reduced shape.
    type Output: Shape;
}
impl<L: AxisCons, S: Shape, A, Keep, Op> ReduceList<S, A, Keep, Op> for L
where
    ListOf<S>: Len + DropAxes<L, Z, Keep>,
    LenOf<ListOf<S>>: ToDim,
    L: AxesValid<S, A, Rank<S>, Op>,
    <ListOf<S> as DropAxes<L, Z, Keep>>::Output: IntoShape,
{
    type Output = ShapeOf<<ListOf<S> as DropAxes<L, Z, Keep>>::Output>;
}
#[diagnostic::do_not_recommend]
impl<S: Shape, A, Keep, Op, E> ReduceList<S, A, Keep, Op> for AxesError<E> {
    type Output = S;
}

/// `ReduceOver<A, Keep, Op>`: the shape of the reduction `Op` (a marker of
/// [`crate::typelevel::op`], named in errors) over the axis list `A` (`Keep` is typenum `B1` for
/// keepdim, `B0` otherwise).
pub trait ReduceOver<A: AxisList, Keep, Op = op::sum>: Shape {
    /// The reduced shape.
    type Output: Shape;
}
impl<S: Shape, A: AxisList, Keep, Op> ReduceOver<A, Keep, Op> for S
where
    A::List: ReduceList<S, A, Keep, Op>,
{
    type Output = <A::List as ReduceList<S, A, Keep, Op>>::Output;
}
/// The shape of `S` reduced over `A` (`Reduced<Shape![2, 3], Axes![1]>` is
/// `Shape![2]`).
pub type Reduced<S, A, Op = op::sum> = <S as ReduceOver<A, typenum::B0, Op>>::Output;
/// The shape of `S` reduced over `A` with keepdim (`Shape![2, 1]`).
pub type ReducedKeepdim<S, A, Op = op::sum> = <S as ReduceOver<A, B1, Op>>::Output;
