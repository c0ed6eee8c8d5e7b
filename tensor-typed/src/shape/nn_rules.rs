//! The shape rules of the model ops: `cat` (sum along the cat dim, other dims equal),
//! `conv2d` and the 2-d poolings (PyTorch's output size, through
//! [`ConvSize`](crate::arith::ConvSize)), `layer_norm` (the weight is the input's trailing
//! dims), `embedding` (the ids' shape plus the embedding dim) and `cross_entropy` (equal
//! batch dims). Static dims are checked here; `Dyn` ones at run time with PyTorch's
//! message. Each failed check is one error: the output type exists only through the
//! check's `Then` projection.

use crate::shape::dims::{PosOf, Push};
use crate::shape::{Cons, IntoShape, ListOf, Nil, Shape, ShapeOf};
use crate::typelevel::arith::{ConvOut, ConvSize, DimAdd, DimMul, DimSub, Prod, Sum};
use crate::typelevel::checks::{
    BatchOk, Blame, CatOk, ConvChannelsOk, NormShapeOk, PoolPadOk, SameRankFor, WindowOk,
};
use crate::typelevel::dim::{And, Dim, DimEq, Pick, Unify, D};
use crate::typelevel::list::{Len, LenOf, Next, Rev, ReverseAcc};
use crate::typelevel::op;
use crate::typelevel::peano::{PEq, ToDim};
use typenum::{B0, B1};

// ---- cat --------------------------------------------------------------------------

/// One dim pair of a `cat` (`Self` is `B1` at the cat dim): the sum there, else the
/// unified dim (checked equal).
pub trait CatStep<H1, H2, L, R, J> {
    /// The output dim.
    type Output;
}
impl<H1: DimAdd<H2>, H2, L, R, J> CatStep<H1, H2, L, R, J> for B1 {
    type Output = <H1 as DimAdd<H2>>::Output;
}
impl<H1, H2, L, R, const J: usize> CatStep<H1, H2, L, R, D<J>> for B0
where
    H1: DimEq<H2> + Unify<H2>,
    <H1 as DimEq<H2>>::Output: CatOk<L, R, H1, H2, J>,
{
    type Output =
        <<H1 as DimEq<H2>>::Output as CatOk<L, R, H1, H2, J>>::Then<<H1 as Unify<H2>>::Output>;
}

/// Zips two dim lists for `cat` at cat position `P` (a `D<p>`); `J` counts positions.
pub trait CatZip<Rhs, P, J, L, R> {
    /// The output list.
    type Output;
}
impl<P, J, L, R> CatZip<Nil, P, J, L, R> for Nil {
    type Output = Nil;
}
impl<H1, T1, H2, T2, P, J, L, R> CatZip<Cons<H2, T2>, P, J, L, R> for Cons<H1, T1>
where
    J: DimEq<P> + Next,
    <J as DimEq<P>>::Output: CatStep<H1, H2, L, R, J>,
    T1: CatZip<T2, P, <J as Next>::Output, L, R>,
{
    type Output = Cons<
        <<J as DimEq<P>>::Output as CatStep<H1, H2, L, R, J>>::Output,
        <T1 as CatZip<T2, P, <J as Next>::Output, L, R>>::Output,
    >;
}

/// `CatWith<R, D>`: the shape of `cat` of `Self` and `R` along signed dim `D`.
pub trait CatWith<R: Shape, const DIM: isize>: Shape {
    /// The concatenated shape.
    type Output: Shape;
}
impl<X: Shape, R: Shape, const DIM: isize> CatWith<R, DIM> for X
where
    ListOf<X>: Len,
    ListOf<R>: Len,
    LenOf<ListOf<X>>: PEq<LenOf<ListOf<R>>>,
    Blame<<LenOf<ListOf<X>> as PEq<LenOf<ListOf<R>>>>::Output, op::cat>: SameRankFor<op::cat, X, R>,
    crate::shape::dims::SDim<DIM>: crate::shape::dims::WrapDim<LenOf<ListOf<X>>>,
    PosOf<X, DIM>: ToDim,
    ListOf<X>: CatZip<ListOf<R>, <PosOf<X, DIM> as ToDim>::Dim, D<0>, X, R>,
    <ListOf<X> as CatZip<ListOf<R>, <PosOf<X, DIM> as ToDim>::Dim, D<0>, X, R>>::Output: IntoShape,
{
    type Output = ShapeOf<
        <ListOf<X> as CatZip<ListOf<R>, <PosOf<X, DIM> as ToDim>::Dim, D<0>, X, R>>::Output,
    >;
}
/// The shape of `cat` of `X` and `R` along `DIM`.
pub type Cat<X, R, const DIM: isize> = <X as CatWith<R, DIM>>::Output;

// ---- conv2d and pooling -------------------------------------------------------------

/// Whether a window fits along both spatial dims.
type Fits<H, W, K1, K2, St, Pd, Dl> =
    <<H as ConvOut<K1, St, Pd, Dl>>::Ok as And<<W as ConvOut<K2, St, Pd, Dl>>::Ok>>::Output;

/// `Conv2dShape<Wt, STRIDE, PADDING, DILATION, GROUPS>`: the output shape of `conv2d` of
/// an input `Self` = `[N, C, H, W]` by a weight `Wt` = `[O, C / GROUPS, KH, KW]`:
/// `[N, O, ConvSize<H, ..>, ConvSize<W, ..>]`.
pub trait Conv2dShape<Wt, const ST: usize, const PD: usize, const DL: usize, const G: usize>:
    Shape
{
    /// The output shape.
    type Output: Shape;
    /// The bias shape, `[O]` (the weight's dim 0).
    type Bias: Shape;
}
impl<
        N,
        C,
        H,
        W,
        O,
        CG,
        KH,
        KW,
        const ST: usize,
        const PD: usize,
        const DL: usize,
        const G: usize,
    > Conv2dShape<(O, CG, KH, KW), ST, PD, DL, G> for (N, C, H, W)
where
    (N, C, H, W): Shape,
    N: Dim,
    O: Dim,
    CG: DimMul<D<G>>,
    C: DimEq<Prod<CG, D<G>>>,
    <C as DimEq<Prod<CG, D<G>>>>::Output: Pick,
    Blame<<C as DimEq<Prod<CG, D<G>>>>::Output, C>:
        ConvChannelsOk<(N, C, H, W), (O, CG, KH, KW), Prod<CG, D<G>>, C, G>,
    H: ConvOut<KH, D<ST>, D<PD>, D<DL>>,
    W: ConvOut<KW, D<ST>, D<PD>, D<DL>>,
    <H as ConvOut<KH, D<ST>, D<PD>, D<DL>>>::Ok: And<<W as ConvOut<KW, D<ST>, D<PD>, D<DL>>>::Ok>,
    Fits<H, W, KH, KW, D<ST>, D<PD>, D<DL>>: WindowOk<op::conv2d, (N, C, H, W)>,
    <Fits<H, W, KH, KW, D<ST>, D<PD>, D<DL>> as WindowOk<op::conv2d, (N, C, H, W)>>::Then<(
        N,
        O,
        ConvSize<H, KH, D<ST>, D<PD>, D<DL>>,
        ConvSize<W, KW, D<ST>, D<PD>, D<DL>>,
    )>: Shape,
{
    type Bias = (O,);
    type Output =
        <Fits<H, W, KH, KW, D<ST>, D<PD>, D<DL>> as WindowOk<op::conv2d, (N, C, H, W)>>::Then<(
            N,
            O,
            ConvSize<H, KH, D<ST>, D<PD>, D<DL>>,
            ConvSize<W, KW, D<ST>, D<PD>, D<DL>>,
        )>;
}

/// `Pool2dShape<Op, KERNEL, STRIDE, PADDING>`: the output shape of a 2-d pooling `Op` of
/// `Self` = `[N, C, H, W]`: `[N, C, ConvSize<H, ..>, ConvSize<W, ..>]`; the padding must be
/// at most half the kernel (PyTorch's rule) and the window must fit.
pub trait Pool2dShape<Op, const K: usize, const ST: usize, const PD: usize>: Shape {
    /// The output shape.
    type Output: Shape;
}
impl<Op, N, C, H, W, const K: usize, const ST: usize, const PD: usize> Pool2dShape<Op, K, ST, PD>
    for (N, C, H, W)
where
    (N, C, H, W): Shape,
    N: Dim,
    C: Dim,
    D<PD>: DimAdd<D<PD>>,
    D<K>: DimSub<Sum<D<PD>, D<PD>>>,
    Blame<<D<K> as DimSub<Sum<D<PD>, D<PD>>>>::Ok, Op>: PoolPadOk<Op, (N, C, H, W), K, PD>,
    H: ConvOut<D<K>, D<ST>, D<PD>, D<1>>,
    W: ConvOut<D<K>, D<ST>, D<PD>, D<1>>,
    <H as ConvOut<D<K>, D<ST>, D<PD>, D<1>>>::Ok: And<<W as ConvOut<D<K>, D<ST>, D<PD>, D<1>>>::Ok>,
    Fits<H, W, D<K>, D<K>, D<ST>, D<PD>, D<1>>: WindowOk<Op, (N, C, H, W)>,
    <Fits<H, W, D<K>, D<K>, D<ST>, D<PD>, D<1>> as WindowOk<Op, (N, C, H, W)>>::Then<(
        N,
        C,
        ConvSize<H, D<K>, D<ST>, D<PD>, D<1>>,
        ConvSize<W, D<K>, D<ST>, D<PD>, D<1>>,
    )>: Shape,
{
    type Output =
        <Fits<H, W, D<K>, D<K>, D<ST>, D<PD>, D<1>> as WindowOk<Op, (N, C, H, W)>>::Then<(
            N,
            C,
            ConvSize<H, D<K>, D<ST>, D<PD>, D<1>>,
            ConvSize<W, D<K>, D<ST>, D<PD>, D<1>>,
        )>;
}

// ---- layer_norm, embedding, cross_entropy -------------------------------------------

/// `B1` when the (reversed) list `Self` is a prefix of the (reversed) list `L`, dim by
/// dim ([`DimEq`]: `Dyn` checked at run time).
pub trait PrefixOf<L> {
    /// `B1` or `B0`.
    type Output: crate::typelevel::dim::Bool;
}
impl<L> PrefixOf<L> for Nil {
    type Output = B1;
}
impl<H, T> PrefixOf<Nil> for Cons<H, T> {
    type Output = B0;
}
impl<H1: DimEq<H2>, T1: PrefixOf<T2>, H2, T2> PrefixOf<Cons<H2, T2>> for Cons<H1, T1>
where
    <H1 as DimEq<H2>>::Output: And<<T1 as PrefixOf<T2>>::Output>,
{
    type Output = <<H1 as DimEq<H2>>::Output as And<<T1 as PrefixOf<T2>>::Output>>::Output;
}

/// `NormalizedBy<W>`: the weight shape `W` of `layer_norm` is the trailing dims of `Self`.
pub trait NormalizedBy<W: Shape>: Shape {}
impl<X: Shape, W: Shape> NormalizedBy<W> for X
where
    ListOf<X>: ReverseAcc<Nil>,
    ListOf<W>: ReverseAcc<Nil>,
    Rev<ListOf<W>>: PrefixOf<Rev<ListOf<X>>>,
    // `Self` of a failure is the weight's shape `W` (with `X`, rustc would report this
    // impl's own bound instead of the check's message).
    Blame<<Rev<ListOf<W>> as PrefixOf<Rev<ListOf<X>>>>::Output, W>: NormShapeOk<X, W>,
{
}

/// The shape of `embedding` of ids of shape `X` with embedding dim `E`: `X ++ [E]`.
pub type Embedded<X, E> = ShapeOf<<ListOf<X> as Push<E>>::Output>;

/// `cross_entropy` of logits `Self` = `[N, C]` with targets `T` = `[N]`.
pub trait CrossEntropyWith<T: Shape>: Shape {}
impl<N: DimEq<N2>, C, N2> CrossEntropyWith<(N2,)> for (N, C)
where
    (N, C): Shape,
    (N2,): Shape,
    <N as DimEq<N2>>::Output: Pick,
    Blame<<N as DimEq<N2>>::Output, N>: BatchOk<(N, C), (N2,), N, N2>,
{
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::typelevel::dim::Dyn;
    use crate::Shape;

    fn same<A: 'static, B: 'static>() -> bool {
        std::any::TypeId::of::<A>() == std::any::TypeId::of::<B>()
    }

    #[test]
    fn cat_sums_the_cat_dim_and_keeps_the_others() {
        assert!(same::<Cat<Shape![2, 3], Shape![2, 5], 1>, Shape![2, 8]>());
        assert!(same::<Cat<Shape![Dyn, 3], Shape![4, 3], 0>, (Dyn, D<3>)>());
        assert!(same::<Cat<Shape![2, 999], Shape![2, 1], -1>, Shape![2, 1000]>());
    }

    #[test]
    fn conv_and_pool_sizes_are_pytorchs() {
        type X = Shape![Dyn, 3, 28, 28];
        type Wt = Shape![16, 3, 3, 3];
        assert!(same::<
            <X as Conv2dShape<Wt, 1, 1, 1, 1>>::Output,
            (Dyn, D<16>, D<28>, D<28>),
        >());
        assert!(same::<
            <X as Conv2dShape<Wt, 2, 0, 1, 1>>::Output,
            (Dyn, D<16>, D<13>, D<13>),
        >());
        assert!(same::<
            <X as Pool2dShape<op::max_pool2d, 2, 2, 0>>::Output,
            (Dyn, D<3>, D<14>, D<14>),
        >());
        type G = Shape![8, 4, 28, 28];
        assert!(same::<
            <G as Conv2dShape<Shape![8, 2, 3, 3], 1, 1, 1, 2>>::Output,
            Shape![8, 8, 28, 28],
        >());
    }
}
