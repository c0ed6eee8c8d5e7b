//! Rules that change names. `RenameTo<T>`: `rename` changes the names of a shape's dims,
//! checked as `check_shape` on the sizes: both shapes must have the same rank and agree
//! on the size ([`SizeOf`](crate::typelevel::named::SizeOf)) of every dim static in both
//! (the run time checks the rest). [`NamesAs`], [`NamedAs`] and [`Later`]: an annotation
//! of a `layout!` result names its unnamed static dims (merges) at their sizes, and a
//! wrong one prints the first dim that differs, with the names' sizes. (Not
//! `rename.rs`: a module named like the op marker `op::rename` would make rustc print the
//! marker with its path.)

use crate::shape::check::check;
use crate::shape::dims::RankOf;
use crate::shape::mismatch::{DimVsName, NameVsDim, NamesDiffer};
use crate::shape::same::{DimsDiffer, RanksDiffer, SameAt, SameVerdict, SameVerdictOf, SameZip};
use crate::shape::{ListOf, Shape};
use crate::typelevel::dim::{Bool, DimEq, Dyn, D, K};
use crate::typelevel::list::Len;
use crate::typelevel::named::{IdRel, NameVerdict, NamedDim, UnnamedAs};
use crate::typelevel::op;
use crate::typelevel::peano::PEq;
use typenum::{B0, B1};

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

/// The walk of [`SameZip`] that compares a result's dims (`layout!`'s output, `Self`)
/// with the user's annotation: a dim matches itself, and an unnamed static dim also
/// matches a name of its size (a merge `(h d)` annotated `Model`). Nothing else: `Dyn`
/// only matches `Dyn`, a name only itself. Total over the dim kinds (`D`, `K`, `Dyn`, a
/// name), so a mismatch is a verdict ([`NamesAs`], [`Later`]), not a failed bound.
pub struct AsAnnotated;

/// Whether an annotation's dim (`Self`) may name the unnamed static dim `X`: `X` itself
/// (by [`DimEq`]), or a name of size `X`.
pub trait NamesStatic<X> {
    /// `B1` or `B0`.
    type Ok: Bool;
}
impl<X, const M: usize> NamesStatic<X> for D<M>
where
    X: DimEq<D<M>, Output: Bool>,
{
    type Ok = <X as DimEq<D<M>>>::Output;
}
impl<X, H, L> NamesStatic<X> for K<H, L>
where
    X: DimEq<K<H, L>, Output: Bool>,
{
    type Ok = <X as DimEq<K<H, L>>>::Output;
}
impl<X> NamesStatic<X> for Dyn {
    type Ok = B0;
}
impl<X, Y: NamedDim<Size: NamesStatic<X>>> NamesStatic<X> for Y {
    type Ok = <Y::Size as NamesStatic<X>>::Ok;
}

/// Whether an annotation's dim (`Self`) is `Dyn`.
pub trait IsDyn {
    /// `B1` or `B0`.
    type Ok: Bool;
}
impl<const M: usize> IsDyn for D<M> {
    type Ok = B0;
}
impl<H, L> IsDyn for K<H, L> {
    type Ok = B0;
}
impl IsDyn for Dyn {
    type Ok = B1;
}
impl<Y: NamedDim> IsDyn for Y {
    type Ok = B0;
}

/// Whether an annotation's dim (`Self`) is the name `X` (equal [`NamedDim::Id`]s).
pub trait IsName<X> {
    /// `B1` or `B0`.
    type Ok: Bool;
}
/// An unnamed static annotation names a result dim only when that is a product of
/// names of its size ([`Merged`](crate::typelevel::arith::Merged): a merge `(h d)`
/// annotated by its size drops the product's name, as a merge of unnamed dims is).
impl<X: NamedDim, const M: usize> IsName<X> for D<M>
where
    X::Id: UnnamedAs<X, D<M>>,
{
    type Ok = <X::Id as UnnamedAs<X, D<M>>>::Ok;
}
impl<X: NamedDim, H, L> IsName<X> for K<H, L>
where
    X::Id: UnnamedAs<X, K<H, L>>,
{
    type Ok = <X::Id as UnnamedAs<X, K<H, L>>>::Ok;
}
impl<X> IsName<X> for Dyn {
    type Ok = B0;
}
impl<X: NamedDim, Y: NamedDim> IsName<X> for Y
where
    X::Id: IdRel<Y::Id, Rel: NameVerdict<X, Y>>,
{
    type Ok = <<X::Id as IdRel<Y::Id>>::Rel as NameVerdict<X, Y>>::Output;
}

impl<Y: NamesStatic<D<N>>, const N: usize> SameAt<Y, AsAnnotated> for D<N> {
    type Ok = <Y as NamesStatic<D<N>>>::Ok;
}
impl<Y: NamesStatic<K<H, L>>, H, L> SameAt<Y, AsAnnotated> for K<H, L> {
    type Ok = <Y as NamesStatic<K<H, L>>>::Ok;
}
impl<Y: IsDyn> SameAt<Y, AsAnnotated> for Dyn {
    type Ok = <Y as IsDyn>::Ok;
}
impl<X: NamedDim, Y: IsName<X>> SameAt<Y, AsAnnotated> for X {
    type Ok = <Y as IsName<X>>::Ok;
}

/// The verdict of using shape `X` as `O` ([`AsAnnotated`]): `B1`, [`RanksDiffer`],
/// the first [`DimsDiffer`] of unnamed dims, or of a named dim ([`NamesDiffer`],
/// [`NameVsDim`], [`DimVsName`]).
pub type AsVerdictOf<X, O> = SameVerdictOf<X, O, AsAnnotated>;

/// `NamesAs<O>`: shape `Self`, the result of `layout!`, may be used as `O` as far as
/// ranks and unnamed dims go: the same rank, and no mismatch of two unnamed dims before
/// the first one of a named dim (that one is [`Later`]'s error). The macro's own trait
/// asks it, so its failure is that trait's message, which names the pattern.
pub trait NamesAs<O> {}
impl<X: Shape, O: Shape> NamesAs<O> for X
where
    RankOf<X>: PEq<RankOf<O>>,
    ListOf<X>: SameZip<ListOf<O>, D<0>, AsAnnotated>,
    AsVerdictOf<X, O>: UnnamedHolds,
{
}

/// A result used as it is (not annotated, or annotated with its own shape): nothing to
/// compare, so [`NamesAs`] holds at no cost. What `layout!` checks in place of its
/// output when the annotation is the output.
pub struct AsIs;
#[diagnostic::do_not_recommend]
impl<O> NamesAs<O> for AsIs {}

/// The verdicts on which [`NamesAs`] holds: `B1`, and a mismatch of named dims (the
/// error of [`Later`]).
pub trait UnnamedHolds {}
impl UnnamedHolds for B1 {}
impl<A, B, P> UnnamedHolds for NamesDiffer<A, B, P> {}
impl<A, B, P> UnnamedHolds for NameVsDim<A, B, P> {}
impl<A, B, P> UnnamedHolds for DimVsName<A, B, P> {}

/// `layout!`'s annotation check, `Later<Op, X, O>` for the output `X` of `layout!`
/// (`Op`) and the annotation `O`, implemented by `i32` and `i64` only: the macro passes
/// the literal `0`, whose type is known only once `O` is. `i64` when the annotation
/// differs from the output (the only impl that fits), so `Out` is `X`, to compare with
/// `O` ([`NamesAs`], the macro's own message), and the impl's bound checks named dims
/// ([`NamedHolds`]); else the fallback `i32`, whose impl makes `O` the output, so `Out`
/// is [`AsIs`]: nothing to compare. So `O` is not inferred from the output before the
/// annotation is seen, and only an annotation that differs costs a comparison.
///
/// (The check of named dims is here because a bound more on the macro's function cost
/// each call about as much again as the rest of the output check, and because under the
/// macro's own trait its message would give way to that trait's.)
pub trait Later<Op, X, O> {
    /// What is compared with `O`: `X`, or [`AsIs`].
    type Out;
}
#[diagnostic::do_not_recommend]
impl<Op, X> Later<Op, X, X> for i32 {
    type Out = AsIs;
}
impl<Op, X: NamedAs<Op, O>, O> Later<Op, X, O> for i64 {
    type Out = X;
}

/// `NamedAs<Op, O>`: shape `Self`, the result of `layout!` (`Op`), may be used as `O` as
/// far as named dims go (see [`NamedHolds`]); [`Later`]'s bound.
pub trait NamedAs<Op, O> {}
impl<Op, X: Shape, O: Shape> NamedAs<Op, O> for X
where
    RankOf<X>: PEq<RankOf<O>>,
    ListOf<X>: SameZip<ListOf<O>, D<0>, AsAnnotated>,
    AsVerdictOf<X, O>: NamedHolds<Op, X, O>,
{
}

/// The check of named dims of [`Later`] by its verdict: it holds on `B1` and on a
/// mismatch of ranks or unnamed dims ([`NamesAs`]' error); a mismatch of named dims is a
/// check of `Op` that prints each name with its size (`dim 2 is D<64> vs HeadDim
/// (D<16>)`).
pub trait NamedHolds<Op, X, O> {}
#[diagnostic::do_not_recommend]
impl<Op, X, O> NamedHolds<Op, X, O> for B1 {}
#[diagnostic::do_not_recommend]
impl<Op, X, O> NamedHolds<Op, X, O> for RanksDiffer {}
#[diagnostic::do_not_recommend]
impl<Op, X, O, A, B, P> NamedHolds<Op, X, O> for DimsDiffer<A, B, P> {}
impl<Op, X, O, A: NamedDim, B: NamedDim, const I: usize> NamedHolds<Op, X, O>
    for NamesDiffer<A, B, D<I>>
where
    Op: ResultNamesOk<Op, X, O, A, A::Size, B, B::Size, I>,
{
}
impl<Op, X, O, A: NamedDim, B, const I: usize> NamedHolds<Op, X, O> for NameVsDim<A, B, D<I>> where
    Op: ResultNameDimOk<Op, X, O, A, A::Size, B, I>
{
}
impl<Op, X, O, A, B: NamedDim, const I: usize> NamedHolds<Op, X, O> for DimVsName<A, B, D<I>> where
    Op: ResultDimNameOk<Op, X, O, A, B, B::Size, I>
{
}

check! {
    /// A `layout!` (`Op`) result of shape `X` used as `O`: dim `I` is the name `A` of
    /// size `SA` vs the name `B` of size `SB`.
    #[diagnostic::on_unimplemented(
        message = "layout!({Op}): the pattern gives the shape `{X}`, but the result is used as `{O}`: dim {I} is {A} ({SA}) vs {B} ({SB})",
        label = "gives `{X}`"
    )]
    ResultNamesOk<Op, X, O, A, SA, B, SB; I>
}

check! {
    /// [`ResultNamesOk`] of the name `A` of size `SA` and the unnamed dim `B`.
    #[diagnostic::on_unimplemented(
        message = "layout!({Op}): the pattern gives the shape `{X}`, but the result is used as `{O}`: dim {I} is {A} ({SA}) vs {B}",
        label = "gives `{X}`"
    )]
    ResultNameDimOk<Op, X, O, A, SA, B; I>
}

check! {
    /// [`ResultNamesOk`] of the unnamed dim `A` and the name `B` of size `SB`.
    #[diagnostic::on_unimplemented(
        message = "layout!({Op}): the pattern gives the shape `{X}`, but the result is used as `{O}`: dim {I} is {A} vs {B} ({SB})",
        label = "gives `{X}`"
    )]
    ResultDimNameOk<Op, X, O, A, B, SB; I>
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::typelevel::test_names::{same, test_name};

    test_name!(Seq, Dyn, Dg1);
    test_name!(Batch, Dyn, Dg2);
    test_name!(Head, D<16>, Dg3);

    /// `B1` when a result's dim `X` may be annotated `Y`.
    fn annotates<X: SameAt<Y, AsAnnotated>, Y>() -> bool {
        <<X as SameAt<Y, AsAnnotated>>::Ok as typenum::Bit>::BOOL
    }

    #[test]
    fn a_result_dim_is_annotated_as_itself_or_an_unnamed_static_one_by_a_name_of_its_size() {
        assert!(annotates::<D<16>, D<16>>());
        assert!(annotates::<D<16>, Head>());
        assert!(annotates::<Dyn, Dyn>());
        assert!(annotates::<Seq, Seq>());
        assert!(annotates::<Head, Head>());
        assert!(annotates::<K<D<1>, D<0>>, K<D<1>, D<0>>>());
    }

    #[test]
    fn a_result_dim_is_never_annotated_by_another_size_another_name_or_dyn() {
        assert!(!annotates::<D<64>, Head>());
        assert!(!annotates::<D<16>, Seq>());
        assert!(!annotates::<D<16>, Dyn>());
        assert!(!annotates::<Dyn, D<16>>());
        assert!(!annotates::<Dyn, Seq>());
        assert!(!annotates::<Seq, Batch>());
        assert!(!annotates::<Head, D<16>>());
        assert!(!annotates::<Seq, Dyn>());
        assert!(!annotates::<K<D<1>, D<0>>, D<16>>());
    }

    #[test]
    fn an_annotated_result_s_verdict_is_its_first_mismatch_named_or_not() {
        assert!(same::<
            AsVerdictOf<(Batch, D<64>), (Batch, Head)>,
            DimVsName<D<64>, Head, D<1>>,
        >());
        assert!(same::<
            AsVerdictOf<(Batch, Seq), (Seq, Seq)>,
            NamesDiffer<Batch, Seq, D<0>>,
        >());
        assert!(same::<
            AsVerdictOf<(Head,), (D<16>,)>,
            NameVsDim<Head, D<16>, D<0>>,
        >());
        assert!(same::<
            AsVerdictOf<(D<2>, D<3>), (D<2>, D<4>)>,
            DimsDiffer<D<3>, D<4>, D<1>>,
        >());
        assert!(same::<AsVerdictOf<(D<2>,), (D<2>, D<3>)>, RanksDiffer>());
        assert!(same::<AsVerdictOf<(Batch, D<16>), (Batch, Head)>, B1>());
    }
}
