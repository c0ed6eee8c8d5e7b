//! `ExpandTo<T>` (PyTorch's `expand`) and `RepeatBy<R>` (`repeat`) on types.
//!
//! expand: the target has at least as many dims; aligned at the right, each static dim
//! must equal the target or be 1; a `Dyn` target dim keeps the tensor's size (`-1`);
//! new leading dims must be static. repeat: at least as many repeat counts as dims,
//! all static; output dim = dim × count (`Dyn` stays `Dyn`); extra leading counts become
//! new dims. (repeat is lowered to the runtime's reshape → expand → reshape.)
//!
//! Both walk their (reversed) dim lists without failing: the first mistake from the right
//! is a verdict type, checked once by [`ExpandTo`] / [`RepeatBy`], so an error names
//! the shapes and the dims, not the lists the rules walk.

use crate::shape::check::check;
use crate::shape::mismatch::{DimVsName, Mismatched, NameVsDim, NamesDiffer, ThenDiffer};
use crate::shape::{Cons, IntoShape, ListOf, Nil, Shape, ShapeOf};
use crate::typelevel::arith::DimMul;
use crate::typelevel::dim::{Bool, DimEq, Dyn, IsOne, Or, Pick, D, K};
use crate::typelevel::list::{Len, LenOf, Pred, Rev, ReverseAcc};
use crate::typelevel::named::{IsNamed, NamedDim};
use crate::typelevel::peano::ToDim;
use std::marker::PhantomData;
use typenum::{B0, B1};

/// The verdict of an expand whose target has fewer dims than the tensor.
pub struct ExpandFewerDims;
/// The verdict of an expand whose target has a new leading `Dyn` dim.
pub struct ExpandNewLeadingDyn;
/// The verdict of an expand whose tensor dim `A` cannot become the target dim `B` at
/// target index `P` (a `D<i>`).
pub struct ExpandDimDiffers<A, B, P>(PhantomData<(A, B, P)>);
impl<A: IsNamed, B: IsNamed, P> Mismatched for ExpandDimDiffers<A, B, P> {
    type A = A;
    type B = B;
    type At = P;
}

/// Whether one dim of an expand holds: tensor dim `Self` to target dim `T`.
pub trait ExpandAt<T> {
    /// `B1` when `Self` unifies with `T` ([`DimEq`]: names compared, a `Dyn` unifies)
    /// or is an unnamed 1.
    type Ok: Bool;
}
// One impl for every dim: a `Dyn` unifies with anything, a name is never 1.
impl<A: DimEq<B> + IsOne, B> ExpandAt<B> for A
where
    <A as DimEq<B>>::Output: Or<<A as IsOne>::Output>,
{
    type Ok = <<A as DimEq<B>>::Output as Or<<A as IsOne>::Output>>::Output;
}

/// The verdict of the new leading dims `Self` of an expand target: each must be static.
pub trait LeadingVerdict {
    /// `B1` or [`ExpandNewLeadingDyn`].
    type Verdict;
}
impl LeadingVerdict for Nil {
    type Verdict = B1;
}
impl<const N: usize, T: LeadingVerdict> LeadingVerdict for Cons<D<N>, T> {
    type Verdict = T::Verdict;
}
impl<H, L, T: LeadingVerdict> LeadingVerdict for Cons<K<H, L>, T> {
    type Verdict = T::Verdict;
}
impl<T> LeadingVerdict for Cons<Dyn, T> {
    type Verdict = ExpandNewLeadingDyn;
}
/// A name as its size: a run-time name is a new leading `Dyn`.
impl<X: NamedDim, T> LeadingVerdict for Cons<X, T>
where
    X::Size: LeadingAfter<T>,
{
    type Verdict = <X::Size as LeadingAfter<T>>::Verdict;
}
/// [`LeadingVerdict`] of new leading dims whose head has the size `Self` (a name's) and
/// whose tail is `T` (asked of the size, as `AllStaticAfter`).
pub trait LeadingAfter<T> {
    /// `B1` or [`ExpandNewLeadingDyn`].
    type Verdict;
}
impl<const N: usize, T: LeadingVerdict> LeadingAfter<T> for D<N> {
    type Verdict = T::Verdict;
}
impl<H, L, T: LeadingVerdict> LeadingAfter<T> for K<H, L> {
    type Verdict = T::Verdict;
}
impl<T> LeadingAfter<T> for Dyn {
    type Verdict = ExpandNewLeadingDyn;
}

/// Expand over reversed lists (`Self` the tensor's, `T` the target's); `I` is 1 + the
/// target index of the heads (a `D<i>`). Never fails: a mistake is the `Verdict`.
pub trait ExpandZip<T, I> {
    /// `B1`, or the first mistake from the right.
    type Verdict;
}
impl<I> ExpandZip<Nil, I> for Nil {
    type Verdict = B1;
}
impl<H, T, I> ExpandZip<Cons<H, T>, I> for Nil
where
    Cons<H, T>: LeadingVerdict,
{
    type Verdict = <Cons<H, T> as LeadingVerdict>::Verdict;
}
impl<H, T, I> ExpandZip<Nil, I> for Cons<H, T> {
    type Verdict = ExpandFewerDims;
}
impl<H1, T1, H2, T2, I> ExpandZip<Cons<H2, T2>, I> for Cons<H1, T1>
where
    I: Pred,
    H1: ExpandAt<H2>,
    T1: ExpandZip<T2, I::Output>,
    <H1 as ExpandAt<H2>>::Ok: ThenDiffer<ExpandDimDiffers<H1, H2, I::Output>>,
{
    type Verdict =
        <<H1 as ExpandAt<H2>>::Ok as ThenDiffer<ExpandDimDiffers<H1, H2, I::Output>>>::Verdict<
            <T1 as ExpandZip<T2, I::Output>>::Verdict,
        >;
}

/// The check of an expand verdict from `S` to `Tgt`: a mistake is that check's error (for
/// a named dim, [`NamesDiffer`] and the others, the check for names, `ExpandNamesOk`, ..).
pub trait ExpandVerdict<S, Tgt> {}
#[diagnostic::do_not_recommend]
impl<S, Tgt> ExpandVerdict<S, Tgt> for B1 {}
// The failed check blames the target: rustc reports a failure whose `Self` is the root
// bound's `Self` (`S: ExpandTo<..>`) as that bound, without this check's message.
impl<S, Tgt> ExpandVerdict<S, Tgt> for ExpandFewerDims where Tgt: ExpandRankOk<S, Tgt> {}
impl<S, Tgt> ExpandVerdict<S, Tgt> for ExpandNewLeadingDyn where Dyn: ExpandLeadingOk<S, Tgt> {}
impl<S, Tgt, A, B, const I: usize> ExpandVerdict<S, Tgt> for ExpandDimDiffers<A, B, D<I>> where
    Tgt: ExpandOk<S, Tgt, A, B, I>
{
}
impl<S, Tgt, A: NamedDim, B: NamedDim, const I: usize> ExpandVerdict<S, Tgt>
    for NamesDiffer<A, B, D<I>>
where
    Tgt: ExpandNamesOk<S, Tgt, A, A::Size, B, B::Size, I>,
{
}
impl<S, Tgt, A: NamedDim, B, const I: usize> ExpandVerdict<S, Tgt> for NameVsDim<A, B, D<I>> where
    Tgt: ExpandNameDimOk<S, Tgt, A, A::Size, B, I>
{
}
impl<S, Tgt, A, B: NamedDim, const I: usize> ExpandVerdict<S, Tgt> for DimVsName<A, B, D<I>> where
    Tgt: ExpandDimNameOk<S, Tgt, A, B, B::Size, I>
{
}

/// The verdict of expanding shape `S` to `T`.
type ExpandVerdictOf<S, T> =
    <Rev<ListOf<S>> as ExpandZip<Rev<ListOf<T>>, <LenOf<ListOf<T>> as ToDim>::Dim>>::Verdict;

/// `ExpandTo<T>`: shape `Self` can be expanded to `T` (PyTorch's `expand`).
pub trait ExpandTo<T: Shape>: Shape {}
impl<S: Shape, T: Shape> ExpandTo<T> for S
where
    ListOf<S>: ReverseAcc<Nil>,
    ListOf<T>: ReverseAcc<Nil> + Len,
    LenOf<ListOf<T>>: ToDim,
    Rev<ListOf<S>>: ExpandZip<Rev<ListOf<T>>, <LenOf<ListOf<T>> as ToDim>::Dim>,
    ExpandVerdictOf<S, T>: ExpandVerdict<S, T>,
{
}

/// The verdict of a repeat with fewer counts than dims.
pub struct RepeatFewerCounts;
/// The verdict of a repeat with a `Dyn` count.
pub struct RepeatDynCount;

/// One dim of a repeat: dim `Self` times count `R`. Never fails: a `Dyn` count gives
/// `Ok = B0`.
pub trait RepeatAt<R> {
    /// The repeated dim.
    type Output;
    /// `B1` when the count is static.
    type Ok: Bool;
}
impl<X: DimMul<D<B>>, const B: usize> RepeatAt<D<B>> for X {
    type Output = <X as DimMul<D<B>>>::Output;
    type Ok = B1;
}
impl<X: DimMul<K<H, L>>, H, L> RepeatAt<K<H, L>> for X {
    type Output = <X as DimMul<K<H, L>>>::Output;
    type Ok = B1;
}
impl<X> RepeatAt<Dyn> for X {
    type Output = Dyn;
    type Ok = B0;
}
// A named count repeats by its size (the product is unnamed).
impl<X, Y: NamedDim> RepeatAt<Y> for X
where
    Y::Size: RepeatBySize<X>,
{
    type Output = <Y::Size as RepeatBySize<X>>::Output;
    type Ok = <Y::Size as RepeatBySize<X>>::Ok;
}
/// [`RepeatAt`] of dim `X` by a name of size `Self`: the product, or `Dyn` with `Ok = B0`
/// for a run-time name. (Asked of the size: `X: RepeatAt<Y::Size>`, with the count not
/// yet inferred, would nest projections without end.)
pub trait RepeatBySize<X> {
    /// The repeated dim.
    type Output;
    /// `B1` when the count is static.
    type Ok: Bool;
}
impl<X: DimMul<D<B>>, const B: usize> RepeatBySize<X> for D<B> {
    type Output = <X as DimMul<D<B>>>::Output;
    type Ok = B1;
}
impl<X: DimMul<K<H, L>>, H, L> RepeatBySize<X> for K<H, L> {
    type Output = <X as DimMul<K<H, L>>>::Output;
    type Ok = B1;
}
impl<X> RepeatBySize<X> for Dyn {
    type Output = Dyn;
    type Ok = B0;
}

/// Repeat over reversed lists (`Self` the dims, `R` the counts). Never fails: a mistake
/// is the `Verdict`.
pub trait RepeatZip<R> {
    /// The reversed output list (meaningless unless the verdict holds).
    type Output;
    /// `B1`, or the first mistake from the right.
    type Verdict;
}
impl RepeatZip<Nil> for Nil {
    type Output = Nil;
    type Verdict = B1;
}
impl<H, T> RepeatZip<Cons<H, T>> for Nil
where
    D<1>: RepeatAt<H>,
    Nil: RepeatZip<T>,
{
    type Output = Cons<<D<1> as RepeatAt<H>>::Output, <Nil as RepeatZip<T>>::Output>;
    type Verdict =
        <<D<1> as RepeatAt<H>>::Ok as Pick>::Out<<Nil as RepeatZip<T>>::Verdict, RepeatDynCount>;
}
impl<H, T> RepeatZip<Nil> for Cons<H, T> {
    type Output = Nil;
    type Verdict = RepeatFewerCounts;
}
impl<H1, T1, H2, T2> RepeatZip<Cons<H2, T2>> for Cons<H1, T1>
where
    H1: RepeatAt<H2>,
    T1: RepeatZip<T2>,
{
    type Output = Cons<H1::Output, T1::Output>;
    type Verdict = <<H1 as RepeatAt<H2>>::Ok as Pick>::Out<T1::Verdict, RepeatDynCount>;
}

/// The check of a repeat verdict of `S` by `Rep`: `Then<X>` is `X` when it holds.
pub trait RepeatVerdict<S, Rep> {
    /// `X` when the repeat holds; no type otherwise.
    type Then<X>;
}
#[diagnostic::do_not_recommend]
impl<S, Rep> RepeatVerdict<S, Rep> for B1 {
    type Then<X> = X;
}
impl<S, Rep> RepeatVerdict<S, Rep> for RepeatFewerCounts
where
    S: RepeatRankOk<S, Rep>,
{
    type Then<X> = <S as RepeatRankOk<S, Rep>>::Then<X>;
}
impl<S, Rep> RepeatVerdict<S, Rep> for RepeatDynCount
where
    Dyn: RepeatCountOk<S, Rep>,
{
    type Then<X> = <Dyn as RepeatCountOk<S, Rep>>::Then<X>;
}

/// The zip of `S`'s dims with `R`'s counts.
type RepeatOf<S, R> = <Rev<ListOf<S>> as RepeatZip<Rev<ListOf<R>>>>::Output;
/// The verdict of repeating `S` by `R`.
type RepeatVerdictOf<S, R> = <Rev<ListOf<S>> as RepeatZip<Rev<ListOf<R>>>>::Verdict;
/// The repeated dims, when the repeat holds.
type RepeatThen<S, R> = <RepeatVerdictOf<S, R> as RepeatVerdict<S, R>>::Then<RepeatOf<S, R>>;

/// `RepeatBy<R>`: the shape of `repeat` by the counts `R` (PyTorch's `repeat`).
pub trait RepeatBy<R: Shape>: Shape {
    /// The repeated shape.
    type Output: Shape;
}
impl<S: Shape, R: Shape> RepeatBy<R> for S
where
    ListOf<S>: ReverseAcc<Nil>,
    ListOf<R>: ReverseAcc<Nil>,
    Rev<ListOf<S>>: RepeatZip<Rev<ListOf<R>>>,
    RepeatVerdictOf<S, R>: RepeatVerdict<S, R>,
    RepeatThen<S, R>: ReverseAcc<Nil>,
    Rev<RepeatThen<S, R>>: IntoShape,
{
    type Output = ShapeOf<Rev<RepeatThen<S, R>>>;
}
/// The shape of `S` repeated by `R` (`Repeated<Shape![2, 3], Shape![2, 1, 2]>` is
/// `Shape![2, 2, 6]`).
pub type Repeated<S, R> = <S as RepeatBy<R>>::Output;

check! {
    /// Expanding `S` to `T`: target dim `I` is `B` where the tensor has `A`.
    #[diagnostic::on_unimplemented(
        message = "cannot expand {S} to {T}: dim {I} is {A} and the target is {B}",
        label = "expand can only change dims of size 1",
        note = "the expanded size must match the existing size at a non-singleton dimension"
    )]
    ExpandOk<S, T, A, B; I>
}

check! {
    /// [`ExpandOk`] of the name `A` of size `SA` to the name `B` of size `SB`.
    #[diagnostic::on_unimplemented(
        message = "cannot expand {S} to {T}: dim {I} is {A} ({SA}) and the target is {B} ({SB})",
        label = "expand can only change dims of size 1",
        note = "a named dim is never the 1 that expand grows; it expands only to its own name, an unnamed dim of its size, or `Dyn`"
    )]
    ExpandNamesOk<S, T, A, SA, B, SB; I>
}

check! {
    /// [`ExpandOk`] of the name `A` of size `SA` to the unnamed dim `B`.
    #[diagnostic::on_unimplemented(
        message = "cannot expand {S} to {T}: dim {I} is {A} ({SA}) and the target is {B}",
        label = "expand can only change dims of size 1",
        note = "a named dim is never the 1 that expand grows; it expands only to its own name, an unnamed dim of its size, or `Dyn`"
    )]
    ExpandNameDimOk<S, T, A, SA, B; I>
}

check! {
    /// [`ExpandOk`] of the unnamed dim `A` to the name `B` of size `SB`.
    #[diagnostic::on_unimplemented(
        message = "cannot expand {S} to {T}: dim {I} is {A} and the target is {B} ({SB})",
        label = "expand can only change dims of size 1",
        note = "the expanded size must match the existing size at a non-singleton dimension"
    )]
    ExpandDimNameOk<S, T, A, B, SB; I>
}

check! {
    /// Expanding `S` to `Tgt`: the target has at least as many dims (the `Self` of a
    /// failure is `Tgt`).
    #[diagnostic::on_unimplemented(
        message = "cannot expand {S} to {Tgt}: the target has fewer dims than the tensor",
        label = "expand cannot remove dims",
        note = "the target shape needs at least as many dims as the tensor (new dims are added in front)"
    )]
    ExpandRankOk<S, Tgt;>
}

check! {
    /// Expanding `S` to `Tgt`: each new leading dim is static (the `Self` of
    /// a failure is `Dyn`).
    #[diagnostic::on_unimplemented(
        message = "cannot expand {S} to {Tgt}: a new leading dim must be static, found `Dyn`",
        label = "the size of a new leading dim cannot be inferred"
    )]
    ExpandLeadingOk<S, Tgt;>
}

check! {
    /// Repeating `S` by `R`: at least as many counts as dims (the `Self` of
    /// a failure is `S`).
    #[diagnostic::on_unimplemented(
        message = "cannot repeat {S} by {R}: the number of repeat dims can not be smaller than the number of dims of the tensor",
        label = "give one repeat count per dim (or more)"
    )]
    RepeatRankOk<S, R;>
}

check! {
    /// Repeating `S` by `R`: every count is static (the `Self` of a failure
    /// is `Dyn`).
    #[diagnostic::on_unimplemented(
        message = "repeat: repeat counts must be static dims, found Dyn in {R}",
        label = "write the repeat counts as numbers in Shape![..]"
    )]
    RepeatCountOk<S, R;>
}
