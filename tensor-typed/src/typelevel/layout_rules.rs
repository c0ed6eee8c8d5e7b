//! The static rules of `layout!` (for the checks, see [`crate::typelevel::checks`]): each a trait implemented only where the check holds,
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
use crate::typelevel::arith::DimDiv;
use crate::typelevel::checks::{Blame, SizeEq, SplitOk};
use crate::typelevel::dim::{Dim, DimEq, Dyn, Pick, StaticDim};
use crate::typelevel::named::{DimName, Named};

/// Dim `I` of the input (`Self`) has the size `Rhs` the pattern gives it: equal static
/// sizes, or `Self` is `Dyn` (checked at run time).
pub trait DimIs<Op, const I: usize, Rhs> {}
impl<Op, A: StaticDim + DimEq<B>, B, const I: usize> DimIs<Op, I, B> for A
where
    <A as DimEq<B>>::Output: Pick,
    Blame<<A as DimEq<B>>::Output, A>: SizeEq<Op, A, B, I>,
{
}
// Not listed as an alternative in errors (it says nothing about a static dim).
#[diagnostic::do_not_recommend]
impl<Op, B, const I: usize> DimIs<Op, I, B> for Dyn {}
// A named run-time dim: its size at run time, its name now (a size given by another
// name is a compile error).
#[diagnostic::do_not_recommend]
impl<Op, N: DimName, B, const I: usize> DimIs<Op, I, B> for Named<N, Dyn>
where
    Self: DimEq<B, Output: Pick>,
    Blame<<Self as DimEq<B>>::Output, Self>: SizeEq<Op, Self, B, I>,
{
}

/// Dim `I` of the input (`Self`) split into chunks of `Rhs`: the number of chunks, a
/// compile error when a static `Rhs` does not divide a static `Self`; `Dyn` if either
/// is `Dyn` (checked at run time).
pub trait SplitDim<Op, const I: usize, Rhs> {
    /// The number of chunks.
    type Output: Dim;
}
impl<Op, A: StaticDim + DimDiv<B>, B, const I: usize> SplitDim<Op, I, B> for A
where
    Blame<<A as DimDiv<B>>::Ok, A>: SplitOk<Op, A, B, I>,
    <Blame<<A as DimDiv<B>>::Ok, A> as SplitOk<Op, A, B, I>>::Then<<A as DimDiv<B>>::Output>: Dim,
{
    // Through the check's projection: an inexact split has no output type at all, so
    // the use of the result adds no second error.
    type Output =
        <Blame<<A as DimDiv<B>>::Ok, A> as SplitOk<Op, A, B, I>>::Then<<A as DimDiv<B>>::Output>;
}
// Not listed as an alternative in errors (it says nothing about a static dim).
#[diagnostic::do_not_recommend]
impl<Op, X: Dim, const I: usize> SplitDim<Op, I, X> for Dyn {
    type Output = Dyn;
}
#[diagnostic::do_not_recommend]
impl<Op, N: DimName, X: Dim, const I: usize> SplitDim<Op, I, X> for Named<N, Dyn> {
    type Output = Dyn;
}

/// The chunks of dim `I` (`X`) split by `B`, for the op `Op`.
pub type Chunks<Op, const I: usize, X, B> = <X as SplitDim<Op, I, B>>::Output;
