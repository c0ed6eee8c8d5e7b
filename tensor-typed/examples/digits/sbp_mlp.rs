//! `--sbp`: the mlp trained data-parallel with typed global tensors
//! (`tensor_typed::global`), the SBP of every tensor a type. The parameters are
//! broadcast (`B`), each batch is split by rows (`S<0>`), so the scores are split alike
//! and the cross-entropy is each rank's share of the batch mean (`P<Sum>`); the
//! gradients of the broadcast parameters are partial sums (`P<Sum>`), and the optimiser
//! step takes them only after their all-reduce (`B`): a step that forgets it does not
//! compile. The initial weights, the shuffles, the batches and the learning rate are
//! those of the mlp's run on one process (`train.rs`), so the two end alike up to float
//! rounding.

use crate::cli::Config;
use crate::data::{Split, PIXELS};
use crate::models::{mlp::Mlp, Linear, Model};
use crate::rng::Rng;
use crate::train::{self, Epoch, Hooks, Report};
use std::time::Instant;
use tensor_core::global::{mpi_comm, run_ranks, Comm, Placement};
use tensor_core::{Error, Result};
use tensor_typed::global::{Global, Step, B, S};
use tensor_typed::prelude::*;

/// A parameter of shape `Sh`, the same on every rank.
type Param<Sh> = Global<f32, Sh, B>;

/// The mlp's parameters as broadcast global tensors.
struct SbpMlp {
    w1: Param<Shape![64, 64]>,
    b1: Param<Shape![64]>,
    w2: Param<Shape![64, 10]>,
    b2: Param<Shape![10]>,
}

impl SbpMlp {
    /// `mlp`'s parameters, broadcast on `placement` (every rank passes the same).
    fn from_mlp(comm: &Comm, mlp: &Mlp, placement: &Placement) -> Result<SbpMlp> {
        let p = placement;
        Ok(SbpMlp {
            w1: Global::from_logical(comm, &mlp.l1.w.detach(), p)?.requires_grad_(true)?,
            b1: Global::from_logical(comm, &mlp.l1.b.detach(), p)?.requires_grad_(true)?,
            w2: Global::from_logical(comm, &mlp.l2.w.detach(), p)?.requires_grad_(true)?,
            b2: Global::from_logical(comm, &mlp.l2.b.detach(), p)?.requires_grad_(true)?,
        })
    }

    /// The class scores of a split batch: split alike, with no communication.
    fn forward(
        &self,
        x: &Global<f32, Shape![Dyn, 64], S<0>>,
    ) -> Global<f32, Shape![Dyn, 10], S<0>> {
        // S<0>·B → S<0>, + B → S<0>, relu, S<0>·B → S<0>, + B → S<0>.
        x.matmul(&self.w1)
            .add(&self.b1)
            .relu()
            .matmul(&self.w2)
            .add(&self.b2)
    }

    /// The gradients after backward, each a partial sum (`P<Sum>`) all-reduced to `B`:
    /// the all-reduce of data parallelism.
    fn all_reduced_grads(&self) -> Result<SbpMlp> {
        let missing = || Error::InvalidArgument {
            op: "digits --sbp",
            message: "a parameter has no gradient after backward".into(),
        };
        Ok(SbpMlp {
            w1: self.w1.grad()?.ok_or_else(missing)?.try_all_reduce()?,
            b1: self.b1.grad()?.ok_or_else(missing)?.try_all_reduce()?,
            w2: self.w2.grad()?.ok_or_else(missing)?.try_all_reduce()?,
            b2: self.b2.grad()?.ok_or_else(missing)?.try_all_reduce()?,
        })
    }

    /// One optimiser step with the gradients `g` (of the parameters' SBP), then clears
    /// the accumulated ones.
    fn step(&self, g: &SbpMlp, opt: &mut dyn Optimizer) -> Result<()> {
        Step::new()
            .grad(&self.w1, &g.w1)
            .grad(&self.b1, &g.b1)
            .grad(&self.w2, &g.w2)
            .grad(&self.b2, &g.b2)
            .apply(opt)?;
        self.w1.zero_grad()?;
        self.b1.zero_grad()?;
        self.w2.zero_grad()?;
        self.b2.zero_grad()
    }

    /// The logical parameters as a one-process [`Mlp`] (for the test set).
    fn to_mlp(&self) -> Result<Mlp> {
        Ok(Mlp {
            l1: Linear {
                w: self.w1.to_logical()?,
                b: self.b1.to_logical()?,
            },
            l2: Linear {
                w: self.w2.to_logical()?,
                b: self.b2.to_logical()?,
            },
        })
    }
}

/// Trains the mlp with typed global tensors on `config.ranks` in-process ranks, or MPI's
/// world (`config.mpi`); rank 0 calls the hooks. Every in-process rank's report in rank
/// order (under MPI: this process's).
///
/// # Errors
/// A tensor-core error; with several ranks, that of the rank that failed first, naming
/// it; a collective's.
pub fn train(split: &Split, config: &Config, hooks: &Hooks<'_>) -> Result<Vec<Report>> {
    if config.mpi {
        let comm = mpi_comm()?;
        return match train_rank(split, config, &comm, hooks) {
            Ok(r) => Ok(vec![r]),
            Err(e) => {
                // Finalising MPI could wait for peers stuck in a collective: exit at once,
                // and mpirun ends the job on the non-zero status.
                eprintln!("digits: training failed: rank {}: {e}", comm.rank());
                std::process::exit(1);
            }
        };
    }
    run_ranks(config.ranks, |comm| train_rank(split, config, &comm, hooks))
}

/// [`train`] on one rank of `comm`.
fn train_rank(split: &Split, config: &Config, comm: &Comm, hooks: &Hooks<'_>) -> Result<Report> {
    let placement = Placement::all(comm.world_size())?;
    let rank = comm.rank();
    let mut rng = Rng::new(config.seed);
    let model = SbpMlp::from_mlp(comm, &Mlp::init(&mut rng)?, &placement)?;
    let mut opt = Mlp::optimizer(config.lr);
    let n = split.train.len();
    let (mut epochs, mut steps, mut all_reduce_seconds) = (Vec::new(), Vec::new(), 0.0);
    let start = Instant::now();
    for epoch in 1..=config.epochs {
        let epoch_start = Instant::now();
        let perm = rng.permutation(n);
        let (mut loss_sum, mut correct) = (0.0f64, 0usize);
        for idx in perm.chunks(config.batch) {
            // Every rank draws the same shuffle and keeps its rows of the batch.
            let (x, y) = train::gather(&split.train, idx);
            let y: Vec<i64> = y.iter().map(|&l| l as i64).collect();
            let x = Tensor::<f32, Shape![Dyn, 64]>::from_vec(x, &[idx.len(), PIXELS])?;
            let y = Tensor::<i64, Shape![Dyn]>::from_vec(y, &[idx.len()])?;
            let x = Global::<_, _, S<0>>::from_logical(comm, &x, &placement)?;
            let y = Global::<_, _, S<0>>::from_logical(comm, &y, &placement)?;
            let scores = model.forward(&x); // S<0>
            let loss = scores.try_cross_entropy(&y)?; // P<Sum>: each rank its rows' share
            loss.backward()?;
            let t = Instant::now();
            let grads = model.all_reduced_grads()?;
            all_reduce_seconds += t.elapsed().as_secs_f64();
            model.step(&grads, opt.as_mut())?;
            // The batch's statistics: its mean loss and the scores, gathered.
            let batch_loss = f64::from(loss.detach()?.to_logical()?.item()?);
            let predicted = crate::models::predictions(&scores.detach()?.to_logical()?);
            let labels = &y.to_logical()?.to_vec();
            correct += predicted
                .iter()
                .zip(labels)
                .filter(|(&p, &l)| p as i64 == l)
                .count();
            loss_sum += batch_loss * idx.len() as f64;
            steps.push(batch_loss);
            if rank == 0 {
                (hooks.on_batch)();
            }
        }
        let e = Epoch {
            epoch,
            loss: loss_sum / n.max(1) as f64,
            train_accuracy: correct as f64 / n.max(1) as f64,
            seconds: epoch_start.elapsed().as_secs_f64(),
        };
        if rank == 0 {
            (hooks.on_epoch)(&e);
        }
        epochs.push(e);
    }
    let train_seconds = start.elapsed().as_secs_f64();
    let (test_accuracy, mistakes) = train::evaluate(&model.to_mlp()?, split)?;
    Ok(Report {
        test_accuracy,
        train_seconds,
        mistakes,
        epochs,
        steps,
        rank,
        all_reduce_seconds,
    })
}
