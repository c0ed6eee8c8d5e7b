//! Rules that change names. `RenameTo<T>`: `rename` changes the names of a shape's dims,
//! checked as `check_shape` on the sizes: both shapes must have the same rank and agree
//! on the size ([`SizeOf`](crate::typelevel::named::SizeOf)) of every dim static in both
//! (the run time checks the rest). `NamesAs<O>`: an annotation names a result's unnamed
//! static dims (`layout!`'s merges), at their sizes. (Not
//! `rename.rs`: a module named like the op marker `op::rename` would make rustc print the
//! marker with its path.)

use crate::shape::dims::RankOf;
use crate::shape::same::{SameVerdict, SameVerdictOf, SameZip};
use crate::shape::{Cons, ListOf, Nil, Shape};
use crate::typelevel::dim::{D, K};
use crate::typelevel::list::Len;
use crate::typelevel::named::NamedDim;
use crate::typelevel::op;
use crate::typelevel::peano::PEq;

/// `RenameTo<T>`: shape `Self` can be renamed `T`: the same rank, and every dim static
/// in both of the same size, whatever the names (`Shape![Batch, Seq, Model]` →
/// `Shape![Batch, Seq, Dyn]` or `Shape![Dyn, Dyn, 256]`). The dims are compared by size
/// ([`SameZip`] for `op::rename`); a mismatch names them as they are in the shapes
/// (`dim 2 is D<64> vs Hidden (D<128>)`).
pub trait RenameTo<T: Shape>: Shape {}
impl<S: Shape, T: Shape> RenameTo<T> for S
where
    RankOf<S>: PEq<RankOf<T>>,
    ListOf<S>: Len + SameZip<ListOf<T>, D<0>, op::rename>,
    ListOf<T>: Len,
    SameVerdictOf<S, T, op::rename>: SameVerdict<op::rename, S, T>,
{
}

/// One dim of a result annotated by the user (`layout!`'s output): the dim itself, or
/// an unnamed static dim named by the annotation (`D<256>` as `Model` of size `D<256>`:
/// a merge `(h d)` named `Model`).
pub trait NameAs<Y> {}
impl<X> NameAs<X> for X {}
impl<const N: usize, Y: NamedDim<Size = D<N>>> NameAs<Y> for D<N> {}
impl<H, L, Y: NamedDim<Size = K<H, L>>> NameAs<Y> for K<H, L> {}

/// [`NameAs`] dim by dim over two dim lists of the same length.
pub trait NamesAsList<Y> {}
impl NamesAsList<Nil> for Nil {}
impl<H1: NameAs<H2>, T1: NamesAsList<T2>, H2, T2> NamesAsList<Cons<H2, T2>> for Cons<H1, T1> {}

/// `NamesAs<O>`: shape `Self` may be used as `O`: the same dims, but for unnamed static
/// dims that `O` names (at their size).
pub trait NamesAs<O: Shape>: Shape {}
impl<X: Shape, O: Shape> NamesAs<O> for X where ListOf<X>: NamesAsList<ListOf<O>> {}
