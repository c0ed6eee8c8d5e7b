//! The shape of `t()`: 0-d and 1-d shapes unchanged, 2-d swapped, more dims refused.

use crate::shape::check::check;
use crate::shape::Shape;
use typenum::B1;

/// `Transpose`: the shape of `t()`: 0-d and 1-d shapes are unchanged, 2-d are swapped;
/// for more dims `Ok` is `B0`, reported by the method's `TransposeOk` bound (so that
/// the error is ours, not "the method `t` exists but its trait bounds were not
/// satisfied").
pub trait Transpose: Shape {
    /// The transposed shape (the shape itself when there are more than 2 dims).
    type Output: Shape;
    /// `B1` for at most 2 dims, else the shape itself (the `Self` of the failed check).
    type Ok;
}
impl Transpose for () {
    type Output = ();
    type Ok = B1;
}
impl<X: crate::typelevel::dim::Dim> Transpose for (X,) {
    type Output = (X,);
    type Ok = B1;
}
impl<X: crate::typelevel::dim::Dim, Y: crate::typelevel::dim::Dim> Transpose for (X, Y) {
    type Output = (Y, X);
    type Ok = B1;
}
macro_rules! no_transpose {
    ($(($($d:ident),*))*) => {$(
        impl<$($d: crate::typelevel::dim::Dim),*> Transpose for ($($d,)*) {
            type Output = Self;
            type Ok = Self;
        }
    )*};
}
no_transpose! {
    (A, B, C) (A, B, C, E) (A, B, C, E, F) (A, B, C, E, F, G) (A, B, C, E, F, G, H)
    (A, B, C, E, F, G, H, I)
}

check! {
    /// `t()` of `S`: at most 2 dims (never holds: used on `B0`).
    #[diagnostic::on_unimplemented(
        message = "t() expects a tensor with <= 2 dimensions, but self is {S}",
        label = "t() of a tensor with more than 2 dims",
        note = "use permute::<Axes![..]>() to reorder the dims of a tensor with more than 2 dims"
    )]
    TransposeOk<S;>
}
