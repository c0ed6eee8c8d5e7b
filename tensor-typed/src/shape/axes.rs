//! `PermuteBy<A>` (PyTorch's `permute`) and `ReduceOver<A>` (reductions over axes) on
//! types. Axis lists are `Axes![..]` tuples of `Ax<I>` (axis `I`, counted from 0) and
//! `SDim<-I>` (counted from the end, as PyTorch's negative dims: `Axes![-1]`).
//!
//! Each op first resolves the negative axes against the rank of its shape
//! ([`ResolveAxes`], PyTorch's `maybe_wrap_dim`; out of range is the op's `Dimension out
//! of range` error). permute: as many axes as dims, each in range, none repeated; output
//! dim `j` is input dim `A[j]`. reduce: each axis in range and not repeated; the reduced
//! dims are removed (or set to `D<1>` with keepdim).

use crate::shape::dims::{DimOkOf, PosOf, RankOf, SDim, WrapDim};
use crate::shape::{Cons, IntoShape, ListOf, Nil, Shape, ShapeOf};
use crate::typelevel::checks::{AxisInRange, AxisUnique, Blame, DimInRange, PermuteRankOk};
use crate::typelevel::dim::{Ax, If, Select, D};
use crate::typelevel::list::{ContainsAxis, GetAt, Len, LenOf};
use crate::typelevel::op;
use crate::typelevel::peano::{AxisPos, FromDim, PEq, PLt, ToDim, S as Succ, Z};
use std::marker::PhantomData;
use typenum::B1;

/// An element of an axis list: `Ax<I>` (axis `I`) or `SDim<-I>` (the `I`-th from the
/// end).
pub trait AxisItem: 'static {
    /// The axis as PyTorch takes it (negative: from the end).
    const INDEX: i64;
}
impl<const I: usize> AxisItem for Ax<I> {
    const INDEX: i64 = I as i64;
}
impl<const I: isize> AxisItem for SDim<I> {
    const INDEX: i64 = I as i64;
}

/// An axis list: a tuple of axes (`Axes![1, 0]` is `(Ax<1>, Ax<0>)`, `Axes![-1]` is
/// `(SDim<-1>,)`).
pub trait AxisList: 'static {
    /// The same axes as a cons list.
    type List;
    /// The axis indices (negative ones as written).
    fn indices() -> Vec<i64>;
}

macro_rules! axis_tuples {
    ($( ($($i:ident),*) => $list:ty ;)*) => {$(
        impl<$($i: AxisItem),*> AxisList for ($($i,)*) {
            type List = $list;
            fn indices() -> Vec<i64> {
                vec![$($i::INDEX),*]
            }
        }
    )*};
}
axis_tuples! {
    () => Nil;
    (A) => Cons<A, Nil>;
    (A, B) => Cons<A, Cons<B, Nil>>;
    (A, B, C) => Cons<A, Cons<B, Cons<C, Nil>>>;
    (A, B, C, E) => Cons<A, Cons<B, Cons<C, Cons<E, Nil>>>>;
    (A, B, C, E, F) => Cons<A, Cons<B, Cons<C, Cons<E, Cons<F, Nil>>>>>;
    (A, B, C, E, F, G) => Cons<A, Cons<B, Cons<C, Cons<E, Cons<F, Cons<G, Nil>>>>>>;
    (A, B, C, E, F, G, H) =>
        Cons<A, Cons<B, Cons<C, Cons<E, Cons<F, Cons<G, Cons<H, Nil>>>>>>>;
    (A, B, C, E, F, G, H, I) =>
        Cons<A, Cons<B, Cons<C, Cons<E, Cons<F, Cons<G, Cons<H, Cons<I, Nil>>>>>>>>;
}

/// The axis `Ax<k>` at Peano position `Self` (a wrapped signed dim, below 9).
pub trait PosAxis {
    /// `Ax<k>`.
    type Ax;
}
macro_rules! pos_axis_table {
    ($p:ty;) => {};
    ($p:ty; $k:literal $($rest:literal)*) => {
        impl PosAxis for $p {
            type Ax = Ax<$k>;
        }
        pos_axis_table!(Succ<$p>; $($rest)*);
    };
}
pos_axis_table!(Z; 0 1 2 3 4 5 6 7 8);

/// The axis list `Self` with each `SDim<-i>` replaced by the `Ax<k>` it names in shape
/// `S` (PyTorch's `maybe_wrap_dim`); a negative axis beyond the rank is the op `Op`'s
/// `dim -i is out of range` error.
pub trait ResolveAxes<S, Op> {
    /// The list of `Ax<k>`.
    type Output;
}
impl<S, Op> ResolveAxes<S, Op> for Nil {
    type Output = Nil;
}
impl<const K: usize, T: ResolveAxes<S, Op>, S, Op> ResolveAxes<S, Op> for Cons<Ax<K>, T> {
    type Output = Cons<Ax<K>, T::Output>;
}
impl<const I: isize, T: ResolveAxes<S, Op>, S: Shape, Op> ResolveAxes<S, Op> for Cons<SDim<I>, T>
where
    SDim<I>: WrapDim<RankOf<S>>,
    DimOkOf<S, I>: DimInRange<Op, S, I>,
    PosOf<S, I>: PosAxis,
{
    type Output = Cons<<PosOf<S, I> as PosAxis>::Ax, T::Output>;
}
/// The list `L` resolved against shape `S` for op `Op`.
type Resolved<L, S, Op> = <L as ResolveAxes<S, Op>>::Output;

/// Checks each axis of the list `Self` (the rest of `A`) against the shape `S` of rank
/// `R` (a `D<r>`): in range and not repeated later.
pub trait AxesValid<S, A, R, Op> {}
impl<S, A, R, Op> AxesValid<S, A, R, Op> for Nil {}
impl<const K: usize, T, S, A, R, Op> AxesValid<S, A, R, Op> for Cons<Ax<K>, T>
where
    Ax<K>: AxisPos,
    R: FromDim,
    Pos<K>: PLt<R::P>,
    Blame<<Pos<K> as PLt<R::P>>::Output, Op>: AxisInRange<Op, S, K>,
    T: ContainsAxis<Pos<K>> + AxesValid<S, A, R, Op>,
    <T as ContainsAxis<Pos<K>>>::Output: crate::typelevel::dim::Not,
    Blame<<<T as ContainsAxis<Pos<K>>>::Output as crate::typelevel::dim::Not>::Output, Op>:
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

/// What `Axes![..]` expands to when it holds a mistake (an axis out of range for every
/// shape, a negative axis that is not a literal), next to the `compile_error!` that
/// reports it: every operation accepts it (permute and reductions
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
    L: Len + ResolveAxes<S, op::permute>,
    LenOf<L>: PEq<LenOf<ListOf<S>>>,
    Blame<<LenOf<L> as PEq<LenOf<ListOf<S>>>>::Output, S>: PermuteRankOk<S, A>,
    LenOf<ListOf<S>>: ToDim,
    Resolved<L, S, op::permute>: AxesValid<S, A, Rank<S>, op::permute> + PickAxes<ListOf<S>>,
    <Resolved<L, S, op::permute> as PickAxes<ListOf<S>>>::Output: IntoShape,
{
    type Output = ShapeOf<<Resolved<L, S, op::permute> as PickAxes<ListOf<S>>>::Output>;
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
    L: ResolveAxes<S, Op>,
    ListOf<S>: Len + DropAxes<Resolved<L, S, Op>, Z, Keep>,
    LenOf<ListOf<S>>: ToDim,
    Resolved<L, S, Op>: AxesValid<S, A, Rank<S>, Op>,
    <ListOf<S> as DropAxes<Resolved<L, S, Op>, Z, Keep>>::Output: IntoShape,
{
    type Output = ShapeOf<<ListOf<S> as DropAxes<Resolved<L, S, Op>, Z, Keep>>::Output>;
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

#[cfg(test)]
mod tests {
    use super::{Permuted, Reduced, ReducedKeepdim};
    use crate::{Axes, Shape};

    fn same<A: 'static, B: 'static>() -> bool {
        std::any::TypeId::of::<A>() == std::any::TypeId::of::<B>()
    }

    #[test]
    fn negative_axes_count_from_the_end() {
        type X = Shape![2, 3, 4];
        assert!(same::<Reduced<X, Axes![-1]>, Shape![2, 3]>());
        assert!(same::<Reduced<X, Axes![-2, -1]>, Shape![2]>());
        assert!(same::<Reduced<X, Axes![0, -1]>, Shape![3]>());
        assert!(same::<ReducedKeepdim<X, Axes![-3]>, Shape![1, 3, 4]>());
        assert!(same::<Permuted<X, Axes![-1, 0, -2]>, Shape![4, 2, 3]>());
        assert!(same::<Reduced<Shape![5], Axes![-1]>, Shape![]>());
    }

    #[test]
    fn negative_axes_reach_the_runtime_as_written() {
        use super::AxisList;
        assert_eq!(<Axes![0, -1, -2]>::indices(), vec![0, -1, -2]);
    }

    #[test]
    fn reductions_over_negative_axes_match_positive_ones() {
        let x = crate::Tensor::<f32, Shape![2, 3, 4]>::randn(0);
        assert_eq!(
            x.mean::<Axes![-1]>().to_vec(),
            x.mean::<Axes![2]>().to_vec()
        );
        assert_eq!(
            x.var_keepdim::<Axes![-1]>(1).to_vec(),
            x.var_keepdim::<Axes![2]>(1).to_vec()
        );
        assert_eq!(
            x.sum::<Axes![-2, -1]>().to_vec(),
            x.sum::<Axes![1, 2]>().to_vec()
        );
        let p = x.permute::<Axes![-1, 0, -2]>().contiguous_copy();
        assert_eq!(
            p.to_vec(),
            x.permute::<Axes![2, 0, 1]>().contiguous_copy().to_vec()
        );
    }
}
