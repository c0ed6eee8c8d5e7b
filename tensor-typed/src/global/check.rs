//! The checks that report a refused SBP signature: each is implemented for `B1` only
//! (see [`crate::shape::check`]); a rule's verdict that is [`Refused`](super::sbp::Refused)
//! blames the op marker, and the message names the op and the SBPs of its inputs.

use crate::shape::check::check;

check! {
    /// A unary op on a partial tensor whose reduction it does not commute with.
    #[diagnostic::on_unimplemented(
        message = "cannot {Op} a {A} tensor without communication: {Op} does not commute with its partial reduction",
        label = "box it first: `.all_reduce()` (or `.to_sbp::<B>()`)",
        note = "a split or broadcast tensor passes through a unary op; a partial one only through neg (P<Sum>, and max and min swap for floats) and non-decreasing ops such as relu (P<Max>, P<Min>)"
    )]
    SbpUnaryOk<Op, A;>
}

check! {
    /// An elementwise binary op whose inputs' SBPs do not fit its signature.
    #[diagnostic::on_unimplemented(
        message = "cannot {Op} {A} with {B} without communication: box one side with to_sbp",
        label = "these SBPs need boxing",
        note = "the signatures that need none: a split with the same split dim (or with B where the other lacks that dim or has it at 1), B with B, P<Sum> with P<Sum> for add and sub, P<Sum> with B for mul, P<Max> (P<Min>) with itself or B for maximum (minimum)"
    )]
    SbpBinaryOk<Op, A, B;>
}

check! {
    /// A matmul whose operands' SBPs do not fit any of its signatures.
    #[diagnostic::on_unimplemented(
        message = "cannot matmul {A} by {B} without communication: box one side with to_sbp",
        label = "these SBPs need boxing",
        note = "matmul's signatures: S<0>·B → S<0>, B·S<1> → S<1>, S<1>·S<0> → P<Sum>, P<Sum>·B → P<Sum>, B·P<Sum> → P<Sum>, B·B → B"
    )]
    SbpMatmulOk<A, B;>
}

check! {
    /// A reduction of a partial tensor by another reduction.
    #[diagnostic::on_unimplemented(
        message = "cannot {Op} a {A} tensor without communication: box it first with `.all_reduce()`",
        label = "a partial tensor reduces only by its own reduction",
        note = "sum keeps P<Sum> (when the dtype is kept), amax keeps P<Max>, amin keeps P<Min>; a reduced split dim gives the partial SBP"
    )]
    SbpReduceOk<Op, A;>
}

check! {
    /// A view that would cut or merge the split dim.
    #[diagnostic::on_unimplemented(
        message = "cannot {Op} a {A} tensor to {Sh} without communication: the split dim would not stay one dim of the result",
        label = "box it first with to_sbp",
        note = "reshape keeps a split when the dims up to it are unchanged; expand keeps it unless the split dim is a 1 expanded to more"
    )]
    SbpViewOk<Op, A, Sh;>
}

check! {
    /// A normalisation over the split dim, or of a partial tensor.
    #[diagnostic::on_unimplemented(
        message = "cannot {Op} a {A} tensor over that dim without communication: the op needs every element of the dim it normalises",
        label = "box it first: `.all_gather()` or `.to_sbp::<B>()` (`.all_reduce()` for a partial tensor)",
        note = "a split of another dim and B pass through"
    )]
    SbpNormOk<Op, A;>
}

check! {
    /// `cross_entropy` of scores and targets whose SBPs do not fit.
    #[diagnostic::on_unimplemented(
        message = "cannot cross_entropy {A} scores with {B} targets without communication: box one side with to_sbp",
        label = "these SBPs need boxing",
        note = "S<0> scores with S<0> targets give a P<Sum> loss (each rank's share of the batch mean); B with B gives a B loss"
    )]
    SbpLossOk<A, B;>
}

check! {
    /// A scalar multiple of a partial max or min tensor (a negative scalar would swap them).
    #[diagnostic::on_unimplemented(
        message = "cannot {Op} a {A} tensor by a scalar without communication",
        label = "box it first with `.all_reduce()`",
        note = "a scalar multiple keeps split, B and P<Sum>"
    )]
    SbpScalarOk<Op, A;>
}

check! {
    /// A split SBP whose dim is outside the shape.
    #[diagnostic::on_unimplemented(
        message = "S<{D}> splits dim {D}, but the shape {Sh} has no dim {D}",
        label = "a split dim counts from 0 and is less than the rank"
    )]
    SplitDimOk<Sh; D>
}
