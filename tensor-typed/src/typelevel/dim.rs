//! Dims as types: [`D<N>`] (static), [`Dyn`] (run time), axis indices [`Ax<I>`], and the
//! dim-level operators (equality, broadcast, product, exact division).
//!
//! Static dims are nominal (`D<3>` is printed as `D<3>`). Where a bound needs arithmetic,
//! [`DimNum`] maps `D<N>` to the typenum unsigned of `N` and [`NumDim`] maps a computed
//! typenum back to `D<N>`; both come from a generated table (`build.rs`) covering
//! 0..=1024, multiples of 64 up to 65536, and powers of 2 (to 2^40) and 10 (to 10^12).

use std::fmt;
use std::ops::Mul;
use typenum::{Bit, IsEqual, B0, B1, U1};

/// A static dim of size `N` (elements). Written `N` inside `Shape![..]`.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct D<const N: usize>;

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

impl<const I: usize> fmt::Debug for Ax<I> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Ax<{I}>")
    }
}

/// A dim: [`D<N>`] or [`Dyn`].
pub trait Dim: Copy + Default + Send + Sync + 'static + fmt::Debug {
    /// `Some(N)` for `D<N>`, `None` for `Dyn`.
    const STATIC: Option<usize>;
}

impl<const N: usize> Dim for D<N> {
    const STATIC: Option<usize> = Some(N);
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

/// Maps a dim to the number used in type-level arithmetic: `D<N>` → typenum `U<N>`,
/// `Dyn` → `Dyn`.
#[diagnostic::on_unimplemented(
    message = "static dim {Self} is outside the type-level table of tensor-typed",
    label = "this dim takes part in a compile-time check",
    note = "the table covers 0..=1024, multiples of 64 up to 65536 and powers of 2 and 10; \
            write this dim as `Dyn` to check it at run time instead"
)]
pub trait DimNum {
    /// The typenum unsigned (or `Dyn`).
    type Num;
}

/// Maps a computed typenum unsigned back to its dim `D<N>` (`Dyn` stays `Dyn`).
#[diagnostic::on_unimplemented(
    message = "a computed static dim is outside the type-level table of tensor-typed",
    note = "the table covers 0..=1024, multiples of 64 up to 65536 and powers of 2 and 10; \
            use `Dyn` for this dim"
)]
pub trait NumDim {
    /// The dim.
    type Dim;
}

impl DimNum for Dyn {
    type Num = Dyn;
}

impl NumDim for Dyn {
    type Dim = Dyn;
}

impl<const I: usize> DimNum for Ax<I>
where
    D<I>: DimNum,
{
    type Num = <D<I> as DimNum>::Num;
}

include!(concat!(env!("OUT_DIR"), "/dim_table.rs"));

/// The typenum number of dim `X`.
pub type NumOf<X> = <X as DimNum>::Num;
/// The dim of typenum number `N`.
pub type DimOf<N> = <N as NumDim>::Dim;

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

/// Boolean or of two typenum bits: typenum's own `BitOr`, with the `Output: Bit` bound
/// the rules rely on (typenum's operator traits do not state it, so using them directly
/// would add a where-clause to every rule).
pub trait Or<Rhs> {
    /// `Self | Rhs`.
    type Output: Bit;
}
impl<L: std::ops::BitOr<R, Output: Bit>, R> Or<R> for L {
    type Output = <L as std::ops::BitOr<R>>::Output;
}
/// Boolean and of two typenum bits: typenum's `BitAnd` with `Output: Bit` (as [`Or`]).
pub trait And<Rhs> {
    /// `Self & Rhs`.
    type Output: Bit;
}
impl<L: std::ops::BitAnd<R, Output: Bit>, R> And<R> for L {
    type Output = <L as std::ops::BitAnd<R>>::Output;
}
/// Boolean not of a typenum bit: typenum's `Not` with `Output: Bit` (as [`Or`]).
pub trait Not {
    /// `!Self`.
    type Output: Bit;
}
impl<X: std::ops::Not<Output: Bit>> Not for X {
    type Output = <X as std::ops::Not>::Output;
}

// ---- dim operators ----------------------------------------------------------------

/// `DimEq<Rhs>`: `B1` when the dims may be equal: equal static dims, or either is `Dyn`
/// (decided at run time); `B0` for two different static dims.
pub trait DimEq<Rhs> {
    /// `B1` or `B0`.
    type Output: Bit;
}
impl<const A: usize, const B: usize> DimEq<D<B>> for D<A>
where
    D<A>: DimNum,
    D<B>: DimNum,
    NumOf<D<A>>: IsEqual<NumOf<D<B>>>,
{
    type Output = <NumOf<D<A>> as IsEqual<NumOf<D<B>>>>::Output;
}
impl<const A: usize> DimEq<Dyn> for D<A> {
    type Output = B1;
}
impl<X: Dim> DimEq<X> for Dyn {
    type Output = B1;
}

/// `IsOne`: `B1` for `D<1>`, `B0` for any other static dim and for `Dyn`.
pub trait IsOne {
    /// `B1` or `B0`.
    type Output: Bit;
}
impl<const A: usize> IsOne for D<A>
where
    D<A>: DimNum,
    NumOf<D<A>>: IsEqual<U1>,
{
    type Output = <NumOf<D<A>> as IsEqual<U1>>::Output;
}
impl IsOne for Dyn {
    type Output = B0;
}

/// `CanBroadcast<Rhs>`: `B1` when the two dims broadcast statically: equal, either is 1,
/// or either is `Dyn` (checked at run time).
pub trait CanBroadcast<Rhs> {
    /// `B1` or `B0`.
    type Output: Bit;
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

/// `BroadcastDim<Rhs>`: the broadcast of two dims (valid pairs only, see
/// [`CanBroadcast`]): `1,X` → `X`; `X,1` → `X`; `N,N` → `N`; `Dyn,N` → `N` for
/// `N > 1` (run time checks the `Dyn` is 1 or N); `Dyn,1` → `Dyn`; `Dyn,Dyn` → `Dyn`.
pub trait BroadcastDim<Rhs> {
    /// The broadcast dim.
    type Output: Dim;
}
impl<const A: usize, const B: usize> BroadcastDim<D<B>> for D<A>
where
    D<A>: IsOne,
    <D<A> as IsOne>::Output: Select<D<B>, D<A>, Output: Dim>,
{
    type Output = If<<D<A> as IsOne>::Output, D<B>, D<A>>;
}
impl<const A: usize> BroadcastDim<Dyn> for D<A>
where
    D<A>: IsOne,
    <D<A> as IsOne>::Output: Select<Dyn, D<A>, Output: Dim>,
{
    type Output = If<<D<A> as IsOne>::Output, Dyn, D<A>>;
}
impl<const B: usize> BroadcastDim<D<B>> for Dyn
where
    D<B>: IsOne,
    <D<B> as IsOne>::Output: Select<Dyn, D<B>, Output: Dim>,
{
    type Output = If<<D<B> as IsOne>::Output, Dyn, D<B>>;
}
impl BroadcastDim<Dyn> for Dyn {
    type Output = Dyn;
}

/// `Unify<Rhs>`: the more precise of two dims that must be equal: the static one, or
/// `Dyn` if both are `Dyn` (matmul inner dims, `check_shape`).
pub trait Unify<Rhs> {
    /// The unified dim.
    type Output: Dim;
}
impl<const A: usize, Y: Dim> Unify<Y> for D<A> {
    type Output = D<A>;
}
impl<const B: usize> Unify<D<B>> for Dyn {
    type Output = D<B>;
}
impl Unify<Dyn> for Dyn {
    type Output = Dyn;
}

/// `DimMul<Rhs>`: the product of two dims; `Dyn` if either is `Dyn`.
pub trait DimMul<Rhs> {
    /// The product.
    type Output: Dim;
}
impl<const A: usize, const B: usize> DimMul<D<B>> for D<A>
where
    D<A>: DimNum,
    D<B>: DimNum,
    NumOf<D<A>>: Mul<NumOf<D<B>>>,
    <NumOf<D<A>> as Mul<NumOf<D<B>>>>::Output: NumDim<Dim: Dim>,
{
    type Output = DimOf<<NumOf<D<A>> as Mul<NumOf<D<B>>>>::Output>;
}
impl<const A: usize> DimMul<Dyn> for D<A> {
    type Output = Dyn;
}
impl<X: Dim> DimMul<X> for Dyn {
    type Output = Dyn;
}
/// The product of dims `A` and `B`.
pub type Prod<A, B> = <A as DimMul<B>>::Output;

/// The check behind [`DimDiv`]: implemented only for `B1` (divisible).
#[diagnostic::on_unimplemented(
    message = "cannot split dim {A} by {B}: {A} is not divisible by {B}",
    label = "dim {A} is not a multiple of {B}"
)]
pub trait DivisibleOk<const A: usize, const B: usize> {}
impl<const A: usize, const B: usize> DivisibleOk<A, B> for B1 {}

/// `DimDiv<Rhs>`: exact division of two dims (a compile error when both are static and
/// `Rhs` does not divide `Self`); `Dyn` if either is `Dyn`.
pub trait DimDiv<Rhs> {
    /// The quotient.
    type Output: Dim;
}
impl<const A: usize, const B: usize> DimDiv<D<B>> for D<A>
where
    D<A>: crate::typelevel::factor::ExactDiv<D<B>, Output: Dim>,
    <D<A> as crate::typelevel::factor::ExactDiv<D<B>>>::Ok: DivisibleOk<A, B>,
{
    type Output = <D<A> as crate::typelevel::factor::ExactDiv<D<B>>>::Output;
}
impl<const A: usize> DimDiv<Dyn> for D<A> {
    type Output = Dyn;
}
impl<X: Dim> DimDiv<X> for Dyn {
    type Output = Dyn;
}
/// The exact quotient of dims `A` and `B`.
pub type Quot<A, B> = <A as DimDiv<B>>::Output;
