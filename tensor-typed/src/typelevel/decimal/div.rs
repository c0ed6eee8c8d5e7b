//! Division of digit lists: the quotient and remainder ([`DivRemL`], for conv output
//! sizes) and the exact quotient ([`XDiv`], for `layout!` splits).

use super::{
    ConsTrim, DCons, DNil, Dg0, Dg1, Dg2, Dg3, Dg4, Dg5, Dg6, Dg7, Dg8, Dg9, HInv, MulDig, SubB,
    Trim,
};
use std::marker::PhantomData;
use typenum::{Bit, B0, B1};

// ---- quotient and remainder -------------------------------------------------------

/// A quotient `Q` and a remainder `R` (canonical lists).
pub struct QR<Q, R>(PhantomData<(Q, R)>);

/// `Self / V` and `Self % V` for canonical lists (`V` not zero), by long division from
/// the most significant digit, each quotient digit by repeated subtraction; `Output` is a
/// [`QR`]. Meant for small divisors (conv strides).
pub trait DivRemL<V> {
    /// `QR<quotient, remainder>`.
    type Output;
}
impl<V> DivRemL<V> for DNil {
    type Output = QR<DNil, DNil>;
}
impl<D, R: DivRemL<V>, V> DivRemL<V> for DCons<D, R>
where
    <R as DivRemL<V>>::Output: DivStep<D, V>,
{
    type Output = <<R as DivRemL<V>>::Output as DivStep<D, V>>::Output;
}
/// One digit of [`DivRemL`]: `Self` is the quotient and remainder of the digits above;
/// the running remainder takes the digit `D` below, and `V` is subtracted from it while
/// it can be.
pub trait DivStep<D, V> {
    /// The new `QR`.
    type Output;
}
impl<Q, R, D: ConsTrim<R>, V> DivStep<D, V> for QR<Q, R>
where
    <D as ConsTrim<R>>::Output: Reduce<V, Dg0, Q>,
{
    type Output = <<D as ConsTrim<R>>::Output as Reduce<V, Dg0, Q>>::Output;
}
/// Subtracts `V` from `Self` while it can, counting in the digit `N`; then puts `N`
/// below the quotient digits `Q` and trims the remainder: a [`QR`].
pub trait Reduce<V, N, Q> {
    /// The new `QR`.
    type Output;
}
macro_rules! reduce_impls {
    ($($x:ty => $($p:ident),*);*) => {$(
        impl<$($p,)* V, N, Q> Reduce<V, N, Q> for $x
        where
            $x: SubB<V, B0>,
            <$x as SubB<V, B0>>::Borrow: ReduceSel<$x, <$x as SubB<V, B0>>::Output, V, N, Q>,
        {
            type Output = <<$x as SubB<V, B0>>::Borrow as ReduceSel<
                $x,
                <$x as SubB<V, B0>>::Output,
                V,
                N,
                Q,
            >>::Output;
        }
    )*};
}
reduce_impls!(DNil => ; DCons<D, R> => D, R);
/// [`Reduce`] after one subtraction (`Self`: its borrow): `B1` stops with `X`, `B0` goes
/// on with the difference `Df`.
pub trait ReduceSel<X, Df, V, N, Q> {
    /// The new `QR`.
    type Output;
}
impl<X: Trim, Df, V, N: ConsTrim<Q>, Q> ReduceSel<X, Df, V, N, Q> for B1 {
    type Output = QR<<N as ConsTrim<Q>>::Output, <X as Trim>::Output>;
}
impl<X, Df: Reduce<V, <N as DigSucc>::Output, Q>, V, N: DigSucc, Q> ReduceSel<X, Df, V, N, Q>
    for B0
{
    type Output = <Df as Reduce<V, <N as DigSucc>::Output, Q>>::Output;
}
/// `Self + 1` for a digit below 9.
pub trait DigSucc {
    /// The next digit.
    type Output;
}
macro_rules! succ {
    ($($d:ident => $e:ident),*) => {$(
        impl DigSucc for $d {
            type Output = $e;
        }
    )*};
}
succ!(Dg0 => Dg1, Dg1 => Dg2, Dg2 => Dg3, Dg3 => Dg4, Dg4 => Dg5, Dg5 => Dg6, Dg6 => Dg7, Dg7 => Dg8, Dg8 => Dg9);

// ---- exact quotient ---------------------------------------------------------------

/// A quotient `Q` (canonical when `Ok`) and whether the division was exact (`Ok`).
pub struct XQ<Q, Ok>(PhantomData<(Q, Ok)>);

/// The exact quotient `A / Self` for canonical lists (`Self` not zero): an [`XQ`].
///
/// By exact division from the ones up (Jebelean's): with the divisor's last digit `v`
/// coprime to 10, the quotient's last digit `q` is the one with `q·v ≡ a (mod 10)` for the
/// dividend's last digit `a` (a table), and the rest is the exact quotient of
/// `(A − q·V) / 10`; one multiplication and one subtraction per quotient digit, where
/// long division tries up to ten subtractions. A divisor ending in 0 drops that zero
/// from both (the dividend must end in 0 too); one ending in 2, 4, 6, 8 or 5 is first
/// multiplied by 5 or 2 (and the dividend with it), which makes it end in 0.
pub trait XDiv<A> {
    /// `XQ<quotient, exact>`.
    type Output;
}
impl<Rv, A: DropZero<Rv>> XDiv<A> for DCons<Dg0, Rv> {
    type Output = <A as DropZero<Rv>>::Output;
}
macro_rules! xdiv_scale {
    ($($d:ident * $k:ident),*) => {$(
        impl<Rv, A: MulDig<$k, Dg0>> XDiv<A> for DCons<$d, Rv>
        where
            DCons<$d, Rv>: MulDig<$k, Dg0, Output: XDiv<<A as MulDig<$k, Dg0>>::Output>>,
        {
            type Output = <<DCons<$d, Rv> as MulDig<$k, Dg0>>::Output as XDiv<
                <A as MulDig<$k, Dg0>>::Output,
            >>::Output;
        }
    )*};
}
xdiv_scale!(Dg2 * Dg5, Dg4 * Dg5, Dg6 * Dg5, Dg8 * Dg5, Dg5 * Dg2);
macro_rules! xdiv_odd {
    ($($d:ident),*) => {$(
        impl<Rv, A: XLoop<$d, DCons<$d, Rv>>> XDiv<A> for DCons<$d, Rv> {
            type Output = <A as XLoop<$d, DCons<$d, Rv>>>::Output;
        }
    )*};
}
xdiv_odd!(Dg1, Dg3, Dg7, Dg9);

/// The dividend `Self` without its last digit, which must be 0 (else the division by
/// `Rv·10` is not exact), divided by `Rv`.
pub trait DropZero<Rv> {
    /// An [`XQ`].
    type Output;
}
impl<Rv> DropZero<Rv> for DNil {
    type Output = XQ<DNil, B1>;
}
impl<Rv: XDiv<Ra>, Ra> DropZero<Rv> for DCons<Dg0, Ra> {
    type Output = <Rv as XDiv<Ra>>::Output;
}
macro_rules! drop_nonzero {
    ($($d:ident),*) => {$(
        impl<Rv, Ra> DropZero<Rv> for DCons<$d, Ra> {
            type Output = XQ<DNil, B0>;
        }
    )*};
}
drop_nonzero!(Dg1, Dg2, Dg3, Dg4, Dg5, Dg6, Dg7, Dg8, Dg9);

/// `B1` when a list (not necessarily canonical) is zero: all its digits are 0.
pub trait IsZero {
    /// `B1` or `B0`.
    type Output: Bit;
}
impl IsZero for DNil {
    type Output = B1;
}
impl<R: IsZero> IsZero for DCons<Dg0, R> {
    type Output = R::Output;
}
macro_rules! nonzero {
    ($($d:ident),*) => {$(
        impl<R> IsZero for DCons<$d, R> {
            type Output = B0;
        }
    )*};
}
nonzero!(Dg1, Dg2, Dg3, Dg4, Dg5, Dg6, Dg7, Dg8, Dg9);

/// The exact quotient of the dividend `Self` (not necessarily canonical) by `V`, whose
/// last digit `V0` is 1, 3, 7 or 9: an [`XQ`].
pub trait XLoop<V0, V> {
    /// An [`XQ`].
    type Output;
}
impl<V0, V> XLoop<V0, V> for DNil {
    type Output = XQ<DNil, B1>;
}
impl<A, Ra, V0, V> XLoop<V0, V> for DCons<A, Ra>
where
    DCons<A, Ra>: IsZero,
    <DCons<A, Ra> as IsZero>::Output: XNext<DCons<A, Ra>, V0, V>,
{
    type Output = <<DCons<A, Ra> as IsZero>::Output as XNext<DCons<A, Ra>, V0, V>>::Output;
}
/// [`XLoop`] after testing the dividend `A` for zero (`Self`): `B1` ends with quotient 0;
/// `B0` takes the next quotient digit.
pub trait XNext<A, V0, V> {
    /// An [`XQ`].
    type Output;
}
impl<A, V0, V> XNext<A, V0, V> for B1 {
    type Output = XQ<DNil, B1>;
}
impl<A0: HInv<V0>, Ra, V0, V> XNext<DCons<A0, Ra>, V0, V> for B0
where
    <A0 as HInv<V0>>::Output: XStep<DCons<A0, Ra>, V0, V>,
{
    type Output = <<A0 as HInv<V0>>::Output as XStep<DCons<A0, Ra>, V0, V>>::Output;
}
/// One quotient digit (`Self`) of [`XLoop`] on the dividend `A`: `A − q·V` (a multiple of
/// 10: its last digit is 0), then the rest.
pub trait XStep<A, V0, V> {
    /// An [`XQ`].
    type Output;
}
// q = 0: the dividend ends in 0; go on with the digits above.
impl<Ra: XLoop<V0, V>, V0, V> XStep<DCons<Dg0, Ra>, V0, V> for Dg0
where
    <Ra as XLoop<V0, V>>::Output: XCons<Dg0>,
{
    type Output = <<Ra as XLoop<V0, V>>::Output as XCons<Dg0>>::Output;
}
macro_rules! xstep {
    ($($q:ident),*) => {$(
        impl<A, V0, V: MulDig<$q, Dg0>> XStep<A, V0, V> for $q
        where
            A: SubB<<V as MulDig<$q, Dg0>>::Output, B0>,
            <A as SubB<<V as MulDig<$q, Dg0>>::Output, B0>>::Borrow:
                XAfter<<A as SubB<<V as MulDig<$q, Dg0>>::Output, B0>>::Output, $q, V0, V>,
        {
            type Output = <<A as SubB<<V as MulDig<$q, Dg0>>::Output, B0>>::Borrow as XAfter<
                <A as SubB<<V as MulDig<$q, Dg0>>::Output, B0>>::Output,
                $q,
                V0,
                V,
            >>::Output;
        }
    )*};
}
xstep!(Dg1, Dg2, Dg3, Dg4, Dg5, Dg6, Dg7, Dg8, Dg9);
/// [`XStep`] after the subtraction (`Self`: its borrow): `B1` (`q·V` exceeds the
/// dividend) means the division is not exact; `B0` goes on with the difference `Df`
/// without its last digit (a 0).
pub trait XAfter<Df, Q, V0, V> {
    /// An [`XQ`].
    type Output;
}
impl<Df, Q, V0, V> XAfter<Df, Q, V0, V> for B1 {
    type Output = XQ<DNil, B0>;
}
impl<Rd: XLoop<V0, V>, Z, Q, V0, V> XAfter<DCons<Z, Rd>, Q, V0, V> for B0
where
    <Rd as XLoop<V0, V>>::Output: XCons<Q>,
{
    type Output = <<Rd as XLoop<V0, V>>::Output as XCons<Q>>::Output;
}
/// Puts the quotient digit `Q` below the quotient of an [`XQ`].
pub trait XCons<Q> {
    /// The [`XQ`].
    type Output;
}
impl<Q, Qs, Ok> XCons<Q> for XQ<Qs, Ok> {
    type Output = XQ<DCons<Q, Qs>, Ok>;
}

#[cfg(test)]
mod tests {
    use super::super::FromDigits;
    use super::*;
    use crate::typelevel::dim::{Dim, StaticDim, D, K};

    type Digits<X> = <X as StaticDim>::Digits;

    fn qr<Q: FromDigits, R: FromDigits>(_: QR<Q, R>) -> (Option<usize>, Option<usize>)
    where
        Q::Dim: Dim,
        R::Dim: Dim,
    {
        (<Q::Dim as Dim>::STATIC, <R::Dim as Dim>::STATIC)
    }
    #[allow(clippy::extra_unused_type_parameters)] // `X`, `V` name the division
    fn div<X: DivRemL<V, Output = QR<Q, R>>, V, Q: FromDigits, R: FromDigits>(
    ) -> (Option<usize>, Option<usize>)
    where
        Q::Dim: Dim,
        R::Dim: Dim,
    {
        qr::<Q, R>(QR(PhantomData))
    }
    /// `Some(quotient)` when exact, else `None`.
    #[allow(clippy::extra_unused_type_parameters)] // `X`, `V` name the division
    fn xdiv<X, V: XDiv<X, Output = XQ<Q, Ok>>, Q: FromDigits, Ok: Bit>() -> Option<usize>
    where
        Q::Dim: Dim,
    {
        if Ok::BOOL {
            <Q::Dim as Dim>::STATIC
        } else {
            None
        }
    }

    type A = Digits<K<D<50>, D<257>>>;
    type B = Digits<D<768>>;
    type T40 = Digits<K<K<K<K<D<1>, D<99>>, D<511>>, D<627>>, D<776>>>;
    type T20 = Digits<K<K<D<1>, D<48>>, D<576>>>;

    #[test]
    fn quotients_and_remainders() {
        assert_eq!(div::<A, B, _, _>(), (Some(50257 / 768), Some(50257 % 768)));
        assert_eq!(div::<A, A, _, _>(), (Some(1), Some(0)));
        assert_eq!(div::<B, A, _, _>(), (Some(0), Some(768)));
        assert_eq!(div::<DNil, A, _, _>(), (Some(0), Some(0)));
        assert_eq!(div::<T40, T20, _, _>(), (Some(1 << 20), Some(0)));
        assert_eq!(
            div::<B, Digits<D<9>>, _, _>(),
            (Some(768 / 9), Some(768 % 9))
        );
    }

    #[test]
    fn exact_quotients() {
        assert_eq!(xdiv::<T40, T20, _, _>(), Some(1 << 20));
        assert_eq!(xdiv::<T40, Digits<D<7>>, _, _>(), None);
        assert_eq!(xdiv::<A, A, _, _>(), Some(1));
        assert_eq!(xdiv::<A, B, _, _>(), None);
        assert_eq!(xdiv::<B, A, _, _>(), None);
        assert_eq!(xdiv::<DNil, A, _, _>(), Some(0));
        assert_eq!(xdiv::<Digits<D<768>>, Digits<D<3>>, _, _>(), Some(256));
        assert_eq!(xdiv::<Digits<D<768>>, Digits<D<256>>, _, _>(), Some(3));
        assert_eq!(xdiv::<Digits<D<768>>, Digits<D<5>>, _, _>(), None);
        assert_eq!(xdiv::<Digits<D<750>>, Digits<D<25>>, _, _>(), Some(30));
        assert_eq!(xdiv::<Digits<D<750>>, Digits<D<250>>, _, _>(), Some(3));
        assert_eq!(xdiv::<Digits<D<750>>, Digits<D<100>>, _, _>(), None);
        assert_eq!(
            xdiv::<Digits<K<D<1>, D<0>>>, Digits<D<10>>, _, _>(),
            Some(100)
        );
        assert_eq!(xdiv::<Digits<D<12>>, Digits<D<3>>, _, _>(), Some(4));
        assert_eq!(xdiv::<Digits<D<3>>, Digits<D<12>>, _, _>(), None);
        assert_eq!(xdiv::<Digits<D<10>>, Digits<D<3>>, _, _>(), None);
        assert_eq!(xdiv::<Digits<D<10>>, Digits<D<1>>, _, _>(), Some(10));
        assert_eq!(xdiv::<Digits<D<0>>, Digits<D<1>>, _, _>(), Some(0));
    }

    fn exact(a: usize, v: usize) -> Option<usize> {
        a.is_multiple_of(v).then_some(a / v)
    }

    #[test]
    fn exact_quotients_against_the_remainder() {
        // Every dividend up to 240 by every divisor up to 24: exact exactly when the
        // remainder is 0, with the same quotient.
        macro_rules! check {
            ($($a:literal)*; $($v:literal)*) => {
                check!(@outer [$($a)*] [$($v)*]);
            };
            (@outer [$($a:literal)*] $vs:tt) => {$(
                check!(@inner $a $vs);
            )*};
            (@inner $a:literal [$($v:literal)*]) => {$(
                assert_eq!(
                    xdiv::<Digits<D<$a>>, Digits<D<$v>>, _, _>(),
                    exact($a, $v),
                    "{} / {}", $a, $v
                );
            )*};
        }
        check!(0 1 2 5 7 10 12 24 25 36 49 50 64 75 96 100 120 125 128 144 175 200 210 225 240;
            1 2 3 4 5 6 7 8 9 10 12 14 15 16 20 24 25);
    }
}
