//! The SBP signatures at compile time: for each op family, the SBP of the output from
//! the SBPs of the inputs, or [`Refused`] where the runtime's signature
//! (`tensor_core::global::*_signature`) would box an input first. Each rule states the
//! runtime function it mirrors; `tests/tests/typed_sbp.rs` compares every rule with the
//! runtime on every pair of SBPs.
//!
//! Rules compute with kinds ([`Split`] with a Peano dim, [`Bcast`], [`Part`],
//! [`Dynamic`]): a [`Dynamic`] input gives a [`Dynamic`] output, and the op boxes as the
//! untyped runtime does. Where the runtime's choice depends on sizes, a static size 1
//! decides as it does at run time, and any other dim (`Dyn`, a name) counts as more than
//! 1; the op then checks at run time that no input needs boxing (it runs under
//! [`tensor_core::global::without_implicit_boxing`]).

use super::sbp::{Bcast, Dynamic, Max, Min, Part, Refused, Split, Sum};
use crate::shape::dims::{At, DimAt};
use crate::shape::Shape;
use crate::typelevel::dim::{Ax, IsOne, Pick};
use crate::typelevel::list::{Cons, Nil};
use crate::typelevel::peano::{AxisPos, PEq, PLt, S as Succ, Z};
use typenum::{B0, B1};

/// `if C { T } else { F }`.
type If<C, T, F> = <C as Pick>::Out<T, F>;

/// `Self + Rhs` on Peano numbers.
pub trait PAdd<Rhs> {
    /// The sum.
    type Output;
}
impl<X> PAdd<Z> for X {
    type Output = X;
}
impl<X: PAdd<Y>, Y> PAdd<Succ<Y>> for X {
    type Output = Succ<<X as PAdd<Y>>::Output>;
}

/// `Self - Rhs` on Peano numbers, or [`Absent`] when `Rhs > Self`.
pub trait PSubOr<Rhs> {
    /// The difference, or [`Absent`].
    type Output;
}
impl<X> PSubOr<Z> for X {
    type Output = X;
}
impl<Y> PSubOr<Succ<Y>> for Z {
    type Output = Absent;
}
impl<X: PSubOr<Y>, Y> PSubOr<Succ<Y>> for Succ<X> {
    type Output = <X as PSubOr<Y>>::Output;
}

/// A position an operand does not have (it is broadcast along it from no dim at all).
pub struct Absent;

/// Whether the dim at a position of shape `Sh` is a static 1 (`B1`), another dim
/// (`B0`, `Dyn` included), or [`Absent`].
pub trait ClassIn<Sh> {
    /// `B1`, `B0` or [`Absent`].
    type Class;
}
impl<Sh> ClassIn<Sh> for Absent {
    type Class = Absent;
}
impl<Sh: Shape> ClassIn<Sh> for Z
where
    Sh::List: At<Z>,
    DimAt<Sh, Z>: IsOne,
{
    type Class = <DimAt<Sh, Z> as IsOne>::Output;
}
impl<Sh: Shape, X> ClassIn<Sh> for Succ<X>
where
    Sh::List: At<Succ<X>>,
    DimAt<Sh, Succ<X>>: IsOne,
{
    type Class = <DimAt<Sh, Succ<X>> as IsOne>::Output;
}
type ClassAt<Sh, X> = <X as ClassIn<Sh>>::Class;

/// The rank of `Sh` (a Peano number).
type Rank<Sh> = <Sh as Shape>::Rank;
/// How many more dims `L` has than `R` ([`Absent`] when fewer).
pub type RankGap<L, R> = <Rank<L> as PSubOr<Rank<R>>>::Output;

// ---------------------------------------------------------------------------------
// Unary: `unary_signature`, by the op's `PartialRule` (its row of the op table).

/// The partial rules of unary ops (`partial:` in `tensor-core/src/ops/unary/defs.rs`).
pub mod unary_rule {
    /// A partial input is boxed to broadcast first.
    pub struct Broadcasts;
    /// `neg`: a sum stays a sum; for floats max and min swap.
    pub struct Negates;
    /// Non-decreasing (`relu`): max and min stay.
    pub struct Monotone;
}

/// What a unary partial rule gives a partial input (`F`: `B1` for a float dtype).
pub trait UnaryPartial {
    /// For `P<Sum>`.
    type OfSum;
    /// For `P<Max>`.
    type OfMax<F: Pick>;
    /// For `P<Min>`.
    type OfMin<F: Pick>;
}
impl UnaryPartial for unary_rule::Broadcasts {
    type OfSum = Refused;
    type OfMax<F: Pick> = Refused;
    type OfMin<F: Pick> = Refused;
}
impl UnaryPartial for unary_rule::Negates {
    type OfSum = Part<Sum>;
    type OfMax<F: Pick> = F::Out<Part<Min>, Refused>;
    type OfMin<F: Pick> = F::Out<Part<Max>, Refused>;
}
impl UnaryPartial for unary_rule::Monotone {
    type OfSum = Refused;
    type OfMax<F: Pick> = Part<Max>;
    type OfMin<F: Pick> = Part<Min>;
}

/// The unary rule on the kind `Self`, for the partial rule `R` and float bit `F`.
pub trait UnaryKind<R, F> {
    /// The verdict.
    type Out;
}
impl<R, F, X> UnaryKind<R, F> for Split<X> {
    type Out = Split<X>;
}
impl<R, F> UnaryKind<R, F> for Bcast {
    type Out = Bcast;
}
impl<R, F> UnaryKind<R, F> for Dynamic {
    type Out = Dynamic;
}
impl<R: UnaryPartial, F> UnaryKind<R, F> for Part<Sum> {
    type Out = R::OfSum;
}
impl<R: UnaryPartial, F: Pick> UnaryKind<R, F> for Part<Max> {
    type Out = R::OfMax<F>;
}
impl<R: UnaryPartial, F: Pick> UnaryKind<R, F> for Part<Min> {
    type Out = R::OfMin<F>;
}

// ---------------------------------------------------------------------------------
// Binary: `binary_partial`, then `elementwise_signature`.

/// The partial rules of binary ops (`partial:` in `tensor-core/src/ops/binary/defs.rs`).
pub mod binary_rule {
    /// Partial inputs are boxed to broadcast first.
    pub struct Broadcasts;
    /// `P<Sum> ± P<Sum>` stays `P<Sum>`.
    pub struct Sum;
    /// `P<Sum> * B` and `B * P<Sum>` stay `P<Sum>`.
    pub struct Linear;
    /// `P<Max>` with `P<Max>` or `B` stays `P<Max>`.
    pub struct Max;
    /// `P<Min>` with `P<Min>` or `B` stays `P<Min>`.
    pub struct Min;
}

/// Which reduction a partial kind's marker is, as bits.
pub trait RedBits {
    /// `B1` for [`Sum`].
    type IsSum: Pick;
    /// `B1` for [`Max`].
    type IsMax: Pick;
    /// `B1` for [`Min`].
    type IsMin: Pick;
    /// `B1` for [`Max`] and [`Min`] (a negative factor swaps them).
    type IsOrder: Pick;
}
impl RedBits for Sum {
    type IsSum = B1;
    type IsMax = B0;
    type IsMin = B0;
    type IsOrder = B0;
}
impl RedBits for Max {
    type IsSum = B0;
    type IsMax = B1;
    type IsMin = B0;
    type IsOrder = B1;
}
impl RedBits for Min {
    type IsSum = B0;
    type IsMax = B0;
    type IsMin = B1;
    type IsOrder = B1;
}

/// What a binary partial rule gives partial operands: `P<A> op P<C>`, `P<A> op B`,
/// `B op P<C>`.
pub trait BinaryPartial {
    /// `P<A> op P<C>`.
    type PP<A: RedBits, C: RedBits>;
    /// `P<A> op B`.
    type PB<A: RedBits>;
    /// `B op P<C>`.
    type BP<C: RedBits>;
}
impl BinaryPartial for binary_rule::Broadcasts {
    type PP<A: RedBits, C: RedBits> = Refused;
    type PB<A: RedBits> = Refused;
    type BP<C: RedBits> = Refused;
}
impl BinaryPartial for binary_rule::Sum {
    type PP<A: RedBits, C: RedBits> = If<A::IsSum, If<C::IsSum, Part<Sum>, Refused>, Refused>;
    type PB<A: RedBits> = Refused;
    type BP<C: RedBits> = Refused;
}
impl BinaryPartial for binary_rule::Linear {
    type PP<A: RedBits, C: RedBits> = Refused;
    type PB<A: RedBits> = <A::IsSum as Pick>::Out<Part<Sum>, Refused>;
    type BP<C: RedBits> = <C::IsSum as Pick>::Out<Part<Sum>, Refused>;
}
impl BinaryPartial for binary_rule::Max {
    type PP<A: RedBits, C: RedBits> = If<A::IsMax, If<C::IsMax, Part<Max>, Refused>, Refused>;
    type PB<A: RedBits> = <A::IsMax as Pick>::Out<Part<Max>, Refused>;
    type BP<C: RedBits> = <C::IsMax as Pick>::Out<Part<Max>, Refused>;
}
impl BinaryPartial for binary_rule::Min {
    type PP<A: RedBits, C: RedBits> = If<A::IsMin, If<C::IsMin, Part<Min>, Refused>, Refused>;
    type PB<A: RedBits> = <A::IsMin as Pick>::Out<Part<Min>, Refused>;
    type BP<C: RedBits> = <C::IsMin as Pick>::Out<Part<Min>, Refused>;
}

/// `elementwise_signature` for a split left operand and a broadcast right one, by the
/// classes of the left dim and the right dim aligned with it (`Self`, `CR`): accepted
/// unless the right operand has that dim at more than 1 (it would be split too) or the
/// left one is broadcast from 1 along it.
pub trait SplitWithB<CR> {
    /// `B1` when no input is boxed.
    type Ok;
}
impl<CL> SplitWithB<Absent> for CL {
    type Ok = B1;
}
impl SplitWithB<B0> for B0 {
    type Ok = B0;
}
impl SplitWithB<B1> for B0 {
    type Ok = B1;
}
impl SplitWithB<B0> for B1 {
    type Ok = B0;
}
impl SplitWithB<B1> for B1 {
    type Ok = B1;
}

/// Two dims' classes agree (both 1, or both more than 1).
pub trait SameClass<C> {
    /// `B1` when they agree.
    type Ok;
}
impl<C> SameClass<C> for C {
    type Ok = B1;
}
impl SameClass<B1> for B0 {
    type Ok = B0;
}
impl SameClass<B0> for B1 {
    type Ok = B0;
}

/// The binary rule on the left kind `Self` and right kind `RK`, for the op's partial
/// rule `PR`, on the left shape `L` and right shape `R` (`R` of at most `L`'s rank).
pub trait BinaryKind<RK, PR, L, R> {
    /// The verdict.
    type Out;
}
impl<PR, L, R> BinaryKind<Bcast, PR, L, R> for Bcast {
    type Out = Bcast;
}
impl<RK, PR, L, R> BinaryKind<RK, PR, L, R> for Dynamic {
    type Out = Dynamic;
}
impl<PR, L, R> BinaryKind<Dynamic, PR, L, R> for Bcast {
    type Out = Dynamic;
}
impl<X, PR, L, R> BinaryKind<Dynamic, PR, L, R> for Split<X> {
    type Out = Dynamic;
}
impl<A, PR, L, R> BinaryKind<Dynamic, PR, L, R> for Part<A> {
    type Out = Dynamic;
}
impl<A: RedBits, C: RedBits, PR: BinaryPartial, L, R> BinaryKind<Part<C>, PR, L, R> for Part<A> {
    type Out = PR::PP<A, C>;
}
impl<A: RedBits, PR: BinaryPartial, L, R> BinaryKind<Bcast, PR, L, R> for Part<A> {
    type Out = PR::PB<A>;
}
impl<C: RedBits, PR: BinaryPartial, L, R> BinaryKind<Part<C>, PR, L, R> for Bcast {
    type Out = PR::BP<C>;
}
impl<A, Y, PR, L, R> BinaryKind<Split<Y>, PR, L, R> for Part<A> {
    type Out = Refused;
}
impl<C, X, PR, L, R> BinaryKind<Part<C>, PR, L, R> for Split<X> {
    type Out = Refused;
}
// The left split fixes the output's split dim `X`; the right operand, broadcast, must
// not have that dim at more than 1.
impl<X, PR, L: Shape, R: Shape> BinaryKind<Bcast, PR, L, R> for Split<X>
where
    Rank<L>: PSubOr<Rank<R>>,
    X: ClassIn<L> + PSubOr<RankGap<L, R>>,
    <X as PSubOr<RankGap<L, R>>>::Output: ClassIn<R>,
    ClassAt<L, X>: SplitWithB<ClassAt<R, <X as PSubOr<RankGap<L, R>>>::Output>>,
    <ClassAt<L, X> as SplitWithB<ClassAt<R, <X as PSubOr<RankGap<L, R>>>::Output>>>::Ok: Pick,
{
    type Out = <<ClassAt<L, X> as SplitWithB<
        ClassAt<R, <X as PSubOr<RankGap<L, R>>>::Output>,
    >>::Ok as Pick>::Out<Split<X>, Refused>;
}
// The right split (at `Y + gap` in the output) stays only where the left operand, which
// is broadcast, is 1 along it.
impl<Y, PR, L: Shape, R: Shape> BinaryKind<Split<Y>, PR, L, R> for Bcast
where
    Rank<L>: PSubOr<Rank<R>>,
    Y: PAdd<RankGap<L, R>>,
    <Y as PAdd<RankGap<L, R>>>::Output: ClassIn<L>,
    ClassAt<L, <Y as PAdd<RankGap<L, R>>>::Output>: Pick,
{
    type Out = <ClassAt<L, <Y as PAdd<RankGap<L, R>>>::Output> as Pick>::Out<
        Split<<Y as PAdd<RankGap<L, R>>>::Output>,
        Refused,
    >;
}
// Two splits stay when they are the same output dim and neither is broadcast from 1.
impl<X, Y, PR, L: Shape, R: Shape> BinaryKind<Split<Y>, PR, L, R> for Split<X>
where
    Rank<L>: PSubOr<Rank<R>>,
    Y: PAdd<RankGap<L, R>> + ClassIn<R>,
    X: PEq<<Y as PAdd<RankGap<L, R>>>::Output> + ClassIn<L>,
    ClassAt<L, X>: SameClass<ClassAt<R, Y>>,
    <ClassAt<L, X> as SameClass<ClassAt<R, Y>>>::Ok: Pick,
{
    type Out = If<
        <X as PEq<<Y as PAdd<RankGap<L, R>>>::Output>>::Output,
        If<<ClassAt<L, X> as SameClass<ClassAt<R, Y>>>::Ok, Split<X>, Refused>,
        Refused,
    >;
}

// ---------------------------------------------------------------------------------
// Reductions: `reduce_signature` (without keepdim).

/// How many axes of the list `Self` are below the Peano index `X`.
pub trait CountBelow<X> {
    /// The count (Peano).
    type N;
}
impl<X> CountBelow<X> for Nil {
    type N = Z;
}
impl<const J: usize, T: CountBelow<X>, X> CountBelow<X> for Cons<Ax<J>, T>
where
    Ax<J>: AxisPos,
    <Ax<J> as AxisPos>::P: PLt<X>,
    <<Ax<J> as AxisPos>::P as PLt<X>>::Output: Pick,
{
    type N = <<<Ax<J> as AxisPos>::P as PLt<X>>::Output as Pick>::Out<Succ<T::N>, T::N>;
}

/// `B1` when the axis list `Self` holds the Peano index `X`.
pub trait HasAxis<X> {
    /// `B1` or `B0`.
    type Bit;
}
impl<X> HasAxis<X> for Nil {
    type Bit = B0;
}
impl<const J: usize, T: HasAxis<X>, X> HasAxis<X> for Cons<Ax<J>, T>
where
    Ax<J>: AxisPos,
    <Ax<J> as AxisPos>::P: PEq<X>,
    <<Ax<J> as AxisPos>::P as PEq<X>>::Output: Pick,
{
    type Bit = <<<Ax<J> as AxisPos>::P as PEq<X>>::Output as Pick>::Out<B1, T::Bit>;
}

/// The reduction rule on the kind `Self` over the resolved axis list `A` for the
/// reduction `Red` ([`Sum`], [`Max`] for `amax`, [`Min`] for `amin`); `Kept` is `B1` when
/// the dtype is kept (a sum of an integer other than `i64` promotes to `i64`).
pub trait ReduceKind<A, Red, Kept> {
    /// The verdict.
    type Out;
}
impl<A, Red, Kept> ReduceKind<A, Red, Kept> for Bcast {
    type Out = Bcast;
}
impl<A, Red, Kept> ReduceKind<A, Red, Kept> for Dynamic {
    type Out = Dynamic;
}
impl<A, Red: RedBits, Kept: Pick> ReduceKind<A, Red, Kept> for Part<Sum> {
    type Out = If<Red::IsSum, If<Kept, Part<Sum>, Refused>, Refused>;
}
impl<A, Red: RedBits, Kept> ReduceKind<A, Red, Kept> for Part<Max> {
    type Out = <Red::IsMax as Pick>::Out<Part<Max>, Refused>;
}
impl<A, Red: RedBits, Kept> ReduceKind<A, Red, Kept> for Part<Min> {
    type Out = <Red::IsMin as Pick>::Out<Part<Min>, Refused>;
}
impl<A, Red, Kept, X> ReduceKind<A, Red, Kept> for Split<X>
where
    A: HasAxis<X> + CountBelow<X>,
    <A as HasAxis<X>>::Bit: Pick,
    X: PSubOr<<A as CountBelow<X>>::N>,
{
    type Out = <<A as HasAxis<X>>::Bit as Pick>::Out<
        Part<Red>,
        Split<<X as PSubOr<<A as CountBelow<X>>::N>>::Output>,
    >;
}

// ---------------------------------------------------------------------------------
// Matmul of 2-D operands: `matmul_signature`.

/// The facts about a kind the matmul and loss rules read.
pub trait KindBits {
    /// Broadcast.
    type IsB: Pick;
    /// A run-time SBP.
    type IsDyn: Pick;
    /// Split along dim 0.
    type IsS0: Pick;
    /// Split along dim 1.
    type IsS1: Pick;
    /// `P<Sum>`.
    type IsPSum: Pick;
    /// `P<Max>` or `P<Min>`.
    type IsOrder: Pick;
}
macro_rules! kind_bits {
    ($($k:ty, [$($g:tt)*] => $b:ty, $d:ty, $s0:ty, $s1:ty, $p:ty, $o:ty;)*) => {$(
        impl<$($g)*> KindBits for $k {
            type IsB = $b;
            type IsDyn = $d;
            type IsS0 = $s0;
            type IsS1 = $s1;
            type IsPSum = $p;
            type IsOrder = $o;
        }
    )*};
}
kind_bits! {
    Bcast, [] => B1, B0, B0, B0, B0, B0;
    Dynamic, [] => B0, B1, B0, B0, B0, B0;
    Split<Z>, [] => B0, B0, B1, B0, B0, B0;
    Split<Succ<Z>>, [] => B0, B0, B0, B1, B0, B0;
    Split<Succ<Succ<X>>>, [X] => B0, B0, B0, B0, B0, B0;
    Part<R>, [R: RedBits] => B0, B0, B0, B0, <R as RedBits>::IsSum, <R as RedBits>::IsOrder;
}

/// The matmul rule: `S<0>·B → S<0>`, `S<1>·S<0> → P<Sum>`, `B·S<1> → S<1>`,
/// `P<Sum>·B → P<Sum>`, `B·P<Sum> → P<Sum>`, `B·B → B`; anything else is refused.
pub type MatmulOut<L, R> = If<
    <L as KindBits>::IsDyn,
    Dynamic,
    If<
        <R as KindBits>::IsDyn,
        Dynamic,
        If<
            <L as KindBits>::IsS0,
            If<<R as KindBits>::IsB, Split<Z>, Refused>,
            If<
                <L as KindBits>::IsS1,
                If<<R as KindBits>::IsS0, Part<Sum>, Refused>,
                If<
                    <R as KindBits>::IsS1,
                    If<<L as KindBits>::IsB, Split<Succ<Z>>, Refused>,
                    If<
                        <L as KindBits>::IsB,
                        If<
                            <R as KindBits>::IsB,
                            Bcast,
                            If<<R as KindBits>::IsPSum, Part<Sum>, Refused>,
                        >,
                        If<
                            <L as KindBits>::IsPSum,
                            If<<R as KindBits>::IsB, Part<Sum>, Refused>,
                            Refused,
                        >,
                    >,
                >,
            >,
        >,
    >,
>;

/// The `cross_entropy` rule: `S<0>` scores with `S<0>` targets give a `P<Sum>` loss
/// (data parallelism), `B` with `B` a `B` loss; anything else is refused.
pub type CrossEntropyOut<L, R> = If<
    <L as KindBits>::IsDyn,
    Dynamic,
    If<
        <R as KindBits>::IsDyn,
        Dynamic,
        If<
            <L as KindBits>::IsS0,
            If<<R as KindBits>::IsS0, Part<Sum>, Refused>,
            If<<L as KindBits>::IsB, If<<R as KindBits>::IsB, Bcast, Refused>, Refused>,
        >,
    >,
>;

// ---------------------------------------------------------------------------------
// Views: `expand_signature`, `reshape_signature`, `permute_signature`.

/// The expand rule from shape `In` to `Out`: a split moves right by the new leading
/// dims, unless its dim is a static 1 expanded to more; other SBPs pass.
pub trait ExpandKind<In, Out> {
    /// The verdict.
    type Out;
}
impl<In, Out> ExpandKind<In, Out> for Bcast {
    type Out = Bcast;
}
impl<In, Out> ExpandKind<In, Out> for Dynamic {
    type Out = Dynamic;
}
impl<In, Out, R> ExpandKind<In, Out> for Part<R> {
    type Out = Part<R>;
}
impl<In: Shape, Out: Shape, X> ExpandKind<In, Out> for Split<X>
where
    Rank<Out>: PSubOr<Rank<In>>,
    X: PAdd<RankGap<Out, In>> + ClassIn<In>,
    <X as PAdd<RankGap<Out, In>>>::Output: ClassIn<Out>,
    ClassAt<Out, <X as PAdd<RankGap<Out, In>>>::Output>: SameClass<ClassAt<In, X>>,
    <ClassAt<Out, <X as PAdd<RankGap<Out, In>>>::Output> as SameClass<ClassAt<In, X>>>::Ok: Pick,
{
    type Out = <<ClassAt<Out, <X as PAdd<RankGap<Out, In>>>::Output> as SameClass<
        ClassAt<In, X>,
    >>::Ok as Pick>::Out<Split<<X as PAdd<RankGap<Out, In>>>::Output>, Refused>;
}

/// `B1` when the first `X + 1` dims of the lists `Self` and `O` unify pairwise (equal
/// static dims, or `Dyn`): then a split of dim `X` maps to dim `X` of the reshape.
pub trait SamePrefix<O, X> {
    /// `B1` or `B0`.
    type Bit;
}
impl<O, X> SamePrefix<O, X> for Nil {
    type Bit = B0;
}
impl<H, T> SamePrefix<Nil, Z> for Cons<H, T> {
    type Bit = B0;
}
impl<H, T, X> SamePrefix<Nil, Succ<X>> for Cons<H, T> {
    type Bit = B0;
}
impl<H, T, H2, T2> SamePrefix<Cons<H2, T2>, Z> for Cons<H, T>
where
    H: crate::typelevel::dim::DimEq<H2>,
    <H as crate::typelevel::dim::DimEq<H2>>::Output: Pick,
{
    type Bit = <H as crate::typelevel::dim::DimEq<H2>>::Output;
}
impl<H, T, H2, T2, X> SamePrefix<Cons<H2, T2>, Succ<X>> for Cons<H, T>
where
    H: crate::typelevel::dim::DimEq<H2>,
    T: SamePrefix<T2, X>,
    <H as crate::typelevel::dim::DimEq<H2>>::Output: Pick,
{
    type Bit =
        If<<H as crate::typelevel::dim::DimEq<H2>>::Output, <T as SamePrefix<T2, X>>::Bit, B0>;
}

/// The reshape rule from shape `In` to `Out`: a split of dim `X` stays where the dims up
/// to `X` are unchanged; other SBPs pass. (The runtime also keeps a split whose dims
/// before it merge or split into the same count of elements; typed code boxes there.)
pub trait ReshapeKind<In, Out> {
    /// The verdict.
    type Out;
}
impl<In, Out> ReshapeKind<In, Out> for Bcast {
    type Out = Bcast;
}
impl<In, Out> ReshapeKind<In, Out> for Dynamic {
    type Out = Dynamic;
}
impl<In, Out, R> ReshapeKind<In, Out> for Part<R> {
    type Out = Part<R>;
}
impl<In: Shape, Out: Shape, X> ReshapeKind<In, Out> for Split<X>
where
    In::List: SamePrefix<Out::List, X>,
    <In::List as SamePrefix<Out::List, X>>::Bit: Pick,
{
    type Out = <<In::List as SamePrefix<Out::List, X>>::Bit as Pick>::Out<Split<X>, Refused>;
}

/// Where the axis with Peano index `X` sits in the (resolved) permutation `Self`.
pub trait IndexOf<X> {
    /// The position (Peano).
    type Pos;
}
impl<X> IndexOf<X> for Nil {
    type Pos = Z;
}
impl<const J: usize, T: IndexOf<X>, X> IndexOf<X> for Cons<Ax<J>, T>
where
    Ax<J>: AxisPos,
    <Ax<J> as AxisPos>::P: PEq<X>,
    <<Ax<J> as AxisPos>::P as PEq<X>>::Output: Pick,
{
    type Pos = <<<Ax<J> as AxisPos>::P as PEq<X>>::Output as Pick>::Out<Z, Succ<T::Pos>>;
}

/// The permute rule for the resolved permutation `A`: a split follows its dim.
pub trait PermuteKind<A> {
    /// The verdict (never refused).
    type Out;
}
impl<A> PermuteKind<A> for Bcast {
    type Out = Bcast;
}
impl<A> PermuteKind<A> for Dynamic {
    type Out = Dynamic;
}
impl<A, R> PermuteKind<A> for Part<R> {
    type Out = Part<R>;
}
impl<A: IndexOf<X>, X> PermuteKind<A> for Split<X> {
    type Out = Split<<A as IndexOf<X>>::Pos>;
}

// ---------------------------------------------------------------------------------
// Normalisations: `softmax_signature`, `layer_norm_signature`.

/// The rule of an op that normalises over dim `Q` (a Peano index): a split of another
/// dim and broadcast pass; a split of `Q` and a partial input are refused.
pub trait NormKind<Q> {
    /// The verdict.
    type Out;
}
impl<Q> NormKind<Q> for Bcast {
    type Out = Bcast;
}
impl<Q> NormKind<Q> for Dynamic {
    type Out = Dynamic;
}
impl<Q, R> NormKind<Q> for Part<R> {
    type Out = Refused;
}
impl<Q, X: PEq<Q>> NormKind<Q> for Split<X>
where
    <X as PEq<Q>>::Output: Pick,
{
    type Out = <<X as PEq<Q>>::Output as Pick>::Out<Refused, Split<X>>;
}
