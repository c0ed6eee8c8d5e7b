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
//! Two names are compared by their [`DimName::Id`], a static dim of nine decimal digits
//! that `dims!` hashes from the declaring site (crate, file, line, column) and the
//! identifier, compared as any two static dims are ([`DimEq`]). Sizes are types only: a named run-time dim costs at
//! run time what `Dyn` costs.
//!
//! Products and sums of dims (a merge in `layout!`, `cat`, `reshape`, a conv output) go
//! through the size ([`StaticDim::Digits`]) and come out unnamed.

use crate::typelevel::dim::{
    BroadcastDim, Dim, DimEq, Dyn, If, IsOne, NamedOr, RunTimeOr, Select, StaticDim, Unify, D, K,
};
use std::fmt;
use std::marker::PhantomData;
use typenum::{B0, B1};

/// A dim of size `S` (a static dim, or [`Dyn`] for a run-time one) named `N` (a marker
/// declared by `dims!`). Written by its name inside `Shape![..]`: after
/// `dims! { pub Seq; pub Model = 256; }`, `Shape![Seq, Model]` is
/// `(NamedDim<Seq, Dyn>, NamedDim<Model, D<256>>)`.
pub struct NamedDim<N, S>(PhantomData<(N, S)>);

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

impl<N: DimName, S: Dim> fmt::Debug for NamedDim<N, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", N::NAME)?;
        match S::STATIC {
            Some(n) => write!(f, " ({n})"),
            None => Ok(()),
        }
    }
}

/// A dim's name, as `dims!` declares it: a marker type with its identity.
pub trait DimName: Send + Sync + 'static {
    /// The name as written (`"Seq"`), for `Debug`.
    const NAME: &'static str;
    /// The name's identity: a static dim of nine decimal digits (`K<K<D<hi>, D<mid>>,
    /// D<lo>>`) that `dims!` hashes from the declaring site and the identifier; two names
    /// are the same name exactly when their ids are equal.
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

impl<N: DimName, S: Dim> Dim for NamedDim<N, S> {
    const STATIC: Option<usize> = S::STATIC;
}

/// A named static dim is a static dim of its size (arithmetic reads its digits, so a
/// product or a sum of named dims is unnamed).
impl<N: DimName, S: StaticDim> StaticDim for NamedDim<N, S> {
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
    N::Id: DimEq<M::Id>,
{
    type Output = <N::Id as DimEq<M::Id>>::Output;
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
impl<N: DimName, S: StaticDim, X> NamedOr<X> for NamedDim<N, S> {
    type Out = Self;
}
impl<N: DimName, S: Dim, X> RunTimeOr<X> for NamedDim<N, S> {
    type Out = Self;
}

/// A named run-time dim broadcast with `Y`: itself against a 1, else the dim `Y`
/// ([`RunTimeOr`]: the name against `Dyn`, the static size or the same name otherwise).
impl<N: DimName, Y: IsOne + RunTimeOr<Self>> BroadcastDim<Y> for NamedDim<N, Dyn>
where
    <Y as IsOne>::Output: Select<Self, <Y as RunTimeOr<Self>>::Out, Output: Dim>,
{
    type Output = If<<Y as IsOne>::Output, Self, <Y as RunTimeOr<Self>>::Out>;
}
/// A named run-time dim unified with `Y` ([`RunTimeOr`]).
impl<N: DimName, Y: RunTimeOr<Self>> Unify<Y> for NamedDim<N, Dyn> {
    type Output = <Y as RunTimeOr<Self>>::Out;
}

#[cfg(test)]
mod tests {
    use super::*;
    use typenum::Bit;

    struct Seq;
    impl DimName for Seq {
        const NAME: &'static str = "Seq";
        type Id = K<K<D<123>, D<456>>, D<789>>;
    }
    struct Head;
    impl DimName for Head {
        const NAME: &'static str = "Head";
        type Id = K<K<D<123>, D<456>>, D<788>>;
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
