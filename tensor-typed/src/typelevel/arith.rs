//! Arithmetic on dims, as type-level operators for the shape rules and the nn layer:
//! product ([`DimMul`]), sum ([`DimAdd`]), difference ([`DimSub`]), exact quotient
//! ([`DimDiv`]) and the conv/pool output size ([`ConvOut`]).
//!
//! Each works for every static dim (any size a `usize` holds): the dims are mapped to
//! typenum numbers ([`StaticDim::Num`]), computed on, and mapped back to their decimal
//! form ([`NumDim`]). Any `Dyn` operand makes the result `Dyn` (the run time checks it).
//! Where an operation can fail statically (a difference below zero, an inexact quotient,
//! an empty conv output), the operator also gives an `Ok` bit that the caller turns into
//! its own readable error.

use crate::typelevel::dim::{And, Bool, Dim, DimOf, Dyn, NumDim, NumOf, StaticDim};
use std::ops::{Add, Mul, Sub};
use typenum::{Bit, IsEqual, IsGreaterOrEqual, UInt, UTerm, Unsigned, B0, B1, U0, U1, U2};

/// Implements a binary dim operator for every pair: static × static computes through
/// typenum; any `Dyn` gives `Dyn` (and `Ok = B1`).
macro_rules! dyn_cases {
    ($tr:ident) => {
        impl<Y: Dim> $tr<Y> for Dyn {
            type Output = Dyn;
            type Ok = B1;
        }
        impl<X: StaticDim> $tr<Dyn> for X {
            type Output = Dyn;
            type Ok = B1;
        }
    };
}

// ---- division with remainder, bit by bit -------------------------------------------

/// `Self / Dv` and `Self % Dv` on typenum unsigneds, together, by schoolbook binary long
/// division from the most significant bit: one comparison and at most one subtraction
/// (each as long as the divisor) per bit of `Self`. typenum's own `Div` and `Rem` each
/// redo the whole division with an index lookup per bit, which made a `layout!` split of
/// dims above 65536 cost seconds of compile time.
pub trait DivRem<Dv> {
    /// The quotient.
    type Q: Unsigned;
    /// The remainder.
    type R: Unsigned;
}
impl<Dv> DivRem<Dv> for UTerm {
    type Q = UTerm;
    type R = UTerm;
}
impl<U: DivRem<Dv>, B: Bit, Dv> DivRem<Dv> for UInt<U, B>
where
    U::R: Append<B>,
    <U::R as Append<B>>::Output: IsGreaterOrEqual<Dv>,
    <<U::R as Append<B>>::Output as IsGreaterOrEqual<Dv>>::Output:
        DivStep<U::Q, <U::R as Append<B>>::Output, Dv>,
{
    type Q = <<<U::R as Append<B>>::Output as IsGreaterOrEqual<Dv>>::Output as DivStep<
        U::Q,
        <U::R as Append<B>>::Output,
        Dv,
    >>::Q;
    type R = <<<U::R as Append<B>>::Output as IsGreaterOrEqual<Dv>>::Output as DivStep<
        U::Q,
        <U::R as Append<B>>::Output,
        Dv,
    >>::R;
}

/// `2·Self + B` on a typenum unsigned, kept canonical (no leading zero bit).
pub trait Append<B> {
    /// The result.
    type Output: Unsigned;
}
impl Append<B0> for UTerm {
    type Output = UTerm;
}
impl Append<B1> for UTerm {
    type Output = UInt<UTerm, B1>;
}
impl<U: Unsigned, X: Bit, B: Bit> Append<B> for UInt<U, X> {
    type Output = UInt<UInt<U, X>, B>;
}

/// One step of [`DivRem`] (`Self`: whether the running remainder `R` reaches `Dv`).
pub trait DivStep<Q, R, Dv> {
    /// The quotient so far.
    type Q: Unsigned;
    /// The remainder so far.
    type R: Unsigned;
}
impl<Q: Append<B1>, R: Sub<Dv, Output: Unsigned>, Dv> DivStep<Q, R, Dv> for B1 {
    type Q = <Q as Append<B1>>::Output;
    type R = <R as Sub<Dv>>::Output;
}
impl<Q: Append<B0>, R: Unsigned, Dv> DivStep<Q, R, Dv> for B0 {
    type Q = <Q as Append<B0>>::Output;
    type R = R;
}

/// `DimMul<Rhs>`: the product of two dims; `Dyn` if either is `Dyn`.
pub trait DimMul<Rhs> {
    /// The product.
    type Output: Dim;
    /// Always `B1` (a product cannot fail).
    type Ok: Bool;
}
impl<X: StaticDim, Y: StaticDim> DimMul<Y> for X
where
    NumOf<X>: Mul<NumOf<Y>, Output: NumDim>,
{
    type Output = DimOf<<NumOf<X> as Mul<NumOf<Y>>>::Output>;
    type Ok = B1;
}
dyn_cases!(DimMul);
/// The product of dims `A` and `B`.
pub type Prod<A, B> = <A as DimMul<B>>::Output;

/// `DimAdd<Rhs>`: the sum of two dims (`cat`); `Dyn` if either is `Dyn`.
pub trait DimAdd<Rhs> {
    /// The sum.
    type Output: Dim;
    /// Always `B1`.
    type Ok: Bool;
}
impl<X: StaticDim, Y: StaticDim> DimAdd<Y> for X
where
    NumOf<X>: Add<NumOf<Y>, Output: NumDim>,
{
    type Output = DimOf<<NumOf<X> as Add<NumOf<Y>>>::Output>;
    type Ok = B1;
}
dyn_cases!(DimAdd);
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
/// [`DimSub`] after the comparison (`Self` is the `Ok` bit), so that the subtraction is
/// computed only when it is defined.
pub trait SubSel<A, B> {
    /// The difference, or `D<0>`.
    type Output: Dim;
}
impl<A: Sub<B, Output: NumDim>, B> SubSel<A, B> for B1 {
    type Output = DimOf<<A as Sub<B>>::Output>;
}
impl<A, B> SubSel<A, B> for B0 {
    type Output = crate::typelevel::dim::D<0>;
}
impl<X: StaticDim, Y: StaticDim> DimSub<Y> for X
where
    NumOf<X>: IsGreaterOrEqual<NumOf<Y>, Output: SubSel<NumOf<X>, NumOf<Y>> + Bool>,
{
    type Output =
        <<NumOf<X> as IsGreaterOrEqual<NumOf<Y>>>::Output as SubSel<NumOf<X>, NumOf<Y>>>::Output;
    type Ok = <NumOf<X> as IsGreaterOrEqual<NumOf<Y>>>::Output;
}
dyn_cases!(DimSub);

/// `DimDiv<Rhs>`: the exact quotient `Self / Rhs` (`layout!` splits); `Ok` is `B0` when
/// `Rhs` is 0 or does not divide `Self` (the `Output` is then `D<0>`). `Dyn` if either is
/// `Dyn`.
pub trait DimDiv<Rhs> {
    /// The quotient.
    type Output: Dim;
    /// `B1` when `Rhs` divides `Self`.
    type Ok: Bool;
}
/// [`DimDiv`] after testing the divisor for zero (`Self` is `B1` when it is 0).
pub trait DivSel<A, B> {
    /// The quotient, or `D<0>`.
    type Output: Dim;
    /// Whether the division is exact.
    type Ok: Bool;
}
impl<A, B> DivSel<A, B> for B1 {
    type Output = crate::typelevel::dim::D<0>;
    type Ok = B0;
}
impl<A, B> DivSel<A, B> for B0
where
    A: DivRem<B, Q: NumDim, R: IsEqual<U0, Output: Bool>>,
{
    type Output = DimOf<<A as DivRem<B>>::Q>;
    type Ok = <<A as DivRem<B>>::R as IsEqual<U0>>::Output;
}
impl<X: StaticDim, Y: StaticDim> DimDiv<Y> for X
where
    NumOf<Y>: IsEqual<U0, Output: DivSel<NumOf<X>, NumOf<Y>>>,
{
    type Output = <<NumOf<Y> as IsEqual<U0>>::Output as DivSel<NumOf<X>, NumOf<Y>>>::Output;
    type Ok = <<NumOf<Y> as IsEqual<U0>>::Output as DivSel<NumOf<X>, NumOf<Y>>>::Ok;
}
dyn_cases!(DimDiv);
/// The exact quotient of dims `A` and `B`.
pub type Quot<A, B> = <A as DimDiv<B>>::Output;

/// The output size of a convolution or pooling window along one dim, as PyTorch
/// computes it (`floor((size + 2·padding − dilation·(kernel − 1) − 1) / stride) + 1`):
/// `Self` is the input size, the parameters are static dims. `Ok` is `B0` when the
/// output would be empty (the padded input is smaller than the dilated kernel) or the
/// stride is 0. A `Dyn` input gives `Dyn` (checked at run time).
pub trait ConvOut<Kernel, Stride, Padding, Dilation> {
    /// The output size.
    type Output: Dim;
    /// `B1` when the output has at least one element.
    type Ok: Bool;
}
impl<Kr, St, Pd, Dl> ConvOut<Kr, St, Pd, Dl> for Dyn {
    type Output = Dyn;
    type Ok = B1;
}
/// `size + 2·padding` and `dilation·(kernel − 1) + 1` as typenum numbers.
type Padded<X, Pd> = <NumOf<X> as Add<<NumOf<Pd> as Mul<U2>>::Output>>::Output;
type Window<Kr, Dl> =
    <<NumOf<Dl> as Mul<<NumOf<Kr> as Sub<U1>>::Output>>::Output as Add<U1>>::Output;

/// [`ConvOut`] after comparing the padded input with the window (`Self`: `B1` when it
/// fits).
pub trait ConvSel<P, W, S> {
    /// The output size, or `D<0>`.
    type Output: Dim;
}
impl<P: Sub<W>, W, S> ConvSel<P, W, S> for B1
where
    <P as Sub<W>>::Output: DivRem<S>,
    <<P as Sub<W>>::Output as DivRem<S>>::Q: Add<U1, Output: NumDim>,
{
    type Output = DimOf<<<<P as Sub<W>>::Output as DivRem<S>>::Q as Add<U1>>::Output>;
}
impl<P, W, S> ConvSel<P, W, S> for B0 {
    type Output = crate::typelevel::dim::D<0>;
}
impl<X: StaticDim, Kr: StaticDim, St: StaticDim, Pd: StaticDim, Dl: StaticDim>
    ConvOut<Kr, St, Pd, Dl> for X
where
    NumOf<Pd>: Mul<U2>,
    NumOf<X>: Add<<NumOf<Pd> as Mul<U2>>::Output>,
    NumOf<Kr>: Sub<U1>,
    NumOf<Dl>: Mul<<NumOf<Kr> as Sub<U1>>::Output>,
    <NumOf<Dl> as Mul<<NumOf<Kr> as Sub<U1>>::Output>>::Output: Add<U1>,
    Padded<X, Pd>: IsGreaterOrEqual<Window<Kr, Dl>>,
    NumOf<St>: IsEqual<U0>,
    <NumOf<St> as IsEqual<U0>>::Output: crate::typelevel::dim::Not,
    <Padded<X, Pd> as IsGreaterOrEqual<Window<Kr, Dl>>>::Output:
        And<<<NumOf<St> as IsEqual<U0>>::Output as crate::typelevel::dim::Not>::Output>,
    ConvOk<X, Kr, St, Pd, Dl>: ConvSel<Padded<X, Pd>, Window<Kr, Dl>, NumOf<St>>,
{
    type Output =
        <ConvOk<X, Kr, St, Pd, Dl> as ConvSel<Padded<X, Pd>, Window<Kr, Dl>, NumOf<St>>>::Output;
    type Ok = ConvOk<X, Kr, St, Pd, Dl>;
}
/// Whether a conv/pool window fits (see [`ConvOut`]).
type ConvOk<X, Kr, St, Pd, Dl> =
    <<Padded<X, Pd> as IsGreaterOrEqual<Window<Kr, Dl>>>::Output as And<
        <<NumOf<St> as IsEqual<U0>>::Output as crate::typelevel::dim::Not>::Output,
    >>::Output;
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
        assert_eq!(val::<ConvSize<Dyn, D<3>, D<1>, D<1>, D<1>>>(), None);
    }
}
