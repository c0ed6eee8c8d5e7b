//! Type-level booleans: [`B1`] (true) and [`B0`] (false), the answers the shape rules
//! compute (`DimEq`, `BroadcastOk`, …), with `&`, `|` and `!` between them as the std
//! operator traits.
//!
//! Two unit structs and a trait are all the rules need, so they are ours rather than a
//! dependency's: the crate that provided them cost a second of every clean build.

use std::ops::{BitAnd, BitOr, Not};

/// A type-level boolean: [`B0`] or [`B1`].
pub trait Bit: Copy + Default + 'static {
    /// The value as a `bool`.
    const BOOL: bool;
}

/// Type-level `false`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct B0;

/// Type-level `true`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct B1;

impl Bit for B0 {
    const BOOL: bool = false;
}
impl Bit for B1 {
    const BOOL: bool = true;
}

impl Not for B0 {
    type Output = B1;
    #[cfg_attr(unoptimized, inline)]
    fn not(self) -> B1 {
        B1
    }
}
impl Not for B1 {
    type Output = B0;
    #[cfg_attr(unoptimized, inline)]
    fn not(self) -> B0 {
        B0
    }
}

impl<R: Bit> BitAnd<R> for B0 {
    type Output = B0;
    fn bitand(self, _: R) -> B0 {
        B0
    }
}
impl<R: Bit> BitAnd<R> for B1 {
    type Output = R;
    fn bitand(self, r: R) -> R {
        r
    }
}
impl<R: Bit> BitOr<R> for B0 {
    type Output = R;
    fn bitor(self, r: R) -> R {
        r
    }
}
impl<R: Bit> BitOr<R> for B1 {
    type Output = B1;
    fn bitor(self, _: R) -> B1 {
        B1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value<X: Bit>(_: X) -> bool {
        X::BOOL
    }

    #[test]
    fn operators_follow_the_truth_tables() {
        assert_eq!(
            [
                value(B0 & B0),
                value(B0 & B1),
                value(B1 & B0),
                value(B1 & B1)
            ],
            [false, false, false, true]
        );
        assert_eq!(
            [
                value(B0 | B0),
                value(B0 | B1),
                value(B1 | B0),
                value(B1 | B1)
            ],
            [false, true, true, true]
        );
        assert_eq!([value(!B0), value(!B1)], [true, false]);
    }
}
