//! Arithmetic on dims, as type-level operators for the shape rules and the nn layer:
//! product ([`DimMul`]), sum ([`DimAdd`]), difference ([`DimSub`]), exact quotient
//! ([`DimDiv`]) and the conv/pool output size ([`ConvOut`]).
//!
//! Each works for every static dim (any size a `usize` holds): the dims' decimal digits
//! ([`StaticDim::Digits`], read off their `D`/`K` groups) are computed on
//! ([`crate::typelevel::decimal`]) and the result grouped back into its `D`/`K` form
//! ([`FromDigits`]). Any `Dyn` operand makes the result `Dyn` (the run time checks it).
//! Where an operation can fail statically (a difference below zero, an inexact quotient,
//! an empty conv output), the operator also gives an `Ok` bit that the caller turns into
//! its own readable error.

use crate::typelevel::decimal::{
    AddC, AddOf, DCons, DNil, Dg0, Dg1, Dg2, DivRemL, FromDigits, LessOf, ListEq, MulBy, MulDig,
    MulOf, SubB, Trim, XDiv, QR, XQ,
};
use crate::typelevel::dim::{Bool, DigitsOf, Dim, DimEq, Dyn, Not, StaticDim, D};
use crate::typelevel::named::{
    BothSame, BySize, IdRel, IsNamed, NameId, NamedDim, SizeOf, UnnamedAs,
};
use std::fmt;
use std::marker::PhantomData;
use typenum::{Bit, B0, B1};

/// A binary operator `Op` ([`MulOp`], [`AddOp`], [`SubOp`], [`DivOp`]) on two sizes
/// (unnamed dims: `D`, `K` or `Dyn`): static × static computes on digits; any `Dyn`
/// gives `Dyn` (and `Ok = B1`). The dim operators ([`DimMul`], ...) read their operands'
/// sizes ([`SizeOf`]) and apply it, so a named dim counts as its size and the result is
/// unnamed.
pub trait SizeOp<Op, Rhs> {
    /// The result.
    type Output: Dim;
    /// `B1` unless the operation fails statically.
    type Ok: Bool;
}
impl<Op, Y: Dim> SizeOp<Op, Y> for Dyn {
    type Output = Dyn;
    type Ok = B1;
}
impl<Op, X: StaticDim> SizeOp<Op, Dyn> for X {
    type Output = Dyn;
    type Ok = B1;
}

/// The operators of [`SizeOp`].
macro_rules! size_ops {
    ($($(#[$m:meta])* $op:ident => $tr:ident;)*) => {$(
        $(#[$m])*
        pub struct $op;
        impl<X: SizeOf, Y: SizeOf> $tr<Y> for X
        where
            X::Unnamed: SizeOp<$op, Y::Unnamed>,
        {
            type Output = <X::Unnamed as SizeOp<$op, Y::Unnamed>>::Output;
            type Ok = <X::Unnamed as SizeOp<$op, Y::Unnamed>>::Ok;
        }
    )*};
}
size_ops! {
    /// The sum, [`DimAdd`].
    AddOp => DimAdd;
    /// The difference, [`DimSub`].
    SubOp => DimSub;
    /// The exact quotient, [`DimDiv`].
    DivOp => DimDiv;
}

/// The dim of a canonical digit list.
type DimOfDigits<L> = <L as FromDigits>::Dim;

/// The product, [`DimMul`] (of sizes, [`SizeOp`]).
pub struct MulOp;

/// `DimMul<Rhs>`: the product of two dims: of two names, their [`Merged`] product (a
/// name that keeps its factors in order); otherwise the product of the sizes, unnamed
/// (`Dyn` if either is `Dyn`).
pub trait DimMul<Rhs> {
    /// The product.
    type Output: Dim;
    /// Always `B1` (a product cannot fail).
    type Ok: Bool;
}
impl<X: IsNamed, Y: IsNamed> DimMul<Y> for X
where
    <X as IsNamed>::Output: MulNamed<X, Y, <Y as IsNamed>::Output>,
{
    type Output = <<X as IsNamed>::Output as MulNamed<X, Y, <Y as IsNamed>::Output>>::Output;
    type Ok = B1;
}

/// [`DimMul`] of `X` and `Y` after asking whether `X` is a name (`Self`) and whether `Y`
/// is one (`R`).
pub trait MulNamed<X, Y, R> {
    /// The product.
    type Output: Dim;
}
impl<X: NamedDim, Y: NamedDim> MulNamed<X, Y, B1> for B1
where
    Merged<X, Y>: Dim,
{
    type Output = Merged<X, Y>;
}
impl<X: SizeOf, Y: SizeOf> MulNamed<X, Y, B0> for B1
where
    X::Unnamed: SizeOp<MulOp, Y::Unnamed>,
{
    type Output = <X::Unnamed as SizeOp<MulOp, Y::Unnamed>>::Output;
}
impl<X: SizeOf, Y: SizeOf, R> MulNamed<X, Y, R> for B0
where
    X::Unnamed: SizeOp<MulOp, Y::Unnamed>,
{
    type Output = <X::Unnamed as SizeOp<MulOp, Y::Unnamed>>::Output;
}

/// The product of the names `A` and `B` in this order: what `layout!` merges `(a b)` of
/// two named dims into, and what `dims!` declares for `Model = Heads * HeadDim`. It is a
/// name of size `A · B` whose identity is its factors in order ([`ProdId`]): it is one
/// name with itself, two names with a product of other factors or of the same factors
/// in another order (`(d h)` is not `Heads * HeadDim`), and, met with a name declared by
/// its size (`Embd = 768`), compared by size as an unnamed dim is.
pub struct Merged<A, B>(PhantomData<(A, B)>);

impl<A: NamedDim, B: NamedDim> fmt::Debug for Merged<A, B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let short = |name: &'static str| name.rsplit("::").next().unwrap_or(name);
        write!(
            f,
            "Merged<{}, {}>",
            short(std::any::type_name::<A>()),
            short(std::any::type_name::<B>())
        )
    }
}

impl<A: NamedDim, B: NamedDim> NamedDim for Merged<A, B>
where
    A::Size: SizeOp<MulOp, B::Size>,
{
    type Size = <A::Size as SizeOp<MulOp, B::Size>>::Output;
    type Id = ProdId<A::Id, B::Id>;
}

/// The identity of a [`Merged`] product: its factors' identities, in order.
pub struct ProdId<I, J>(PhantomData<(I, J)>);

/// Two products: one name when their factors are, in order.
impl<I: IdRel<I2>, J: IdRel<J2>, I2, J2> IdRel<ProdId<I2, J2>> for ProdId<I, J>
where
    I::Rel: BothSame<J::Rel>,
{
    type Rel = <I::Rel as BothSame<J::Rel>>::Out;
}
/// An unnamed static dim of its size may stand for a product of names (an annotation
/// of a merge by its size).
impl<I, J, X: NamedDim, Y> UnnamedAs<X, Y> for ProdId<I, J>
where
    X::Size: DimEq<Y, Output: Bool>,
{
    type Ok = <X::Size as DimEq<Y>>::Output;
}
/// A product and a name declared by its size: by size.
impl<I, J, A, B, C, E, F, G, H, K2, L> IdRel<NameId<A, B, C, E, F, G, H, K2, L>> for ProdId<I, J> {
    type Rel = BySize;
}
/// A name declared by its size and a product: by size.
impl<I, J, A, B, C, E, F, G, H, K2, L> IdRel<ProdId<I, J>> for NameId<A, B, C, E, F, G, H, K2, L> {
    type Rel = BySize;
}
impl<X: StaticDim, Y: StaticDim> SizeOp<MulOp, Y> for X
where
    DigitsOf<Y>: MulBy<DigitsOf<X>, Output: FromDigits<Dim: Dim>>,
{
    type Output = DimOfDigits<MulOf<DigitsOf<X>, DigitsOf<Y>>>;
    type Ok = B1;
}
/// The product of dims `A` and `B`.
pub type Prod<A, B> = <A as DimMul<B>>::Output;

/// `DimAdd<Rhs>`: the sum of two dims (`cat`); `Dyn` if either is `Dyn`.
pub trait DimAdd<Rhs> {
    /// The sum.
    type Output: Dim;
    /// Always `B1`.
    type Ok: Bool;
}
impl<X: StaticDim, Y: StaticDim> SizeOp<AddOp, Y> for X
where
    DigitsOf<X>: AddC<DigitsOf<Y>, B0, Output: FromDigits<Dim: Dim>>,
{
    type Output = DimOfDigits<AddOf<DigitsOf<X>, DigitsOf<Y>>>;
    type Ok = B1;
}
/// The sum of dims `A` and `B`.
pub type Sum<A, B> = <A as DimAdd<B>>::Output;

/// `DimSub<Rhs>`: `Self - Rhs`; `Ok` is `B0` when `Rhs > Self` (the `Output` is then
/// `D<0>`, never used: the caller reports the error). `Dyn` if either is `Dyn`.
pub trait DimSub<Rhs> {
    /// The difference.
    type Output: Dim;
    /// `B1` when `Self >= Rhs`.
    type Ok: Bool;
}
/// [`DimSub`] after the subtraction (`Self` is its borrow: `B1` when it went below
/// zero), so that the difference `Df` is trimmed and grouped only when it is defined.
pub trait SubSel<Df> {
    /// The difference, or `D<0>`.
    type Output: Dim;
}
impl<Df: Trim<Output: FromDigits<Dim: Dim>>> SubSel<Df> for B0 {
    type Output = DimOfDigits<<Df as Trim>::Output>;
}
impl<Df> SubSel<Df> for B1 {
    type Output = D<0>;
}
/// The digits and the borrow of `X - Y`.
type Diff<X, Y> = <DigitsOf<X> as SubB<DigitsOf<Y>, B0>>::Output;
type Borrow<X, Y> = <DigitsOf<X> as SubB<DigitsOf<Y>, B0>>::Borrow;
impl<X: StaticDim, Y: StaticDim> SizeOp<SubOp, Y> for X
where
    DigitsOf<X>: SubB<DigitsOf<Y>, B0, Borrow: SubSel<Diff<X, Y>> + Not>,
{
    type Output = <Borrow<X, Y> as SubSel<Diff<X, Y>>>::Output;
    type Ok = <Borrow<X, Y> as Not>::Output;
}

/// `DimDiv<Rhs>`: the exact quotient `Self / Rhs` (`layout!` splits); `Ok` is `B0` when
/// `Rhs` is 0 or does not divide `Self` (the `Output` is then `D<0>`). `Dyn` if either is
/// `Dyn`.
pub trait DimDiv<Rhs> {
    /// The quotient.
    type Output: Dim;
    /// `B1` when `Rhs` divides `Self`.
    type Ok: Bool;
}
/// [`DimDiv`] on the divisor's digits `Self` (`DNil` is 0) and the dividend's `A`.
pub trait DivSel<A> {
    /// The quotient, or `D<0>`.
    type Output: Dim;
    /// Whether the division is exact.
    type Ok: Bool;
}
impl<A> DivSel<A> for DNil {
    type Output = D<0>;
    type Ok = B0;
}
impl<A, V, Rv> DivSel<A> for DCons<V, Rv>
where
    DCons<V, Rv>: XDiv<A, Output: Exact>,
{
    type Output = <<DCons<V, Rv> as XDiv<A>>::Output as Exact>::Output;
    type Ok = <<DCons<V, Rv> as XDiv<A>>::Output as Exact>::Ok;
}
/// The quotient of an [`XQ`] as a dim (`D<0>` when the division is not exact), and
/// whether it is exact.
pub trait Exact {
    /// The quotient.
    type Output: Dim;
    /// `B1` when the division is exact.
    type Ok: Bool;
}
impl<Q, Ok: ExactSel<Q> + Bool> Exact for XQ<Q, Ok> {
    type Output = <Ok as ExactSel<Q>>::Output;
    type Ok = Ok;
}
/// [`Exact`] on its `Ok` bit (`Self`), so that only an exact quotient is grouped.
pub trait ExactSel<Q> {
    /// The quotient, or `D<0>`.
    type Output: Dim;
}
impl<Q: FromDigits<Dim: Dim>> ExactSel<Q> for B1 {
    type Output = DimOfDigits<Q>;
}
impl<Q> ExactSel<Q> for B0 {
    type Output = D<0>;
}
impl<X: StaticDim, Y: StaticDim> SizeOp<DivOp, Y> for X
where
    DigitsOf<Y>: DivSel<DigitsOf<X>>,
{
    type Output = <DigitsOf<Y> as DivSel<DigitsOf<X>>>::Output;
    type Ok = <DigitsOf<Y> as DivSel<DigitsOf<X>>>::Ok;
}
/// The exact quotient of dims `A` and `B`.
pub type Quot<A, B> = <A as DimDiv<B>>::Output;

/// The output size of a convolution or pooling window along one dim, as PyTorch
/// computes it (`floor((size + 2·padding − dilation·(kernel − 1) − 1) / stride) + 1`):
/// `Self` is the input size, the parameters are static dims. `Ok` is `B0` when the
/// output would be empty (the padded input is smaller than the dilated kernel), the
/// stride is 0 or the kernel is 0. A `Dyn` input gives `Dyn` (checked at run time).
pub trait ConvOut<Kernel, Stride, Padding, Dilation> {
    /// The output size.
    type Output: Dim;
    /// `B1` when the output has at least one element.
    type Ok: Bool;
}
/// A dim's conv output is its size's ([`SizeOf`]: a named input counts as its size, and
/// the output is unnamed).
impl<X: SizeOf, Kr, St, Pd, Dl> ConvOut<Kr, St, Pd, Dl> for X
where
    X::Unnamed: ConvOutSize<Kr, St, Pd, Dl>,
{
    type Output = <X::Unnamed as ConvOutSize<Kr, St, Pd, Dl>>::Output;
    type Ok = <X::Unnamed as ConvOutSize<Kr, St, Pd, Dl>>::Ok;
}
/// [`ConvOut`] on a size (an unnamed dim).
pub trait ConvOutSize<Kernel, Stride, Padding, Dilation> {
    /// The output size.
    type Output: Dim;
    /// `B1` when the output has at least one element.
    type Ok: Bool;
}
impl<Kr, St, Pd, Dl> ConvOutSize<Kr, St, Pd, Dl> for Dyn {
    type Output = Dyn;
    type Ok = B1;
}
/// The digits of 1.
type One = DCons<Dg1, DNil>;
/// `size + 2·padding` (digits).
type Padded<X, Pd> = AddOf<DigitsOf<X>, <DigitsOf<Pd> as MulDig<Dg2, Dg0>>::Output>;
/// `kernel − 1` (digits and borrow: `B1` for kernel 0).
type KrLess<Kr> = <DigitsOf<Kr> as SubB<One, B0>>::Output;
type KrZero<Kr> = <DigitsOf<Kr> as SubB<One, B0>>::Borrow;
/// `dilation·(kernel − 1) + 1` (digits).
type Window<Kr, Dl> = <MulOf<DigitsOf<Dl>, <KrLess<Kr> as Trim>::Output> as AddC<DNil, B1>>::Output;
/// Whether a conv/pool window fits (see [`ConvOut`]): the window is not larger than the
/// padded input, the stride is not 0, the kernel is not 0.
type ConvOk<X, Kr, St, Pd, Dl> = <<LessOf<Padded<X, Pd>, Window<Kr, Dl>> as Or3<
    <DigitsOf<St> as ListEq<DNil>>::Output,
    KrZero<Kr>,
>>::Output as Not>::Output;

/// `Self | B | C` on typenum bits.
pub trait Or3<B, C> {
    /// The bit.
    type Output: Bit;
}
impl<A: std::ops::BitOr<B, Output: std::ops::BitOr<C, Output: Bit>>, B, C> Or3<B, C> for A {
    type Output = <<A as std::ops::BitOr<B>>::Output as std::ops::BitOr<C>>::Output;
}

/// [`ConvOut`] after checking that the window fits (`Self`: `B1` when it does), so that
/// `(padded − window) / stride + 1` is computed only then.
pub trait ConvSel<P, W, S> {
    /// The output size, or `D<0>`.
    type Output: Dim;
}
impl<P: SubB<W, B0, Output: Trim<Output: DivRemL<S, Output: ConvQuot>>>, W, S> ConvSel<P, W, S>
    for B1
{
    type Output =
        <<<<P as SubB<W, B0>>::Output as Trim>::Output as DivRemL<S>>::Output as ConvQuot>::Output;
}
impl<P, W, S> ConvSel<P, W, S> for B0 {
    type Output = D<0>;
}
/// `quotient + 1` of a [`QR`], as a dim.
pub trait ConvQuot {
    /// The dim.
    type Output: Dim;
}
impl<Q: AddC<DNil, B1, Output: FromDigits<Dim: Dim>>, R> ConvQuot for QR<Q, R> {
    type Output = DimOfDigits<<Q as AddC<DNil, B1>>::Output>;
}
impl<X: StaticDim, Kr: StaticDim, St: StaticDim, Pd: StaticDim, Dl: StaticDim>
    ConvOutSize<Kr, St, Pd, Dl> for X
where
    DigitsOf<Pd>: MulDig<Dg2, Dg0>,
    DigitsOf<X>: AddC<<DigitsOf<Pd> as MulDig<Dg2, Dg0>>::Output, B0>,
    DigitsOf<Kr>: SubB<One, B0, Output: Trim>,
    <KrLess<Kr> as Trim>::Output: MulBy<DigitsOf<Dl>>,
    MulOf<DigitsOf<Dl>, <KrLess<Kr> as Trim>::Output>: AddC<DNil, B1>,
    Padded<X, Pd>: SubB<Window<Kr, Dl>, B0>,
    DigitsOf<St>: ListEq<DNil>,
    LessOf<Padded<X, Pd>, Window<Kr, Dl>>: Or3<<DigitsOf<St> as ListEq<DNil>>::Output, KrZero<Kr>>,
    <LessOf<Padded<X, Pd>, Window<Kr, Dl>> as Or3<
        <DigitsOf<St> as ListEq<DNil>>::Output,
        KrZero<Kr>,
    >>::Output: Not,
    ConvOk<X, Kr, St, Pd, Dl>: ConvSel<Padded<X, Pd>, Window<Kr, Dl>, DigitsOf<St>>,
{
    type Output =
        <ConvOk<X, Kr, St, Pd, Dl> as ConvSel<Padded<X, Pd>, Window<Kr, Dl>, DigitsOf<St>>>::Output;
    type Ok = ConvOk<X, Kr, St, Pd, Dl>;
}
/// The conv/pool output size of input dim `X`.
pub type ConvSize<X, Kr, St, Pd, Dl> = <X as ConvOut<Kr, St, Pd, Dl>>::Output;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::typelevel::dim::{D, K};

    fn val<X: Dim>() -> Option<usize> {
        X::STATIC
    }
    fn ok<B: Bit>() -> bool {
        B::BOOL
    }

    #[test]
    fn products_sums_and_differences_of_any_size() {
        type V = K<D<50>, D<257>>;
        assert_eq!(val::<Prod<V, D<768>>>(), Some(50257 * 768));
        assert_eq!(val::<Prod<V, V>>(), Some(50257 * 50257));
        assert_eq!(val::<Sum<V, D<743>>>(), Some(51000));
        assert_eq!(val::<Sum<D<999>, D<1>>>(), Some(1000));
        assert_eq!(val::<<V as DimSub<D<257>>>::Output>(), Some(50000));
        assert!(ok::<<V as DimSub<D<257>>>::Ok>());
        assert!(!ok::<<D<3> as DimSub<D<4>>>::Ok>());
        assert_eq!(val::<Prod<Dyn, V>>(), None);
    }

    #[test]
    fn exact_quotients_and_inexact_ones() {
        type V = K<D<61>, D<440>>;
        assert_eq!(val::<Quot<V, K<D<1>, D<920>>>>(), Some(32));
        assert!(ok::<<V as DimDiv<D<960>>>::Ok>());
        assert!(!ok::<<D<10> as DimDiv<D<3>>>::Ok>());
        assert!(!ok::<<D<10> as DimDiv<D<0>>>::Ok>());
        assert_eq!(val::<Quot<D<0>, D<5>>>(), Some(0));
        type T40 = K<K<K<K<D<1>, D<99>>, D<511>>, D<627>>, D<776>>;
        assert_eq!(val::<T40>(), Some(1 << 40));
        assert_eq!(val::<Quot<T40, K<K<D<1>, D<48>>, D<576>>>>(), Some(1 << 20));
    }

    #[test]
    fn conv_output_sizes_as_pytorch() {
        // 28x28, kernel 3, stride 1, padding 1 -> 28; kernel 2 stride 2 -> 14.
        assert_eq!(val::<ConvSize<D<28>, D<3>, D<1>, D<1>, D<1>>>(), Some(28));
        assert_eq!(val::<ConvSize<D<28>, D<2>, D<2>, D<0>, D<1>>>(), Some(14));
        assert_eq!(val::<ConvSize<D<7>, D<3>, D<2>, D<0>, D<2>>>(), Some(2));
        assert_eq!(
            val::<ConvSize<K<D<4>, D<96>>, D<3>, D<2>, D<1>, D<1>>>(),
            Some(2048)
        );
        assert!(!ok::<<D<2> as ConvOut<D<3>, D<1>, D<0>, D<1>>>::Ok>());
        assert!(!ok::<<D<5> as ConvOut<D<3>, D<0>, D<0>, D<1>>>::Ok>());
        assert!(!ok::<<D<5> as ConvOut<D<0>, D<1>, D<0>, D<1>>>::Ok>());
        assert_eq!(val::<ConvSize<Dyn, D<3>, D<1>, D<1>, D<1>>>(), None);
    }
}
