//! Trains one of three small models (an MLP, a CNN, a transformer) on the digits data
//! set with typed tensors and autograd; the Rust counterpart of
//! `benches/digits_models_torch.py` (same split, scaling, initialisation,
//! optimisers and hyper-parameters).
//!
//! ```sh
//! cargo run --release -p tensor-typed --example digits -- [--model mlp|cnn|transformer]
//!     [--epochs 30] [--lr F] [--batch 32] [--seed 0] [--data PATH]
//!     [--ranks N | --mpi] [--sbp] [--curve PATH] [--plot PATH]
//! ```
//! `--ranks N` trains data-parallel on N in-process ranks (threads); `--mpi` on the
//! ranks of `mpirun -np N` (built with `--features tensor-core/mpi`); `--plot` draws
//! the loss, the accuracy and the misclassified digits into a PNG (built with
//! `--features plot`). `--sbp` trains the mlp with typed global tensors instead
//! (`sbp_mlp.rs`: broadcast parameters, split batches, the all-reduce by name), on
//! `--ranks N` (one rank by default) or `--mpi`.
//! Data: the Optical Recognition of Handwritten Digits data set (E. Alpaydin,
//! C. Kaynak, 1998; UCI Machine Learning Repository, CC BY 4.0), as shipped by
//! scikit-learn; see `tensor-typed/data/README.md`.

#[cfg(any(feature = "plot", test))]
mod axes;
mod cli;
mod curve;
mod data;
#[cfg(test)]
mod manual_mlp;
mod models;
#[cfg(feature = "plot")]
mod plot;
mod rng;
mod sbp_mlp;
mod train;

#[cfg(test)]
mod tests;

use indicatif::{ProgressBar, ProgressStyle};
use models::Images;
use std::io::IsTerminal;
use std::process::ExitCode;
use tensor_typed::prelude::*;
use tensor_typed::Tensor;

/// Shades from blank to full ink for pixels in [0, 1].
const SHADES: &[u8] = b" .:-=+*#%@";

/// Prints up to `count` misclassified test digits side by side as 8x8 ASCII art, with
/// their label and the model's guess.
fn show_mistakes(
    split: &data::Split,
    report: &train::Report,
    count: usize,
) -> tensor_core::Result<()> {
    let shown = &report.mistakes[..report.mistakes.len().min(count)];
    if shown.is_empty() {
        return Ok(());
    }
    let idx: Vec<usize> = shown.iter().map(|&(i, _)| i).collect();
    let (pixels, labels) = train::gather(&split.test, &idx);
    let x = Images::from_vec(pixels, &[idx.len(), data::PIXELS])?;
    // One text row per image row: h outermost, then each digit's 8 pixels.
    let rows: Tensor<f32, Shape![8, Dyn, 8]> = layout!(x, "n (h w) -> h n w", h = 8);
    let captions: Vec<String> = labels
        .iter()
        .zip(shown)
        .map(|(l, (_, p))| format!("{l} as {p}"))
        .collect();
    println!("misclassified test digits (label as guess):");
    println!(
        "{}",
        captions
            .iter()
            .map(|c| format!("{c:<10}"))
            .collect::<String>()
    );
    for row in rows.contiguous_copy().to_vec().chunks(8 * idx.len()) {
        let line: String = row
            .chunks(8)
            .map(|digit| {
                let ink: String = digit
                    .iter()
                    .map(|&p| SHADES[((p * 9.0).round() as usize).min(9)] as char)
                    .collect();
                format!("{ink}  ")
            })
            .collect();
        println!("{}", line.trim_end());
    }
    Ok(())
}

fn main() -> ExitCode {
    let config = match cli::parse(std::env::args().skip(1)) {
        Ok(cli::Command::Train(c)) => c,
        Ok(cli::Command::Help(usage)) => {
            print!("{usage}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("digits: {e}");
            return ExitCode::from(2);
        }
    };
    let split = match data::load(&config.data) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("digits: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!(
        "{} training and {} test samples from {}",
        split.train.len(),
        split.test.len(),
        config.data.display()
    );
    println!(
        "model: {}{}",
        config.model.name(),
        if config.sbp {
            " (typed global tensors: parameters B, batches S(0))"
        } else {
            ""
        }
    );
    let Some(batches) = split
        .train
        .len()
        .div_ceil(config.batch)
        .checked_mul(config.epochs)
    else {
        eprintln!(
            "digits: --epochs {}: more batches than can be counted",
            config.epochs
        );
        return ExitCode::from(2);
    };
    let bar = std::io::stdout().is_terminal().then(|| {
        let bar = ProgressBar::new(batches as u64);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} batches, {elapsed} (eta {eta})")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    });
    let on_batch = || {
        if let Some(b) = &bar {
            b.inc(1)
        }
    };
    let on_epoch = |e: &train::Epoch| {
        let line = format!(
            "epoch {:3}: loss {:.4}, train accuracy {:.4}, {:.3} s",
            e.epoch, e.loss, e.train_accuracy, e.seconds
        );
        match &bar {
            Some(b) => b.println(line),
            None => println!("{line}"),
        }
    };
    let hooks = train::Hooks {
        on_batch: &on_batch,
        on_epoch: &on_epoch,
    };
    let reports = train::train(&split, &config, &hooks);
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    match reports {
        Ok(reports) => match report(&split, &config, &reports) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("digits: {e}");
                ExitCode::FAILURE
            }
        },
        Err(e) => {
            eprintln!("digits: training failed: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Draws the picture of training (`plot.rs`).
#[cfg(feature = "plot")]
fn picture(path: &std::path::Path, split: &data::Split, r: &train::Report) -> Result<(), String> {
    plot::write(path, split, r)
}

/// Without the `plot` feature there is no picture.
#[cfg(not(feature = "plot"))]
fn picture(_: &std::path::Path, _: &data::Split, _: &train::Report) -> Result<(), String> {
    Err("the example was built without its picture: add `--features plot` to cargo".into())
}

/// Prints rank 0's results (and each rank's time in the all-reduce), and writes the
/// loss curve where `--curve` says and the picture where `--plot` says. Under MPI, a
/// rank other than 0 prints its timing only.
///
/// # Errors
/// A message naming the file for an output that cannot be written (the results are
/// printed all the same), or one for mistakes that cannot be shown.
fn report(
    split: &data::Split,
    config: &cli::Config,
    reports: &[train::Report],
) -> Result<(), String> {
    if reports.len() > 1 || config.mpi {
        for r in reports {
            println!(
                "rank {}: train time {:.3} s, of which all-reduce (waiting included) {:.3} s",
                r.rank, r.train_seconds, r.all_reduce_seconds
            );
        }
    }
    let Some(r) = reports.first().filter(|r| r.rank == 0) else {
        return Ok(());
    };
    let mut failures = Vec::new();
    if let Some(path) = &config.curve {
        match curve::write(path, r) {
            Ok(()) => println!("loss curve of rank 0 written to {}", path.display()),
            Err(e) => failures.push(format!("cannot write {}: {e}", path.display())),
        }
    }
    if let Some(path) = &config.plot {
        match picture(path, split, r) {
            Ok(()) => println!("picture of training written to {}", path.display()),
            Err(e) => failures.push(format!("cannot draw {}: {e}", path.display())),
        }
    }
    if let Err(e) = show_mistakes(split, r, 6) {
        failures.push(format!("cannot show mistakes: {e}"));
    }
    println!(
        "{} of {} test digits misclassified",
        r.mistakes.len(),
        split.test.len()
    );
    println!("test accuracy: {:.4}", r.test_accuracy);
    println!("train time: {:.3} s", r.train_seconds);
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("; "))
    }
}
