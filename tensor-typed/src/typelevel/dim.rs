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
    type Out;
}
impl<T, F> Select<T, F> for B1 {
    type Out = T;
}
impl<T, F> Select<T, F> for B0 {
    type Out = F;
}
/// `T` if `C` is `B1`, else `F`.
pub type If<C, T, F> = <C as Select<T, F>>::Out;

/// Boolean or of two typenum bits.
pub trait Or<Rhs> {
    /// `Self | Rhs`.
    type Out: Bit;
}
impl<R: Bit> Or<R> for B1 {
    type Out = B1;
}
impl<R: Bit> Or<R> for B0 {
    type Out = R;
}
/// Boolean and of two typenum bits.
pub trait And<Rhs> {
    /// `Self & Rhs`.
    type Out: Bit;
}
impl<R: Bit> And<R> for B1 {
    type Out = R;
}
impl<R: Bit> And<R> for B0 {
    type Out = B0;
}
/// Boolean not of a typenum bit.
pub trait Not {
    /// `!Self`.
    type Out: Bit;
}
impl Not for B1 {
    type Out = B0;
}
impl Not for B0 {
    type Out = B1;
}

// ---- dim operators ----------------------------------------------------------------

/// `DimEq<Rhs>`: `B1` when the dims may be equal: equal static dims, or either is `Dyn`
/// (decided at run time); `B0` for two different static dims.
pub trait DimEq<Rhs> {
    /// `B1` or `B0`.
    type Out: Bit;
}
impl<const A: usize, const B: usize> DimEq<D<B>> for D<A>
where
    D<A>: DimNum,
    D<B>: DimNum,
    NumOf<D<A>>: IsEqual<NumOf<D<B>>>,
{
    type Out = <NumOf<D<A>> as IsEqual<NumOf<D<B>>>>::Output;
}
impl<const A: usize> DimEq<Dyn> for D<A> {
    type Out = B1;
}
impl<X: Dim> DimEq<X> for Dyn {
    type Out = B1;
}

/// `IsOne`: `B1` for `D<1>`, `B0` for any other static dim and for `Dyn`.
pub trait IsOne {
    /// `B1` or `B0`.
    type Out: Bit;
}
impl<const A: usize> IsOne for D<A>
where
    D<A>: DimNum,
    NumOf<D<A>>: IsEqual<U1>,
{
    type Out = <NumOf<D<A>> as IsEqual<U1>>::Output;
}
impl IsOne for Dyn {
    type Out = B0;
}

/// `CanBroadcast<Rhs>`: `B1` when the two dims broadcast statically: equal, either is 1,
/// or either is `Dyn` (checked at run time).
pub trait CanBroadcast<Rhs> {
    /// `B1` or `B0`.
    type Out: Bit;
}
impl<X, Y> CanBroadcast<Y> for X
where
    X: DimEq<Y> + IsOne,
    Y: IsOne,
    <X as DimEq<Y>>::Out: Or<<X as IsOne>::Out>,
    <<X as DimEq<Y>>::Out as Or<<X as IsOne>::Out>>::Out: Or<<Y as IsOne>::Out>,
{
    type Out = <<<X as DimEq<Y>>::Out as Or<<X as IsOne>::Out>>::Out as Or<<Y as IsOne>::Out>>::Out;
}

/// `BroadcastDim<Rhs>`: the broadcast of two dims (valid pairs only, see
/// [`CanBroadcast`]): `1,X` → `X`; `X,1` → `X`; `N,N` → `N`; `Dyn,N` → `N` for
/// `N > 1` (run time checks the `Dyn` is 1 or N); `Dyn,1` → `Dyn`; `Dyn,Dyn` → `Dyn`.
pub trait BroadcastDim<Rhs> {
    /// The broadcast dim.
    type Out: Dim;
}
impl<const A: usize, const B: usize> BroadcastDim<D<B>> for D<A>
where
    D<A>: IsOne,
    <D<A> as IsOne>::Out: Select<D<B>, D<A>, Out: Dim>,
{
    type Out = If<<D<A> as IsOne>::Out, D<B>, D<A>>;
}
impl<const A: usize> BroadcastDim<Dyn> for D<A>
where
    D<A>: IsOne,
    <D<A> as IsOne>::Out: Select<Dyn, D<A>, Out: Dim>,
{
    type Out = If<<D<A> as IsOne>::Out, Dyn, D<A>>;
}
impl<const B: usize> BroadcastDim<D<B>> for Dyn
where
    D<B>: IsOne,
    <D<B> as IsOne>::Out: Select<Dyn, D<B>, Out: Dim>,
{
    type Out = If<<D<B> as IsOne>::Out, Dyn, D<B>>;
}
impl BroadcastDim<Dyn> for Dyn {
    type Out = Dyn;
}

/// `Unify<Rhs>`: the more precise of two dims that must be equal: the static one, or
/// `Dyn` if both are `Dyn` (matmul inner dims, `check_shape`).
pub trait Unify<Rhs> {
    /// The unified dim.
    type Out: Dim;
}
impl<const A: usize, Y: Dim> Unify<Y> for D<A> {
    type Out = D<A>;
}
impl<const B: usize> Unify<D<B>> for Dyn {
    type Out = D<B>;
}
impl Unify<Dyn> for Dyn {
    type Out = Dyn;
}

/// `DimMul<Rhs>`: the product of two dims; `Dyn` if either is `Dyn`.
pub trait DimMul<Rhs> {
    /// The product.
    type Out: Dim;
}
impl<const A: usize, const B: usize> DimMul<D<B>> for D<A>
where
    D<A>: DimNum,
    D<B>: DimNum,
    NumOf<D<A>>: Mul<NumOf<D<B>>>,
    <NumOf<D<A>> as Mul<NumOf<D<B>>>>::Output: NumDim<Dim: Dim>,
{
    type Out = DimOf<<NumOf<D<A>> as Mul<NumOf<D<B>>>>::Output>;
}
impl<const A: usize> DimMul<Dyn> for D<A> {
    type Out = Dyn;
}
impl<X: Dim> DimMul<X> for Dyn {
    type Out = Dyn;
}
/// The product of dims `A` and `B`.
pub type Prod<A, B> = <A as DimMul<B>>::Out;

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
    type Out: Dim;
}
impl<const A: usize, const B: usize> DimDiv<D<B>> for D<A>
where
    D<A>: crate::typelevel::factor::ExactDiv<D<B>, Out: Dim>,
    <D<A> as crate::typelevel::factor::ExactDiv<D<B>>>::Ok: DivisibleOk<A, B>,
{
    type Out = <D<A> as crate::typelevel::factor::ExactDiv<D<B>>>::Out;
}
impl<const A: usize> DimDiv<Dyn> for D<A> {
    type Out = Dyn;
}
impl<X: Dim> DimDiv<X> for Dyn {
    type Out = Dyn;
}
/// The exact quotient of dims `A` and `B`.
pub type Quot<A, B> = <A as DimDiv<B>>::Out;
