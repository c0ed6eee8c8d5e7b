//! The check traits behind every static shape error.
//!
//! Each is implemented only for typenum's `B1` (the condition holds). A bound
//! `<condition> : XOk<..>` that fails is reported by rustc with this trait's
//! `#[diagnostic::on_unimplemented]` message, where indices are const generics (printed
//! in decimal), dims are printed in their decimal form (`D<3>`, `K<D<50>, D<257>>`) and
//! shapes as tuples of them (`(D<2>, D<3>)`).

use typenum::B1;

macro_rules! check {
    ($(#[$m:meta])* $name:ident < $($p:ident),* ; $($c:ident),* >) => {
        $(#[$m])*
        pub trait $name<$($p,)* $(const $c: usize),*> {
            /// `X` when the check holds; a rule whose result exists only when the check
            /// holds is this projection, so a failed check leaves no made-up result
            /// type behind (rustc reports the check once and stops there).
            type Then<X>;
        }
        #[diagnostic::do_not_recommend]
        impl<$($p,)* $(const $c: usize),*> $name<$($p,)* $($c),*> for B1 {
            type Then<X> = X;
        }
    };
}

check! {
    /// Broadcasting `L` with `R` in op `Op`: output dim `I` pairs static dims `A` and `B`.
    #[diagnostic::on_unimplemented(
        message = "{Op}: cannot broadcast {L} with {R}: dim {I} is {A} vs {B}",
        label = "these shapes do not broadcast",
        note = "two static dims broadcast when they are equal or one of them is 1"
    )]
    BroadcastOk<Op, L, R, A, B; I>
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
    /// Matrix product of `L` and `R`: inner dims `A` and `B` must match.
    #[diagnostic::on_unimplemented(
        message = "cannot matmul {L} by {R}: inner dims are {A} vs {B}",
        label = "the last dim of the left operand must equal the second-to-last of the right"
    )]
    MatmulOk<L, R, A, B;>
}

check! {
    /// `check_shape` from `S` to `T`: dim `I` is `A` vs `B`.
    #[diagnostic::on_unimplemented(
        message = "check_shape: shape {S} can never be {T}: dim {I} is {A} vs {B}",
        label = "static dims must agree; only `Dyn` dims are checked at run time"
    )]
    SameDimOk<S, T, A, B; I>
}

check! {
    /// `check_shape` from `S` to `T`: the ranks must be equal (never holds: used on `B0`).
    #[diagnostic::on_unimplemented(
        message = "check_shape: shape {S} can never be {T}: the ranks differ",
        label = "check_shape keeps the rank"
    )]
    SameRankOk<S, T;>
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

/// Holds (on `B1`) when dim `I` of the input, `A`, equals the pattern's `B`.
#[diagnostic::on_unimplemented(
    message = "layout!({Op}): Shape mismatch, {A} != {B}: dim {I} of the input has size {A}, but the pattern needs {B}",
    label = "dim {I} is {A}, the pattern needs {B}"
)]
pub trait SizeEq<Op, A, B, const I: usize> {}
#[diagnostic::do_not_recommend]
impl<Op, A, B, const I: usize> SizeEq<Op, A, B, I> for B1 {}

/// Holds (on `B1`) when `B` divides dim `I` of the input, `A`.
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
