//! Dims as types: static dims ([`D<N>`] and [`K<Hi, Lo>`]), [`Dyn`] (run time), axis
//! indices [`Ax<I>`], and the dim-level comparisons (equality, broadcast, unify).
//! Arithmetic on dims (product, sum, difference, exact quotient, the conv/pool output
//! size) is in [`crate::typelevel::arith`].
//!
//! # Every static dim, in decimal
//!
//! A static dim is written in decimal groups of three digits, as one writes `50,257`:
//!
//! * `D<N>` for `N` in `0..=999` (a *leaf*): `Shape![3, 64, 768]` is
//!   `(D<3>, D<64>, D<768>)`;
//! * `K<Hi, Lo>` for `Hi · 1000 + Lo`, where `Hi` is a static dim ≥ 1 and `Lo` a leaf:
//!   `Shape![50257]` is `(K<D<50>, D<257>>,)`, 1024 is `K<D<1>, D<24>>` and
//!   2^32 = 4,294,967,296 is `K<K<K<D<4>, D<294>>, D<967>>, D<296>>`.
//!
//! Each number has exactly one form (no leading zero group), so two static dims are equal
//! exactly when their types are. `Shape![..]`, `tensor!` and `layout!` write the form for
//! you; computed dims (products, sums, quotients, conv output sizes) come out in it too.
//! There is no table of allowed sizes: the only table is the thousand leaves, mapped
//! (`build.rs`) to their decimal digits where a rule needs arithmetic
//! ([`crate::typelevel::decimal`]).
//!
//! # Names
//!
//! Rules match dims through the traits of this module ([`StaticDim`], [`DimEq`],
//! [`IsOne`], ...), never through `D<N>` directly, so a named dim (the user's struct
//! `Seq`, a [`NamedDim`](crate::typelevel::named::NamedDim)) is one more implementor:
//! [`StaticDim`] by its size, [`DimEq`] by size *and* name (so `Seq` and `HeadDim` of
//! size 16 do not unify). The impls here are for `D`, `K` and `Dyn`; a name's are one
//! blanket impl per trait in [`crate::typelevel::named`] (coherent beside these: the
//! three never implement `NamedDim`).

use crate::typelevel::decimal::{
    DCons, DNil, Dg0, Dg1, Dg2, Dg3, Dg4, Dg5, Dg6, Dg7, Dg8, Dg9, DigEq, LeafOf,
};
use std::fmt;
use std::marker::PhantomData;
use typenum::{Bit, B0, B1};

/// A static dim of size `N` (elements) for `N` in `0..=999`; written `N` inside
/// `Shape![..]`. Larger sizes are [`K`]s of these.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct D<const N: usize>;

/// A static dim of size `Hi · 1000 + Lo` (elements): `Hi` a static dim ≥ 1 (a [`D`] or a
/// `K`), `Lo` a leaf `D<0>..D<999>`. Written as a plain number inside `Shape![..]`
/// (`Shape![50257]` is `(K<D<50>, D<257>>,)`).
pub struct K<Hi, Lo>(PhantomData<(Hi, Lo)>);

impl<Hi, Lo> Clone for K<Hi, Lo> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<Hi, Lo> Copy for K<Hi, Lo> {}
impl<Hi, Lo> Default for K<Hi, Lo> {
    fn default() -> Self {
        K(PhantomData)
    }
}

/// A dim whose size is known only at run time. Written `Dyn` inside `Shape![..]`.
///
/// Where a `Dyn` meets a static dim the run-time check applies with PyTorch's message
/// (`The size of tensor a (5) must match the size of tensor b (4) at non-singleton
/// dimension 0`).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug)]
pub struct Dyn;

/// An axis index `I` (an element of `Axes![..]`); `Ax<1>` is dim 1.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Ax<const I: usize>;

impl<const N: usize> fmt::Debug for D<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "D<{N}>")
    }
}

impl<Hi: Dim, Lo: Dim> fmt::Debug for K<Hi, Lo> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match Self::STATIC {
            Some(n) => fmt_static(f, n),
            None => f.write_str(std::any::type_name::<Self>()),
        }
    }
}

/// Writes the static dim of size `n` as its type (`D<768>`, `K<D<50>, D<257>>`): each
/// size has one form, so the size gives it.
#[cfg_attr(unoptimized, inline)]
fn fmt_static(f: &mut fmt::Formatter<'_>, n: usize) -> fmt::Result {
    if n < 1000 {
        return write!(f, "D<{n}>");
    }
    f.write_str("K<")?;
    fmt_static(f, n / 1000)?;
    write!(f, ", D<{}>>", n % 1000)
}

impl<const I: usize> fmt::Debug for Ax<I> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Ax<{I}>")
    }
}

/// A dim: a static dim ([`D<N>`], [`K`]), [`Dyn`], or a named dim (a struct that `dims!`
/// declares, [`NamedDim`](crate::typelevel::named::NamedDim)). Dims are types only (`D`,
/// `K` and `Dyn` are also `Copy` and `Default` values, a name need not be).
///
/// # A dim compared with itself
///
/// The supertraits state what every rule concludes when a dim meets *itself*: it
/// unifies ([`DimEq`] is `B1`, [`Unify`] gives it back) and broadcasts to itself
/// ([`BroadcastAt`]); and what it concludes against `Dyn` (they unify, the run time
/// checks the size) and against an unnamed 1 (the 1 broadcasts). So code generic over a
/// dim type parameter `E: Dim` compiles wherever `E` meets `E` (`[.., S, E] @ [.., E,
/// S]`, `[N, H] + [H]`, `[N, H] - [N, 1]`), with no bound but `Dim`: the trait solver
/// takes these facts from the bound instead of computing them from a size it does not
/// know. Two *different* type parameters are never equal (no impl says so), as two
/// different names never are.
///
/// A `D<N>` is a dim for `N` in `0..=999` (`D<{ N }>` over a generic `const N: usize`
/// needs the bound `D<N>: Dim`); a named dim is one through the impl `dims!` writes.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a dim",
    label = "a dim is `D<N>` (N in 0..=999), `K<Hi, Lo>`, `Dyn`, a name from `dims!`, or a type parameter bounded by `Dim`",
    note = "write sizes inside `Shape![..]` (`Shape![50257]` is `K<D<50>, D<257>>`); a `D<{{ N }}>` over a generic `const N: usize` needs the bound `D<N>: Dim`"
)]
pub trait Dim:
    Sized
    + Send
    + Sync
    + 'static
    + fmt::Debug
    + IsOne
    + SizeOf
    + DimEq<Self, Output = B1>
    + DimEq<Dyn, Output = B1>
    + Unify<Self, Output = Self>
    + Unify<Dyn, Output = Self>
    + BroadcastAt<Self, Output = Self, Ok = B1>
    + BroadcastAt<D<1>, Output = Self, Ok = B1>
    + NarrowDim
{
    /// `Some(size)` for a static dim, `None` for `Dyn`.
    const STATIC: Option<usize>;
}

/// A `D<N>` is a dim when it is a leaf (`N` in 0..=999): one impl, whose facts about a
/// leaf met by itself follow from [`Leaf`]'s bounds.
impl<const N: usize> Dim for D<N>
where
    D<N>: Leaf,
{
    const STATIC: Option<usize> = Some(N);
}

/// The size of a dim, its name taken off: a name's
/// [`NamedDim::Size`](crate::typelevel::named::NamedDim::Size); any other dim itself
/// (the impls are beside [`crate::typelevel::named::NamedDim`]). Arithmetic and element
/// counts read dims through it; a dim type parameter's size is a dim of its own.
pub trait SizeOf {
    /// The unnamed dim.
    type Unnamed: Dim;
}

/// The dim that a slice of run-time length leaves of this dim (`narrow_dyn`): `Dyn` for
/// an unnamed dim; for a name, the name kept with a run-time length (the name itself when
/// its size is `Dyn`, else its [`Part`](crate::typelevel::named::Part)); the impls for
/// names are beside [`crate::typelevel::named::NamedDim`]. In generic code over `X: Dim`
/// the narrowed dim is `<X as NarrowDim>::Output`, written
/// [`Narrowed<X>`](crate::typelevel::named::Narrowed).
pub trait NarrowDim {
    /// The narrowed dim.
    type Output: Dim;
}
impl<const N: usize> NarrowDim for D<N> {
    type Output = Dyn;
}
impl<Hi, Lo> NarrowDim for K<Hi, Lo> {
    type Output = Dyn;
}
impl NarrowDim for Dyn {
    type Output = Dyn;
}

impl<Hi: Dim, Lo: Dim> Dim for K<Hi, Lo> {
    const STATIC: Option<usize> = match (Hi::STATIC, Lo::STATIC) {
        (Some(h), Some(l)) => Some(h * 1000 + l),
        _ => None,
    };
}

impl Dim for Dyn {
    const STATIC: Option<usize> = None;
}

/// An axis: [`Ax<I>`].
pub trait Axis: Copy + Default + Send + Sync + 'static + fmt::Debug {
    /// The axis index.
    const INDEX: usize;
}

impl<const I: usize> Axis for Ax<I> {
    const INDEX: usize = I;
}

// ---- static dims and their digits ------------------------------------------------

/// A leaf: `D<N>` for `N` in `0..=999`, with its decimal digits (the generated table).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a static dim: `D<N>` holds sizes 0..=999",
    label = "write larger sizes inside `Shape![..]`",
    note = "`Shape![50257]` writes 50257 as `K<D<50>, D<257>>` (groups of three digits); for a size given by a const, name the dim once: `type Vocab = Dim![VOCAB];`"
)]
pub trait Leaf: Dim {
    /// `N`'s digits, ones first, canonical ([`crate::typelevel::decimal`]).
    type Digits;
    /// The digits of `Hi · 1000 + N` for the digits `Hi` of a number: `N`'s three
    /// digits (with zeros) below `Hi`.
    type Below<Hi>;
    /// `N`'s three digits (with zeros), ones first: what two leaves compare. Equal to
    /// itself, so that a leaf met by itself unifies in generic code (`D<N>` over a const
    /// parameter) as [`Dim`] states.
    type Three: Eq3<Self::Three, Output = B1>;
    /// `B1` for `D<1>`, else `B0`; with what a broadcast of the leaf with itself or with
    /// an unnamed 1 concludes (the leaf), proven once per leaf in the table.
    type IsOne: Bool
        + BroadcastLhs<Self, Self, Output = Self, Ok = B1>
        + BroadcastLhs<Self, D<1>, Output = Self, Ok = B1>;
}

include!(concat!(env!("OUT_DIR"), "/leaf_table.rs"));

/// A static dim ([`D<N>`] or [`K`]) with its size as a list of decimal digits, for the
/// rules that need arithmetic ([`crate::typelevel::arith`]). The list is read off the
/// dim's groups (no arithmetic), so this bound costs little.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a static dim",
    label = "a static dim is required here"
)]
pub trait StaticDim: Dim {
    /// The size's decimal digits, ones first ([`crate::typelevel::decimal`]).
    type Digits;
}

impl<const N: usize> StaticDim for D<N>
where
    D<N>: Leaf,
{
    type Digits = <D<N> as Leaf>::Digits;
}

impl<Hi: StaticDim, Lo: Leaf> StaticDim for K<Hi, Lo> {
    type Digits = <Lo as Leaf>::Below<Hi::Digits>;
}

/// The decimal digits of static dim `X`.
pub type DigitsOf<X> = <X as StaticDim>::Digits;

// ---- type-level booleans ----------------------------------------------------------

/// `If<C, T, F>`: `T` when the typenum bit `C` is `B1`, else `F`.
pub trait Select<T, F> {
    /// The chosen type.
    type Output;
}
impl<T, F> Select<T, F> for B1 {
    type Output = T;
}
impl<T, F> Select<T, F> for B0 {
    type Output = F;
}
/// `T` if `C` is `B1`, else `F`.
pub type If<C, T, F> = <C as Select<T, F>>::Output;

/// [`Select`] as a generic associated type: a bit that is [`Bool`] picks between any two
/// types without a bound per pair (what [`crate::shape::check::Blame`] needs in
/// generic rules).
pub trait Pick {
    /// `T` for `B1`, `F` for `B0`.
    type Out<T, F>;
}
impl Pick for B1 {
    type Out<T, F> = T;
}
impl Pick for B0 {
    type Out<T, F> = F;
}
/// A typenum bit that can [`Pick`]: the bits the rules compute.
pub trait Bool: Bit + Pick {}
impl<X: Bit + Pick> Bool for X {}

/// Boolean or of two typenum bits: typenum's `BitOr`, with the `Output: Bit` bound
/// the rules rely on (typenum's operator traits do not state it, so using them directly
/// would add a where-clause to every rule).
pub trait Or<Rhs> {
    /// `Self | Rhs`.
    type Output: Bool;
}
impl<L: std::ops::BitOr<R, Output: Bool>, R> Or<R> for L {
    type Output = <L as std::ops::BitOr<R>>::Output;
}
/// Boolean and of two typenum bits: typenum's `BitAnd` with `Output: Bit` (as [`Or`]).
pub trait And<Rhs> {
    /// `Self & Rhs`.
    type Output: Bool;
}
impl<L: std::ops::BitAnd<R, Output: Bool>, R> And<R> for L {
    type Output = <L as std::ops::BitAnd<R>>::Output;
}
/// Boolean not of a typenum bit: typenum's `Not` with `Output: Bit` (as [`Or`]).
pub trait Not {
    /// `!Self`.
    type Output: Bool;
}
impl<X: std::ops::Not<Output: Bool>> Not for X {
    type Output = <X as std::ops::Not>::Output;
}

// ---- dim comparisons --------------------------------------------------------------

/// Declares a dim rule that holds for every dim (its output says whether the dims agree):
/// its only failure is a dim out of range, a `D<N>` of 1000 or more written by hand, and
/// the message says so. (Beside a rule's impls for `D` and `K` is a blanket impl for
/// names, so rustc reports such a failure as this rule's, not `Leaf`'s.)
macro_rules! dim_rule {
    ($(#[$m:meta])* pub trait $($rest:tt)*) => {
        $(#[$m])*
        #[diagnostic::on_unimplemented(
            message = "`{Self}`, or a dim it meets, is not a static dim: `D<N>` holds sizes 0..=999",
            label = "write larger sizes inside `Shape![..]`",
            note = "`Shape![50257]` writes 50257 as `K<D<50>, D<257>>` (groups of three digits); for a size given by a const, name the dim once: `type Vocab = Dim![VOCAB];`"
        )]
        pub trait $($rest)*
    };
}
pub(crate) use dim_rule;

dim_rule! {
/// `DimEq<Rhs>`: `B1` when the dims may be equal: equal static dims, or either is `Dyn`
/// (decided at run time); `B0` for two different static dims. Two leaves compare their
/// digits; a leaf never equals a `K` (which is ≥ 1000); two `K`s compare group by group.
pub trait DimEq<Rhs> {
    /// `B1` or `B0`.
    type Output: Bit;
}
}
// Two leaves: their three digits each (zeros included), compared in one step.
#[diagnostic::do_not_recommend]
impl<const A: usize, const B: usize> DimEq<D<B>> for D<A>
where
    D<A>: Leaf,
    D<B>: Leaf,
    <D<A> as Leaf>::Three: Eq3<<D<B> as Leaf>::Three>,
{
    type Output = <<D<A> as Leaf>::Three as Eq3<<D<B> as Leaf>::Three>>::Output;
}
#[diagnostic::do_not_recommend]
impl<const A: usize, H, L> DimEq<K<H, L>> for D<A> {
    type Output = B0;
}
#[diagnostic::do_not_recommend]
impl<H, L, const B: usize> DimEq<D<B>> for K<H, L> {
    type Output = B0;
}
#[diagnostic::do_not_recommend]
impl<H1: DimEq<H2>, L1: DimEq<L2>, H2, L2> DimEq<K<H2, L2>> for K<H1, L1>
where
    <H1 as DimEq<H2>>::Output: And<<L1 as DimEq<L2>>::Output>,
{
    type Output = <<H1 as DimEq<H2>>::Output as And<<L1 as DimEq<L2>>::Output>>::Output;
}
#[diagnostic::do_not_recommend]
impl<const A: usize> DimEq<Dyn> for D<A> {
    type Output = B1;
}
#[diagnostic::do_not_recommend]
impl<H, L> DimEq<Dyn> for K<H, L> {
    type Output = B1;
}
#[diagnostic::do_not_recommend]
impl<X: Dim> DimEq<X> for Dyn {
    type Output = B1;
}

/// `B1` when two lists of exactly three digits are equal (the digits of two leaves).
pub trait Eq3<Rhs> {
    /// `B1` or `B0`.
    type Output: Bit;
}
impl<A0: DigEq<B0_>, A1: DigEq<B1_>, A2: DigEq<B2_>, B0_, B1_, B2_>
    Eq3<DCons<B0_, DCons<B1_, DCons<B2_, DNil>>>> for DCons<A0, DCons<A1, DCons<A2, DNil>>>
where
    <A0 as DigEq<B0_>>::Output: All3<<A1 as DigEq<B1_>>::Output, <A2 as DigEq<B2_>>::Output>,
{
    type Output = <<A0 as DigEq<B0_>>::Output as All3<
        <A1 as DigEq<B1_>>::Output,
        <A2 as DigEq<B2_>>::Output,
    >>::Output;
}
/// `Self & B & C` on typenum bits, as one table lookup.
pub trait All3<B, C> {
    /// `B1` or `B0`.
    type Output: Bit;
}
impl All3<B1, B1> for B1 {
    type Output = B1;
}
impl All3<B0, B1> for B1 {
    type Output = B0;
}
impl<C> All3<C, B0> for B1 {
    type Output = B0;
}
impl<B, C> All3<B, C> for B0 {
    type Output = B0;
}

dim_rule! {
/// `IsOne`: `B1` for `D<1>`, `B0` for any other static dim and for `Dyn`.
pub trait IsOne {
    /// `B1` or `B0`.
    type Output: Bit;
}
}
#[diagnostic::do_not_recommend]
impl<const A: usize> IsOne for D<A>
where
    D<A>: Leaf,
{
    type Output = <D<A> as Leaf>::IsOne;
}
#[diagnostic::do_not_recommend]
impl<H, L> IsOne for K<H, L> {
    type Output = B0;
}
#[diagnostic::do_not_recommend]
impl IsOne for Dyn {
    type Output = B0;
}

/// One dim pair of a broadcast: `Self` with `Rhs` (the rule:
/// [`crate::shape::broadcast`]). Two static dims that do not broadcast are a verdict, not
/// a missing impl; it is missing only for dims it cannot compare: two different type
/// parameters of generic code.
#[diagnostic::on_unimplemented(
    message = "cannot broadcast {Self} with {Rhs}: two different dim types",
    label = "two different dim type parameters never broadcast, whatever they are instantiated with",
    note = "a dim type parameter broadcasts with itself, with an unnamed 1 and from `Dyn`"
)]
pub trait BroadcastAt<Rhs> {
    /// The broadcast dim (meaningful when `Ok` is `B1`).
    type Output: Dim;
    /// `B1` when the dims broadcast (or a `Dyn` defers the check to run time).
    type Ok;
}

/// [`BroadcastAt`] of two static dims after asking whether the left one, `A`, is 1
/// (`Self`): `B1` gives `B`; `B0` asks the same of `B` ([`BroadcastRhs`]).
pub trait BroadcastLhs<A, B> {
    /// The broadcast dim.
    type Output: Dim;
    /// `B1` when the dims broadcast.
    type Ok;
}
/// [`BroadcastLhs`] after asking whether `B` is 1 (`Self`): `B1` gives `A`; `B0` gives
/// the one of `A` and `B` that is named ([`NamedOr`]) when the dims are equal (`Ok` is
/// their [`DimEq`], which compares names).
pub trait BroadcastRhs<A, B> {
    /// The broadcast dim.
    type Output: Dim;
    /// `B1` when the dims broadcast.
    type Ok;
}
/// [`BroadcastAt`] of the name `X` of size `Self` with `B`: a static name as a static dim
/// that is not 1; a run-time one with a 1, the same name, `Dyn` or an unnamed dim of any
/// size (checked at run time). The impls are beside the rule
/// ([`crate::shape::broadcast`]).
pub trait BroadcastAtBySize<X, B> {
    /// The broadcast dim.
    type Output: Dim;
    /// `B1` when the dims broadcast.
    type Ok;
}

/// `CanBroadcast<Rhs>`: `B1` when the two dims broadcast statically: equal, either is 1,
/// or either is `Dyn` (checked at run time).
pub trait CanBroadcast<Rhs> {
    /// `B1` or `B0`.
    type Output: Bool;
}
impl<X, Y> CanBroadcast<Y> for X
where
    X: DimEq<Y> + IsOne,
    Y: IsOne,
    <X as DimEq<Y>>::Output: Or<<X as IsOne>::Output>,
    <<X as DimEq<Y>>::Output as Or<<X as IsOne>::Output>>::Output: Or<<Y as IsOne>::Output>,
{
    type Output = <<<X as DimEq<Y>>::Output as Or<<X as IsOne>::Output>>::Output as Or<
        <Y as IsOne>::Output,
    >>::Output;
}

dim_rule! {
/// `BroadcastDim<Rhs>`: the broadcast of two dims (valid pairs only, see
/// [`CanBroadcast`]): `1,X` → `X`; `X,1` → `X`; `N,N` → `N`; `Dyn,N` → `N` for
/// `N > 1` (run time checks the `Dyn` is 1 or N); `Dyn,1` → `Dyn`; `Dyn,Dyn` → `Dyn`.
pub trait BroadcastDim<Rhs> {
    /// The broadcast dim.
    type Output: Dim;
}
}
#[diagnostic::do_not_recommend]
impl<const N: usize, Y: Dim> BroadcastDim<Y> for D<N>
where
    D<N>: IsOne,
    <D<N> as IsOne>::Output: Select<Y, D<N>, Output: Dim>,
{
    type Output = If<<D<N> as IsOne>::Output, Y, D<N>>;
}
/// A `K` is ≥ 1000, never 1: itself.
#[diagnostic::do_not_recommend]
impl<H: Dim, L: Dim, Y> BroadcastDim<Y> for K<H, L> {
    type Output = Self;
}
#[diagnostic::do_not_recommend]
impl<Y: Dim + IsOne> BroadcastDim<Y> for Dyn
where
    <Y as IsOne>::Output: Select<Dyn, Y, Output: Dim>,
{
    type Output = If<<Y as IsOne>::Output, Dyn, Y>;
}

/// `Unify<Rhs>`: the more precise of two dims that must be equal: the static one (a
/// named one over an unnamed one, [`NamedOr`]), or `Dyn` if both are `Dyn` (matmul inner
/// dims, `check_shape`, `cat`).
pub trait Unify<Rhs> {
    /// The unified dim.
    type Output: Dim;
}
impl<const N: usize, Y: NamedOr<D<N>>> Unify<Y> for D<N> {
    type Output = <Y as NamedOr<D<N>>>::Out;
}
impl<H, L, Y: NamedOr<K<H, L>>> Unify<Y> for K<H, L> {
    type Output = <Y as NamedOr<K<H, L>>>::Out;
}
impl<Y: Dim> Unify<Y> for Dyn {
    type Output = Y;
}

/// Of two static dims that unify, or a static dim `X` and a run-time one `Self`, the one
/// a result keeps: a named static dim (`Self`) over an unnamed one, else `X` (a static
/// size over a run-time one). Named dims: [`crate::typelevel::named`].
pub trait NamedOr<X> {
    /// The kept dim.
    type Out: Dim;
}
impl<const N: usize, X: Dim> NamedOr<X> for D<N> {
    type Out = X;
}
impl<H, L, X: Dim> NamedOr<X> for K<H, L> {
    type Out = X;
}
impl<X: Dim> NamedOr<X> for Dyn {
    type Out = X;
}

/// Of a named run-time dim `X` and a dim `Self` it unifies with, the one a result keeps:
/// `X` for `Dyn` (the name is kept), else `Self` (the static size, or the same name).
pub trait RunTimeOr<X> {
    /// The kept dim.
    type Out: Dim;
}
impl<X: Dim> RunTimeOr<X> for Dyn {
    type Out = X;
}
impl<const N: usize, X> RunTimeOr<X> for D<N>
where
    D<N>: Dim,
{
    type Out = Self;
}
impl<H: Dim, L: Dim, X> RunTimeOr<X> for K<H, L> {
    type Out = Self;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equality_compares_group_by_group() {
        fn eq<X: DimEq<Y>, Y>() -> bool {
            <X::Output as Bit>::BOOL
        }
        assert!(eq::<K<D<50>, D<257>>, K<D<50>, D<257>>>());
        assert!(!eq::<K<D<50>, D<257>>, K<D<50>, D<256>>>());
        assert!(!eq::<K<D<1>, D<0>>, D<1>>());
        assert!(!eq::<D<3>, D<4>>());
        assert!(!eq::<D<3>, D<30>>());
        assert!(eq::<D<30>, D<30>>());
        assert!(eq::<Dyn, K<D<1>, D<0>>>());
    }

    #[test]
    fn one_is_one() {
        fn one<X: IsOne>() -> bool {
            <X::Output as Bit>::BOOL
        }
        assert!(one::<D<1>>());
        assert!(!one::<D<0>>());
        assert!(!one::<D<10>>());
        assert!(!one::<K<D<1>, D<1>>>());
        assert!(!one::<Dyn>());
    }
}
