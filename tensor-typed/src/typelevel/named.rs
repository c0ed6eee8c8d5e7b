//! Named dims: [`NamedDim<N, S>`], the dim of size `S` (a static dim or [`Dyn`]) named by
//! the marker type `N` that `dims!` declares (`dims! { pub Seq; pub Model = 256; }`).
//!
//! A name joins the dim traits of [`crate::typelevel::dim`] as one more implementor, so
//! every rule that compares dims through them (broadcast, matmul, cat, expand, layout!,
//! check_shape, the nn ops) compares names too:
//!
//! * the same name unifies with itself (a run-time one is checked at run time, as `Dyn`);
//! * two different names never unify, whatever their sizes (a compile error);
//! * a named static dim unifies with an unnamed static dim of the same size (so `256`
//!   written by hand still works), and the result keeps the name;
//! * `Dyn` unifies with anything (checked at run time);
//! * an unnamed size-1 dim broadcasts against a named one (a named dim is never the
//!   broadcast 1 itself: its name says what it is).
//!
//! Two names are compared by their [`DimName::Id`], nine decimal digits that `dims!`
//! hashes from the declaring site (crate, file, line, column) and the identifier
//! ([`NameId`], [`IdEq`]). Sizes are types only: a named run-time dim costs at
//! run time what `Dyn` costs.
//!
//! Products and sums of dims (a merge in `layout!`, `cat`, `reshape`, a conv output) go
//! through the size ([`StaticDim::Digits`]) and come out unnamed.

use crate::typelevel::decimal::DigEq;
use crate::typelevel::dim::{
    All3, BroadcastDim, Dim, DimEq, Dyn, If, IsOne, NamedOr, RunTimeOr, Select, StaticDim, Unify,
    D, K,
};
use std::fmt;
use std::marker::PhantomData;
use typenum::{Bit, B0, B1};

/// A dim of size `S` (a static dim, or [`Dyn`] for a run-time one) named `N` (a marker
/// declared by `dims!`). Written by its name inside `Shape![..]`: after
/// `dims! { pub Seq; pub Model = 256; }`, `Shape![Seq, Model]` is
/// `(NamedDim<Seq, Dyn>, NamedDim<Model, D<256>>)`.
// `fn() -> ..`: a marker is never a value, so the dim is `Send` and `Sync` whatever
// the marker, with no bound to prove for it.
pub struct NamedDim<N, S>(PhantomData<fn() -> (N, S)>);

impl<N, S> Clone for NamedDim<N, S> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<N, S> Copy for NamedDim<N, S> {}
impl<N, S> Default for NamedDim<N, S> {
    fn default() -> Self {
        NamedDim(PhantomData)
    }
}

impl<N: 'static, S: Dim> fmt::Debug for NamedDim<N, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = std::any::type_name::<N>();
        write!(f, "{}", path.rsplit("::").next().unwrap_or(path))?;
        match S::STATIC {
            Some(n) => write!(f, " ({n})"),
            None => Ok(()),
        }
    }
}

/// A dim's name, as `dims!` declares it: a marker type with its identity.
pub trait DimName: 'static {
    /// The size of a static name (`Model::SIZE` after `dims! { Model = 256; }`, with
    /// this trait in scope, as the prelude puts it); a compile error for a run-time name.
    const SIZE: usize = panic!("a run-time name has no static size");
    /// The name's identity: a [`NameId`] of nine decimal digits that `dims!` hashes from
    /// the declaring site and the identifier; two names are the same name exactly when
    /// their ids are equal.
    type Id;
}

/// What a dim written in `Shape![..]` stands for: a dim stands for itself; a name
/// declared by `dims!` for its [`NamedDim`] dim (so `Shape![Seq]` is `(NamedDim<Seq, Dyn>,)`).
pub trait IntoDim {
    /// The dim.
    type Out: Dim;
}
impl<X: Dim> IntoDim for X {
    type Out = X;
}
/// The dim a dim type written in `Shape![..]` stands for ([`IntoDim`]): `DimOf<Seq>` is
/// `NamedDim<Seq, Dyn>`, `DimOf<D<3>>` is `D<3>`. (What `Shape!` writes: an alias keeps
/// the written type simple, for readers and for clippy's `type_complexity`.)
pub type DimOf<X> = <X as IntoDim>::Out;

/// What `Shape![..]` writes for a shape that may name a dim: the tuple of the dims
/// through [`DimOf`] (`Names2<Seq, Model>` is `(NamedDim<Seq, Dyn>, NamedDim<Model,
/// D<256>>)`). One alias keeps the written type simple to read (and for clippy's
/// `type_complexity`); rustc prints the tuple.
macro_rules! names_aliases {
    ($($alias:ident < $($p:ident),* >;)*) => {$(
        #[doc(hidden)]
        pub type $alias<$($p),*> = ($(DimOf<$p>,)*);
    )*};
}
names_aliases! {
    Names1<A>;
    Names2<A, B>;
    Names3<A, B, C>;
    Names4<A, B, C, E>;
    Names5<A, B, C, E, F>;
    Names6<A, B, C, E, F, G>;
    Names7<A, B, C, E, F, G, H>;
    Names8<A, B, C, E, F, G, H, I>;
}

// No bound on the name: the rules prove `Dim` for every dim they touch, and only a
// comparison of two names needs their ids.
impl<N: 'static, S: Dim> Dim for NamedDim<N, S> {
    const STATIC: Option<usize> = S::STATIC;
}

/// A named static dim is a static dim of its size (arithmetic reads its digits, so a
/// product or a sum of named dims is unnamed).
impl<N: 'static, S: StaticDim> StaticDim for NamedDim<N, S> {
    type Digits = S::Digits;
}

/// A named dim is never the broadcast 1 (only an unnamed 1 broadcasts against a name).
impl<N, S> IsOne for NamedDim<N, S> {
    type Output = B0;
}

// ---- equality: by name, then by size ---------------------------------------------

/// Two names: equal ids (the sizes follow, one name having one size).
impl<N: DimName, S, M: DimName, T> DimEq<NamedDim<M, T>> for NamedDim<N, S>
where
    N::Id: IdEq<M::Id>,
{
    type Output = <N::Id as IdEq<M::Id>>::Output;
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
/// A name and an unnamed dim: by size (an unnamed static dim of the same size, or `Dyn`).
impl<N, S: DimEq<D<B>>, const B: usize> DimEq<D<B>> for NamedDim<N, S> {
    type Output = <S as DimEq<D<B>>>::Output;
}
impl<N, S: DimEq<K<H, L>>, H, L> DimEq<K<H, L>> for NamedDim<N, S> {
    type Output = <S as DimEq<K<H, L>>>::Output;
}
impl<N, S> DimEq<Dyn> for NamedDim<N, S> {
    type Output = B1;
}
impl<const A: usize, N, S> DimEq<NamedDim<N, S>> for D<A>
where
    D<A>: DimEq<S>,
{
    type Output = <D<A> as DimEq<S>>::Output;
}
impl<H, L, N, S> DimEq<NamedDim<N, S>> for K<H, L>
where
    K<H, L>: DimEq<S>,
{
    type Output = <K<H, L> as DimEq<S>>::Output;
}

// ---- which of two unified dims is kept, broadcast and unify ----------------------

impl<N, X: Dim> NamedOr<X> for NamedDim<N, Dyn> {
    type Out = X;
}
impl<N: 'static, S: StaticDim, X> NamedOr<X> for NamedDim<N, S> {
    type Out = Self;
}
impl<N: 'static, S: Dim, X> RunTimeOr<X> for NamedDim<N, S> {
    type Out = Self;
}

/// A named run-time dim broadcast with `Y`: itself against a 1, else the dim `Y`
/// ([`RunTimeOr`]: the name against `Dyn`, the static size or the same name otherwise).
impl<N: 'static, Y: IsOne + RunTimeOr<Self>> BroadcastDim<Y> for NamedDim<N, Dyn>
where
    <Y as IsOne>::Output: Select<Self, <Y as RunTimeOr<Self>>::Out, Output: Dim>,
{
    type Output = If<<Y as IsOne>::Output, Self, <Y as RunTimeOr<Self>>::Out>;
}
/// A named run-time dim unified with `Y` ([`RunTimeOr`]).
impl<N: 'static, Y: RunTimeOr<Self>> Unify<Y> for NamedDim<N, Dyn> {
    type Output = <Y as RunTimeOr<Self>>::Out;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::typelevel::decimal::{Dg1, Dg2, Dg3, Dg4, Dg5, Dg6, Dg7, Dg8, Dg9};

    struct Seq;
    impl DimName for Seq {
        type Id = NameId<Dg1, Dg2, Dg3, Dg4, Dg5, Dg6, Dg7, Dg8, Dg9>;
    }
    struct Head;
    impl DimName for Head {
        type Id = NameId<Dg1, Dg2, Dg3, Dg4, Dg5, Dg6, Dg7, Dg8, Dg8>;
    }

    fn eq<X: DimEq<Y>, Y>() -> bool {
        <X::Output as Bit>::BOOL
    }

    #[test]
    fn two_names_unify_only_when_they_are_the_same_name_whatever_their_sizes() {
        assert!(eq::<NamedDim<Seq, D<16>>, NamedDim<Seq, D<16>>>());
        assert!(!eq::<NamedDim<Seq, D<16>>, NamedDim<Head, D<16>>>());
        assert!(!eq::<NamedDim<Seq, Dyn>, NamedDim<Head, Dyn>>());
        assert!(eq::<NamedDim<Seq, Dyn>, NamedDim<Seq, Dyn>>());
    }

    #[test]
    fn a_name_unifies_with_an_unnamed_dim_of_its_size_and_with_dyn() {
        assert!(eq::<NamedDim<Seq, D<16>>, D<16>>());
        assert!(eq::<D<16>, NamedDim<Seq, D<16>>>());
        assert!(!eq::<NamedDim<Seq, D<16>>, D<32>>());
        assert!(eq::<NamedDim<Seq, Dyn>, D<32>>());
        assert!(eq::<Dyn, NamedDim<Head, D<32>>>());
        assert!(eq::<NamedDim<Head, D<32>>, Dyn>());
        assert!(!eq::<K<D<1>, D<0>>, NamedDim<Head, D<32>>>());
    }

    #[test]
    fn a_name_debug_prints_its_name_and_static_size() {
        assert_eq!(format!("{:?}", NamedDim::<Seq, Dyn>::default()), "Seq");
        assert_eq!(
            format!("{:?}", NamedDim::<Head, D<32>>::default()),
            "Head (32)"
        );
    }
}
