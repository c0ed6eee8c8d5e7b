//! Exact division of static dims by prime factorisation: cheap for the compiler.
//!
//! `layout!`'s split (`"(h d) -> h d", h = 8`) and [`DimDiv`](crate::typelevel::dim::DimDiv) need
//! `A / B` for static `A` and `B`, with a compile error when `B` does not divide `A`.
//! typenum's binary long division costs the trait solver hundreds of obligations per
//! division (a `layout!` with a split took about twice as long to compile as one
//! without). Here a dim of the table in [`crate::typelevel::dim`] is mapped ([`DimFactors`]) to its
//! factorisation [`F`]: the exponents of the primes 2 to 31 as Peano numbers, and the
//! leftover ([`Left`]: 1 or one prime above 31, a typenum unsigned; every number of the
//! table has at most one). Dividing subtracts exponents ([`PSub`], a few steps each) and
//! compares leftovers ([`LeftDiv`]); the quotient's factorisation maps back to `D<Q>`
//! ([`FactorsDim`]).

use crate::typelevel::dim::{And, D};
use crate::typelevel::peano::{S, Z};
use std::marker::PhantomData;
use typenum::{Bit, IsEqual, UInt, UTerm, B0, B1};

/// A factorisation as a list, one exponent per prime from 2 to 31:
/// `F<E2, F<E3, … F<E31, Left<L>>>>` is `2^E2 · 3^E3 · … · 31^E31 · L`, with Peano
/// exponents.
pub struct F<E, Tail>(PhantomData<(E, Tail)>);

/// The end of a factorisation: the leftover `L` (typenum `U1`, or one prime above 31).
pub struct Left<L>(PhantomData<L>);

/// The factorisation of 0 (divided by anything non-zero, it stays 0).
pub struct Zero;

/// The factorisation of a static dim of the table.
#[diagnostic::on_unimplemented(
    message = "static dim {Self} is outside the type-level table of tensor-typed",
    label = "this dim takes part in a compile-time division",
    note = "the table covers 1..=1024, multiples of 64 up to 65536 and powers of 2 and 10; \
            write this dim as `Dyn` to check it at run time instead"
)]
pub trait DimFactors {
    /// Its [`F`].
    type F;
}

/// The static dim of a factorisation.
#[diagnostic::on_unimplemented(
    message = "a computed static dim is outside the type-level table of tensor-typed",
    note = "the table covers 1..=1024, multiples of 64 up to 65536 and powers of 2 and 10; \
            use `Dyn` for this dim"
)]
pub trait FactorsDim {
    /// The `D<N>`.
    type Dim;
}

include!(concat!(env!("OUT_DIR"), "/factor_table.rs"));

/// Peano subtraction that reports whether it was exact: `Output = Self - Rhs` and `Ok = B1`
/// when `Self >= Rhs`, else `Ok = B0`.
pub trait PSub<Rhs> {
    /// The difference (unspecified when `Ok` is `B0`).
    type Output;
    /// Whether `Self >= Rhs`.
    type Ok: Bit;
}
impl<X> PSub<Z> for X {
    type Output = X;
    type Ok = B1;
}
impl<Y> PSub<S<Y>> for Z {
    type Output = Z;
    type Ok = B0;
}
impl<X: PSub<Y>, Y> PSub<S<Y>> for S<X> {
    type Output = X::Output;
    type Ok = X::Ok;
}

/// Division of leftovers (1 or a prime above 31): `L / 1 = L`; `P / P = 1`; otherwise
/// not exact.
pub trait LeftDiv<Rhs> {
    /// The quotient (unspecified when `Ok` is `B0`).
    type Output;
    /// Whether the division is exact.
    type Ok: Bit;
}
impl<L> LeftDiv<UInt<UTerm, B1>> for L {
    type Output = L;
    type Ok = B1;
}
impl<L, U, B> LeftDiv<UInt<UInt<U, B>, B1>> for L
where
    L: IsEqual<UInt<UInt<U, B>, B1>>,
{
    type Output = UInt<UTerm, B1>;
    type Ok = <L as IsEqual<UInt<UInt<U, B>, B1>>>::Output;
}

/// Exact division of factorisations: `Output = Self / Rhs`, and `Ok = B1` when `Rhs`
/// divides `Self`.
pub trait FDiv<Rhs> {
    /// The quotient when `Ok` is `B1`; else a divisor of `Self`.
    type Output;
    /// Whether `Rhs` divides `Self`.
    type Ok: Bit;
}
impl<R> FDiv<R> for Zero {
    type Output = Zero;
    type Ok = B1;
}
impl<L: LeftDiv<R>, R> FDiv<Left<R>> for Left<L> {
    type Output = Left<L::Output>;
    type Ok = L::Ok;
}
impl<E, T, RE, RT> FDiv<F<RE, RT>> for F<E, T>
where
    E: PSub<RE>,
    T: FDiv<RT>,
    E::Ok: And<T::Ok>,
{
    type Output = F<E::Output, T::Output>;
    type Ok = <E::Ok as And<T::Ok>>::Output;
}

/// Exact division of static dims `D<A> / D<B>`: `Ok = B1` when `B` divides `A`, and
/// then `Output = D<A / B>`.
pub trait ExactDiv<Rhs> {
    /// The quotient (when `Ok` is `B0`, a divisor of `A` that the caller's failed check
    /// on `Ok` makes irrelevant).
    type Output;
    /// `B1` when the division is exact.
    type Ok: Bit;
}
impl<const A: usize, const B: usize> ExactDiv<D<B>> for D<A>
where
    D<A>: DimFactors,
    D<B>: DimFactors,
    <D<A> as DimFactors>::F: FDiv<<D<B> as DimFactors>::F>,
    <<D<A> as DimFactors>::F as FDiv<<D<B> as DimFactors>::F>>::Output: FactorsDim,
{
    type Output =
        <<<D<A> as DimFactors>::F as FDiv<<D<B> as DimFactors>::F>>::Output as FactorsDim>::Dim;
    type Ok = <<D<A> as DimFactors>::F as FDiv<<D<B> as DimFactors>::F>>::Ok;
}

#[cfg(test)]
mod tests {
    use super::ExactDiv;
    use crate::typelevel::dim::{Dim, D};
    use typenum::Bit;

    /// `(A / B, whether exact)` as the trait solver computes them.
    fn exact_div<const A: usize, const B: usize>() -> (Option<usize>, bool)
    where
        D<A>: ExactDiv<D<B>, Output: Dim>,
    {
        (
            <<D<A> as ExactDiv<D<B>>>::Output as Dim>::STATIC,
            <<D<A> as ExactDiv<D<B>>>::Ok as Bit>::BOOL,
        )
    }

    #[test]
    fn exact_divisions_give_the_quotient() {
        assert_eq!(exact_div::<12, 3>(), (Some(4), true));
        assert_eq!(exact_div::<1024, 64>(), (Some(16), true));
        assert_eq!(exact_div::<65536, 2>(), (Some(32768), true));
        assert_eq!(exact_div::<61440, 960>(), (Some(64), true));
        assert_eq!(exact_div::<1003, 17>(), (Some(59), true));
        assert_eq!(exact_div::<1003, 59>(), (Some(17), true));
        assert_eq!(exact_div::<74, 37>(), (Some(2), true));
        assert_eq!(exact_div::<37, 37>(), (Some(1), true));
        assert_eq!(exact_div::<7, 1>(), (Some(7), true));
        assert_eq!(exact_div::<0, 5>(), (Some(0), true));
        assert_eq!(
            exact_div::<1_000_000_000_000, 1_000_000>(),
            (Some(1_000_000), true)
        );
        assert_eq!(
            exact_div::<1_099_511_627_776, 1_048_576>(),
            (Some(1_048_576), true)
        );
        assert_eq!(exact_div::<960, 30>(), (Some(32), true));
    }

    #[test]
    fn inexact_divisions_are_flagged() {
        assert!(!exact_div::<10, 3>().1);
        assert!(!exact_div::<2, 4>().1);
        assert!(!exact_div::<74, 41>().1);
        assert!(!exact_div::<37, 74>().1);
        assert!(!exact_div::<1, 37>().1);
        assert!(!exact_div::<1003, 51>().1);
    }
}
