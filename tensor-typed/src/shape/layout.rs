//! The static rules of `layout!` (their failures are the check traits below): each a trait implemented only where the check holds,
//! whose `#[diagnostic::on_unimplemented]` names the operation (the marker `Op`:
//! [`op::rearrange`](crate::op::rearrange), [`op::repeat`](crate::op::repeat) or [`op::reduce`](crate::op::reduce)) and prints the dims in decimal (the dim index
//! is a const generic, sizes are static dims: `D<6>`, `K<D<50>, D<257>>`).
//!
//! * `DimIs<Op, I, B>` for dim `I` of the input, when the pattern knows its size `B`:
//!   a static dim must equal it; `Dyn` is checked at run time.
//! * `SplitDim<Op, I, B>` for dim `I` split into a group with one unknown axis:
//!   `Output` = the exact quotient ([`crate::typelevel::arith::DimDiv`]), a compile
//!   error when `B` does not divide it; `Dyn` if either is `Dyn`. `Chunks<Op, I, X, B>`
//!   is its output.
use crate::shape::check::check;
use crate::shape::check::Blame;
use crate::shape::mismatch::{
    DimVsName, Mismatched, NameVsDim, NamesDiffer, ThenDiffer, ThenUnnamed,
};
use crate::typelevel::arith::DimDiv;
use crate::typelevel::dim::{Dim, DimEq, Dyn, StaticDim, D, K};
use crate::typelevel::named::{IsNamed, NamedDim, SizeOf};
use std::marker::PhantomData;
use typenum::B1;

/// Dim `I` of the input (`Self`) has the size `Rhs` the pattern gives it: equal static
/// sizes, or `Self` is `Dyn` (checked at run time); a named dim also by name.
pub trait DimIs<Op, const I: usize, Rhs> {}
// One impl for every dim, through [`DimEq`] (a `Dyn` unifies with any size; a named
// dim only with its own name or an unnamed size), so that a failure is reported as the
// check's message. Two bounds: a mismatch of unnamed dims fails the first (`SizeEq` of
// the op), one of named dims the second (the check for names, which prints their sizes);
// each holds on the other's mismatch (see [`ThenUnnamed`]).
impl<Op, A, B, const I: usize> DimIs<Op, I, B> for A
where
    A: DimEq<B, Output: ThenUnnamed<Op, SizeDiffers<A, B, D<I>>>>,
    <A as DimEq<B>>::Output: ThenDiffer<SizeDiffers<A, B, D<I>>>,
    <<A as DimEq<B>>::Output as ThenUnnamed<Op, SizeDiffers<A, B, D<I>>>>::Verdict:
        SizeEq<Op, A, B, I>,
    <<A as DimEq<B>>::Output as ThenDiffer<SizeDiffers<A, B, D<I>>>>::Verdict<B1>:
        NamedSizeEq<Op, A, B, I>,
{
}

/// The mismatch of dim `I` of the input, `A`, and the pattern's `B` (`P` is `D<I>`), as
/// [`Mismatched`] reads it.
pub struct SizeDiffers<A, B, P>(PhantomData<(A, B, P)>);
impl<A: IsNamed, B: IsNamed, P> Mismatched for SizeDiffers<A, B, P> {
    type A = A;
    type B = B;
    type At = P;
}

/// The second bound of [`DimIs`]: holds on `B1` and on a mismatch of unnamed dims
/// ([`SizeDiffers`], the first bound's error); a mismatch of named dims
/// ([`NamesDiffer`], [`NameVsDim`], [`DimVsName`]) is the error of the check for names
/// (`SizeEqNamesOk`, ..), which prints each name's size beside it.
pub trait NamedSizeEq<Op, A, B, const I: usize> {}
#[diagnostic::do_not_recommend]
impl<Op, A, B, const I: usize> NamedSizeEq<Op, A, B, I> for B1 {}
#[diagnostic::do_not_recommend]
impl<Op, A, B, P, const I: usize> NamedSizeEq<Op, A, B, I> for SizeDiffers<A, B, P> {}
impl<Op, A: NamedDim, B: NamedDim, const I: usize> NamedSizeEq<Op, A, B, I>
    for NamesDiffer<A, B, D<I>>
where
    Op: SizeEqNamesOk<Op, A, A::Size, B, B::Size, I>,
{
}
impl<Op, A: NamedDim, B, const I: usize> NamedSizeEq<Op, A, B, I> for NameVsDim<A, B, D<I>> where
    Op: SizeEqNameDimOk<Op, A, A::Size, B, I>
{
}
impl<Op, A, B: NamedDim, const I: usize> NamedSizeEq<Op, A, B, I> for DimVsName<A, B, D<I>> where
    Op: SizeEqDimNameOk<Op, A, B, B::Size, I>
{
}

/// A dim type `X` given as the size of one axis of a group (`(h d)` with `d = HeadDim`):
/// a static one (a run-time name would name an axis whose size nothing checks). Asked of
/// the input's shape (`Self`): a bound that names it waits for the input's type (a bound
/// on the dim type alone would be checked, and fail, where `layout!`'s impl is written),
/// and a failure's `Self` is a shape, not the user's struct (whose definition rustc would
/// show under the error).
#[diagnostic::on_unimplemented(
    message = "layout!({Op}): `{X}` is a run-time name and cannot size one axis of a group",
    label = "nothing would check the size of that axis",
    note = "give the axis a static name or a number, or split by the other axes of the group"
)]
pub trait GroupSize<Op, X> {}
#[diagnostic::do_not_recommend]
impl<Op, S, X: NamedDim> GroupSize<Op, X> for S where X::Size: StaticDim {}
#[diagnostic::do_not_recommend]
impl<Op, S, const N: usize> GroupSize<Op, D<N>> for S {}
#[diagnostic::do_not_recommend]
impl<Op, S, H, L> GroupSize<Op, K<H, L>> for S {}

/// Dim `I` of the input (`Self`) split into chunks of `Rhs`: the number of chunks, a
/// compile error when a static `Rhs` does not divide a static `Self`; `Dyn` if either
/// is `Dyn` (checked at run time).
pub trait SplitDim<Op, const I: usize, Rhs> {
    /// The number of chunks.
    type Output: Dim;
}
// A static dim (the size of a name too: `layout!` asks the size, see [`Chunks`]): one
// blanket impl, so that rustc lists no impl beside a failed split. Through the check's
// projection: an inexact split has no output type at all, so the use of the result adds
// no second error.
impl<Op, A: StaticDim + DimDiv<B>, B, const I: usize> SplitDim<Op, I, B> for A
where
    Blame<<A as DimDiv<B>>::Ok, A>: SplitOk<Op, A, B, I>,
    <Blame<<A as DimDiv<B>>::Ok, A> as SplitOk<Op, A, B, I>>::Then<<A as DimDiv<B>>::Output>: Dim,
{
    type Output =
        <Blame<<A as DimDiv<B>>::Ok, A> as SplitOk<Op, A, B, I>>::Then<<A as DimDiv<B>>::Output>;
}
// Not listed as an alternative in errors (it says nothing about a static dim).
#[diagnostic::do_not_recommend]
impl<Op, X: Dim, const I: usize> SplitDim<Op, I, X> for Dyn {
    type Output = Dyn;
}

/// The chunks of dim `I` (`X`) split by `B`, for the op `Op`: a split of its size
/// ([`SizeOf`]: a name splits as its size, and the chunks are unnamed). `layout!` states
/// the bound the same way (`<X as SizeOf>::Unnamed: SplitDim<..>`): the one blanket impl
/// over static dims (which keeps a failed split reported as [`SplitOk`]'s message) leaves
/// no room for an impl over names, which would overlap it.
pub type Chunks<Op, const I: usize, X, B> = <<X as SizeOf>::Unnamed as SplitDim<Op, I, B>>::Output;

/// Holds (on `B1`) when dim `I` of the input, `A`, equals the pattern's `B` (a failure's
/// `Self` is the op marker `Op`).
#[diagnostic::on_unimplemented(
    message = "layout!({Op}): Shape mismatch, {A} != {B}: dim {I} of the input has size {A}, but the pattern needs {B}",
    label = "dim {I} is {A}, the pattern needs {B}"
)]
pub trait SizeEq<Op, A, B, const I: usize> {}
#[diagnostic::do_not_recommend]
impl<Op, A, B, const I: usize> SizeEq<Op, A, B, I> for B1 {}

check! {
    /// [`SizeEq`] of two names `A` and `B`, of sizes `SA` and `SB`.
    #[diagnostic::on_unimplemented(
        message = "layout!({Op}): Shape mismatch, {A} ({SA}) != {B} ({SB}): dim {I} of the input is {A}, but the pattern needs {B}",
        label = "dim {I} is {A}, the pattern needs {B}"
    )]
    SizeEqNamesOk<Op, A, SA, B, SB; I>
}

check! {
    /// [`SizeEq`] of the name `A` of size `SA` and the unnamed dim `B`.
    #[diagnostic::on_unimplemented(
        message = "layout!({Op}): Shape mismatch, {A} ({SA}) != {B}: dim {I} of the input has size {SA}, but the pattern needs {B}",
        label = "dim {I} is {A}, the pattern needs {B}"
    )]
    SizeEqNameDimOk<Op, A, SA, B; I>
}

check! {
    /// [`SizeEq`] of the unnamed dim `A` and the name `B` of size `SB`.
    #[diagnostic::on_unimplemented(
        message = "layout!({Op}): Shape mismatch, {A} != {B} ({SB}): dim {I} of the input has size {A}, but the pattern needs {SB}",
        label = "dim {I} is {A}, the pattern needs {B}"
    )]
    SizeEqDimNameOk<Op, A, B, SB; I>
}

/// Holds (on `B1`) when `B` divides dim `I` of the input, `A` (a failure's `Self` is
/// `A`, a size: a name splits as its size).
#[diagnostic::on_unimplemented(
    message = "layout!({Op}): Shape mismatch, can't divide axis of length {A} in chunks of {B} (dim {I} of the input)",
    label = "dim {I} is {A}, not a multiple of {B}"
)]
pub trait SplitOk<Op, A, B, const I: usize> {
    /// `X` when the split is exact (see `check!`).
    type Then<X>;
}
#[diagnostic::do_not_recommend]
impl<Op, A, B, const I: usize> SplitOk<Op, A, B, I> for B1 {
    type Then<X> = X;
}
