//! Named dims: a unit struct that `dims!` declares (`dims! { pub Seq; pub Model = 256; }`)
//! *is* the dim: it implements [`NamedDim`] (its size, a static dim or [`Dyn`], and its
//! identity), and through it every dim trait, so `Shape![Seq, Model]` is `(Seq, Model)`
//! and errors print `Seq`.
//!
//! A name joins the dim traits of [`crate::typelevel::dim`] as one more implementor
//! (a blanket impl over `X: NamedDim` beside the impls for `D`, `K` and `Dyn`, which never
//! implement this crate's trait), so every rule that compares dims through them
//! (broadcast, matmul, cat, expand, layout!, check_shape, the nn ops) compares names too:
//!
//! * the same name unifies with itself (a run-time one is checked at run time, as `Dyn`);
//! * two different names never unify, whatever their sizes (a compile error);
//! * a named static dim unifies with an unnamed static dim of the same size (so `256`
//!   written by hand still works), and the result keeps the name;
//! * `Dyn` unifies with anything (checked at run time);
//! * an unnamed size-1 dim broadcasts against a named one (a named dim is never the
//!   broadcast 1 itself: its name says what it is).
//!
//! Two names are compared by their [`NamedDim::Id`], nine decimal digits that `dims!`
//! hashes from the declaring site (crate, file, line, column) and the identifier
//! ([`NameId`], [`IdEq`]). Where a rule treats a named static dim and a named run-time
//! one differently, the blanket impl asks the name's size (a helper trait implemented
//! for `D`, `K` and `Dyn`). Sizes are types only: a named run-time dim costs at run time
//! what `Dyn` costs.
//!
//! The product of two names (a merge `(h d)` in `layout!`, `Shape![H * E]`, a `dims!`
//! declaration `Model = Heads * HeadDim`) is their
//! [`Merged`](crate::typelevel::arith::Merged) product, a name whose identity is its
//! factors in order ([`IdRel`]: one name with the same product, two names with a product
//! in another order, compared by size with a name declared by its size). Other products
//! and sums (with an unnamed dim, `cat`, `reshape`, a conv output) read sizes
//! ([`SizeOf`]) and come out unnamed.
//!
//! `dims!` writes, per name, the struct, its `NamedDim` impl and a `Debug` printing
//! `HeadDim (16)`, and nothing else: each impl per name costs the type checker, and a
//! hundred names deriving `Clone`, `Copy` and `Default` cost more than the rules on them.
//! A rule cannot be a blanket impl over `X: StaticDim` (it would overlap the names'
//! blanket impl), so it is written for `D` and `K`. The trait is `NamedDim`, not `Named`:
//! std has an item `Named`, and rustc prints a path by its bare name only when the name
//! is unique (for the same reason no op marker shares a module's or a function's name).

use crate::typelevel::decimal::DigEq;
use crate::typelevel::dim::{
    All3, Bool, BroadcastAtBySize, BroadcastDim, Dim, DimEq, Dyn, If, IsOne, NamedOr, NarrowDim,
    RunTimeOr, Select, StaticDim, Unify, D, K,
};
use std::fmt;
use std::marker::PhantomData;
use typenum::{Bit, B0, B1};

/// A named dim, as `dims!` declares it: a unit struct with its size and identity.
///
/// After `dims! { pub Seq; pub Model = 256; }`, `Seq` is a dim of size `Dyn` and `Model`
/// one of size `D<256>`; `Model::SIZE` is 256 (with this trait in scope, as the prelude
/// puts it).
///
/// `dims!` implements it; an impl written by hand is not supported. A name is a [`Dim`]
/// through one blanket impl, whose facts about a dim met by itself follow from the bounds
/// on `Size` and `Id` ([`SizeRules`], [`IdEq`]): each name proves only those, once.
pub trait NamedDim: Sized + Send + Sync + 'static + fmt::Debug {
    /// The size: a static dim (`D<N>` or `K<Hi, Lo>`) or `Dyn` for a run-time name.
    type Size: Dim;
    /// A [`NameId`] of nine decimal digits that `dims!` hashes from the declaring site and
    /// the identifier. Two names are the same name exactly when they are the same type;
    /// the id only tells two different names apart quickly, and two different types
    /// with one id are a compile error wherever they meet ([`SameNameIf`]).
    type Id: IdRel<Self::Id, Rel = B1>;
    /// The size of a static name; a compile error for a run-time name.
    const SIZE: usize = match <Self::Size as Dim>::STATIC {
        Some(n) => n,
        None => panic!("a run-time name has no static size"),
    };
}

impl<X: NamedDim> Dim for X
where
    X::Size: SizeRules<X>,
{
    const STATIC: Option<usize> = <X::Size as Dim>::STATIC;
}

/// What the rules conclude when the name `X` of size `Self` meets itself, `Dyn` or an
/// unnamed 1: it unifies with and broadcasts to itself. Implemented once for each kind of
/// size (`D`, `K`, `Dyn`) over every name of that size, so a name's `impl Dim` (the
/// blanket one above) needs no proof of its own.
pub trait SizeRules<X>:
    UnifyBySize<X, X, Output = X>
    + UnifyBySize<X, Dyn, Output = X>
    + BroadcastAtBySize<X, X, Output = X, Ok = B1>
    + BroadcastAtBySize<X, D<1>, Output = X, Ok = B1>
    + NarrowBySize<X>
{
}
impl<const N: usize, X: NamedDim<Size = D<N>>> SizeRules<X> for D<N> where D<N>: Dim {}
impl<Hi: Dim, Lo: Dim, X: NamedDim<Size = K<Hi, Lo>>> SizeRules<X> for K<Hi, Lo> {}
impl<X: NamedDim<Size = Dyn>> SizeRules<X> for Dyn {}

/// Writes a name as its `Debug` form: the name, then its static size in parentheses
/// (`HeadDim (16)`, `Seq`). What the `Debug` impl that `dims!` writes calls.
///
/// # Errors
/// The formatter's.
#[cfg_attr(unoptimized, inline)]
pub fn fmt_name(f: &mut fmt::Formatter<'_>, name: &str, size: Option<usize>) -> fmt::Result {
    f.write_str(name)?;
    match size {
        Some(n) => write!(f, " ({n})"),
        None => Ok(()),
    }
}

pub use crate::typelevel::dim::SizeOf;
impl<const N: usize> SizeOf for D<N>
where
    D<N>: Dim,
{
    type Unnamed = Self;
}
impl<H: Dim, L: Dim> SizeOf for K<H, L> {
    type Unnamed = Self;
}
impl SizeOf for Dyn {
    type Unnamed = Self;
}
impl<X: NamedDim> SizeOf for X {
    type Unnamed = <X as NamedDim>::Size;
}

/// `B1` for a named dim, `B0` for `D`, `K` and `Dyn`: which report a failed comparison
/// of two dims gets (with the names' sizes beside them, see
/// [`crate::shape::mismatch`]). Asked only once a comparison has failed.
pub trait IsNamed {
    /// `B1` or `B0`.
    type Output: Bool;
}
impl<const N: usize> IsNamed for D<N> {
    type Output = B0;
}
impl<H, L> IsNamed for K<H, L> {
    type Output = B0;
}
impl IsNamed for Dyn {
    type Output = B0;
}
impl<X: NamedDim> IsNamed for X {
    type Output = B1;
}

/// A named static dim is a static dim of its size (its digits are its size's).
impl<X: NamedDim> StaticDim for X
where
    X::Size: StaticDim + SizeRules<X>,
{
    type Digits = <X::Size as StaticDim>::Digits;
}

/// A named dim is never the broadcast 1 (only an unnamed 1 broadcasts against a name).
#[diagnostic::do_not_recommend]
impl<X: NamedDim> IsOne for X {
    type Output = B0;
}

// ---- equality: by name, then by size ---------------------------------------------

/// Two names: the same name when they are the same type. Different ids are different
/// names (`B0`); equal ids must be the same type ([`SameNameIf`]), so two structs that
/// share an id (a `dims!` block expanded twice, an id copied by hand) never unify.
impl<X: NamedDim, Y: NamedDim> DimEq<Y> for X
where
    X::Id: IdRel<Y::Id>,
    <X::Id as IdRel<Y::Id>>::Rel: NameVerdict<X, Y>,
{
    type Output = <<X::Id as IdRel<Y::Id>>::Rel as NameVerdict<X, Y>>::Output;
}

/// How two names' ids relate ([`IdRel::Rel`]): `B1` (one name), `B0` (two names), or
/// `BySize`: a product of names met with a name declared by its size (`Merged<Heads,
/// HeadDim>` and `Embd = 768`), which are compared by size, as an unnamed dim would be.
pub trait IdRel<Rhs> {
    /// `B1`, `B0` or [`BySize`].
    type Rel;
}
/// Two names declared by their sizes: one name when their ids are equal.
impl<A, B, C, E, F, G, H, I, J, A2, B2, C2, E2, F2, G2, H2, I2, J2>
    IdRel<NameId<A2, B2, C2, E2, F2, G2, H2, I2, J2>> for NameId<A, B, C, E, F, G, H, I, J>
where
    Self: IdEq<NameId<A2, B2, C2, E2, F2, G2, H2, I2, J2>>,
{
    type Rel = <Self as IdEq<NameId<A2, B2, C2, E2, F2, G2, H2, I2, J2>>>::Output;
}

/// The relation of a product of names with a name declared by its size: by size.
pub struct BySize;

/// Whether the unnamed static dim `Y` may stand for the name `X` whose id is `Self`:
/// never for a name declared by its size (`B0`); by size for a product of names.
pub trait UnnamedAs<X, Y> {
    /// `B1` or `B0`.
    type Ok: Bool;
}
impl<A, B, C, E, F, G, H, I, J, X, Y> UnnamedAs<X, Y> for NameId<A, B, C, E, F, G, H, I, J> {
    type Ok = B0;
}

/// `B1` when the relations of two factors are both `B1` (one name each), else `B0`: two
/// products of names are one name when their factors are, in the same order.
pub trait BothSame<R> {
    /// `B1` or `B0`.
    type Out;
}
impl BothSame<B1> for B1 {
    type Out = B1;
}
impl BothSame<B0> for B1 {
    type Out = B0;
}
impl BothSame<BySize> for B1 {
    type Out = B0;
}
impl<R> BothSame<R> for B0 {
    type Out = B0;
}
impl<R> BothSame<R> for BySize {
    type Out = B0;
}

/// Whether names `X` and `Y` whose ids relate as `Self` ([`IdRel`]) are one dim: `B1`
/// when they are one name (and one type, [`SameNameIf`]), `B0` for two names, their
/// sizes' equality for [`BySize`].
pub trait NameVerdict<X, Y> {
    /// `B1` or `B0`.
    type Output: Bool;
}
impl<X, Y> NameVerdict<X, Y> for B0 {
    type Output = B0;
}
impl<X, Y> NameVerdict<X, Y> for B1
where
    B1: SameNameIf<X, Y>,
{
    type Output = B1;
}
impl<X: NamedDim, Y: NamedDim> NameVerdict<X, Y> for BySize
where
    X::Size: DimEq<Y::Size, Output: Bool>,
{
    type Output = <X::Size as DimEq<Y::Size>>::Output;
}

/// Of two names `A` and `B` whose ids are equal (`Self` is `B1`): they must be one type.
/// Implemented for `B0` (different ids, different names) and for `B1` with `A` = `B`.
#[diagnostic::on_unimplemented(
    message = "`{A}` and `{B}` are two names with one identity: each name is declared once, by `dims!`",
    label = "two different name types meet here",
    note = "a `dims!` block expanded twice (a `macro_rules!`, a file included twice) declares new types with the same ids; declare the names once and import them"
)]
pub trait SameNameIf<A, B> {}
#[diagnostic::do_not_recommend]
impl<A, B> SameNameIf<A, B> for B0 {}
#[diagnostic::do_not_recommend]
impl<A> SameNameIf<A, A> for B1 {}
/// A name and a run-time part of it ([`Part`]) are one name.
#[diagnostic::do_not_recommend]
impl<A> SameNameIf<Part<A>, A> for B1 {}
/// A run-time part of a name and the name are one name.
#[diagnostic::do_not_recommend]
impl<A> SameNameIf<A, Part<A>> for B1 {}

// ---- a slice of a name: the name kept, the length run-time -------------------------

/// A run-time length of the static name `X`: what `narrow_dyn` leaves of a dim named
/// `X` (`Model (256)` narrowed to 10 elements is `Part<Model>`). It is the name `X` with
/// the size `Dyn`: it unifies with `X` (the run time checks the length, as for `Dyn`) and
/// with itself, never with another name, and a unified pair keeps `X`.
pub struct Part<X>(PhantomData<X>);

impl<X: NamedDim> fmt::Debug for Part<X> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = std::any::type_name::<X>();
        let short = name.rsplit("::").next().unwrap_or(name);
        write!(f, "Part<{short}>")
    }
}

impl<X: NamedDim> NamedDim for Part<X> {
    type Size = Dyn;
    type Id = X::Id;
}

/// The dim `narrow_dyn` leaves of dim `X`: `Dyn` for an unnamed dim, the name kept for a
/// named one ([`NarrowDim`]).
pub type Narrowed<X> = <X as NarrowDim>::Output;

/// [`NarrowDim`] of the name `X` of size `Self`: a static name becomes its [`Part`], a
/// run-time name stays itself.
pub trait NarrowBySize<X> {
    /// The narrowed dim.
    type Out: Dim;
}
impl<const N: usize, X: NamedDim> NarrowBySize<X> for D<N> {
    type Out = Part<X>;
}
impl<Hi, Lo, X: NamedDim> NarrowBySize<X> for K<Hi, Lo> {
    type Out = Part<X>;
}
impl<X: Dim> NarrowBySize<X> for Dyn {
    type Out = X;
}
impl<X: NamedDim> NarrowDim for X
where
    X::Size: NarrowBySize<X>,
{
    type Output = <X::Size as NarrowBySize<X>>::Out;
}
/// A name and an unnamed dim: by size (an unnamed static dim of the same size, or `Dyn`).
#[diagnostic::do_not_recommend]
impl<X: NamedDim, const B: usize> DimEq<D<B>> for X
where
    X::Size: DimEq<D<B>>,
{
    type Output = <X::Size as DimEq<D<B>>>::Output;
}
#[diagnostic::do_not_recommend]
impl<X: NamedDim, H, L> DimEq<K<H, L>> for X
where
    X::Size: DimEq<K<H, L>>,
{
    type Output = <X::Size as DimEq<K<H, L>>>::Output;
}
#[diagnostic::do_not_recommend]
impl<X: NamedDim> DimEq<Dyn> for X {
    type Output = B1;
}
// An unnamed dim and a name: the name's size against the dim (equality is symmetric).
// Asked of the size, not as `D<A>: DimEq<Y::Size>`: with the name not yet inferred, that
// bound would nest projections without end.
#[diagnostic::do_not_recommend]
impl<const A: usize, Y: NamedDim> DimEq<Y> for D<A>
where
    Y::Size: DimEq<D<A>>,
{
    type Output = <Y::Size as DimEq<D<A>>>::Output;
}
#[diagnostic::do_not_recommend]
impl<H, L, Y: NamedDim> DimEq<Y> for K<H, L>
where
    Y::Size: DimEq<K<H, L>>,
{
    type Output = <Y::Size as DimEq<K<H, L>>>::Output;
}

/// A name's identity: nine decimal digits (`Dg0`..`Dg9`), written by `dims!`.
// Nine digit parameters are what the id is; clippy counts each as complexity.
#[allow(clippy::type_complexity)]
pub struct NameId<A, B, C, E, F, G, H, I, J>(PhantomData<(A, B, C, E, F, G, H, I, J)>);

/// `B1` when two [`NameId`]s are equal: nine digit comparisons and four table steps
/// (comparing the ids as static dims took about twice the steps, which the type checker
/// repeats at every comparison of two names).
pub trait IdEq<Rhs> {
    /// `B1` or `B0`.
    type Output: Bit;
}
/// `All3` of the three digit comparisons `X`, `Y`, `Z`.
type Eq3Of<X, Y, Z> = <X as All3<Y, Z>>::Output;
impl<A, B, C, E, F, G, H, I, J, A2, B2, C2, E2, F2, G2, H2, I2, J2>
    IdEq<NameId<A2, B2, C2, E2, F2, G2, H2, I2, J2>> for NameId<A, B, C, E, F, G, H, I, J>
where
    A: DigEq<A2>,
    B: DigEq<B2>,
    C: DigEq<C2>,
    E: DigEq<E2>,
    F: DigEq<F2>,
    G: DigEq<G2>,
    H: DigEq<H2>,
    I: DigEq<I2>,
    J: DigEq<J2>,
    A::Output: All3<B::Output, C::Output>,
    E::Output: All3<F::Output, G::Output>,
    H::Output: All3<I::Output, J::Output>,
    Eq3Of<A::Output, B::Output, C::Output>:
        All3<Eq3Of<E::Output, F::Output, G::Output>, Eq3Of<H::Output, I::Output, J::Output>>,
{
    type Output = Eq3Of<
        Eq3Of<A::Output, B::Output, C::Output>,
        Eq3Of<E::Output, F::Output, G::Output>,
        Eq3Of<H::Output, I::Output, J::Output>,
    >;
}

// ---- which of two unified dims is kept, broadcast and unify ----------------------
//
// These differ for a named static dim and a named run-time one: the blanket impl for
// `X: NamedDim` asks `X::Size` (`D`/`K`: static; `Dyn`: run time) through a helper.

/// [`NamedOr`] of the name `X` of size `Self`, against `Y`: a static name is kept, a
/// run-time one gives way to `Y`.
pub trait NamedOrBySize<X, Y> {
    /// The kept dim.
    type Out: Dim;
}
impl<const N: usize, X: Dim, Y> NamedOrBySize<X, Y> for D<N> {
    type Out = X;
}
impl<Hi, Lo, X: Dim, Y> NamedOrBySize<X, Y> for K<Hi, Lo> {
    type Out = X;
}
impl<X, Y: Dim> NamedOrBySize<X, Y> for Dyn {
    type Out = Y;
}
impl<X: NamedDim, Y> NamedOr<Y> for X
where
    X::Size: NamedOrBySize<X, Y>,
{
    type Out = <X::Size as NamedOrBySize<X, Y>>::Out;
}
impl<X: NamedDim, Y> RunTimeOr<Y> for X
where
    X::Size: SizeRules<X>,
{
    type Out = X;
}

/// [`Unify`] of the name `X` of size `Self` with `Y`: as a static dim ([`NamedOr`]) or
/// as a run-time one ([`RunTimeOr`]: the name against `Dyn`, else `Y`).
pub trait UnifyBySize<X, Y> {
    /// The unified dim.
    type Output: Dim;
}
impl<const N: usize, X, Y: NamedOr<X>> UnifyBySize<X, Y> for D<N> {
    type Output = <Y as NamedOr<X>>::Out;
}
impl<Hi, Lo, X, Y: NamedOr<X>> UnifyBySize<X, Y> for K<Hi, Lo> {
    type Output = <Y as NamedOr<X>>::Out;
}
impl<X, Y: RunTimeOr<X>> UnifyBySize<X, Y> for Dyn {
    type Output = <Y as RunTimeOr<X>>::Out;
}
impl<X: NamedDim, Y> Unify<Y> for X
where
    X::Size: UnifyBySize<X, Y>,
{
    type Output = <X::Size as UnifyBySize<X, Y>>::Output;
}

/// [`BroadcastDim`] of the name `X` of size `Self` with `Y`: a static name is kept (it
/// is never 1); a run-time one is itself against a 1, else [`RunTimeOr`] (the name
/// against `Dyn`, the static size or the same name otherwise).
pub trait BroadcastBySize<X, Y> {
    /// The broadcast dim.
    type Output: Dim;
}
impl<const N: usize, X: Dim, Y> BroadcastBySize<X, Y> for D<N> {
    type Output = X;
}
impl<Hi, Lo, X: Dim, Y> BroadcastBySize<X, Y> for K<Hi, Lo> {
    type Output = X;
}
impl<X, Y: IsOne + RunTimeOr<X>> BroadcastBySize<X, Y> for Dyn
where
    <Y as IsOne>::Output: Select<X, <Y as RunTimeOr<X>>::Out, Output: Dim>,
{
    type Output = If<<Y as IsOne>::Output, X, <Y as RunTimeOr<X>>::Out>;
}
#[diagnostic::do_not_recommend]
impl<X: NamedDim, Y> BroadcastDim<Y> for X
where
    X::Size: BroadcastBySize<X, Y>,
{
    type Output = <X::Size as BroadcastBySize<X, Y>>::Output;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::typelevel::test_names::{same, test_name};

    test_name!(Seq, Dyn, Dg9);
    test_name!(Seq16, D<16>, Dg7);
    test_name!(Head, D<32>, Dg8);
    test_name!(Head16, D<16>, Dg6);
    test_name!(Batch, Dyn, Dg5);

    fn eq<X: DimEq<Y>, Y>() -> bool {
        <X::Output as Bit>::BOOL
    }

    #[test]
    fn two_names_unify_only_when_they_are_the_same_name_whatever_their_sizes() {
        assert!(eq::<Seq16, Seq16>());
        assert!(!eq::<Seq16, Head16>());
        assert!(!eq::<Seq, Batch>());
        assert!(eq::<Seq, Seq>());
    }

    #[test]
    fn a_name_unifies_with_an_unnamed_dim_of_its_size_and_with_dyn() {
        assert!(eq::<Seq16, D<16>>());
        assert!(eq::<D<16>, Seq16>());
        assert!(!eq::<Seq16, D<32>>());
        assert!(eq::<Seq, D<32>>());
        assert!(eq::<Dyn, Head>());
        assert!(eq::<Head, Dyn>());
        assert!(!eq::<K<D<1>, D<0>>, Head>());
    }

    #[test]
    fn a_unified_dim_keeps_the_static_name_then_the_static_size_then_the_run_time_name() {
        assert!(same::<<Seq16 as Unify<D<16>>>::Output, Seq16>());
        assert!(same::<<D<16> as Unify<Seq16>>::Output, Seq16>());
        assert!(same::<<Seq as Unify<D<16>>>::Output, D<16>>());
        assert!(same::<<D<16> as Unify<Seq>>::Output, D<16>>());
        assert!(same::<<Seq as Unify<Dyn>>::Output, Seq>());
        assert!(same::<<Dyn as Unify<Seq>>::Output, Seq>());
        assert!(same::<<Seq as BroadcastDim<D<1>>>::Output, Seq>());
        assert!(same::<<D<1> as BroadcastDim<Head>>::Output, Head>());
        assert!(same::<<Head as BroadcastDim<Dyn>>::Output, Head>());
    }

    #[test]
    fn a_narrowed_name_keeps_its_name_with_a_run_time_length() {
        assert!(same::<Narrowed<Head>, Part<Head>>());
        assert!(same::<Narrowed<Seq>, Seq>());
        assert!(same::<Narrowed<Part<Head>>, Part<Head>>());
        assert!(same::<Narrowed<D<16>>, Dyn>());
        assert!(same::<Narrowed<Dyn>, Dyn>());
        assert!(eq::<Part<Head>, Head>());
        assert!(eq::<Head, Part<Head>>());
        assert!(eq::<Part<Head>, Part<Head>>());
        assert!(!eq::<Part<Head>, Head16>());
        assert!(!eq::<Part<Head>, Seq>());
        assert!(eq::<Part<Head>, D<7>>());
        assert!(same::<<Head as Unify<Part<Head>>>::Output, Head>());
        assert!(same::<<Part<Head> as Unify<Head>>::Output, Head>());
        assert!(same::<<Part<Head> as Unify<Dyn>>::Output, Part<Head>>());
        assert!(same::<<Part<Head> as Unify<D<7>>>::Output, D<7>>());
        assert_eq!(<Part<Head> as Dim>::STATIC, None);
    }

    #[test]
    fn a_name_debug_prints_its_name_and_static_size() {
        assert_eq!(format!("{:?}", Seq), "Seq");
        assert_eq!(format!("{:?}", Head), "Head (32)");
        assert_eq!(Head::SIZE, 32);
        assert!(same::<<Head as SizeOf>::Unnamed, D<32>>());
        assert_eq!(format!("{:?}", Part::<Head>(PhantomData)), "Part<Head>");
    }
}
