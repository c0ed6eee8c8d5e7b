//! Type-level list helpers over [`Cons`]/[`Nil`]: reverse, length, indexing, membership.
//!
//! Lengths and indices are typenum unsigneds (only inside bounds). Dims are mapped back
//! to [`D<N>`](crate::D) with [`NumDim`](crate::dim::NumDim) when a message needs them.

use crate::dim::{Ax, DimNum, NumOf, Or};
use crate::shape::{Cons, Nil};
use std::ops::{Add, Sub};
use typenum::{Bit, IsEqual, Unsigned, B0, B1, U0};

/// Reverses a list onto the accumulator `Acc`.
pub trait ReverseAcc<Acc> {
    /// `reverse(Self) ++ Acc`.
    type Out;
}
impl<Acc> ReverseAcc<Acc> for Nil {
    type Out = Acc;
}
impl<H, T: ReverseAcc<Cons<H, Acc>>, Acc> ReverseAcc<Acc> for Cons<H, T> {
    type Out = T::Out;
}
/// The list `L` reversed.
pub type Rev<L> = <L as ReverseAcc<Nil>>::Out;

/// The length of a list as a typenum unsigned.
pub trait Len {
    /// The length.
    type N: Unsigned;
}
impl Len for Nil {
    type N = U0;
}
impl<H, T: Len> Len for Cons<H, T>
where
    T::N: Add<B1, Output: Unsigned>,
{
    type N = <T::N as Add<B1>>::Output;
}
/// The length of list `L`.
pub type LenOf<L> = <L as Len>::N;

/// The element at typenum index `K` (callers check `K < len` first).
pub trait GetAt<K> {
    /// The element.
    type Out;
}
// Out of range: callers report the range error (`AxisInRange`); this impl only keeps
// rustc from reporting a second, less helpful error.
impl<K> GetAt<K> for Nil {
    type Out = crate::dim::Dyn;
}
impl<H, T> GetAt<U0> for Cons<H, T> {
    type Out = H;
}
impl<H, T, U: Unsigned, B: Bit> GetAt<typenum::UInt<U, B>> for Cons<H, T>
where
    typenum::UInt<U, B>: Sub<B1>,
    T: GetAt<<typenum::UInt<U, B> as Sub<B1>>::Output>,
{
    type Out = <T as GetAt<<typenum::UInt<U, B> as Sub<B1>>::Output>>::Out;
}

/// `B1` when the axis list contains the axis with typenum index `K`.
pub trait ContainsAxis<K> {
    /// `B1` or `B0`.
    type Out: Bit;
}
impl<K> ContainsAxis<K> for Nil {
    type Out = B0;
}
impl<const J: usize, T, K> ContainsAxis<K> for Cons<Ax<J>, T>
where
    Ax<J>: DimNum,
    NumOf<Ax<J>>: IsEqual<K>,
    T: ContainsAxis<K>,
    <NumOf<Ax<J>> as IsEqual<K>>::Output: Or<<T as ContainsAxis<K>>::Out>,
{
    type Out = <<NumOf<Ax<J>> as IsEqual<K>>::Output as Or<<T as ContainsAxis<K>>::Out>>::Out;
}
