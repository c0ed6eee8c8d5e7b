//! `Global<T, Sh, P>`: a global tensor whose element type, logical shape and SBP the
//! compiler knows, over the runtime's [`GlobalTensor`]; its constructors, accessors and
//! the explicit boxings (`to_sbp`, `all_reduce`, `all_gather`, `reduce_scatter`).

use super::check::SplitDimOk;
use super::sbp::{DynSbp, Reduction, Sbp, Sum, B, P, S};
use crate::shape::check::Blame;
use crate::shape::Shape;
use crate::tensor::Tensor;
use crate::typelevel::dim::Ax;
use crate::typelevel::peano::{AxisPos, PLt};
use std::fmt;
use std::marker::PhantomData;
use tensor_core::global::{Comm, GlobalTensor, Placement, Sbp as RtSbp};
use tensor_core::{Element, Error, Result};
use tensor_macros::plain_form;

/// A global tensor of element type `T`, logical shape `Sh` and SBP `P` ([`S<D>`],
/// [`B`], [`P<Sum>`](P), ..., or [`DynSbp`]) on the ranks of a placement: every rank holds
/// its shard, and every op's output SBP is computed by the compiler from its inputs'
/// (`rules.rs`). An op whose inputs would need communication does not compile; the
/// program boxes them itself ([`Global::to_sbp`], [`Global::all_reduce`],
/// [`Global::all_gather`], [`Global::reduce_scatter`]), so the communication of a
/// forward pass reads from its types. `Clone` aliases the shard.
///
/// Invariant: the runtime tensor's dtype is `T`, its logical sizes fit `Sh`, and its SBP
/// is `P` (any SBP for [`DynSbp`]).
pub struct Global<T: Element, Sh: Shape, P> {
    pub(crate) inner: GlobalTensor,
    _marker: PhantomData<(T, Sh, P)>,
}

impl<T: Element, Sh: Shape, P> Clone for Global<T, Sh, P> {
    fn clone(&self) -> Self {
        Global::wrap(self.inner.clone())
    }
}

impl<T: Element, Sh: Shape, P: Sbp> fmt::Debug for Global<T, Sh, P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Global<{}, {}> {:?}",
            T::DTYPE,
            Sh::describe(),
            self.inner
        )
    }
}

/// `P` is an SBP of a tensor of shape `Sh`: a split's dim is below the rank (a compile
/// error naming both otherwise).
pub trait FitsShape<Sh> {}
impl<Sh> FitsShape<Sh> for B {}
impl<Sh> FitsShape<Sh> for DynSbp {}
impl<Sh, R: Reduction> FitsShape<Sh> for P<R> {}
impl<const D: usize, Sh: Shape> FitsShape<Sh> for S<D>
where
    Ax<D>: AxisPos,
    <Ax<D> as AxisPos>::P: PLt<Sh::Rank>,
    Blame<<<Ax<D> as AxisPos>::P as PLt<Sh::Rank>>::Output, Sh>: SplitDimOk<Sh, D>,
{
}

/// The error of a typed global tensor whose runtime SBP is not its type's.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn sbp_error(op: &'static str, expected: RtSbp, got: RtSbp) -> Error {
    Error::InvalidArgument {
        op,
        message: format!("{op}: expected a global tensor of SBP {expected}, got {got}"),
    }
}

/// Checks the invariant of `Global` on a runtime global tensor: dtype, sizes, SBP
/// (`expected`, `None` for any).
#[cfg_attr(unoptimized, inline)]
pub(crate) fn check_global(
    op: &'static str,
    t: &GlobalTensor,
    dtype: tensor_core::DType,
    dims: &[Option<usize>],
    expected: Option<RtSbp>,
) -> Result<()> {
    if t.dtype() != dtype {
        return Err(Error::DTypeMismatch {
            op,
            found: t.dtype(),
            expected: dtype,
        });
    }
    if !crate::shape::matches(dims, t.sizes()) {
        return Err(crate::tensor::shape_error(
            op,
            crate::shape::describe(dims),
            t.sizes(),
        ));
    }
    match expected {
        Some(s) if s != t.sbp() => Err(sbp_error(op, s, t.sbp())),
        _ => Ok(()),
    }
}

impl<T: Element, Sh: Shape, P> Global<T, Sh, P> {
    /// The typed tensor around `inner`, whose dtype, sizes and SBP fit (a typed op's
    /// result, checked by the op).
    pub(crate) fn wrap(inner: GlobalTensor) -> Self {
        Global {
            inner,
            _marker: PhantomData,
        }
    }
}

impl<T: Element, Sh: Shape, P: Sbp> Global<T, Sh, P> {
    /// Wraps a runtime global tensor, checking its dtype, logical sizes and SBP.
    ///
    /// # Errors
    /// `DTypeMismatch`; `InvalidArgument` naming the shapes or both SBPs.
    pub fn try_from_dyn(t: GlobalTensor) -> Result<Self> {
        check_global("try_from_dyn", &t, T::DTYPE, Sh::DIMS, P::RUNTIME)?;
        Ok(Global::wrap(t))
    }

    /// Distributes `logical`, which every rank of `placement` passes identically, by the
    /// SBP `P`: a split takes this rank's slice, `B` keeps it all, a partial SBP keeps it
    /// on the first rank and the reduction's identity elsewhere. No communication.
    /// Mirrors OneFlow's `tensor.to_global(placement, sbp)`. For [`DynSbp`] use
    /// [`Global::from_logical_as`].
    ///
    /// # Errors
    /// `InvalidArgument` for [`DynSbp`]; the runtime's (a placement outside the world).
    pub fn from_logical(comm: &Comm, logical: &Tensor<T, Sh>, placement: &Placement) -> Result<Self>
    where
        P: FitsShape<Sh>,
    {
        let sbp = P::RUNTIME.ok_or_else(|| Error::InvalidArgument {
            op: "from_logical",
            message: "a DynSbp tensor takes its SBP at run time: use from_logical_as".into(),
        })?;
        Global::from_logical_as(comm, logical, placement, sbp)
    }

    /// [`Global::from_logical`] with the SBP `sbp` given at run time (it must be `P`'s
    /// unless `P` is [`DynSbp`]).
    ///
    /// # Errors
    /// As [`Global::from_logical`]; `sbp` not `P`; a split dim out of range.
    pub fn from_logical_as(
        comm: &Comm,
        logical: &Tensor<T, Sh>,
        placement: &Placement,
        sbp: RtSbp,
    ) -> Result<Self> {
        let t = GlobalTensor::from_logical(comm, &logical.inner, placement, sbp)?;
        Global::try_from_dyn(t)
    }

    /// Wraps this rank's shard `local` of a logical tensor of `sizes` (elements per dim)
    /// on `placement`, with SBP `P`. No communication. Mirrors OneFlow's
    /// `flow.Tensor.to_global` of local tensors with explicit sizes.
    ///
    /// # Errors
    /// `sizes` do not fit `Sh`; the shard's sizes are not the SBP's share of them; as
    /// [`Global::from_logical`].
    pub fn from_local(
        comm: &Comm,
        local: tensor_core::Tensor,
        sizes: &[usize],
        placement: &Placement,
    ) -> Result<Self>
    where
        P: FitsShape<Sh>,
    {
        let sbp = P::RUNTIME.ok_or_else(|| Error::InvalidArgument {
            op: "from_local",
            message: "a DynSbp tensor takes its SBP at run time: use try_from_dyn".into(),
        })?;
        let t = GlobalTensor::from_local(comm, local, sizes, placement, sbp)?;
        Global::try_from_dyn(t)
    }

    /// The runtime global tensor.
    pub fn as_dyn(&self) -> &GlobalTensor {
        &self.inner
    }

    /// The logical sizes (elements per dim).
    pub fn dims(&self) -> &[usize] {
        self.inner.sizes()
    }

    /// The runtime SBP (`P`'s, or the run-time one of a [`DynSbp`] tensor).
    pub fn sbp(&self) -> RtSbp {
        self.inner.sbp()
    }

    /// This rank's shard (a runtime tensor: its sizes are the SBP's share of the
    /// logical sizes).
    pub fn local(&self) -> &tensor_core::Tensor {
        self.inner.local()
    }

    /// The placement.
    pub fn placement(&self) -> &Placement {
        self.inner.placement()
    }

    /// The whole logical tensor on every rank: a boxing to `B` (an all-gather of a
    /// split, an all-reduce of a partial tensor). Mirrors OneFlow's
    /// `tensor.to_global(sbp=broadcast).to_local()`.
    ///
    /// # Errors
    /// A collective's.
    pub fn to_logical(&self) -> Result<Tensor<T, Sh>> {
        Tensor::try_from_dyn(self.inner.to_logical()?)
    }

    /// Boxes to the SBP `Q` (OneFlow's `to_global(sbp=...)`): S → B all-gather,
    /// P → B all-reduce, P → S reduce-scatter, S(i) → S(j) all-to-all, B → S a local
    /// slice, B → P and S → P local; a [`DynSbp`] target keeps the SBP. The one op that
    /// may box a typed tensor, by name. Recorded for autograd (its backward is the dual
    /// boxing).
    ///
    /// # Errors
    /// A collective's.
    #[plain_form]
    pub fn try_to_sbp<Q: Sbp + FitsShape<Sh>>(&self) -> Result<Global<T, Sh, Q>> {
        match Q::RUNTIME {
            Some(q) => Ok(Global::wrap(self.inner.to_sbp(q)?)),
            None => Ok(Global::wrap(self.inner.clone())),
        }
    }

    /// The same tensor with its SBP known only at run time.
    pub fn to_dyn_sbp(&self) -> Global<T, Sh, DynSbp> {
        Global::wrap(self.inner.clone())
    }
}

impl<T: Element, Sh: Shape, R: Reduction> Global<T, Sh, P<R>> {
    /// All-reduce: the partial shards reduced by `R` on every rank, giving `B`
    /// ([`Global::to_sbp::<B>()`](Global::to_sbp)). Mirrors `torch.distributed.all_reduce`.
    ///
    /// # Errors
    /// A collective's.
    #[plain_form]
    pub fn try_all_reduce(&self) -> Result<Global<T, Sh, B>> {
        self.try_to_sbp::<B>()
    }
}

impl<T: Element, Sh: Shape> Global<T, Sh, P<Sum>> {
    /// Reduce-scatter: the partial sums reduced and split along dim `D`, giving `S<D>`.
    /// Mirrors `torch.distributed.reduce_scatter_tensor`.
    ///
    /// # Errors
    /// A collective's.
    #[plain_form]
    pub fn try_reduce_scatter<const D: usize>(&self) -> Result<Global<T, Sh, S<D>>>
    where
        S<D>: Sbp + FitsShape<Sh>,
    {
        self.try_to_sbp::<S<D>>()
    }
}

impl<T: Element, Sh: Shape, const D: usize> Global<T, Sh, S<D>>
where
    S<D>: Sbp,
{
    /// All-gather: the split shards concatenated on every rank, giving `B`. Mirrors
    /// `torch.distributed.all_gather_into_tensor`.
    ///
    /// # Errors
    /// A collective's.
    #[plain_form]
    pub fn try_all_gather(&self) -> Result<Global<T, Sh, B>> {
        self.try_to_sbp::<B>()
    }
}
