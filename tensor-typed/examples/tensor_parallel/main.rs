//! A tensor-parallel MLP block as Megatron-LM splits it, written with typed global
//! tensors (`tensor_typed::global`): the first weight split by columns, the second by
//! rows, one all-reduce per block, each tensor's SBP a type checked by the compiler
//! (`model.rs`). Trains it on a synthetic batch with a mean squared error and SGD, and
//! compares every step's loss and the final weights with the same block trained on one
//! process with plain typed tensors.
//!
//! ```sh
//! cargo run --release -p tensor-typed --example tensor_parallel -- [--ranks 2 | --mpi]
//!     [--steps 20] [--lr 0.1] [--rows 16] [--seed 0]
//! mpirun -np 2 target/release/examples/tensor_parallel --mpi   # built with --features tensor-core/mpi
//! ```
//! Exits with status 1 when a difference exceeds float rounding ([`TOLERANCE`] of the
//! reference's largest magnitude), 2 for a bad command line.

mod data;
mod model;

#[cfg(test)]
mod tests;

use clap::Parser;
use data::Data;
use model::{Hidden, Model, Run, PARAM_NAMES};
use std::io::Write;
use std::process::ExitCode;
use tensor_core::global::{mpi_comm, run_ranks, MAX_THREAD_RANKS};
use tensor_core::Result;
use tensor_typed::prelude::*;

/// The largest difference from the reference, relative to the reference's largest
/// magnitude, that counts as float rounding (sums in another order on each rank).
pub const TOLERANCE: f64 = 1e-5;

/// The command line.
#[derive(Parser, Debug, Clone)]
#[command(
    name = "tensor_parallel",
    about = "Trains a tensor-parallel MLP block with typed SBP and compares it with one process"
)]
pub struct Flags {
    /// In-process ranks (threads), 1 to MAX_THREAD_RANKS (4096).
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = ranks, conflicts_with = "mpi")]
    pub ranks: usize,
    /// The ranks of MPI's world (under mpirun; built with --features tensor-core/mpi).
    #[arg(long)]
    pub mpi: bool,
    /// SGD steps on the batch.
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub steps: usize,
    /// Learning rate, a finite positive number.
    #[arg(long, value_name = "F", default_value_t = 0.1, value_parser = positive_number)]
    pub lr: f64,
    /// Rows of the synthetic batch, a positive integer.
    #[arg(long, value_name = "N", default_value_t = 16, value_parser = positive_integer)]
    pub rows: usize,
    /// Seed of the batch, the target and the initial weights.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub seed: u64,
}

/// A number of in-process ranks: 1 to [`MAX_THREAD_RANKS`].
fn ranks(s: &str) -> std::result::Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if (1..=MAX_THREAD_RANKS).contains(&n) => Ok(n),
        _ => Err(format!(
            "expected an integer from 1 to {MAX_THREAD_RANKS} (more ranks: --mpi)"
        )),
    }
}

/// A positive integer (`--rows`).
fn positive_integer(s: &str) -> std::result::Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err("expected a positive integer".into()),
    }
}

/// A finite positive number (`--lr`).
fn positive_number(s: &str) -> std::result::Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
        _ => Err("expected a finite positive number".into()),
    }
}

/// The differences of a tensor-parallel run from the reference, each the largest
/// absolute difference over the reference's largest magnitude.
#[derive(Clone, Debug)]
pub struct Comparison {
    /// Over the losses of every step.
    pub loss: f64,
    /// Over each final parameter, in [`PARAM_NAMES`]' order.
    pub params: [f64; 4],
}

impl Comparison {
    /// The largest of the differences.
    pub fn worst(&self) -> f64 {
        self.params.iter().copied().fold(self.loss, f64::max)
    }

    /// Whether every difference is float rounding (within [`TOLERANCE`]).
    pub fn ok(&self) -> bool {
        self.worst() <= TOLERANCE
    }
}

/// The largest `|a - b|` over the largest `|b|`; infinite when the lengths differ or a
/// value is not finite.
fn relative_diff(a: &[f32], b: &[f32]) -> f64 {
    if a.len() != b.len() {
        return f64::INFINITY;
    }
    let scale = b.iter().fold(0.0f64, |m, &v| m.max(f64::from(v).abs()));
    let diff = a.iter().zip(b).fold(0.0f64, |m, (&x, &y)| {
        let d = (f64::from(x) - f64::from(y)).abs();
        if d.is_nan() {
            f64::INFINITY
        } else {
            m.max(d)
        }
    });
    diff / scale.max(f64::MIN_POSITIVE)
}

/// `run` against `reference`.
pub fn compare(run: &Run, reference: &Run) -> Comparison {
    Comparison {
        loss: relative_diff(&run.losses, &reference.losses),
        params: std::array::from_fn(|i| relative_diff(&run.params[i], &reference.params[i])),
    }
}

/// The reference and every in-process rank's tensor-parallel run (`flags.ranks` ranks)
/// on the data of `flags`.
///
/// # Errors
/// A tensor-core error; the failing rank's, naming it.
pub fn run_in_process(flags: &Flags) -> Result<(Run, Vec<Run>)> {
    let data = Data::new(flags.seed, flags.rows);
    let reference = model::reference(&data, flags.steps, flags.lr)?;
    let runs = run_ranks(flags.ranks, |comm| {
        model::tensor_parallel(&comm, &data, flags.steps, flags.lr)
    })?;
    Ok((reference, runs))
}

/// Writes the report of `runs` (rank order; under MPI this process's only) against
/// `reference`; the comparison of the worst rank.
fn report(
    out: &mut impl Write,
    flags: &Flags,
    reference: &Run,
    runs: &[Run],
    rank: usize,
    world: usize,
) -> std::io::Result<Comparison> {
    writeln!(
        out,
        "tensor-parallel MLP block: batch {}, model {}, hidden {}, {} SGD steps of lr {}, seed {}",
        flags.rows,
        Model::SIZE,
        Hidden::SIZE,
        flags.steps,
        flags.lr,
        flags.seed
    )?;
    let engine = if flags.mpi { "MPI" } else { "in-process" };
    let shards: Vec<String> = runs.iter().map(|r| format!("{:?}", r.w1_shard)).collect();
    writeln!(
        out,
        "{world} {engine} ranks; w1 [{}, {}] split by columns, shards from rank {rank} on: {}",
        Model::SIZE,
        Hidden::SIZE,
        shards.join(" ")
    )?;
    let first = &runs[0];
    for (i, (l, r)) in first.losses.iter().zip(&reference.losses).enumerate() {
        writeln!(out, "step {:3}: loss {l:.7} (one process {r:.7})", i + 1)?;
    }
    let worst = runs
        .iter()
        .map(|r| compare(r, reference))
        .max_by(|a, b| a.worst().total_cmp(&b.worst()))
        .unwrap_or_else(|| compare(first, reference));
    let params: Vec<String> = PARAM_NAMES
        .iter()
        .zip(worst.params)
        .map(|(n, d)| format!("{n} {d:.2e}"))
        .collect();
    writeln!(
        out,
        "max |tensor-parallel - one process| / max |one process|: loss {:.2e}, {}",
        worst.loss,
        params.join(", ")
    )?;
    if worst.ok() {
        writeln!(out, "equal to the one-process run within {TOLERANCE:e}")?;
    } else {
        writeln!(out, "MISMATCH: a difference exceeds {TOLERANCE:e}")?;
    }
    Ok(worst)
}

/// Writes the report to stdout; a closed pipe stops the output, not the comparison.
fn print_report(flags: &Flags, reference: &Run, runs: &[Run], rank: usize, world: usize) -> bool {
    let mut out = std::io::stdout().lock();
    match report(&mut out, flags, reference, runs, rank, world) {
        Ok(c) => c.ok(),
        Err(_) => runs.iter().all(|r| compare(r, reference).ok()),
    }
}

fn main() -> ExitCode {
    let flags = match Flags::try_parse() {
        Ok(f) => f,
        Err(e) if !e.use_stderr() => {
            let _ = write!(std::io::stdout().lock(), "{}", e.render());
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            let _ = write!(std::io::stderr().lock(), "{}", e.render());
            return ExitCode::from(2);
        }
    };
    let ok = if flags.mpi {
        let comm = match mpi_comm() {
            Ok(c) => c,
            Err(e) => {
                eprintln!("tensor_parallel: {e}");
                return ExitCode::from(2);
            }
        };
        let data = Data::new(flags.seed, flags.rows);
        let result = model::reference(&data, flags.steps, flags.lr).and_then(|r| {
            Ok((
                r,
                model::tensor_parallel(&comm, &data, flags.steps, flags.lr)?,
            ))
        });
        match result {
            // Every rank holds the logical weights: each checks them, rank 0 prints.
            Ok((reference, run)) if comm.rank() == 0 => {
                print_report(&flags, &reference, &[run], 0, comm.world_size())
            }
            Ok((reference, run)) => compare(&run, &reference).ok(),
            Err(e) => {
                // Finalising MPI could wait for peers stuck in a collective: exit at once,
                // and mpirun ends the job on the non-zero status.
                eprintln!("tensor_parallel: rank {}: {e}", comm.rank());
                std::process::exit(1);
            }
        }
    } else {
        match run_in_process(&flags) {
            Ok((reference, runs)) => print_report(&flags, &reference, &runs, 0, flags.ranks),
            Err(e) => {
                eprintln!("tensor_parallel: {e}");
                return ExitCode::FAILURE;
            }
        }
    };
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
