//! The SBP of a typed global tensor as a type: [`S<D>`] (split along dim `D`), [`B`]
//! (broadcast), [`P<Sum>`](P), [`P<Max>`](P), [`P<Min>`](P) (partial), and [`DynSbp`],
//! an SBP known only at run time (as `Dyn` is for a size).
//!
//! Each is the runtime's [`tensor_core::global::Sbp`] (its [`Sbp::RUNTIME`]). The rules
//! of `rules.rs` compute with each SBP's [`Sbp::Kind`]: a split's dim as a Peano number,
//! so that moving it (a reduction removing dims before it, an expand adding dims in
//! front, a permute) is a few impl selections.

use crate::typelevel::dim::Ax;
use crate::typelevel::peano::{AxisPos, S as Succ, Z};
use std::fmt;
use std::marker::PhantomData;
use tensor_core::global::{ReduceOp, Sbp as RtSbp};

/// Split along dim `D` (OneFlow's `oneflow.sbp.split(dim=D)`): each rank holds a slice
/// of the logical tensor along `D`, by the balanced rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct S<const D: usize>;

/// Broadcast (`oneflow.sbp.broadcast`): every rank holds the whole logical tensor.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct B;

/// Partial (`oneflow.sbp.partial_sum`, and the max and min kinds): every rank holds a
/// tensor of the logical shape, and the reduction `R` ([`Sum`], [`Max`], [`Min`]) of
/// them is the logical tensor.
pub struct P<R>(PhantomData<R>);

/// The reduction of a partial SBP: elementwise sum.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sum;
/// The reduction of a partial SBP: elementwise maximum.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Max;
/// The reduction of a partial SBP: elementwise minimum.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Min;

/// An SBP known only at run time: ops on it deduce their signature and box their inputs
/// as the untyped [`tensor_core::global::GlobalTensor`] does, silently.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DynSbp;

impl<R> fmt::Debug for P<R>
where
    P<R>: Sbp,
{
    #[cfg_attr(unoptimized, inline)]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", Self::RUNTIME)
    }
}

/// The reductions of a partial SBP: [`Sum`], [`Max`], [`Min`].
pub trait Reduction: 'static + Send + Sync {
    /// The runtime's reduction.
    const OP: ReduceOp;
}
impl Reduction for Sum {
    const OP: ReduceOp = ReduceOp::Sum;
}
impl Reduction for Max {
    const OP: ReduceOp = ReduceOp::Max;
}
impl Reduction for Min {
    const OP: ReduceOp = ReduceOp::Min;
}

/// An SBP type: [`S<D>`], [`B`], [`P<R>`](P) or [`DynSbp`].
pub trait Sbp: 'static + Send + Sync {
    /// The runtime SBP; `None` for [`DynSbp`].
    const RUNTIME: Option<RtSbp>;
    /// What the rules compute with ([`Split`], [`Bcast`], [`Part`], [`Dynamic`]).
    #[doc(hidden)]
    type Kind;
}

impl<const D: usize> Sbp for S<D>
where
    Ax<D>: AxisPos,
{
    const RUNTIME: Option<RtSbp> = Some(RtSbp::Split(D));
    type Kind = Split<<Ax<D> as AxisPos>::P>;
}
impl Sbp for B {
    const RUNTIME: Option<RtSbp> = Some(RtSbp::Broadcast);
    type Kind = Bcast;
}
impl<R: Reduction> Sbp for P<R> {
    const RUNTIME: Option<RtSbp> = Some(RtSbp::partial(R::OP));
    type Kind = Part<R>;
}
impl Sbp for DynSbp {
    const RUNTIME: Option<RtSbp> = None;
    type Kind = Dynamic;
}

/// The kind of a split along the dim with Peano index `X`.
#[doc(hidden)]
pub struct Split<X>(PhantomData<X>);
/// The kind of broadcast.
#[doc(hidden)]
pub struct Bcast;
/// The kind of a partial SBP reduced by `R`.
#[doc(hidden)]
pub struct Part<R>(PhantomData<R>);
/// The kind of a run-time SBP.
#[doc(hidden)]
pub struct Dynamic;
/// The verdict of a rule that refuses its inputs' SBPs: they would need boxing.
#[doc(hidden)]
pub struct Refused;

/// The SBP type of a kind a rule computed, and whether the rule accepted (a
/// [`Refused`] verdict maps to [`DynSbp`] with `Accepted = B0`, which the op's check
/// reports before the type is ever used).
#[doc(hidden)]
pub trait Verdict {
    /// The SBP type.
    type Sbp: Sbp;
    /// `B1` unless refused.
    type Accepted: crate::typelevel::dim::Bool;
    /// The runtime SBP the rule gives; `None` when refused or run-time.
    const RUNTIME: Option<RtSbp> = <Self::Sbp as Sbp>::RUNTIME;
    /// `false` when refused.
    const ACCEPTED: bool = <Self::Accepted as typenum::Bit>::BOOL;
}

/// `Verdict` of a split along each Peano index up to 8.
macro_rules! split_verdicts {
    ($p:ty;) => {};
    ($p:ty; $d:literal $($rest:literal)*) => {
        impl Verdict for Split<$p> {
            type Sbp = S<$d>;
            type Accepted = typenum::B1;
        }
        split_verdicts!(Succ<$p>; $($rest)*);
    };
}
split_verdicts!(Z; 0 1 2 3 4 5 6 7);

impl Verdict for Bcast {
    type Sbp = B;
    type Accepted = typenum::B1;
}
impl<R: Reduction> Verdict for Part<R> {
    type Sbp = P<R>;
    type Accepted = typenum::B1;
}
impl Verdict for Dynamic {
    type Sbp = DynSbp;
    type Accepted = typenum::B1;
}
impl Verdict for Refused {
    type Sbp = DynSbp;
    type Accepted = typenum::B0;
}

/// The SBP a rule's verdict `V` gives.
pub type SbpOf<V> = <V as Verdict>::Sbp;

/// The SBP of the gradient of a tensor of SBP `Self` (OneFlow's backward rule, the
/// runtime's [`tensor_core::global::grad_sbp`]): a split stays split, [`B`] gets
/// [`P<Sum>`](P) (each rank holds its share of the sum), [`P<Sum>`](P) gets [`B`].
/// [`P<Max>`](P) and [`P<Min>`](P) have none: box them to [`B`] before differentiating.
#[diagnostic::on_unimplemented(
    message = "a {Self} tensor has no gradient shard by shard",
    label = "box it with to_sbp::<B>() before differentiating",
    note = "the gradient of a split tensor is split alike, of B a P<Sum>, of P<Sum> a B"
)]
pub trait Dual: Sbp {
    /// The gradient's SBP.
    type Grad: Sbp;
}
impl<const D: usize> Dual for S<D>
where
    Ax<D>: AxisPos,
{
    type Grad = S<D>;
}
impl Dual for B {
    type Grad = P<Sum>;
}
impl Dual for P<Sum> {
    type Grad = B;
}
impl Dual for DynSbp {
    type Grad = DynSbp;
}
