//! The shape rules of the model ops: `cat` (sum along the cat dim, other dims equal),
//! `conv2d` and the 2-d poolings (PyTorch's output size, through
//! [`crate::arith::ConvSize`]), `layer_norm` (the weight is the input's trailing
//! dims), `embedding` (the ids' shape plus the embedding dim) and `cross_entropy` (equal
//! batch dims). Static dims are checked here; `Dyn` ones at run time with PyTorch's
//! message. Each failed check is one error: the output type exists only through the
//! check's `Then` projection.

use crate::shape::check::check;
use crate::shape::check::Blame;
use crate::shape::dims::{PosOf, Push, RankOf, SDim, WrapDim};
use crate::shape::mismatch::{DimVsName, Mismatched, NameVsDim, NamesDiffer, ThenDiffer};
use crate::shape::{Cons, IntoShape, ListOf, Nil, Shape, ShapeOf};
use crate::typelevel::arith::{ConvOut, ConvSize, DimAdd, DimMul, DimSub, Prod, Sum};
use crate::typelevel::dim::{And, Bool, DimEq, IsOne, Pick, Unify, D};
use crate::typelevel::list::{Next, Rev, ReverseAcc};
use crate::typelevel::named::{IsNamed, NamedDim};
use crate::typelevel::op;
use crate::typelevel::peano::{PEq, ToDim};
use std::marker::PhantomData;
use typenum::{B0, B1};

// ---- cat --------------------------------------------------------------------------

/// The verdict of a `cat` of shapes of different ranks.
pub struct CatRanksDiffer;
/// The verdict of a `cat` whose static dims `A` and `B` at index `J` (a `D<j>`, off the
/// cat dim) differ.
pub struct CatDimsDiffer<A, B, J>(PhantomData<(A, B, J)>);
impl<A: IsNamed, B: IsNamed, P> Mismatched for CatDimsDiffer<A, B, P> {
    type A = A;
    type B = B;
    type At = P;
}

/// One dim pair of a `cat` (`Self` is `B1` at the cat dim): the sum there, else the
/// unified dim, which must be equal (`Ok`).
pub trait CatStep<H1, H2> {
    /// The output dim.
    type Output;
    /// `B1` when the pair may be concatenated.
    type Ok: Bool;
}
impl<H1: DimAdd<H2>, H2> CatStep<H1, H2> for B1 {
    type Output = <H1 as DimAdd<H2>>::Output;
    type Ok = B1;
}
impl<H1: DimEq<H2, Output: Bool> + Unify<H2>, H2> CatStep<H1, H2> for B0 {
    type Output = <H1 as Unify<H2>>::Output;
    type Ok = <H1 as DimEq<H2>>::Output;
}

/// Zips two dim lists for `cat` at cat position `P` (a `D<p>`); `J` counts positions.
/// Never fails: the first mistake from the left is the `Verdict`.
pub trait CatZip<Rhs, P, J> {
    /// The output list (meaningless unless the verdict holds).
    type Output;
    /// `B1`, [`CatDimsDiffer`] or [`CatRanksDiffer`].
    type Verdict;
}
impl<P, J> CatZip<Nil, P, J> for Nil {
    type Output = Nil;
    type Verdict = B1;
}
impl<H, T, P, J> CatZip<Cons<H, T>, P, J> for Nil {
    type Output = Nil;
    type Verdict = CatRanksDiffer;
}
impl<H, T, P, J> CatZip<Nil, P, J> for Cons<H, T> {
    type Output = Nil;
    type Verdict = CatRanksDiffer;
}
impl<H1, T1, H2, T2, P, J> CatZip<Cons<H2, T2>, P, J> for Cons<H1, T1>
where
    J: DimEq<P> + Next,
    <J as DimEq<P>>::Output: CatStep<H1, H2>,
    T1: CatZip<T2, P, <J as Next>::Output>,
    <<J as DimEq<P>>::Output as CatStep<H1, H2>>::Ok: ThenDiffer<CatDimsDiffer<H1, H2, J>>,
{
    type Output = Cons<
        <<J as DimEq<P>>::Output as CatStep<H1, H2>>::Output,
        <T1 as CatZip<T2, P, <J as Next>::Output>>::Output,
    >;
    type Verdict = <<<J as DimEq<P>>::Output as CatStep<H1, H2>>::Ok as ThenDiffer<
        CatDimsDiffer<H1, H2, J>,
    >>::Verdict<<T1 as CatZip<T2, P, <J as Next>::Output>>::Verdict>;
}

/// The check of a `cat` verdict between shapes `L` and `R`.
pub trait CatVerdict<L, R> {
    /// `X` when the shapes concatenate; no type otherwise.
    type Then<X>;
}
#[diagnostic::do_not_recommend]
impl<L, R> CatVerdict<L, R> for B1 {
    type Then<X> = X;
}
impl<L, R> CatVerdict<L, R> for CatRanksDiffer
where
    op::cat: SameRankFor<op::cat, L, R>,
{
    type Then<X> = <op::cat as SameRankFor<op::cat, L, R>>::Then<X>;
}
impl<L, R, A, B, const J: usize> CatVerdict<L, R> for CatDimsDiffer<A, B, D<J>>
where
    op::cat: CatOk<L, R, A, B, J>,
{
    type Then<X> = <op::cat as CatOk<L, R, A, B, J>>::Then<X>;
}
impl<L, R, A: NamedDim, B: NamedDim, const J: usize> CatVerdict<L, R> for NamesDiffer<A, B, D<J>>
where
    op::cat: CatNamesOk<L, R, A, A::Size, B, B::Size, J>,
{
    type Then<X> = <op::cat as CatNamesOk<L, R, A, A::Size, B, B::Size, J>>::Then<X>;
}
impl<L, R, A: NamedDim, B, const J: usize> CatVerdict<L, R> for NameVsDim<A, B, D<J>>
where
    op::cat: CatNameDimOk<L, R, A, A::Size, B, J>,
{
    type Then<X> = <op::cat as CatNameDimOk<L, R, A, A::Size, B, J>>::Then<X>;
}
impl<L, R, A, B: NamedDim, const J: usize> CatVerdict<L, R> for DimVsName<A, B, D<J>>
where
    op::cat: CatDimNameOk<L, R, A, B, B::Size, J>,
{
    type Then<X> = <op::cat as CatDimNameOk<L, R, A, B, B::Size, J>>::Then<X>;
}

/// The cat position of signed dim `DIM` in `X`, as a `D<p>`.
type CatPos<X, const DIM: isize> = <PosOf<X, DIM> as ToDim>::Dim;
/// The output of the zip of `cat` of `X` and `R` along `DIM`.
type CatZipOutput<X, R, const DIM: isize> =
    <ListOf<X> as CatZip<ListOf<R>, CatPos<X, DIM>, D<0>>>::Output;
/// The verdict of that zip.
type CatZipVerdict<X, R, const DIM: isize> =
    <ListOf<X> as CatZip<ListOf<R>, CatPos<X, DIM>, D<0>>>::Verdict;
/// The verdict of `cat` of `X` and `R` along `DIM`: the ranks first, then the dims.
type CatVerdictOf<X, R, const DIM: isize> =
    <<RankOf<X> as PEq<RankOf<R>>>::Output as Pick>::Out<CatZipVerdict<X, R, DIM>, CatRanksDiffer>;
/// The concatenated dims, when the verdict holds.
type CatThen<X, R, const DIM: isize> =
    <CatVerdictOf<X, R, DIM> as CatVerdict<X, R>>::Then<CatZipOutput<X, R, DIM>>;

/// `CatWith<R, D>`: the shape of `cat` of `Self` and `R` along signed dim `D`.
pub trait CatWith<R: Shape, const DIM: isize>: Shape {
    /// The concatenated shape.
    type Output: Shape;
}
impl<X: Shape, R: Shape, const DIM: isize> CatWith<R, DIM> for X
where
    RankOf<X>: PEq<RankOf<R>>,
    SDim<DIM>: WrapDim<RankOf<X>>,
    PosOf<X, DIM>: ToDim,
    ListOf<X>: CatZip<ListOf<R>, CatPos<X, DIM>, D<0>>,
    CatVerdictOf<X, R, DIM>: CatVerdict<X, R>,
    CatThen<X, R, DIM>: IntoShape,
{
    type Output = ShapeOf<CatThen<X, R, DIM>>;
}
/// The shape of `cat` of `X` and `R` along `DIM`.
pub type Cat<X, R, const DIM: isize> = <X as CatWith<R, DIM>>::Output;

// ---- conv2d and pooling -------------------------------------------------------------

/// The verdict of a `conv2d` whose input has `C` channels where the weight needs `E`.
pub struct ConvChannelsDiffer<E, C>(PhantomData<(E, C)>);
/// The verdict of a conv2d or pooling whose window does not fit the (padded) input.
pub struct WindowTooSmall;
/// The verdict of a pooling whose padding `P` exceeds half the kernel `K`.
pub struct PoolPadTooLarge<const K: usize, const P: usize>;

/// The check of a conv2d/pooling verdict of op `Op` on input `X` by weight `Wt` (the
/// input for a pooling) with `G` groups.
pub trait WindowVerdict<Op, X, Wt, const G: usize> {
    /// `Y` when the verdict holds; no type otherwise.
    type Then<Y>;
}
#[diagnostic::do_not_recommend]
impl<Op, X, Wt, const G: usize> WindowVerdict<Op, X, Wt, G> for B1 {
    type Then<Y> = Y;
}
impl<Op, X, Wt, E, C, const G: usize> WindowVerdict<Op, X, Wt, G> for ConvChannelsDiffer<E, C>
where
    op::conv2d: ConvChannelsOk<X, Wt, E, C, G>,
{
    type Then<Y> = <op::conv2d as ConvChannelsOk<X, Wt, E, C, G>>::Then<Y>;
}
impl<Op, X, Wt, const G: usize> WindowVerdict<Op, X, Wt, G> for WindowTooSmall
where
    Op: WindowOk<Op, X>,
{
    type Then<Y> = <Op as WindowOk<Op, X>>::Then<Y>;
}
impl<Op, X, Wt, const G: usize, const K: usize, const P: usize> WindowVerdict<Op, X, Wt, G>
    for PoolPadTooLarge<K, P>
where
    Op: PoolPadOk<Op, X, K, P>,
{
    type Then<Y> = <Op as PoolPadOk<Op, X, K, P>>::Then<Y>;
}

/// Whether a window fits along both spatial dims.
type Fits<H, W, K1, K2, St, Pd, Dl> =
    <<H as ConvOut<K1, St, Pd, Dl>>::Ok as And<<W as ConvOut<K2, St, Pd, Dl>>::Ok>>::Output;
/// [`WindowTooSmall`] unless the window fits.
type FitVerdict<H, W, K1, K2, St, Pd, Dl> =
    <Fits<H, W, K1, K2, St, Pd, Dl> as Pick>::Out<B1, WindowTooSmall>;

/// The rule behind [`Conv2dShape`] for an input `Self` = `[N, C, H, W]` and a weight
/// `Wt` = `[O, C / G, KH, KW]`. Never fails on 4-d shapes: a mistake is the `Verdict`.
pub trait Conv2dRule<Wt, const ST: usize, const PD: usize, const DL: usize, const G: usize> {
    /// `[N, O, ConvSize<H, ..>, ConvSize<W, ..>]` (meaningless unless the verdict holds).
    type Output;
    /// `[O]`.
    type Bias;
    /// `B1`, [`ConvChannelsDiffer`] or [`WindowTooSmall`].
    type Verdict;
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
    > Conv2dRule<(O, CG, KH, KW), ST, PD, DL, G> for (N, C, H, W)
where
    CG: DimMul<D<G>>,
    D<G>: IsOne<Output: Pick>,
    C: DimEq<InChannels<CG, G>, Output: Bool>,
    H: ConvOut<KH, D<ST>, D<PD>, D<DL>>,
    W: ConvOut<KW, D<ST>, D<PD>, D<DL>>,
    <H as ConvOut<KH, D<ST>, D<PD>, D<DL>>>::Ok: And<<W as ConvOut<KW, D<ST>, D<PD>, D<DL>>>::Ok>,
{
    type Output = (
        N,
        O,
        ConvSize<H, KH, D<ST>, D<PD>, D<DL>>,
        ConvSize<W, KW, D<ST>, D<PD>, D<DL>>,
    );
    type Bias = (O,);
    type Verdict = <<C as DimEq<InChannels<CG, G>>>::Output as Pick>::Out<
        FitVerdict<H, W, KH, KW, D<ST>, D<PD>, D<DL>>,
        ConvChannelsDiffer<InChannels<CG, G>, C>,
    >;
}

/// The input channels a conv weight of `CG` channels per group expects over `G` groups:
/// `CG` itself for one group (so names are compared: `Rgb` never meets `Planes`), else the
/// unnamed product `CG · G`.
pub type InChannels<CG, const G: usize> =
    <<D<G> as IsOne>::Output as Pick>::Out<CG, Prod<CG, D<G>>>;

/// The output of the conv rule of `X` by `Wt`, when its verdict holds.
type ConvThen<X, Wt, const ST: usize, const PD: usize, const DL: usize, const G: usize> =
    <<X as Conv2dRule<Wt, ST, PD, DL, G>>::Verdict as WindowVerdict<op::conv2d, X, Wt, G>>::Then<
        <X as Conv2dRule<Wt, ST, PD, DL, G>>::Output,
    >;

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
// One blanket impl (the rule is `Conv2dRule`): rustc then has no list of impls to show
// beside a failed check.
impl<X: Shape, Wt, const ST: usize, const PD: usize, const DL: usize, const G: usize>
    Conv2dShape<Wt, ST, PD, DL, G> for X
where
    X: Conv2dRule<Wt, ST, PD, DL, G, Bias: Shape>,
    <X as Conv2dRule<Wt, ST, PD, DL, G>>::Verdict: WindowVerdict<op::conv2d, X, Wt, G>,
    ConvThen<X, Wt, ST, PD, DL, G>: Shape,
{
    type Output = ConvThen<X, Wt, ST, PD, DL, G>;
    type Bias = <X as Conv2dRule<Wt, ST, PD, DL, G>>::Bias;
}

/// The rule behind [`Pool2dShape`] for an input `Self` = `[N, C, H, W]`. Never fails on
/// 4-d shapes: a mistake is the `Verdict`.
pub trait Pool2dRule<const K: usize, const ST: usize, const PD: usize> {
    /// `[N, C, ConvSize<H, ..>, ConvSize<W, ..>]` (meaningless unless the verdict holds).
    type Output;
    /// `B1`, [`PoolPadTooLarge`] or [`WindowTooSmall`].
    type Verdict;
}
impl<N, C, H, W, const K: usize, const ST: usize, const PD: usize> Pool2dRule<K, ST, PD>
    for (N, C, H, W)
where
    D<PD>: DimAdd<D<PD>>,
    D<K>: DimSub<Sum<D<PD>, D<PD>>>,
    H: ConvOut<D<K>, D<ST>, D<PD>, D<1>>,
    W: ConvOut<D<K>, D<ST>, D<PD>, D<1>>,
    <H as ConvOut<D<K>, D<ST>, D<PD>, D<1>>>::Ok: And<<W as ConvOut<D<K>, D<ST>, D<PD>, D<1>>>::Ok>,
{
    type Output = (
        N,
        C,
        ConvSize<H, D<K>, D<ST>, D<PD>, D<1>>,
        ConvSize<W, D<K>, D<ST>, D<PD>, D<1>>,
    );
    type Verdict = <<D<K> as DimSub<Sum<D<PD>, D<PD>>>>::Ok as Pick>::Out<
        FitVerdict<H, W, D<K>, D<K>, D<ST>, D<PD>, D<1>>,
        PoolPadTooLarge<K, PD>,
    >;
}

/// The output of the pooling rule of `X`, when its verdict holds.
type PoolThen<Op, X, const K: usize, const ST: usize, const PD: usize> =
    <<X as Pool2dRule<K, ST, PD>>::Verdict as WindowVerdict<Op, X, X, 1>>::Then<
        <X as Pool2dRule<K, ST, PD>>::Output,
    >;

/// `Pool2dShape<Op, KERNEL, STRIDE, PADDING>`: the output shape of a 2-d pooling `Op` of
/// `Self` = `[N, C, H, W]`: `[N, C, ConvSize<H, ..>, ConvSize<W, ..>]`; the padding must be
/// at most half the kernel (PyTorch's rule) and the window must fit.
pub trait Pool2dShape<Op, const K: usize, const ST: usize, const PD: usize>: Shape {
    /// The output shape.
    type Output: Shape;
}
// One blanket impl, as `Conv2dShape`.
impl<Op, X: Shape, const K: usize, const ST: usize, const PD: usize> Pool2dShape<Op, K, ST, PD>
    for X
where
    X: Pool2dRule<K, ST, PD>,
    <X as Pool2dRule<K, ST, PD>>::Verdict: WindowVerdict<Op, X, X, 1>,
    PoolThen<Op, X, K, ST, PD>: Shape,
{
    type Output = PoolThen<Op, X, K, ST, PD>;
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

/// The verdict of a `cross_entropy` whose logits have batch `A` and targets `B`.
pub struct BatchDiffers<A, B>(PhantomData<(A, B)>);

/// The rule behind [`CrossEntropyWith`] for logits `Self` = `[N, C]` and targets `T` =
/// `[N]`: the verdict `B1` or [`BatchDiffers`].
pub trait CrossEntropyRule<T> {
    /// `B1` or [`BatchDiffers`].
    type Verdict;
}
impl<N: DimEq<N2, Output: Bool>, C, N2> CrossEntropyRule<(N2,)> for (N, C) {
    type Verdict = <<N as DimEq<N2>>::Output as Pick>::Out<B1, BatchDiffers<N, N2>>;
}

/// The check of a `cross_entropy` verdict of logits `L` and targets `T`.
pub trait CrossEntropyVerdict<L, T> {}
#[diagnostic::do_not_recommend]
impl<L, T> CrossEntropyVerdict<L, T> for B1 {}
impl<L, T, A, B> CrossEntropyVerdict<L, T> for BatchDiffers<A, B> where T: BatchOk<L, T, A, B> {}

/// `cross_entropy` of logits `Self` = `[N, C]` with targets `T` = `[N]`.
pub trait CrossEntropyWith<T: Shape>: Shape {}
// One blanket impl, as `Conv2dShape`.
impl<L: Shape, T: Shape> CrossEntropyWith<T> for L
where
    L: CrossEntropyRule<T>,
    <L as CrossEntropyRule<T>>::Verdict: CrossEntropyVerdict<L, T>,
{
}

check! {
    /// `cat` of `L` and `R` along dim `D`: the other dims match (`A` vs `B` at dim `I`).
    /// (No label: rustc then labels the tensors with this trait, instead of a `help` line
    /// under them, which keeps the error within 15 lines.)
    #[diagnostic::on_unimplemented(
        message = "cat: Sizes of tensors must match except in the cat dim: {L} and {R} differ at dim {I} ({A} vs {B})"
    )]
    CatOk<L, R, A, B; I>
}

check! {
    /// [`CatOk`] of two names `A` and `B`, of sizes `SA` and `SB` (no label, as `CatOk`).
    #[diagnostic::on_unimplemented(
        message = "cat: Sizes of tensors must match except in the cat dim: {L} and {R} differ at dim {I}: {A} ({SA}) vs {B} ({SB})"
    )]
    CatNamesOk<L, R, A, SA, B, SB; I>
}

check! {
    /// [`CatOk`] of the name `A` of size `SA` and the unnamed dim `B`.
    #[diagnostic::on_unimplemented(
        message = "cat: Sizes of tensors must match except in the cat dim: {L} and {R} differ at dim {I}: {A} ({SA}) vs {B}"
    )]
    CatNameDimOk<L, R, A, SA, B; I>
}

check! {
    /// [`CatOk`] of the unnamed dim `A` and the name `B` of size `SB`.
    #[diagnostic::on_unimplemented(
        message = "cat: Sizes of tensors must match except in the cat dim: {L} and {R} differ at dim {I}: {A} vs {B} ({SB})"
    )]
    CatDimNameOk<L, R, A, B, SB; I>
}

check! {
    /// `cat`/`stack` of `L` and `R`: same rank.
    #[diagnostic::on_unimplemented(
        message = "{Op}: Tensors must have same number of dimensions: got {L} and {R}",
        label = "shapes of different ranks"
    )]
    SameRankFor<Op, L, R;>
}

check! {
    /// `tril`/`triu` of `S`: at least 2 dims.
    #[diagnostic::on_unimplemented(
        message = "{Op}: input tensor must have at least 2 dimensions, but has shape {S}",
        label = "a matrix (or a batch of matrices) is needed"
    )]
    MatrixOk<Op, S;>
}

check! {
    /// `layer_norm` of `S` with weight/bias `W`: `W` is the trailing dims of `S`.
    #[diagnostic::on_unimplemented(
        message = "layer_norm: Given normalized_shape={W}, expected input with shape [*, {W}], but got input of shape {S}",
        label = "the weight's shape must be the trailing dims of the input"
    )]
    NormShapeOk<S, W;>
}

check! {
    /// `cross_entropy` of logits `L` and targets `T`: the batch dims agree.
    #[diagnostic::on_unimplemented(
        message = "cross_entropy: Expected input batch_size ({A}) to match target batch_size ({B}) (logits {L}, targets {T})",
        label = "logits [N, C] and targets [N] need the same N"
    )]
    BatchOk<L, T, A, B;>
}

check! {
    /// `conv2d` of input `X` by weight `W`: input channels = weight channels × groups.
    #[diagnostic::on_unimplemented(
        message = "conv2d: Given groups={G}, weight of shape {W}, expected input {X} to have {E} channels, but got {C} channels instead",
        label = "the input's channels must be the weight's dim 1 times groups"
    )]
    ConvChannelsOk<X, W, E, C; G>
}

check! {
    /// `Op` (conv2d or a pooling) of input `X`: the output is not empty.
    #[diagnostic::on_unimplemented(
        message = "{Op}: input {X} is too small: the (padded) input is smaller than the (dilated) kernel, so the output would be empty",
        label = "Kernel size can't be greater than actual input size"
    )]
    WindowOk<Op, X;>
}

check! {
    /// A pooling of `X`: padding at most half the kernel.
    #[diagnostic::on_unimplemented(
        message = "{Op}: pad should be at most half of effective kernel size, but got pad={P}, kernel_size={K} and dilation=1",
        label = "padding too large for the kernel"
    )]
    PoolPadOk<Op, X; K, P>
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::typelevel::dim::Dyn;
    use tensor_macros::Shape;

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
