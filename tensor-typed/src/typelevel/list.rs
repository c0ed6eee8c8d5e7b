//! Type-level list helpers over [`Cons`]/[`Nil`]: reverse, length, indexing, membership.
//!
//! Lengths and indices are Peano numbers ([`crate::typelevel::peano`], only inside bounds). They
//! are mapped to [`D<N>`](crate::D) with [`ToDim`](crate::typelevel::peano::ToDim) when a message
//! needs them.

use crate::typelevel::dim::{Ax, Bool, Or};
use crate::typelevel::peano::{AxisPos, PEq, S, Z};
use std::marker::PhantomData;
use typenum::B0;

/// The empty type-level list (end of a shape or an axis list).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Nil;

/// A type-level list cell: head `H` (a dim or an axis) followed by the list `T`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Cons<H, T>(PhantomData<(H, T)>);

/// Reverses a list onto the accumulator `Acc`.
pub trait ReverseAcc<Acc> {
    /// `reverse(Self) ++ Acc`.
    type Output;
}
impl<Acc> ReverseAcc<Acc> for Nil {
    type Output = Acc;
}
impl<H, T: ReverseAcc<Cons<H, Acc>>, Acc> ReverseAcc<Acc> for Cons<H, T> {
    type Output = T::Output;
}
/// The list `L` reversed.
pub type Rev<L> = <L as ReverseAcc<Nil>>::Output;

/// The length of a list as a Peano number ([`crate::typelevel::peano`]).
pub trait Len {
    /// The length.
    type N;
}
impl Len for Nil {
    type N = Z;
}
impl<H, T: Len> Len for Cons<H, T> {
    type N = S<T::N>;
}
/// The length of list `L`.
pub type LenOf<L> = <L as Len>::N;

/// The element at Peano index `K` (callers check `K < len` first).
pub trait GetAt<K> {
    /// The element.
    type Output;
}
// Out of range: callers report the range error (`AxisInRange`); this impl only keeps
// rustc from reporting a second, less helpful error.
impl<K> GetAt<K> for Nil {
    type Output = crate::typelevel::dim::Dyn;
}
impl<H, T> GetAt<Z> for Cons<H, T> {
    type Output = H;
}
impl<H, T: GetAt<K>, K> GetAt<S<K>> for Cons<H, T> {
    type Output = T::Output;
}

/// `B1` when the axis list contains the axis with Peano index `K`.
pub trait ContainsAxis<K> {
    /// `B1` or `B0`.
    type Output: Bool;
}
impl<K> ContainsAxis<K> for Nil {
    type Output = B0;
}
impl<const J: usize, T, K> ContainsAxis<K> for Cons<Ax<J>, T>
where
    Ax<J>: AxisPos,
    <Ax<J> as AxisPos>::P: PEq<K>,
    T: ContainsAxis<K>,
    <<Ax<J> as AxisPos>::P as PEq<K>>::Output: Or<<T as ContainsAxis<K>>::Output>,
{
    type Output =
        <<<Ax<J> as AxisPos>::P as PEq<K>>::Output as Or<<T as ContainsAxis<K>>::Output>>::Output;
}

/// A small index (a dim position, at most 8) minus one: `D<i>` → `D<i - 1>`.
pub trait Pred {
    /// `D<i - 1>`.
    type Output;
}

/// A small index (a dim position, less than 8) plus one: `D<i>` → `D<i + 1>`.
pub trait Next {
    /// `D<i + 1>`.
    type Output;
}

/// `Next` for `D<i>` and `Pred` for `D<i + 1>`, for each listed pair.
macro_rules! step_table {
    ($($i:literal => $n:literal),*) => {$(
        impl Next for crate::typelevel::dim::D<$i> {
            type Output = crate::typelevel::dim::D<$n>;
        }
        impl Pred for crate::typelevel::dim::D<$n> {
            type Output = crate::typelevel::dim::D<$i>;
        }
    )*};
}
step_table!(0 => 1, 1 => 2, 2 => 3, 3 => 4, 4 => 5, 5 => 6, 6 => 7, 7 => 8);
