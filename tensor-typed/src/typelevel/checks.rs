//! The check traits behind every static shape error.
//!
//! Each is implemented only for [`B1`](typenum::B1) (typenum's true) (the condition holds). A bound
//! `Blame<condition, W> : XOk<..>` (`W` a shape or an op marker, never a dim) that fails is reported by rustc with this trait's
//! `#[diagnostic::on_unimplemented]` message, where indices are const generics (printed
//! in decimal), dims are printed in their decimal form (`D<3>`, `K<D<50>, D<257>>`) and
//! shapes as tuples of them (`(D<2>, D<3>)`).
//!
//! A check that compares two dims has three more forms for named dims, which print each
//! name's size beside it (a second parameter, `SA` or `SB`: a static dim or `Dyn`): two
//! names (`MatmulNamesOk`: `inner dims are HeadDim (D<16>) vs Seq (Dyn)`), a name and an
//! unnamed dim (`MatmulNameDimOk`), an unnamed dim and a name (`MatmulDimNameOk`). Which
//! one a failure is reported by is the rule's verdict ([`crate::typelevel::mismatch`]).

use crate::typelevel::dim::Pick;
use typenum::B1;

/// The `Self` of a check: `B1` when the condition (a typenum bit) `C` holds, else the
/// readable type `W` the failure is about (a shape or an op marker). rustc then says
/// "the trait `XOk<..>` is not implemented for `W`", never for a typenum bit. Never a dim:
/// a name is the user's own struct, and rustc would show its definition (the `dims!`
/// block) under the error; a check takes its dims as parameters.
pub type Blame<C, W> = <C as Pick>::Out<B1, W>;

macro_rules! check {
    ($(#[$m:meta])* $name:ident < $($p:ident),* ; $($c:ident),* >) => {
        $(#[$m])*
        pub trait $name<$($p,)* $(const $c: usize),*> {
            /// `X` when the check holds; a rule whose result exists only when the check
            /// holds is this projection, so a failed check leaves no made-up result
            /// type behind (rustc reports the check once and stops there).
            type Then<Out>;
        }
        #[diagnostic::do_not_recommend]
        impl<$($p,)* $(const $c: usize),*> $name<$($p,)* $($c),*> for B1 {
            type Then<Out> = Out;
        }
    };
}

check! {
    /// Broadcasting `L` with `R` in op `Op`: output dim `I` pairs the static dims `A`
    /// and `B`.
    #[diagnostic::on_unimplemented(
        message = "{Op}: cannot broadcast {L} with {R}: dim {I} is {A} vs {B}",
        label = "these shapes do not broadcast",
        note = "two static dims broadcast when they are equal or one of them is 1; two different named dims never do"
    )]
    BroadcastOk<Op, L, R, A, B; I>
}

check! {
    /// [`BroadcastOk`] of two names `A` and `B`, of sizes `SA` and `SB`.
    #[diagnostic::on_unimplemented(
        message = "{Op}: cannot broadcast {L} with {R}: dim {I} is {A} ({SA}) vs {B} ({SB})",
        label = "these shapes do not broadcast",
        note = "two static dims broadcast when they are equal or one of them is 1; two different named dims never do"
    )]
    BroadcastNamesOk<Op, L, R, A, SA, B, SB; I>
}

check! {
    /// [`BroadcastOk`] of the name `A` of size `SA` and the unnamed dim `B`.
    #[diagnostic::on_unimplemented(
        message = "{Op}: cannot broadcast {L} with {R}: dim {I} is {A} ({SA}) vs {B}",
        label = "these shapes do not broadcast",
        note = "two static dims broadcast when they are equal or one of them is 1; two different named dims never do"
    )]
    BroadcastNameDimOk<Op, L, R, A, SA, B; I>
}

check! {
    /// [`BroadcastOk`] of the unnamed dim `A` and the name `B` of size `SB`.
    #[diagnostic::on_unimplemented(
        message = "{Op}: cannot broadcast {L} with {R}: dim {I} is {A} vs {B} ({SB})",
        label = "these shapes do not broadcast",
        note = "two static dims broadcast when they are equal or one of them is 1; two different named dims never do"
    )]
    BroadcastDimNameOk<Op, L, R, A, B, SB; I>
}

check! {
    /// Expanding `S` to `T`: target dim `I` is `B` where the tensor has `A`.
    #[diagnostic::on_unimplemented(
        message = "cannot expand {S} to {T}: dim {I} is {A} and the target is {B}",
        label = "expand can only change dims of size 1",
        note = "the expanded size must match the existing size at a non-singleton dimension"
    )]
    ExpandOk<S, T, A, B; I>
}

check! {
    /// [`ExpandOk`] of the name `A` of size `SA` to the name `B` of size `SB`.
    #[diagnostic::on_unimplemented(
        message = "cannot expand {S} to {T}: dim {I} is {A} ({SA}) and the target is {B} ({SB})",
        label = "expand can only change dims of size 1",
        note = "a named dim is never the 1 that expand grows; it expands only to its own name, an unnamed dim of its size, or `Dyn`"
    )]
    ExpandNamesOk<S, T, A, SA, B, SB; I>
}

check! {
    /// [`ExpandOk`] of the name `A` of size `SA` to the unnamed dim `B`.
    #[diagnostic::on_unimplemented(
        message = "cannot expand {S} to {T}: dim {I} is {A} ({SA}) and the target is {B}",
        label = "expand can only change dims of size 1",
        note = "a named dim is never the 1 that expand grows; it expands only to its own name, an unnamed dim of its size, or `Dyn`"
    )]
    ExpandNameDimOk<S, T, A, SA, B; I>
}

check! {
    /// [`ExpandOk`] of the unnamed dim `A` to the name `B` of size `SB`.
    #[diagnostic::on_unimplemented(
        message = "cannot expand {S} to {T}: dim {I} is {A} and the target is {B} ({SB})",
        label = "expand can only change dims of size 1",
        note = "the expanded size must match the existing size at a non-singleton dimension"
    )]
    ExpandDimNameOk<S, T, A, B, SB; I>
}

check! {
    /// Expanding `S` to `Tgt`: the target has at least as many dims (the `Self` of a
    /// failure is `Tgt`).
    #[diagnostic::on_unimplemented(
        message = "cannot expand {S} to {Tgt}: the target has fewer dims than the tensor",
        label = "expand cannot remove dims",
        note = "the target shape needs at least as many dims as the tensor (new dims are added in front)"
    )]
    ExpandRankOk<S, Tgt;>
}

check! {
    /// Expanding `S` to `Tgt`: each new leading dim is static (the `Self` of
    /// a failure is `Dyn`).
    #[diagnostic::on_unimplemented(
        message = "cannot expand {S} to {Tgt}: a new leading dim must be static, found `Dyn`",
        label = "the size of a new leading dim cannot be inferred"
    )]
    ExpandLeadingOk<S, Tgt;>
}

check! {
    /// Repeating `S` by `R`: at least as many counts as dims (the `Self` of
    /// a failure is `S`).
    #[diagnostic::on_unimplemented(
        message = "cannot repeat {S} by {R}: the number of repeat dims can not be smaller than the number of dims of the tensor",
        label = "give one repeat count per dim (or more)"
    )]
    RepeatRankOk<S, R;>
}

check! {
    /// Repeating `S` by `R`: every count is static (the `Self` of a failure
    /// is `Dyn`).
    #[diagnostic::on_unimplemented(
        message = "repeat: repeat counts must be static dims, found Dyn in {R}",
        label = "write the repeat counts as numbers in Shape![..]"
    )]
    RepeatCountOk<S, R;>
}

check! {
    /// Reshaping `S` to `T`: both element counts static and different.
    #[diagnostic::on_unimplemented(
        message = "cannot reshape {S} into {T}: the element counts differ",
        label = "reshape must keep the number of elements",
        note = "a shape with a `Dyn` dim is checked at run time instead"
    )]
    ReshapeOk<S, T;>
}

check! {
    /// Permuting `S` by `A`: as many axes as dims.
    #[diagnostic::on_unimplemented(
        message = "cannot permute {S} by {A}: the number of axes must equal the rank",
        label = "not a permutation of the tensor's dims"
    )]
    PermuteRankOk<S, A;>
}

check! {
    /// An axis `K` of the op `Op` on shape `S` is in range.
    #[diagnostic::on_unimplemented(
        message = "{Op}: axis {K} is out of range for shape {S}",
        label = "axes count from 0 and must be less than the rank"
    )]
    AxisInRange<Op, S; K>
}

check! {
    /// An axis `K` appears once in the axis list `A` of the op `Op`.
    #[diagnostic::on_unimplemented(
        message = "{Op}: axis {K} appears more than once in {A}",
        label = "each axis may appear only once"
    )]
    AxisUnique<Op, A; K>
}

check! {
    /// Matrix product of `L` and `R`: the inner dims `A` and `B` must match.
    #[diagnostic::on_unimplemented(
        message = "cannot matmul {L} by {R}: inner dims are {A} vs {B}",
        label = "the last dim of the left operand must equal the second-to-last of the right",
        note = "a named dim matches only its own name, an unnamed dim of its size, or `Dyn`"
    )]
    MatmulOk<L, R, A, B;>
}

check! {
    /// [`MatmulOk`] of two names `A` and `B`, of sizes `SA` and `SB`.
    #[diagnostic::on_unimplemented(
        message = "cannot matmul {L} by {R}: inner dims are {A} ({SA}) vs {B} ({SB})",
        label = "the last dim of the left operand must equal the second-to-last of the right",
        note = "a named dim matches only its own name, an unnamed dim of its size, or `Dyn`"
    )]
    MatmulNamesOk<L, R, A, SA, B, SB;>
}

check! {
    /// [`MatmulOk`] of the name `A` of size `SA` and the unnamed dim `B`.
    #[diagnostic::on_unimplemented(
        message = "cannot matmul {L} by {R}: inner dims are {A} ({SA}) vs {B}",
        label = "the last dim of the left operand must equal the second-to-last of the right",
        note = "a named dim matches only its own name, an unnamed dim of its size, or `Dyn`"
    )]
    MatmulNameDimOk<L, R, A, SA, B;>
}

check! {
    /// [`MatmulOk`] of the unnamed dim `A` and the name `B` of size `SB`.
    #[diagnostic::on_unimplemented(
        message = "cannot matmul {L} by {R}: inner dims are {A} vs {B} ({SB})",
        label = "the last dim of the left operand must equal the second-to-last of the right",
        note = "a named dim matches only its own name, an unnamed dim of its size, or `Dyn`"
    )]
    MatmulDimNameOk<L, R, A, B, SB;>
}

check! {
    /// `check_shape` (or `rename`, `Op`) from `S` to `T`: dim `I` is `A` vs `B`.
    #[diagnostic::on_unimplemented(
        message = "{Op}: shape {S} can never be {T}: dim {I} is {A} vs {B}",
        label = "static dims must agree; only `Dyn` dims are checked at run time"
    )]
    SameDimOk<Op, S, T, A, B; I>
}

check! {
    /// [`SameDimOk`] of two names `A` and `B`, of sizes `SA` and `SB`.
    #[diagnostic::on_unimplemented(
        message = "{Op}: shape {S} can never be {T}: dim {I} is {A} ({SA}) vs {B} ({SB})",
        label = "static dims must agree; only `Dyn` dims are checked at run time"
    )]
    SameDimNamesOk<Op, S, T, A, SA, B, SB; I>
}

check! {
    /// [`SameDimOk`] of the name `A` of size `SA` and the unnamed dim `B`.
    #[diagnostic::on_unimplemented(
        message = "{Op}: shape {S} can never be {T}: dim {I} is {A} ({SA}) vs {B}",
        label = "static dims must agree; only `Dyn` dims are checked at run time"
    )]
    SameDimNameDimOk<Op, S, T, A, SA, B; I>
}

check! {
    /// [`SameDimOk`] of the unnamed dim `A` and the name `B` of size `SB`.
    #[diagnostic::on_unimplemented(
        message = "{Op}: shape {S} can never be {T}: dim {I} is {A} vs {B} ({SB})",
        label = "static dims must agree; only `Dyn` dims are checked at run time"
    )]
    SameDimDimNameOk<Op, S, T, A, B, SB; I>
}

check! {
    /// A `layout!` (`Op`) result of shape `X` used as `O`: dim `I` is the name `A` of
    /// size `SA` vs the name `B` of size `SB`.
    #[diagnostic::on_unimplemented(
        message = "layout!({Op}): the pattern gives the shape `{X}`, but the result is used as `{O}`: dim {I} is {A} ({SA}) vs {B} ({SB})",
        label = "gives `{X}`"
    )]
    ResultNamesOk<Op, X, O, A, SA, B, SB; I>
}

check! {
    /// [`ResultNamesOk`] of the name `A` of size `SA` and the unnamed dim `B`.
    #[diagnostic::on_unimplemented(
        message = "layout!({Op}): the pattern gives the shape `{X}`, but the result is used as `{O}`: dim {I} is {A} ({SA}) vs {B}",
        label = "gives `{X}`"
    )]
    ResultNameDimOk<Op, X, O, A, SA, B; I>
}

check! {
    /// [`ResultNamesOk`] of the unnamed dim `A` and the name `B` of size `SB`.
    #[diagnostic::on_unimplemented(
        message = "layout!({Op}): the pattern gives the shape `{X}`, but the result is used as `{O}`: dim {I} is {A} vs {B} ({SB})",
        label = "gives `{X}`"
    )]
    ResultDimNameOk<Op, X, O, A, B, SB; I>
}

check! {
    /// `check_shape` (or `rename`, `Op`) from `S` to `T`: the ranks must be equal (the
    /// `Self` of a failure is `T`).
    #[diagnostic::on_unimplemented(
        message = "{Op}: shape {S} can never be {T}: the ranks differ",
        label = "{Op} keeps the rank"
    )]
    SameRankOk<Op, S, T;>
}

check! {
    /// `matmul` of `L` by `R`: both need at least one dim (never holds: used on `B0`).
    #[diagnostic::on_unimplemented(
        message = "cannot matmul {L} by {R}: both arguments to matmul need to be at least 1D",
        label = "matmul of a 0-d tensor"
    )]
    MatmulRankOk<L, R;>
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

/// Holds (on `B1`) when dim `I` of the input, `A`, equals the pattern's `B` (a failure's
/// `Self` is the op marker `Op`).
#[diagnostic::on_unimplemented(
    message = "layout!({Op}): Shape mismatch, {A} != {B}: dim {I} of the input has size {A}, but the pattern needs {B}",
    label = "dim {I} is {A}, the pattern needs {B}"
)]
pub trait SizeEq<Op, A, B, const I: usize> {}
#[diagnostic::do_not_recommend]
impl<Op, A, B, const I: usize> SizeEq<Op, A, B, I> for B1 {}

check! {
    /// [`SizeEq`] of two names `A` and `B`, of sizes `SA` and `SB`.
    #[diagnostic::on_unimplemented(
        message = "layout!({Op}): Shape mismatch, {A} ({SA}) != {B} ({SB}): dim {I} of the input is {A}, but the pattern needs {B}",
        label = "dim {I} is {A}, the pattern needs {B}"
    )]
    SizeEqNamesOk<Op, A, SA, B, SB; I>
}

check! {
    /// [`SizeEq`] of the name `A` of size `SA` and the unnamed dim `B`.
    #[diagnostic::on_unimplemented(
        message = "layout!({Op}): Shape mismatch, {A} ({SA}) != {B}: dim {I} of the input has size {SA}, but the pattern needs {B}",
        label = "dim {I} is {A}, the pattern needs {B}"
    )]
    SizeEqNameDimOk<Op, A, SA, B; I>
}

check! {
    /// [`SizeEq`] of the unnamed dim `A` and the name `B` of size `SB`.
    #[diagnostic::on_unimplemented(
        message = "layout!({Op}): Shape mismatch, {A} != {B} ({SB}): dim {I} of the input has size {A}, but the pattern needs {SB}",
        label = "dim {I} is {A}, the pattern needs {B}"
    )]
    SizeEqDimNameOk<Op, A, B, SB; I>
}

/// Holds (on `B1`) when `B` divides dim `I` of the input, `A` (a failure's `Self` is
/// `A`, a size: a name splits as its size).
#[diagnostic::on_unimplemented(
    message = "layout!({Op}): Shape mismatch, can't divide axis of length {A} in chunks of {B} (dim {I} of the input)",
    label = "dim {I} is {A}, not a multiple of {B}"
)]
pub trait SplitOk<Op, A, B, const I: usize> {
    /// `X` when the split is exact (see `check!`).
    type Then<X>;
}
#[diagnostic::do_not_recommend]
impl<Op, A, B, const I: usize> SplitOk<Op, A, B, I> for B1 {
    type Then<X> = X;
}

/// A signed dim `D` of op `Op` is in range for shape `S` (PyTorch's `maybe_wrap_dim`).
#[diagnostic::on_unimplemented(
    message = "{Op}: dim {D} is out of range for shape {S}",
    label = "Dimension out of range: a dim of a tensor of rank r lies in [-r, r)"
)]
pub trait DimInRange<Op, S, const D: isize> {
    /// `X` when the dim is in range.
    type Then<X>;
}
#[diagnostic::do_not_recommend]
impl<Op, S, const D: isize> DimInRange<Op, S, D> for B1 {
    type Then<X> = X;
}

check! {
    /// `squeeze::<D>` of `S`: the dim `X` is 1 (or `Dyn`, checked at run time).
    #[diagnostic::on_unimplemented(
        message = "squeeze: dim of size {X} of shape {S} cannot be squeezed",
        label = "only a dim of size 1 can be squeezed"
    )]
    SqueezeOk<S, X;>
}

check! {
    /// `narrow` of `S`: `START + LEN` fits in the dim `X`.
    #[diagnostic::on_unimplemented(
        message = "narrow: start ({START}) + length ({LEN}) exceeds dimension size ({X}) of shape {S}",
        label = "the narrowed range ends past the dim"
    )]
    NarrowOk<S, X; START, LEN>
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
