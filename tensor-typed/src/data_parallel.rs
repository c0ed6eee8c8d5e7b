//! [`DataParallel`]: a typed model trained on several ranks without being rewritten, as
//! PyTorch's `DistributedDataParallel` and OneFlow's global tensors with broadcast
//! parameters and split(0) batches do it.
//!
//! Every rank builds the same model, [`DataParallel::broadcast_params`] copies the
//! first rank's parameters to all, and each step every rank runs the ordinary forward
//! and backward on its shard of the batch ([`DataParallel::shard`], the balanced
//! split(0) rule) with its loss scaled to its share of the batch's mean (its rows' loss
//! sum over the whole batch's size), so that the shards' gradients, each rank's
//! `PartialSum` share, add up to the whole batch's. [`DataParallel::all_reduce_grads`]
//! then boxes them to broadcast in one all-reduce of one bucket (every gradient
//! flattened into one buffer; any statistics to sum ride in a float64 bucket of their
//! own), and the optimiser steps identically everywhere.
//!
//! ```
//! use tensor_core::global::run_ranks;
//! use tensor_typed::data_parallel::DataParallel;
//! use tensor_typed::prelude::*;
//!
//! #[derive(Params)]
//! struct Line { w: Tensor<f32, Shape![1]> }
//!
//! let ws = run_ranks(2, |comm| {
//!     let dp = DataParallel::new(comm)?;
//!     // Rank 1 starts elsewhere; the broadcast makes it rank 0's model.
//!     let mut m = Line { w: Tensor::full(1.0 + dp.rank() as f32).requires_grad_(true) };
//!     dp.broadcast_params(&m)?;
//!     let xs = [1.0f32, 2.0, 3.0]; // one batch of 3, split 2 + 1
//!     let mine = &xs[dp.shard(xs.len())];
//!     let x = Tensor::<f32, Shape![Dyn]>::from_vec(mine.to_vec(), &[mine.len()])?;
//!     // The loss is mean(w * x) over the batch: this rank's sum over the batch size.
//!     let loss = x.mul(&m.w).sum_all().div_scalar(xs.len() as f32);
//!     loss.backward()?;
//!     dp.all_reduce_grads(&mut m, &[])?;
//!     Ok(m.w.grad().map(|g| g.to_vec()))
//! })?;
//! assert_eq!(ws, vec![Some(vec![2.0]), Some(vec![2.0])]); // (1 + 2 + 3) / 3 on both
//! # Ok::<(), tensor_typed::Error>(())
//! ```

use crate::params::Params;
use std::ops::Range;
use tensor_core::global::{all_reduce_sum, broadcast_from_first, split_range, Comm, Placement};
use tensor_core::{Result, Tensor};

/// A rank's handle on data-parallel training over every rank of its communicator.
pub struct DataParallel {
    comm: Comm,
    placement: Placement,
}

impl DataParallel {
    /// Data parallelism over every rank of `comm`'s world (in-process ranks from
    /// [`tensor_core::global::run_ranks`], or MPI from
    /// [`tensor_core::global::mpi_comm`]).
    ///
    /// # Errors
    /// [`Placement::all`]'s (never for a communicator's world).
    #[cfg_attr(unoptimized, inline)]
    pub fn new(comm: Comm) -> Result<DataParallel> {
        let placement = Placement::all(comm.world_size())?;
        Ok(DataParallel { comm, placement })
    }

    /// This rank.
    #[cfg_attr(unoptimized, inline)]
    pub fn rank(&self) -> usize {
        self.comm.rank()
    }

    /// The number of ranks.
    #[cfg_attr(unoptimized, inline)]
    pub fn world_size(&self) -> usize {
        self.comm.world_size()
    }

    /// This rank's rows of a batch of `len` rows: split(0)'s balanced rule (the first
    /// `len % ranks` ranks hold one more row; a rank may hold none).
    #[cfg_attr(unoptimized, inline)]
    pub fn shard(&self, len: usize) -> Range<usize> {
        split_range(len, self.world_size(), self.rank()).unwrap_or(0..0)
    }

    /// Copies the first rank's parameters into every rank's `model` (in place, out of
    /// the graph), in one exchange.
    ///
    /// # Errors
    /// Parameters of different dtypes; a collective's (a rank that stopped).
    pub fn broadcast_params<P: Params + ?Sized>(&self, model: &P) -> Result<()> {
        broadcast_from_first(&self.comm, &self.placement, &model.params())
    }

    /// Sums every parameter's gradient over the ranks in one all-reduce, and sets it
    /// as the parameter's gradient on every rank; a parameter that requires grad but
    /// has none on this rank (its shard was empty) counts as zeros. `stats` (say, the
    /// rank's loss sum and correct count) are summed over the ranks in a second,
    /// float64 all-reduce, whatever the model's dtype (so an f16 model's counts stay
    /// exact, and an f64 model's loss keeps its precision); their sums are returned.
    ///
    /// # Errors
    /// Parameters of different dtypes; a collective's (a rank that stopped, or one
    /// whose bucket differs).
    pub fn all_reduce_grads<P: Params + ?Sized>(
        &self,
        model: &mut P,
        stats: &[f64],
    ) -> Result<Vec<f64>> {
        let mut grads = Vec::new();
        let mut err = None;
        model.visit(&mut |p| {
            if p.requires_grad() && err.is_none() {
                match p.grad() {
                    Some(g) => grads.push(g),
                    None => match Tensor::zeros(p.sizes(), p.dtype()) {
                        Ok(z) => grads.push(z),
                        Err(e) => err = Some(e),
                    },
                }
            }
        });
        if let Some(e) = err {
            return Err(e);
        }
        let bucket: Vec<&Tensor> = grads.iter().collect();
        let summed = all_reduce_sum(&self.comm, &self.placement, &bucket)?;
        // Every rank runs this second collective, even with no statistics, so that the
        // ranks' sequences of collectives stay the same.
        let stats = Tensor::from_vec(stats.to_vec(), &[stats.len()])?;
        let stats = all_reduce_sum(&self.comm, &self.placement, &[&stats])?
            .pop()
            .map_or(Ok(Vec::new()), |s| s.to_vec::<f64>())?;
        let mut summed = summed.into_iter();
        let mut result = Ok(());
        model.visit_mut(&mut |p| {
            if p.requires_grad() && result.is_ok() {
                if let Some(g) = summed.next() {
                    result = p.set_grad(Some(g));
                }
            }
        });
        result.map(|()| stats)
    }
}
