//! Small naturals as Peano types (`Z`, `S<Z>`, …): list lengths, positions and axis
//! indices inside trait bounds.
//!
//! Ranks are at most 8, so a Peano number is a few nested types and each operation a few
//! impl selections, much cheaper for the compiler than typenum's binary arithmetic. Where a message
//! needs the number in decimal it is mapped to `D<n>` by [`ToDim`].

use crate::typelevel::dim::{Ax, Bool, D};
use std::marker::PhantomData;
use typenum::{B0, B1};

/// Zero.
pub struct Z;
/// The successor: `S<X>` is `X + 1`.
pub struct S<X>(PhantomData<X>);

/// `Self < Rhs` as a typenum bit.
pub trait PLt<Rhs> {
    /// `B1` or `B0`.
    type Output: Bool;
}
impl<X> PLt<Z> for X {
    type Output = B0;
}
impl<Y> PLt<S<Y>> for Z {
    type Output = B1;
}
impl<X: PLt<Y>, Y> PLt<S<Y>> for S<X> {
    type Output = X::Output;
}

/// `Self == Rhs` as a typenum bit.
pub trait PEq<Rhs> {
    /// `B1` or `B0`.
    type Output: Bool;
}
impl PEq<Z> for Z {
    type Output = B1;
}
impl<Y> PEq<S<Y>> for Z {
    type Output = B0;
}
impl<X> PEq<Z> for S<X> {
    type Output = B0;
}
impl<X: PEq<Y>, Y> PEq<S<Y>> for S<X> {
    type Output = X::Output;
}

/// The larger of `Self` and `Rhs`.
pub trait PMax<Rhs> {
    /// `max(Self, Rhs)`.
    type Output;
}
impl<X> PMax<Z> for X {
    type Output = X;
}
impl<Y> PMax<S<Y>> for Z {
    type Output = S<Y>;
}
impl<X: PMax<Y>, Y> PMax<S<Y>> for S<X> {
    type Output = S<X::Output>;
}

/// A Peano number up to 8 (a rank or a dim position) as `D<n>`, for messages.
pub trait ToDim {
    /// `D<n>`.
    type Dim;
}

/// `D<n>` for `n` up to 8 (a rank) as a Peano number: the inverse of [`ToDim`].
pub trait FromDim {
    /// The Peano number `n`.
    type P;
}

/// The Peano number of axis index `Ax<K>` (`K` up to 63).
#[diagnostic::on_unimplemented(
    message = "axis {Self} is out of range for every shape: typed shapes have at most 8 dims",
    label = "axes count from 0 and must be less than the rank"
)]
pub trait AxisPos {
    /// The Peano number `K`.
    type P;
}

/// `impl AxisPos for Ax<k>` for each listed `k`, counting up from `Z`.
macro_rules! axis_pos_table {
    ($p:ty;) => {};
    ($p:ty; $k:literal $($rest:literal)*) => {
        #[diagnostic::do_not_recommend]
        impl AxisPos for Ax<$k> {
            type P = $p;
        }
        axis_pos_table!(S<$p>; $($rest)*);
    };
}

axis_pos_table!(Z;
    0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
    32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59
    60 61 62 63);

impl ToDim for Z {
    type Dim = D<0>;
}
impl ToDim for S<Z> {
    type Dim = D<1>;
}
impl ToDim for S<S<Z>> {
    type Dim = D<2>;
}
impl ToDim for S<S<S<Z>>> {
    type Dim = D<3>;
}
impl ToDim for S<S<S<S<Z>>>> {
    type Dim = D<4>;
}
impl ToDim for S<S<S<S<S<Z>>>>> {
    type Dim = D<5>;
}
impl ToDim for S<S<S<S<S<S<Z>>>>>> {
    type Dim = D<6>;
}
impl ToDim for S<S<S<S<S<S<S<Z>>>>>>> {
    type Dim = D<7>;
}
impl ToDim for S<S<S<S<S<S<S<S<Z>>>>>>>> {
    type Dim = D<8>;
}
impl FromDim for D<0> {
    type P = Z;
}
impl FromDim for D<1> {
    type P = S<Z>;
}
impl FromDim for D<2> {
    type P = S<S<Z>>;
}
impl FromDim for D<3> {
    type P = S<S<S<Z>>>;
}
impl FromDim for D<4> {
    type P = S<S<S<S<Z>>>>;
}
impl FromDim for D<5> {
    type P = S<S<S<S<S<Z>>>>>;
}
impl FromDim for D<6> {
    type P = S<S<S<S<S<S<Z>>>>>>;
}
impl FromDim for D<7> {
    type P = S<S<S<S<S<S<S<Z>>>>>>>;
}
impl FromDim for D<8> {
    type P = S<S<S<S<S<S<S<S<Z>>>>>>>>;
}

#[cfg(test)]
mod tests {
    use super::{AxisPos, FromDim, PEq, PLt, PMax, ToDim, S, Z};
    use crate::typelevel::dim::{Ax, Dim, D};
    use typenum::Bit;

    type P2 = S<S<Z>>;
    type P3 = S<P2>;

    fn bit<B: Bit>() -> bool {
        B::BOOL
    }

    fn dim<X: Dim>() -> Option<usize> {
        X::STATIC
    }

    #[test]
    fn less_equal_and_max_on_small_numbers() {
        assert!(bit::<<P2 as PLt<P3>>::Output>());
        assert!(!bit::<<P3 as PLt<P2>>::Output>());
        assert!(!bit::<<P2 as PLt<P2>>::Output>());
        assert!(!bit::<<Z as PLt<Z>>::Output>());
        assert!(bit::<<P3 as PEq<P3>>::Output>());
        assert!(!bit::<<P3 as PEq<P2>>::Output>());
        assert!(!bit::<<Z as PEq<P2>>::Output>());
        assert_eq!(dim::<<<P2 as PMax<P3>>::Output as ToDim>::Dim>(), Some(3));
        assert_eq!(dim::<<<P3 as PMax<Z>>::Output as ToDim>::Dim>(), Some(3));
    }

    #[test]
    fn axis_positions_and_ranks_round_trip() {
        assert_eq!(dim::<<<Ax<3> as AxisPos>::P as ToDim>::Dim>(), Some(3));
        assert_eq!(dim::<<<Ax<0> as AxisPos>::P as ToDim>::Dim>(), Some(0));
        assert_eq!(dim::<<<D<8> as FromDim>::P as ToDim>::Dim>(), Some(8));
        assert!(bit::<
            <<Ax<63> as AxisPos>::P as PEq<<Ax<63> as AxisPos>::P>>::Output,
        >());
        assert!(bit::<
            <<Ax<7> as AxisPos>::P as PLt<<D<8> as FromDim>::P>>::Output,
        >());
        assert!(!bit::<
            <<Ax<8> as AxisPos>::P as PLt<<D<8> as FromDim>::P>>::Output,
        >());
    }
}
