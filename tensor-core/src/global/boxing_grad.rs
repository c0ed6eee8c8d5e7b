//! Boxing that autograd sees through: OneFlow's rule that the gradient of a global
//! tensor has the *dual* SBP of the tensor (split stays split, broadcast ↔ partial_sum),
//! so the backward of a boxing `from → to` is the boxing `dual(to) → dual(from)`:
//! all-gather (S → B) runs a reduce-scatter (P → S) backward, all-reduce (P → B) an
//! all-reduce (P → B), a local slice (B → S) a local pad (S → P), and so on.
//!
//! The communicator of a global tensor is an `Rc` (one per rank thread) and graph nodes
//! are `Send + Sync`, so a node keeps a key into this thread's table of communicators
//! instead, with the thread it was recorded on: backward runs on the calling thread
//! (the engine is single-threaded per call), so it finds the same communicator.

use super::boxing::boxing;
use super::collective::{Collective, Comm, Group};
use super::sbp::Sbp;
use crate::autograd::{apply, Node};
use crate::error::{Error, Result};
use crate::tensor::Tensor;
use std::cell::RefCell;
use std::rc::{Rc, Weak};
use std::thread::ThreadId;

thread_local! {
    /// The communicators that boxing nodes recorded on this thread refer to.
    static COMMS: RefCell<Vec<Weak<dyn Collective>>> = const { RefCell::new(Vec::new()) };
}

/// The SBP of the gradient of a tensor of SBP `sbp`: `Split(d)` → `Split(d)`,
/// `Broadcast` → `PartialSum`, `PartialSum` → `Broadcast` (OneFlow's backward SBP).
///
/// # Errors
/// [`Error::InvalidArgument`] for `PartialMax` / `PartialMin`, whose gradient is not
/// local to a shard (box to broadcast before differentiating).
#[cfg_attr(unoptimized, inline)]
pub fn grad_sbp(sbp: Sbp) -> Result<Sbp> {
    match sbp {
        Sbp::Split(d) => Ok(Sbp::Split(d)),
        Sbp::Broadcast => Ok(Sbp::PartialSum),
        Sbp::PartialSum => Ok(Sbp::Broadcast),
        Sbp::PartialMax | Sbp::PartialMin => Err(Error::InvalidArgument {
            op: "global backward",
            message: format!(
                "the gradient of a {sbp} tensor is not defined shard by shard; box it to oneflow.sbp.broadcast before differentiating"
            ),
        }),
    }
}

/// This thread's key for `comm` (registered on first use).
#[cfg_attr(unoptimized, inline)]
fn register(comm: &Comm) -> usize {
    COMMS.with(|c| {
        let mut c = c.borrow_mut();
        let found = c
            .iter()
            .position(|w| w.upgrade().is_some_and(|r| Rc::ptr_eq(&r, comm)));
        found.unwrap_or_else(|| {
            // Reuse a slot whose communicator is gone, so the table stays small.
            let weak = Rc::downgrade(comm);
            match c.iter().position(|w| w.strong_count() == 0) {
                Some(i) => {
                    c[i] = weak;
                    i
                }
                None => {
                    c.push(weak);
                    c.len() - 1
                }
            }
        })
    })
}

/// The boxing of one rank's shard, recorded for autograd.
struct BoxingBackward {
    thread: ThreadId,
    key: usize,
    ranks: Vec<usize>,
    index: usize,
    sizes: Vec<usize>,
    from: Sbp,
    to: Sbp,
}

impl Node for BoxingBackward {
    #[cfg_attr(unoptimized, inline)]
    fn name(&self) -> &'static str {
        "BoxingBackward"
    }

    #[cfg_attr(unoptimized, inline)]
    fn apply(&self, grads: &[Option<Tensor>]) -> Result<Vec<Option<Tensor>>> {
        let Some(g) = grads.first().and_then(Option::as_ref) else {
            return Ok(vec![None]);
        };
        let lost = || {
            Error::InvalidArgument {
            op: "global backward",
            message: "the backward of a boxing ran on another thread than its forward, or after its communicator was dropped".into(),
        }
        };
        if std::thread::current().id() != self.thread {
            return Err(lost());
        }
        let comm = COMMS
            .with(|c| c.borrow().get(self.key).and_then(Weak::upgrade))
            .ok_or_else(lost)?;
        let group = Group {
            comm: &*comm,
            ranks: &self.ranks,
            index: self.index,
        };
        let (from, to) = (grad_sbp(self.to)?, grad_sbp(self.from)?);
        Ok(vec![Some(boxing(&group, g, &self.sizes, from, to)?)])
    }
}

/// [`boxing`] of this rank's shard `local` (logical `sizes`) from `from` to `to` among
/// `ranks` (this rank at `index`), recorded as a graph node when `local` requires grad.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn boxing_recorded(
    comm: &Comm,
    ranks: &[usize],
    index: usize,
    local: &Tensor,
    sizes: &[usize],
    (from, to): (Sbp, Sbp),
) -> Result<Tensor> {
    let group = Group {
        comm: &**comm,
        ranks,
        index,
    };
    if from == to {
        return Ok(local.alias());
    }
    apply(
        &[local],
        || boxing(&group, local, sizes, from, to),
        |_| BoxingBackward {
            thread: std::thread::current().id(),
            key: register(comm),
            ranks: ranks.to_vec(),
            index,
            sizes: sizes.to_vec(),
            from,
            to,
        },
    )
}
