//! `GlobalTensor`: one logical tensor over the ranks of a placement, each rank holding
//! its shard as an ordinary runtime [`Tensor`] (OneFlow's global, formerly
//! "consistent", tensor).

use super::boxing::local_from_broadcast;
use super::boxing_grad::boxing_recorded;
use super::collective::Comm;
use super::infer::{logical_shape, physical_shape};
use super::placement::Placement;
use super::sbp::Sbp;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::tensor::Tensor;
use std::fmt;

/// A logical tensor (sizes, dtype) placed on the ranks of a [`Placement`] with an
/// [`Sbp`]; this rank holds `local`, whose sizes are [`physical_shape`] of the logical
/// ones. Every rank of the placement holds a `GlobalTensor` with the same logical
/// metadata (SPMD), and calls the same ops on it in the same order.
pub struct GlobalTensor {
    comm: Comm,
    sizes: Vec<usize>,
    dtype: DType,
    placement: Placement,
    sbp: Sbp,
    index: usize,
    local: Tensor,
}

impl Clone for GlobalTensor {
    /// Another handle to the same shard (the local tensor is aliased, not copied).
    #[cfg_attr(unoptimized, inline)]
    fn clone(&self) -> GlobalTensor {
        GlobalTensor {
            comm: self.comm.clone(),
            sizes: self.sizes.clone(),
            dtype: self.dtype,
            placement: self.placement.clone(),
            sbp: self.sbp,
            index: self.index,
            local: self.local.alias(),
        }
    }
}

impl fmt::Debug for GlobalTensor {
    #[cfg_attr(unoptimized, inline)]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GlobalTensor")
            .field("sizes", &self.sizes)
            .field("dtype", &self.dtype)
            .field("placement", &self.placement.ranks())
            .field("sbp", &self.sbp)
            .field("rank", &self.comm.rank())
            .field("local_sizes", &self.local.sizes())
            .finish()
    }
}

impl GlobalTensor {
    /// Wraps this rank's shard `local` of a logical tensor of `sizes` placed on
    /// `placement` with `sbp`. No communication.
    ///
    /// # Errors
    /// Those of [`Sbp::check`] (a split dim out of range) and
    /// [`Placement::check_in_world`]; [`Error::InvalidArgument`] when `local`'s sizes are
    /// not the inferred physical shape.
    #[cfg_attr(unoptimized, inline)]
    pub fn from_local(
        comm: &Comm,
        local: Tensor,
        sizes: &[usize],
        placement: &Placement,
        sbp: Sbp,
    ) -> Result<GlobalTensor> {
        sbp.check(sizes.len())?;
        let index = placement.check_in_world(comm.rank(), comm.world_size())?;
        crate::layout::checked_numel(sizes, "global tensor")?;
        let expected = physical_shape(sizes, sbp, placement.len(), index)?;
        if local.sizes() != expected.as_slice() {
            return Err(Error::InvalidArgument {
                op: "global tensor",
                message: format!(
                    "rank {} holds a local tensor of sizes {:?}, but {sbp} of a logical tensor of sizes {sizes:?} on {placement} gives it {expected:?}",
                    comm.rank(),
                    local.sizes()
                ),
            });
        }
        Ok(GlobalTensor {
            comm: comm.clone(),
            sizes: sizes.to_vec(),
            dtype: local.dtype(),
            placement: placement.clone(),
            sbp,
            index,
            local,
        })
    }

    /// Wraps this rank's shard `local` with the logical sizes derived from every rank's
    /// local sizes (one all-gather of the sizes): OneFlow's `to_global` from local
    /// tensors.
    ///
    /// # Errors
    /// As [`GlobalTensor::from_local`]; [`super::infer::logical_shape`]'s when the ranks'
    /// shards do not form a balanced split; a collective's error.
    #[cfg_attr(unoptimized, inline)]
    pub fn from_local_infer(
        comm: &Comm,
        local: Tensor,
        placement: &Placement,
        sbp: Sbp,
    ) -> Result<GlobalTensor> {
        sbp.check(local.dim())?;
        placement.check_in_world(comm.rank(), comm.world_size())?;
        let mine: Vec<u8> = local
            .sizes()
            .iter()
            .flat_map(|&s| (s as u64).to_le_bytes())
            .collect();
        let all = comm.exchange(placement.ranks(), vec![mine; placement.len()])?;
        let shapes: Vec<Vec<usize>> = all
            .iter()
            .map(|b| {
                b.chunks_exact(8)
                    .map(|c| u64::from_le_bytes(c.try_into().unwrap_or_default()) as usize)
                    .collect()
            })
            .collect();
        let sizes = logical_shape(&shapes, sbp)?;
        GlobalTensor::from_local(comm, local, &sizes, placement, sbp)
    }

    /// Distributes `logical`, which every rank of `placement` passes identically (e.g.
    /// made from the same seed): a split takes this rank's shard, broadcast keeps it all,
    /// a partial SBP keeps it on the first rank and fills the others with `op`'s
    /// identity (0, lowest, highest), as OneFlow's B → P. No communication.
    ///
    /// # Errors
    /// As [`GlobalTensor::from_local`].
    #[cfg_attr(unoptimized, inline)]
    pub fn from_logical(
        comm: &Comm,
        logical: &Tensor,
        placement: &Placement,
        sbp: Sbp,
    ) -> Result<GlobalTensor> {
        sbp.check(logical.dim())?;
        let index = placement.check_in_world(comm.rank(), comm.world_size())?;
        let local = local_from_broadcast(logical, sbp, placement.len(), index)?;
        GlobalTensor::from_local(comm, local, logical.sizes(), placement, sbp)
    }

    /// The logical sizes.
    #[cfg_attr(unoptimized, inline)]
    pub fn sizes(&self) -> &[usize] {
        &self.sizes
    }

    /// The number of logical dims.
    #[cfg_attr(unoptimized, inline)]
    pub fn dim(&self) -> usize {
        self.sizes.len()
    }

    /// The dtype (every shard's).
    #[cfg_attr(unoptimized, inline)]
    pub fn dtype(&self) -> DType {
        self.dtype
    }

    /// The placement.
    #[cfg_attr(unoptimized, inline)]
    pub fn placement(&self) -> &Placement {
        &self.placement
    }

    /// The SBP.
    #[cfg_attr(unoptimized, inline)]
    pub fn sbp(&self) -> Sbp {
        self.sbp
    }

    /// This rank's shard.
    #[cfg_attr(unoptimized, inline)]
    pub fn local(&self) -> &Tensor {
        &self.local
    }

    /// This rank's parallel index in the placement.
    #[cfg_attr(unoptimized, inline)]
    pub fn parallel_index(&self) -> usize {
        self.index
    }

    /// The communicator.
    #[cfg_attr(unoptimized, inline)]
    pub fn comm(&self) -> &Comm {
        &self.comm
    }

    /// A tensor on the same placement and communicator with a new shard; checks the
    /// shard against the inferred physical shape (an internal invariant, reported as an
    /// error rather than a panic).
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn with_local(
        &self,
        local: Tensor,
        sizes: &[usize],
        sbp: Sbp,
    ) -> Result<GlobalTensor> {
        GlobalTensor::from_local(&self.comm, local, sizes, &self.placement, sbp)
    }

    /// Re-distributes to `sbp` (OneFlow's `to_global(sbp=...)`, "boxing"): S → B
    /// all-gather, P → B all-reduce, B → S local slice, P → S reduce-scatter,
    /// S(i) → S(j) all-to-all, B → P and S → P locally (identity elsewhere).
    /// Recorded for autograd when the shard requires grad: its backward is the boxing
    /// of the gradient from the dual of `sbp` to the dual of the input's
    /// ([`super::grad_sbp`]).
    ///
    /// # Errors
    /// [`Sbp::check`]'s for an invalid target; a collective's error.
    #[cfg_attr(unoptimized, inline)]
    pub fn to_sbp(&self, sbp: Sbp) -> Result<GlobalTensor> {
        sbp.check(self.dim())?;
        let local = boxing_recorded(
            &self.comm,
            self.placement.ranks(),
            self.index,
            &self.local,
            &self.sizes,
            (self.sbp, sbp),
        )?;
        self.with_local(local, &self.sizes, sbp)
    }

    /// The whole logical tensor, on every rank of the placement (boxing to broadcast).
    ///
    /// # Errors
    /// A collective's error.
    #[cfg_attr(unoptimized, inline)]
    pub fn to_logical(&self) -> Result<Tensor> {
        Ok(self.to_sbp(Sbp::Broadcast)?.local)
    }

    /// Checks that `other` lives on the same placement and communicator.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`], naming both placements (as OneFlow's `Expected all
    /// tensors to be on the same placement`).
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn check_same_placement(
        &self,
        other: &GlobalTensor,
        op: &'static str,
    ) -> Result<()> {
        let same_comm = std::ptr::addr_eq(
            std::rc::Rc::as_ptr(&self.comm),
            std::rc::Rc::as_ptr(&other.comm),
        );
        if self.placement != other.placement || !same_comm {
            return Err(Error::InvalidArgument {
                op,
                message: format!(
                    "{op}: Expected all tensors to be on the same placement, but found at least two placements, {} (positional 0) and {} (positional 1)!",
                    self.placement, other.placement
                ),
            });
        }
        Ok(())
    }
}
