//! Autograd on global tensors, as OneFlow's: each rank's shard is an ordinary tensor
//! in an ordinary local graph (the global ops run runtime ops on the shards, which
//! record their nodes; boxing records [`super::boxing_grad`]'s node), and the gradient
//! of a global tensor is the global tensor of the shards' gradients with the *dual* SBP
//! ([`grad_sbp`]): a broadcast parameter used with a split(0) batch gets a
//! `PartialSum` gradient (each rank's share of the sum over the batch), which boxing
//! to broadcast all-reduces.
//!
//! Every rank must call `backward` on the same logical tensor (SPMD): a backward that
//! crosses a boxing runs that boxing's collective, in the same order on every rank
//! (the engine's order depends only on the graph, which is the same everywhere).

use super::boxing_grad::grad_sbp;
use super::global_tensor::GlobalTensor;
use super::sbp::Sbp;
use crate::error::{Error, Result};
use crate::tensor::Tensor;

impl GlobalTensor {
    /// `Tensor.requires_grad_(requires_grad)` on this rank's shard: a leaf whose
    /// gradient [`GlobalTensor::grad`] collects.
    ///
    /// # Errors
    /// The local op's (`RequiresGradNonLeaf`, a non-float dtype).
    #[cfg_attr(unoptimized, inline)]
    pub fn requires_grad_(self, requires_grad: bool) -> Result<GlobalTensor> {
        let local = self.local().alias().requires_grad_(requires_grad)?;
        self.with_local(local, self.sizes(), self.sbp())
    }

    /// Whether the shard requires grad (the same on every rank of an SPMD program).
    #[cfg_attr(unoptimized, inline)]
    pub fn requires_grad(&self) -> bool {
        self.local().requires_grad()
    }

    /// `Tensor.detach()` of the shard: the same data, out of the graph.
    ///
    /// # Errors
    /// None in practice (the shard's shape is kept).
    #[cfg_attr(unoptimized, inline)]
    pub fn detach(&self) -> Result<GlobalTensor> {
        self.with_local(self.local().detach(), self.sizes(), self.sbp())
    }

    /// The accumulated gradient of this leaf, a global tensor of the same logical sizes
    /// with the dual SBP ([`grad_sbp`]: split stays split, broadcast → `PartialSum`,
    /// `PartialSum` → broadcast); `None` before a backward reached it. `to_sbp(Sbp::
    /// Broadcast)` on a `PartialSum` gradient is the all-reduce of data parallelism.
    ///
    /// # Errors
    /// [`grad_sbp`]'s for a `PartialMax` / `PartialMin` tensor.
    #[cfg_attr(unoptimized, inline)]
    pub fn grad(&self) -> Result<Option<GlobalTensor>> {
        let Some(g) = self.local().grad() else {
            return Ok(None);
        };
        let sbp = grad_sbp(self.sbp())?;
        self.with_local(g, self.sizes(), sbp).map(Some)
    }

    /// `Tensor.backward()` of a one-element global tensor (a loss): seeds the logical
    /// gradient 1 in the dual SBP (a `PartialSum` loss gets 1 on every rank, a broadcast
    /// loss 1 on the first rank of the placement and 0 on the others, a split one 1
    /// where the element is) and runs every rank's local graph, with the collectives
    /// of the boxings it crosses.
    ///
    /// # Errors
    /// [`Error::ImplicitGradNonScalar`] unless the logical tensor has one element;
    /// [`grad_sbp`]'s for a `PartialMax` / `PartialMin` loss; the local backward's
    /// (`NoGradFn` when it does not require grad); a collective's.
    #[cfg_attr(unoptimized, inline)]
    pub fn backward(&self) -> Result<()> {
        if self.sizes().iter().product::<usize>() != 1 {
            return Err(Error::ImplicitGradNonScalar);
        }
        let local = self.local();
        let one = match grad_sbp(self.sbp())? {
            Sbp::PartialSum if self.parallel_index() != 0 => 0.0,
            _ => 1.0,
        };
        // A split loss's other ranks hold no element, yet run their graph (with empty
        // gradients), so that every rank takes part in the same collectives.
        let seed = Tensor::full(local.sizes(), one, local.dtype())?;
        local.backward_with(&seed)
    }
}
