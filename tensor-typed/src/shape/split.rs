//! `unflatten` and `flatten` over two dims: one dim viewed as two, `[.., X, ..]` →
//! `[.., H, E, ..]`, and two adjacent dims merged into one. The rule is that `X` is the
//! product of `H` and `E` ([`ProductOf`]); the positions are the shape's own, so a function
//! generic over its dims needs no bound but the product's.
//!
//! In generic code the product is a dim type of its own: `Shape![B, S, H * E]` is
//! `(B, S, Prod<H, E>)` (with the bound `H: DimMul<E>` that names it), which
//! `unflatten::<2, H, E>()` turns back into `(B, S, H, E)` because a dim is the product of
//! its own factors; and a dim given by a config (`C::Embd`) is the product of two others
//! when the config says so, as an item bound: `type Embd: Dim + ProductOf<Self::Heads,
//! Self::HeadDim>;`.

use crate::shape::dims::DimInRange;
use crate::shape::dims::{DimOkOf, PosOf, RankOf, SDim, WrapDim};
use crate::shape::{Cons, IntoShape, ListOf, Shape, ShapeOf};
use crate::typelevel::arith::{DimMul, Prod};
use crate::typelevel::dim::{Dim, DimEq};
use crate::typelevel::op;
use crate::typelevel::peano::{S, Z};
use typenum::B1;

/// `Self` is a dim of size `H · E`: the dim that [`Unflatten`] views as `[H, E]` and
/// that [`FlattenInto`] merges `[H, E]` into. Holds when `Self` unifies with the product
/// `Prod<H, E>` as any two dims unify (a name with an unnamed dim of its size, `Dyn`
/// with anything, checked at run time); a dim is always the product of its own factors
/// (`Prod<H, E>` of type parameters). State it as a bound where generic code needs a
/// fact it cannot see (a config's `Embd` is `Heads · HeadDim`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not the product of `{H}` and `{E}`",
    label = "the dim's size must be the product of the two sizes",
    note = "in generic code, say so with a bound: `X: ProductOf<H, E>` (or an item bound of a config trait), or write the dim as `H * E`"
)]
pub trait ProductOf<H, E>: Dim {}
#[diagnostic::do_not_recommend]
impl<X, H, E> ProductOf<H, E> for X
where
    H: DimMul<E>,
    X: Dim + DimEq<Prod<H, E>, Output = B1>,
{
}

/// The dim at Peano position `P` of a list, and the list with it replaced by two dims.
pub trait SplitAt<P> {
    /// The dim at `P`.
    type Dim;
    /// The list with `A, B` in its place.
    type Split<A, B>;
}
impl<H, T> SplitAt<Z> for Cons<H, T> {
    type Dim = H;
    type Split<A, B> = Cons<A, Cons<B, T>>;
}
impl<H, T: SplitAt<P>, P> SplitAt<S<P>> for Cons<H, T> {
    type Dim = T::Dim;
    type Split<A, B> = Cons<H, T::Split<A, B>>;
}

/// The dims at Peano positions `P` and `P + 1` of a list, and the list with both replaced
/// by one dim.
#[diagnostic::on_unimplemented(
    message = "flatten: the dim has no next dim to merge with",
    label = "flatten merges a dim with the one after it"
)]
pub trait PairAt<P> {
    /// The dim at `P`.
    type First;
    /// The dim at `P + 1`.
    type Second;
    /// The list with `X` in place of both.
    type Merged<X>;
}
impl<H1, H2, T> PairAt<Z> for Cons<H1, Cons<H2, T>> {
    type First = H1;
    type Second = H2;
    type Merged<X> = Cons<X, T>;
}
impl<H, T: PairAt<P>, P> PairAt<S<P>> for Cons<H, T> {
    type First = T::First;
    type Second = T::Second;
    type Merged<X> = Cons<H, T::Merged<X>>;
}

/// `unflatten::<DIM, H, E>` of `Self`: dim `DIM` (signed, `-1` the last) viewed as `[H,
/// E]`. Mirrors `torch.unflatten(x, DIM, (h, e))`. Compile errors: `DIM` out of range;
/// the dim is not `H · E` ([`ProductOf`]).
pub trait Unflatten<const DIM: isize, H, E>: Shape {
    /// The shape with `H, E` in place of dim `DIM`.
    type Output: Shape;
}
impl<X: Shape, H, E, const DIM: isize> Unflatten<DIM, H, E> for X
where
    SDim<DIM>: WrapDim<RankOf<X>>,
    DimOkOf<X, DIM>: DimInRange<op::unflatten, X, DIM>,
    ListOf<X>: SplitAt<PosOf<X, DIM>>,
    <ListOf<X> as SplitAt<PosOf<X, DIM>>>::Dim: ProductOf<H, E>,
    <ListOf<X> as SplitAt<PosOf<X, DIM>>>::Split<H, E>: IntoShape,
{
    type Output = ShapeOf<<ListOf<X> as SplitAt<PosOf<X, DIM>>>::Split<H, E>>;
}

/// `flatten` of dims `DIM` and `DIM + 1` of `Self` into the dim `M`, which must be their
/// product ([`ProductOf`]). Mirrors `torch.flatten(x, DIM, DIM + 1)`.
pub trait FlattenInto<const DIM: isize, M>: Shape {
    /// The shape with `M` in place of the two dims.
    type Output: Shape;
}
impl<X: Shape, M, const DIM: isize> FlattenInto<DIM, M> for X
where
    SDim<DIM>: WrapDim<RankOf<X>>,
    DimOkOf<X, DIM>: DimInRange<op::flatten, X, DIM>,
    ListOf<X>: PairAt<PosOf<X, DIM>>,
    M: ProductOf<
        <ListOf<X> as PairAt<PosOf<X, DIM>>>::First,
        <ListOf<X> as PairAt<PosOf<X, DIM>>>::Second,
    >,
    <ListOf<X> as PairAt<PosOf<X, DIM>>>::Merged<M>: IntoShape,
{
    type Output = ShapeOf<<ListOf<X> as PairAt<PosOf<X, DIM>>>::Merged<M>>;
}

/// The product of dims `DIM` and `DIM + 1` of `X` (unnamed; in generic code it needs the
/// bound `A: DimMul<B>` on the two dims).
pub type Flattened<X, const DIM: isize> =
    Prod<<ListOf<X> as PairAt<PosOf<X, DIM>>>::First, <ListOf<X> as PairAt<PosOf<X, DIM>>>::Second>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::typelevel::dim::{Dyn, D};
    use crate::typelevel::test_names::{same, test_name};

    test_name!(Embd, D<32>, Dg3);

    #[test]
    fn unflatten_views_a_product_dim_as_its_two_factors() {
        type X = tensor_macros::Shape![2, 32, Dyn];
        assert!(same::<
            <X as Unflatten<1, D<4>, D<8>>>::Output,
            tensor_macros::Shape![2, 4, 8, Dyn],
        >());
        assert!(same::<
            <X as Unflatten<-1, D<4>, Dyn>>::Output,
            tensor_macros::Shape![2, 32, 4, Dyn],
        >());
        type N = (Dyn, Embd);
        assert!(same::<
            <N as Unflatten<-1, D<4>, D<8>>>::Output,
            tensor_macros::Shape![Dyn, 4, 8],
        >());
    }

    #[test]
    fn flatten_into_names_the_merged_dim() {
        type X = tensor_macros::Shape![Dyn, 4, 8];
        assert!(same::<<X as FlattenInto<1, Embd>>::Output, (Dyn, Embd)>());
        assert!(same::<
            <X as FlattenInto<-2, D<32>>>::Output,
            tensor_macros::Shape![Dyn, 32],
        >());
        assert!(same::<Flattened<X, 1>, D<32>>());
    }
}
