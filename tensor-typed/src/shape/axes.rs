//! `PermuteBy<A>` (PyTorch's `permute`) and `ReduceOver<A>` (reductions over axes) on
//! types. Axis lists are `Axes![..]` tuples of `Ax<I>` (axis `I`, counted from 0) and
//! `SDim<-I>` (counted from the end, as PyTorch's negative dims: `Axes![-1]`).
//!
//! Each op first resolves the negative axes against the rank of its shape
//! ([`ResolveAxes`], PyTorch's `maybe_wrap_dim`; out of range is the op's `Dimension out
//! of range` error). permute: as many axes as dims, each in range, none repeated; output
//! dim `j` is input dim `A[j]`. reduce: each axis in range and not repeated; the reduced
//! dims are removed (or set to `D<1>` with keepdim).

use crate::shape::check::check;
use crate::shape::dims::DimInRange;
use crate::shape::dims::{PosOf, RankOf, SDim, WrapDim};
use crate::shape::{Cons, IntoShape, ListOf, Nil, Shape, ShapeOf};
use crate::typelevel::dim::{Ax, Not, Pick, D};
use crate::typelevel::list::{ContainsAxis, GetAt, Len, LenOf};
use crate::typelevel::op;
use crate::typelevel::peano::{AxisPos, PEq, PLt, S as Succ, Z};
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

/// The verdict of an axis list that holds: every axis resolves, is in range and appears
/// once (and, for permute, there is one axis per dim). The other verdicts are
/// [`AxisOutOfRange`], [`AxisRepeated`], [`NegAxisOutOfRange`] and [`AxisCountDiffers`]:
/// the first mistake from the left, checked once by [`AxesVerdict`] (so an error names
/// the shape and the axes, not the lists the rules walk).
pub type AxesHold = B1;

/// The verdict of an axis list whose axis `K` is not less than the rank.
pub struct AxisOutOfRange<const K: usize>;
/// The verdict of an axis list in which axis `K` appears again later.
pub struct AxisRepeated<const K: usize>;
/// The verdict of an axis list whose negative axis `I` is beyond the rank.
pub struct NegAxisOutOfRange<const I: isize>;
/// The verdict of a permute whose axis list is not as long as the rank.
pub struct AxisCountDiffers;

/// A verdict ([`AxesHold`] or a mistake) that can be chained: the first mistake wins.
pub trait AxesVerdictOf {
    /// `V` when `Self` holds, else `Self`.
    type OrElse<V>;
}
impl AxesVerdictOf for B1 {
    type OrElse<V> = V;
}
impl<const K: usize> AxesVerdictOf for AxisOutOfRange<K> {
    type OrElse<V> = Self;
}
impl<const K: usize> AxesVerdictOf for AxisRepeated<K> {
    type OrElse<V> = Self;
}
impl<const I: isize> AxesVerdictOf for NegAxisOutOfRange<I> {
    type OrElse<V> = Self;
}
impl AxesVerdictOf for AxisCountDiffers {
    type OrElse<V> = Self;
}

/// The check of an axis verdict of op `Op` on shape `S` by the axis tuple `A`: a mistake
/// is that check's error (`AxisInRange`, `AxisUnique`, `DimInRange`, `PermuteRankOk`),
/// whose `Self` is the op or the shape.
pub trait AxesVerdict<Op, S, A> {
    /// `X` when the axes hold; no type otherwise (see `check!`).
    type Then<X>;
}
#[diagnostic::do_not_recommend]
impl<Op, S, A> AxesVerdict<Op, S, A> for B1 {
    type Then<X> = X;
}
impl<Op, S, A, const K: usize> AxesVerdict<Op, S, A> for AxisOutOfRange<K>
where
    Op: AxisInRange<Op, S, K>,
{
    type Then<X> = <Op as AxisInRange<Op, S, K>>::Then<X>;
}
impl<Op, S, A, const K: usize> AxesVerdict<Op, S, A> for AxisRepeated<K>
where
    Op: AxisUnique<Op, A, K>,
{
    type Then<X> = <Op as AxisUnique<Op, A, K>>::Then<X>;
}
impl<Op, S, A, const I: isize> AxesVerdict<Op, S, A> for NegAxisOutOfRange<I>
where
    S: DimInRange<Op, S, I>,
{
    type Then<X> = <S as DimInRange<Op, S, I>>::Then<X>;
}
impl<Op, S, A> AxesVerdict<Op, S, A> for AxisCountDiffers
where
    S: PermuteRankOk<S, A>,
{
    type Then<X> = <S as PermuteRankOk<S, A>>::Then<X>;
}

/// The axis list `Self` with each `SDim<-i>` replaced by the `Ax<k>` it names in shape
/// `S` (PyTorch's `maybe_wrap_dim`). Never fails: a negative axis beyond the rank is the
/// verdict [`NegAxisOutOfRange`] (and stands as `Ax<0>` in the list).
pub trait ResolveAxes<S> {
    /// The list of `Ax<k>`.
    type Output;
    /// [`AxesHold`] or the first [`NegAxisOutOfRange`] (an [`AxesVerdictOf`]).
    type Verdict;
}
impl<S> ResolveAxes<S> for Nil {
    type Output = Nil;
    type Verdict = B1;
}
impl<const K: usize, T: ResolveAxes<S>, S> ResolveAxes<S> for Cons<Ax<K>, T> {
    type Output = Cons<Ax<K>, T::Output>;
    type Verdict = T::Verdict;
}
impl<const I: isize, T: ResolveAxes<S>, S: Shape> ResolveAxes<S> for Cons<SDim<I>, T>
where
    SDim<I>: WrapDim<RankOf<S>>,
    PosOf<S, I>: PosAxis,
{
    type Output = Cons<<PosOf<S, I> as PosAxis>::Ax, T::Output>;
    type Verdict =
        <<SDim<I> as WrapDim<RankOf<S>>>::Ok as Pick>::Out<T::Verdict, NegAxisOutOfRange<I>>;
}
/// The list `L` resolved against shape `S`.
type Resolved<L, S> = <L as ResolveAxes<S>>::Output;

/// The verdict of the axis list `Self` (resolved) against a rank `R` (a Peano number):
/// each axis in range and not repeated later. Never fails.
pub trait CheckAxes<R> {
    /// [`AxesHold`], or the first [`AxisOutOfRange`] or [`AxisRepeated`].
    type Verdict;
}
impl<R> CheckAxes<R> for Nil {
    type Verdict = B1;
}
impl<const K: usize, T, R> CheckAxes<R> for Cons<Ax<K>, T>
where
    Ax<K>: AxisPos,
    Pos<K>: PLt<R>,
    T: ContainsAxis<Pos<K>> + CheckAxes<R>,
    <T as ContainsAxis<Pos<K>>>::Output: Not,
{
    type Verdict = <<Pos<K> as PLt<R>>::Output as Pick>::Out<
        <<<T as ContainsAxis<Pos<K>>>::Output as Not>::Output as Pick>::Out<
            T::Verdict,
            AxisRepeated<K>,
        >,
        AxisOutOfRange<K>,
    >;
}

/// The verdict of the (unresolved) axis list `L` on shape `S`: resolution first, then
/// range and repeats.
type VerdictOfAxes<L, S> = <<L as ResolveAxes<S>>::Verdict as AxesVerdictOf>::OrElse<
    <Resolved<L, S> as CheckAxes<RankOf<S>>>::Verdict,
>;

/// The Peano index of axis `K`.
type Pos<const K: usize> = <Ax<K> as AxisPos>::P;

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

/// The dims of shape `S` permuted by the axis list `Self`, and the verdict on the list.
/// Never fails (a mistake is the `Verdict`, checked by [`PermuteBy`]).
pub trait PermuteList<S> {
    /// The permuted dims (meaningless unless the verdict holds).
    type Output;
    /// [`AxesHold`] or the first mistake ([`AxisCountDiffers`] first).
    type Verdict;
}
impl<L: AxisCons, S: Shape> PermuteList<S> for L
where
    L: Len + ResolveAxes<S, Verdict: AxesVerdictOf>,
    LenOf<L>: PEq<RankOf<S>>,
    Resolved<L, S>: CheckAxes<RankOf<S>> + PickAxes<ListOf<S>>,
{
    type Output = <Resolved<L, S> as PickAxes<ListOf<S>>>::Output;
    type Verdict =
        <<LenOf<L> as PEq<RankOf<S>>>::Output as Pick>::Out<VerdictOfAxes<L, S>, AxisCountDiffers>;
}
impl<S: Shape, E> PermuteList<S> for AxesError<E> {
    type Output = ListOf<S>;
    type Verdict = B1;
}

/// `PermuteBy<A>`: the shape of `permute` by the axis list `A`.
pub trait PermuteBy<A: AxisList>: Shape {
    /// The permuted shape.
    type Output: Shape;
}
impl<S: Shape, A: AxisList> PermuteBy<A> for S
where
    A::List: PermuteList<S>,
    <A::List as PermuteList<S>>::Verdict: AxesVerdict<op::permute, S, A>,
    PermuteThen<S, A>: IntoShape,
{
    type Output = ShapeOf<PermuteThen<S, A>>;
}
/// The permuted dims of `S` by `A`, when the axes hold.
type PermuteThen<S, A> =
    <<<A as AxisList>::List as PermuteList<S>>::Verdict as AxesVerdict<op::permute, S, A>>::Then<
        <<A as AxisList>::List as PermuteList<S>>::Output,
    >;
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
    <A as ContainsAxis<J>>::Output: DropOne<H, <T as DropAxes<A, Succ<J>, Keep>>::Output, Keep>,
{
    type Output = <<A as ContainsAxis<J>>::Output as DropOne<
        H,
        <T as DropAxes<A, Succ<J>, Keep>>::Output,
        Keep,
    >>::Output;
}
/// One dim `H` of [`DropAxes`] before the remaining dims `R`, by whether its index is in
/// the axis list (`Self`): `B0` keeps it; `B1` drops it, or sets it to `D<1>` when `Keep`
/// is `B1` (one step for the trait solver where two `Select`s took four).
pub trait DropOne<H, R, Keep> {
    /// The dims.
    type Output;
}
impl<H, R, Keep> DropOne<H, R, Keep> for typenum::B0 {
    type Output = Cons<H, R>;
}
impl<H, R> DropOne<H, R, B1> for B1 {
    type Output = Cons<D<1>, R>;
}
impl<H, R> DropOne<H, R, typenum::B0> for B1 {
    type Output = R;
}

/// The dims of shape `S` reduced over the axis list `Self` (`Keep` as in
/// [`ReduceOver`]), and the verdict on the list. Never fails (a mistake is the
/// `Verdict`, checked by [`ReduceOver`]).
pub trait ReduceList<S, Keep> {
    /// The remaining dims (meaningless unless the verdict holds).
    type Output;
    /// [`AxesHold`] or the first mistake.
    type Verdict;
}
impl<L: AxisCons, S: Shape, Keep: KeepMode> ReduceList<S, Keep> for L
where
    L: ResolveAxes<S, Verdict: AxesVerdictOf>,
    ListOf<S>: DropAxes<Resolved<L, S>, Z, Keep::Bit>,
    Resolved<L, S>: CheckAxes<RankOf<S>>,
{
    type Output = <ListOf<S> as DropAxes<Resolved<L, S>, Z, Keep::Bit>>::Output;
    type Verdict = VerdictOfAxes<L, S>;
}
impl<S: Shape, Keep, E> ReduceList<S, Keep> for AxesError<E> {
    type Output = ListOf<S>;
    type Verdict = B1;
}

/// The `Keep` of [`ReduceOver`] for `keepdim=True`: the reduced dims stay as `D<1>`.
pub struct Keepdim;
/// The `Keep` of [`ReduceOver`] for `keepdim=False`: the reduced dims are removed.
pub struct NoKeepdim;

/// [`Keepdim`] or [`NoKeepdim`], as the bit the rules select with.
pub trait KeepMode {
    /// `B1` for [`Keepdim`], `B0` for [`NoKeepdim`].
    type Bit;
}
impl KeepMode for Keepdim {
    type Bit = B1;
}
impl KeepMode for NoKeepdim {
    type Bit = typenum::B0;
}

/// `ReduceOver<A, Keep, Op>`: the shape of the reduction `Op` (a marker of
/// [`crate::typelevel::op`], named in errors) over the axis list `A` (`Keep` is
/// [`Keepdim`] or [`NoKeepdim`]).
pub trait ReduceOver<A: AxisList, Keep, Op = op::sum>: Shape {
    /// The reduced shape.
    type Output: Shape;
}
impl<S: Shape, A: AxisList, Keep, Op> ReduceOver<A, Keep, Op> for S
where
    A::List: ReduceList<S, Keep>,
    <A::List as ReduceList<S, Keep>>::Verdict: AxesVerdict<Op, S, A>,
    ReduceThen<S, A, Keep, Op>: IntoShape,
{
    type Output = ShapeOf<ReduceThen<S, A, Keep, Op>>;
}
/// The remaining dims of `S` reduced over `A`, when the axes hold.
type ReduceThen<S, A, Keep, Op> =
    <<<A as AxisList>::List as ReduceList<S, Keep>>::Verdict as AxesVerdict<Op, S, A>>::Then<
        <<A as AxisList>::List as ReduceList<S, Keep>>::Output,
    >;
/// The shape of `S` reduced over `A` (`Reduced<Shape![2, 3], Axes![1]>` is
/// `Shape![2]`).
pub type Reduced<S, A, Op = op::sum> = <S as ReduceOver<A, NoKeepdim, Op>>::Output;
/// The shape of `S` reduced over `A` with keepdim (`Shape![2, 1]`).
pub type ReducedKeepdim<S, A, Op = op::sum> = <S as ReduceOver<A, Keepdim, Op>>::Output;

check! {
    /// Permuting `S` by `A`: as many axes as dims.
    #[diagnostic::on_unimplemented(
        message = "cannot permute {S} by {A}: the number of axes must equal the rank",
        label = "not a permutation of the tensor's dims"
    )]
    PermuteRankOk<S, A;>
}

check! {
    /// An axis `K` of the op `Op` on shape `S` is in range.
    #[diagnostic::on_unimplemented(
        message = "{Op}: axis {K} is out of range for shape {S}",
        label = "axes count from 0 and must be less than the rank"
    )]
    AxisInRange<Op, S; K>
}

check! {
    /// An axis `K` appears once in the axis list `A` of the op `Op`.
    #[diagnostic::on_unimplemented(
        message = "{Op}: axis {K} appears more than once in {A}",
        label = "each axis may appear only once"
    )]
    AxisUnique<Op, A; K>
}

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
        let x = crate::tensor::Tensor::<f32, Shape![2, 3, 4]>::randn(0);
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
