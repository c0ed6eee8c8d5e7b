//! Decimal arithmetic on types: the numbers behind [`crate::typelevel::arith`].
//!
//! A number is a list of decimal digits, ones first: 1024 is
//! `DCons<Dg4, DCons<Dg2, DCons<Dg0, DCons<Dg1, DNil>>>>`, 0 is `DNil`. A static dim gives
//! its list structurally ([`StaticDim::Digits`](crate::typelevel::dim::StaticDim): each
//! leaf `D<n>` is three digits from the generated table, `K<Hi, Lo>` puts `Lo`'s three
//! below `Hi`'s), and a result goes back to its `D`/`K` form by grouping the digits in
//! threes ([`FromDigits`]). So no rule converts between decimal and binary: that
//! conversion (a multiplication by 1000 per group one way, a division by 1000 per group
//! the other) was most of the compile time of arithmetic on dims above 65536.
//!
//! Why not typenum's binary integers: on the compile-cost benchmark's file of 200 ops
//! over dims above 65536 (`benches/compile_cost/gen.py --big`), arithmetic on typenum's
//! integers made `cargo check` about 22 times the untyped time, on decimal digits about
//! 3 times; and binary integers print as `UInt<UInt<UTerm, B1>, B0>` in every error,
//! where a dim prints `D<6>`.
//!
//! The one-digit operations (sum, difference, product, equality) are generated tables
//! (`build.rs`); the list operations below walk the digits with one impl per step. Each
//! impl names every recursive result once, handing it to a helper trait as a parameter,
//! because the trait solver re-derives a projection each time a bound mentions it.
//!
//! *Canonical* lists have no most-significant zero digit; inputs and outputs of the
//! public operators are canonical, intermediate results of a subtraction need not be
//! (they are trimmed with [`Trim`]). Division is in `div.rs`: [`DivRemL`] (quotient and
//! remainder) and [`XDiv`] (exact quotient).

use std::marker::PhantomData;
use typenum::{Bit, B0, B1};

mod div;
pub use div::*;

macro_rules! digits {
    ($($name:ident = $n:literal),*) => {$(
        #[doc = concat!("The decimal digit ", $n, ".")]
        pub struct $name;
    )*};
}
digits!(
    Dg0 = 0,
    Dg1 = 1,
    Dg2 = 2,
    Dg3 = 3,
    Dg4 = 4,
    Dg5 = 5,
    Dg6 = 6,
    Dg7 = 7,
    Dg8 = 8,
    Dg9 = 9
);

/// A digit `D` below the more significant digits `Rest`.
pub struct DCons<D, Rest>(PhantomData<(D, Rest)>);
/// The end of a digit list (alone: the number 0).
pub struct DNil;

// ---- one-digit tables (build.rs) ----------------------------------------------------

/// `Self + B + C` for digits `Self`, `B` and a carry bit `C`.
pub trait DigAdd<B, C> {
    /// The digit of the sum.
    type S;
    /// The carry out.
    type C: Bit;
}
/// `Self - B - Bo` for digits `Self`, `B` and a borrow bit `Bo`.
pub trait DigSub<B, Bo> {
    /// The digit of the difference.
    type D;
    /// The borrow out.
    type B: Bit;
}
/// `Self · B + C` for digits `Self`, `B`, `C`.
pub trait DigMul<B, C> {
    /// The low digit.
    type D;
    /// The high digit (the carry).
    type C;
}
/// `B1` when digits `Self` and `B` are equal.
pub trait DigEq<B> {
    /// `B1` or `B0`.
    type Output: Bit;
}
/// `Self < B`, or `Acc` when the digits are equal (a comparison from the ones up).
pub trait DigLt<B, Acc> {
    /// `B1` or `B0`.
    type Output: Bit;
}
/// The digit `q` with `q · B ≡ Self (mod 10)`, for `B` in 1, 3, 7, 9.
pub trait HInv<B> {
    /// `q`.
    type Output;
}
/// The leaf `D<n>` whose digits are `Self` (ones), `B` (tens), `C` (hundreds).
pub trait LeafOf<B, C> {
    /// `D<n>`.
    type Dim;
}

include!(concat!(env!("OUT_DIR"), "/digit_table.rs"));

// ---- canonical form ---------------------------------------------------------------

/// `DCons<Self, Rest>` for a digit `Self`, except that a zero on top of nothing is nothing
/// (keeps a list canonical when digits are added below a most-significant end).
pub trait ConsTrim<Rest> {
    /// The list.
    type Output;
}
impl ConsTrim<DNil> for Dg0 {
    type Output = DNil;
}
impl<D, R> ConsTrim<DCons<D, R>> for Dg0 {
    type Output = DCons<Dg0, DCons<D, R>>;
}
macro_rules! cons_nonzero {
    ($($d:ident)*) => {$(
        impl<R> ConsTrim<R> for $d {
            type Output = DCons<$d, R>;
        }
    )*};
}
cons_nonzero!(Dg1 Dg2 Dg3 Dg4 Dg5 Dg6 Dg7 Dg8 Dg9);

/// A list without its most-significant zero digits.
pub trait Trim {
    /// The canonical list.
    type Output;
}
impl Trim for DNil {
    type Output = DNil;
}
impl<D: ConsTrim<R::Output>, R: Trim> Trim for DCons<D, R> {
    type Output = <D as ConsTrim<R::Output>>::Output;
}

/// `10 · Self` (a zero digit below), canonical: 0 stays `DNil`.
pub trait Shift10 {
    /// The shifted list.
    type Output;
}
impl Shift10 for DNil {
    type Output = DNil;
}
impl<D, R> Shift10 for DCons<D, R> {
    type Output = DCons<Dg0, DCons<D, R>>;
}

// ---- comparison -------------------------------------------------------------------

/// `B1` when the canonical lists `Self` and `Rhs` are the same number.
pub trait ListEq<Rhs> {
    /// `B1` or `B0`.
    type Output: Bit;
}
impl ListEq<DNil> for DNil {
    type Output = B1;
}
impl<D, R> ListEq<DCons<D, R>> for DNil {
    type Output = B0;
}
impl<D, R> ListEq<DNil> for DCons<D, R> {
    type Output = B0;
}
impl<A: DigEq<B>, Ra: ListEq<Rb>, B, Rb> ListEq<DCons<B, Rb>> for DCons<A, Ra>
where
    <A as DigEq<B>>::Output: EqAnd<Ra, Rb>,
{
    type Output = <<A as DigEq<B>>::Output as EqAnd<Ra, Rb>>::Output;
}
/// [`ListEq`] after one digit (`Self`: whether the digits were equal): compares the
/// rest only when they were.
pub trait EqAnd<Ra, Rb> {
    /// `B1` or `B0`.
    type Output: Bit;
}
impl<Ra: ListEq<Rb>, Rb> EqAnd<Ra, Rb> for B1 {
    type Output = <Ra as ListEq<Rb>>::Output;
}
impl<Ra, Rb> EqAnd<Ra, Rb> for B0 {
    type Output = B0;
}

// ---- sum --------------------------------------------------------------------------

/// `Self + Rhs + C` (`C` a carry bit) on canonical lists; canonical.
pub trait AddC<Rhs, C> {
    /// The sum.
    type Output;
}
impl AddC<DNil, B0> for DNil {
    type Output = DNil;
}
impl AddC<DNil, B1> for DNil {
    type Output = DCons<Dg1, DNil>;
}
impl<B, Rb, C> AddC<DCons<B, Rb>, C> for DNil
where
    DCons<B, Rb>: AddC<DNil, C>,
{
    type Output = <DCons<B, Rb> as AddC<DNil, C>>::Output;
}
impl<A, Ra> AddC<DNil, B0> for DCons<A, Ra> {
    type Output = DCons<A, Ra>;
}
impl<A: DigAdd<Dg0, B1>, Ra: AddC<DNil, <A as DigAdd<Dg0, B1>>::C>> AddC<DNil, B1>
    for DCons<A, Ra>
{
    type Output =
        DCons<<A as DigAdd<Dg0, B1>>::S, <Ra as AddC<DNil, <A as DigAdd<Dg0, B1>>::C>>::Output>;
}
impl<A: DigAdd<B, C>, Ra: AddC<Rb, <A as DigAdd<B, C>>::C>, B, Rb, C> AddC<DCons<B, Rb>, C>
    for DCons<A, Ra>
{
    type Output = DCons<<A as DigAdd<B, C>>::S, <Ra as AddC<Rb, <A as DigAdd<B, C>>::C>>::Output>;
}
/// The sum of canonical lists `A` and `B`.
pub type AddOf<A, B> = <A as AddC<B, B0>>::Output;

// ---- difference -------------------------------------------------------------------

/// `Self - Rhs - Bo` (`Bo` a borrow bit) digit by digit, as long as the longer operand:
/// `Output` is the difference modulo a power of ten (not trimmed), `Borrow` is `B1` when
/// `Self < Rhs + Bo`. Operands need not be canonical.
pub trait SubB<Rhs, Bo> {
    /// The digits of the difference.
    type Output;
    /// The borrow out of the most significant digit.
    type Borrow: Bit;
}
impl<Bo: Bit> SubB<DNil, Bo> for DNil {
    type Output = DNil;
    type Borrow = Bo;
}
impl<B, Rb, Bo> SubB<DCons<B, Rb>, Bo> for DNil
where
    Dg0: DigSub<B, Bo>,
    DNil: SubB<Rb, <Dg0 as DigSub<B, Bo>>::B>,
{
    type Output =
        DCons<<Dg0 as DigSub<B, Bo>>::D, <DNil as SubB<Rb, <Dg0 as DigSub<B, Bo>>::B>>::Output>;
    type Borrow = <DNil as SubB<Rb, <Dg0 as DigSub<B, Bo>>::B>>::Borrow;
}
impl<A, Ra> SubB<DNil, B0> for DCons<A, Ra> {
    type Output = DCons<A, Ra>;
    type Borrow = B0;
}
impl<A: DigSub<Dg0, B1>, Ra: SubB<DNil, <A as DigSub<Dg0, B1>>::B>> SubB<DNil, B1>
    for DCons<A, Ra>
{
    type Output =
        DCons<<A as DigSub<Dg0, B1>>::D, <Ra as SubB<DNil, <A as DigSub<Dg0, B1>>::B>>::Output>;
    type Borrow = <Ra as SubB<DNil, <A as DigSub<Dg0, B1>>::B>>::Borrow;
}
impl<A: DigSub<B, Bo>, Ra: SubB<Rb, <A as DigSub<B, Bo>>::B>, B, Rb, Bo> SubB<DCons<B, Rb>, Bo>
    for DCons<A, Ra>
{
    type Output = DCons<<A as DigSub<B, Bo>>::D, <Ra as SubB<Rb, <A as DigSub<B, Bo>>::B>>::Output>;
    type Borrow = <Ra as SubB<Rb, <A as DigSub<B, Bo>>::B>>::Borrow;
}
/// `B1` when `A < B`.
pub type LessOf<A, B> = <A as SubB<B, B0>>::Borrow;

// ---- product ----------------------------------------------------------------------

/// `Self · B + C` for a canonical list `Self`, a digit `B` and a carry digit `C`
/// (canonical unless `B` is 0 and `Self` is not).
pub trait MulDig<B, C> {
    /// The product.
    type Output;
}
impl<B, C: ConsTrim<DNil>> MulDig<B, C> for DNil {
    type Output = <C as ConsTrim<DNil>>::Output;
}
impl<A: DigMul<B, C>, Ra: MulDig<B, <A as DigMul<B, C>>::C>, B, C> MulDig<B, C> for DCons<A, Ra> {
    type Output = DCons<<A as DigMul<B, C>>::D, <Ra as MulDig<B, <A as DigMul<B, C>>::C>>::Output>;
}

/// `A · Self` on canonical lists; canonical. Walks `Self`'s digits (Horner from the
/// top: `A · (b + 10·R) = A·b + 10·(A·R)`).
pub trait MulBy<A> {
    /// The product.
    type Output;
}
impl<A> MulBy<A> for DNil {
    type Output = DNil;
}
impl<A: MulDig<B, Dg0>, B, Rb: MulBy<A>> MulBy<A> for DCons<B, Rb>
where
    <Rb as MulBy<A>>::Output: MulStep<<A as MulDig<B, Dg0>>::Output>,
{
    type Output = <<Rb as MulBy<A>>::Output as MulStep<<A as MulDig<B, Dg0>>::Output>>::Output;
}
/// One step of [`MulBy`]: `P + 10·Self` (`Self` the product with the higher digits).
pub trait MulStep<P> {
    /// The sum.
    type Output;
}
impl<P> MulStep<P> for DNil {
    type Output = P;
}
impl<P: AddC<DCons<Dg0, DCons<D, R>>, B0>, D, R> MulStep<P> for DCons<D, R> {
    type Output = <P as AddC<DCons<Dg0, DCons<D, R>>, B0>>::Output;
}
/// The product of canonical lists `A` and `B`.
pub type MulOf<A, B> = <B as MulBy<A>>::Output;

// ---- order ------------------------------------------------------------------------

/// `B1` when `Self < Rhs` for canonical lists, or `Acc` when they are equal (compared from
/// the ones up: a higher digit that differs decides).
pub trait Lt<Rhs, Acc> {
    /// `B1` or `B0`.
    type Output: Bit;
}
impl<Acc: Bit> Lt<DNil, Acc> for DNil {
    type Output = Acc;
}
impl<B, Rb, Acc> Lt<DCons<B, Rb>, Acc> for DNil {
    type Output = B1;
}
impl<A, Ra, Acc> Lt<DNil, Acc> for DCons<A, Ra> {
    type Output = B0;
}
impl<A: DigLt<B, Acc>, Ra: Lt<Rb, <A as DigLt<B, Acc>>::Output>, B, Rb, Acc> Lt<DCons<B, Rb>, Acc>
    for DCons<A, Ra>
{
    type Output = <Ra as Lt<Rb, <A as DigLt<B, Acc>>::Output>>::Output;
}

// ---- back to a dim ----------------------------------------------------------------

/// The static dim (`D`/`K` form) of a canonical list: its digits in groups of three.
pub trait FromDigits {
    /// The dim.
    type Dim;
}
impl FromDigits for DNil {
    type Dim = <Dg0 as LeafOf<Dg0, Dg0>>::Dim;
}
impl<A: LeafOf<Dg0, Dg0>> FromDigits for DCons<A, DNil> {
    type Dim = <A as LeafOf<Dg0, Dg0>>::Dim;
}
impl<A: LeafOf<B, Dg0>, B> FromDigits for DCons<A, DCons<B, DNil>> {
    type Dim = <A as LeafOf<B, Dg0>>::Dim;
}
impl<A: LeafOf<B, C>, B, C, R: Above<<A as LeafOf<B, C>>::Dim>> FromDigits
    for DCons<A, DCons<B, DCons<C, R>>>
{
    type Dim = <R as Above<<A as LeafOf<B, C>>::Dim>>::Output;
}
/// The dim of the groups `Self` above the lowest group `Lo`: `Lo` alone when there are
/// none, else `K<.., Lo>`.
pub trait Above<Lo> {
    /// The dim.
    type Output;
}
impl<Lo> Above<Lo> for DNil {
    type Output = Lo;
}
impl<Lo, D, R> Above<Lo> for DCons<D, R>
where
    DCons<D, R>: FromDigits,
{
    type Output = crate::typelevel::dim::K<<DCons<D, R> as FromDigits>::Dim, Lo>;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::typelevel::dim::{Dim, StaticDim, D, K};

    type Digits<X> = <X as StaticDim>::Digits;
    fn val<X: Dim>() -> Option<usize> {
        X::STATIC
    }
    fn bit<B: Bit>() -> bool {
        B::BOOL
    }
    type Back<L> = <L as FromDigits>::Dim;

    #[test]
    fn dims_round_trip_through_digits() {
        assert_eq!(val::<Back<Digits<D<0>>>>(), Some(0));
        assert_eq!(val::<Back<Digits<D<7>>>>(), Some(7));
        assert_eq!(val::<Back<Digits<D<70>>>>(), Some(70));
        assert_eq!(val::<Back<Digits<K<D<1>, D<0>>>>>(), Some(1000));
        assert_eq!(
            val::<Back<Digits<K<K<D<12>, D<0>>, D<5>>>>>(),
            Some(12_000_005)
        );
    }

    #[test]
    fn sums_differences_products_quotients() {
        type A = Digits<K<D<50>, D<257>>>;
        type B = Digits<D<768>>;
        assert_eq!(val::<Back<AddOf<A, B>>>(), Some(51025));
        assert_eq!(
            val::<Back<AddOf<Digits<D<999>>, Digits<D<1>>>>>(),
            Some(1000)
        );
        assert_eq!(val::<Back<MulOf<A, B>>>(), Some(50257 * 768));
        assert_eq!(val::<Back<MulOf<A, A>>>(), Some(50257 * 50257));
        assert_eq!(val::<Back<MulOf<A, DNil>>>(), Some(0));
        assert_eq!(
            val::<Back<<<A as SubB<B, B0>>::Output as Trim>::Output>>(),
            Some(50257 - 768)
        );
        assert!(!bit::<LessOf<A, B>>());
        assert!(bit::<LessOf<B, A>>());
        assert!(!bit::<LessOf<B, B>>());
        assert!(bit::<<A as ListEq<A>>::Output>());
        assert!(!bit::<<A as ListEq<B>>::Output>());
        assert!(bit::<<A as Lt<B, B0>>::Output>() == (50257 < 768));
        assert!(bit::<<B as Lt<A, B0>>::Output>());
        assert!(!bit::<<B as Lt<B, B0>>::Output>());
    }
}
