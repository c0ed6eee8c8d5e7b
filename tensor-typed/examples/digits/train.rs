//! The training loop: shuffled mini-batches, forward, autograd backward, optimiser step,
//! per-epoch loss and accuracy, then the test accuracy. The models are in `models/`.
//!
//! Data-parallel (`--ranks N` on in-process ranks, `--mpi` under `mpirun -np N`): every
//! rank draws the same shuffle, takes its split(0) shard of each batch, scales its loss
//! to its share of the batch's mean, and sums the gradients (with the batch's loss sum
//! and correct count) in one all-reduce per step before the identical optimiser step
//! ([`tensor_typed::data_parallel::DataParallel`]); the model code is the same.

use crate::cli::Config;
use crate::data::{Samples, Split, CLASSES, PIXELS};
use crate::models::{self, cnn::Cnn, mlp::Mlp, transformer::Transformer, Images, Kind, Model};
use crate::rng::Rng;
use std::time::Instant;
use tensor_core::global::{mpi_comm, run_ranks};
use tensor_core::Result;
use tensor_typed::data_parallel::DataParallel;
use tensor_typed::prelude::*;

/// One epoch's statistics.
#[derive(Clone, Copy, Debug)]
pub struct Epoch {
    /// 1-based epoch number.
    pub epoch: usize,
    /// Mean cross-entropy over the epoch's batches (each weighted by its size).
    pub loss: f64,
    /// Fraction of training samples classified right during the epoch (before each
    /// batch's update, as a running accuracy).
    pub train_accuracy: f64,
    /// Wall time of the epoch, in seconds.
    pub seconds: f64,
}

/// What the loop reports as it goes (called on rank 0 only).
pub struct Hooks<'a> {
    /// After every batch.
    pub on_batch: &'a (dyn Fn() + Sync),
    /// After every epoch.
    pub on_epoch: &'a (dyn Fn(&Epoch) + Sync),
}

/// What a training run produced.
pub struct Report {
    /// Fraction of test samples classified right after training.
    pub test_accuracy: f64,
    /// Wall time of the training loop (epochs only, not loading or testing), in seconds.
    pub train_seconds: f64,
    /// Test-set indices of misclassified samples with the predicted class.
    pub mistakes: Vec<(usize, usize)>,
    /// Every epoch's statistics (of the whole batch, on every rank).
    pub epochs: Vec<Epoch>,
    /// The whole batch's mean loss at every step.
    pub steps: Vec<f64>,
    /// The rank that made this report (0 for one rank).
    pub rank: usize,
    /// Seconds this rank spent in the per-step all-reduce, waiting for the other ranks
    /// included (0 for one rank).
    pub all_reduce_seconds: f64,
}

/// The rows `idx` of `samples` as one `[idx.len() * 64]` buffer, and their labels.
pub fn gather(samples: &Samples, idx: &[usize]) -> (Vec<f32>, Vec<usize>) {
    let mut x = Vec::with_capacity(idx.len() * PIXELS);
    for &i in idx {
        x.extend_from_slice(samples.image(i));
    }
    (x, idx.iter().map(|&i| samples.labels[i]).collect())
}

/// Trains the model `config.model` on `split.train` as `config` says, on one rank,
/// `config.ranks` in-process ranks, or MPI's world (`config.mpi`), then measures it on
/// `split.test`; rank 0 calls the hooks. Returns every in-process rank's report in rank
/// order (under MPI: this process's). `config.sbp` trains the mlp with typed global
/// tensors instead (`sbp_mlp.rs`).
///
/// # Errors
/// A tensor-core error (a bad label, or a bug in the model): with several ranks, that
/// of the rank that failed first, naming it; a collective's.
pub fn train(split: &Split, config: &Config, hooks: &Hooks<'_>) -> Result<Vec<Report>> {
    if config.sbp {
        return crate::sbp_mlp::train(split, config, hooks);
    }
    if config.mpi {
        let dp = DataParallel::new(mpi_comm()?)?;
        for (flag, rank) in [
            ("--fail-rank", config.fail_rank),
            ("--drop-rank", config.drop_rank),
        ] {
            if let Some(r) = rank.filter(|&r| r >= dp.world_size()) {
                return Err(tensor_core::Error::InvalidArgument {
                    op: "digits",
                    message: format!("{flag} {r}: MPI's world has {} ranks", dp.world_size()),
                });
            }
        }
        return match by_kind(split, config, Some(&dp), hooks) {
            Ok(r) => Ok(vec![r]),
            Err(e) => {
                // Finalising MPI could wait for peers stuck in a collective: exit now,
                // and mpirun ends the job on the non-zero status.
                eprintln!("digits: training failed: rank {}: {e}", dp.rank());
                std::process::exit(1);
            }
        };
    }
    if config.ranks <= 1 {
        return Ok(vec![by_kind(split, config, None, hooks)?]);
    }
    run_ranks(config.ranks, |comm| {
        by_kind(split, config, Some(&DataParallel::new(comm)?), hooks)
    })
}

/// [`train_model`] of the model `config.model`.
fn by_kind(
    split: &Split,
    config: &Config,
    dp: Option<&DataParallel>,
    hooks: &Hooks<'_>,
) -> Result<Report> {
    match config.model {
        Kind::Mlp => train_model::<Mlp>(split, config, dp, hooks),
        Kind::Cnn => train_model::<Cnn>(split, config, dp, hooks),
        Kind::Transformer => train_model::<Transformer>(split, config, dp, hooks),
    }
}

/// Forward and backward of `model` on the rows `mine` of a batch of `batch` rows (the
/// loss scaled to their share of the batch's mean); their loss sum and correct count.
fn local_step<M: Model>(
    model: &M,
    samples: &Samples,
    mine: &[usize],
    batch: usize,
    bad_label: bool,
) -> Result<(f64, usize)> {
    if mine.is_empty() {
        return Ok((0.0, 0));
    }
    let (x, mut y) = gather(samples, mine);
    if bad_label {
        y[0] = CLASSES;
    }
    let x = Images::from_vec(x, &[mine.len(), PIXELS])?;
    let scores = model.forward(&x);
    let loss = models::loss(&scores, &y)?;
    let correct = models::predictions(&scores)
        .iter()
        .zip(&y)
        .filter(|(p, l)| p == l)
        .count();
    let loss_sum = loss.item()? as f64 * mine.len() as f64;
    if mine.len() == batch {
        loss.backward()?;
    } else {
        // Its rows' loss sum over the batch size: the shards' gradients add up to the
        // batch's, however unevenly the batch splits.
        loss.div_scalar(batch as f32 / mine.len() as f32)
            .backward()?;
    }
    Ok((loss_sum, correct))
}

/// `--drop-rank`: this rank stops without a word to the others, as a crashed peer.
fn drop_out(mpi: bool, rank: usize) -> ! {
    if mpi {
        eprintln!("digits: rank {rank} aborts (--drop-rank)");
        std::process::abort();
    }
    panic!("rank {rank} dropped out (--drop-rank)");
}

/// [`train`] for the model type `M`, on one rank or as one rank of `dp`.
fn train_model<M: Model>(
    split: &Split,
    config: &Config,
    dp: Option<&DataParallel>,
    hooks: &Hooks<'_>,
) -> Result<Report> {
    let mut rng = Rng::new(config.seed);
    let mut model = M::init(&mut rng)?;
    if let Some(dp) = dp {
        dp.broadcast_params(&model)?;
    }
    let rank = dp.map_or(0, DataParallel::rank);
    let mut opt = M::optimizer(config.lr);
    let n = split.train.len();
    let (mut epochs, mut steps, mut all_reduce_seconds) = (Vec::new(), Vec::new(), 0.0);
    let start = Instant::now();
    for epoch in 1..=config.epochs {
        let epoch_start = Instant::now();
        let perm = rng.permutation(n);
        let (mut loss_sum, mut correct) = (0.0f64, 0usize);
        for idx in perm.chunks(config.batch) {
            let mine = dp.map_or(idx, |d| &idx[d.shard(idx.len())]);
            if config.drop_rank == Some(rank) && steps.len() == 2 {
                drop_out(config.mpi, rank);
            }
            let bad = config.fail_rank == Some(rank) && steps.len() == 2;
            let (l, c) = local_step(&model, &split.train, mine, idx.len(), bad)?;
            let (l, c) = match dp {
                None => (l, c),
                Some(dp) => {
                    let t = Instant::now();
                    let sums = dp.all_reduce_grads(&mut model, &[l, c as f64])?;
                    all_reduce_seconds += t.elapsed().as_secs_f64();
                    (sums[0], sums[1].round() as usize)
                }
            };
            loss_sum += l;
            correct += c;
            steps.push(l / idx.len() as f64);
            opt.step(&mut model)?;
            model.zero_grad();
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
    let (test_accuracy, mistakes) = evaluate(&model, split)?;
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

/// `model`'s accuracy on `split.test`, and the test-set indices of the misclassified
/// samples with the predicted class.
///
/// # Errors
/// A tensor-core error (a bug in the model).
pub fn evaluate<M: Model>(model: &M, split: &Split) -> Result<(f64, Vec<(usize, usize)>)> {
    let test_images = Images::from_vec(split.test.images.clone(), &[split.test.len(), PIXELS])?;
    let predicted = no_grad(|| models::predictions(&model.forward(&test_images)));
    let mistakes: Vec<(usize, usize)> = predicted
        .iter()
        .zip(&split.test.labels)
        .enumerate()
        .filter(|(_, (p, y))| p != y)
        .map(|(i, (&p, _))| (i, p))
        .collect();
    let test_accuracy = 1.0 - mistakes.len() as f64 / split.test.len().max(1) as f64;
    Ok((test_accuracy, mistakes))
}
