//! A pre-norm transformer block and a GPT-2-sized embedding → unembedding path, written
//! as typed model code; the block's weights are PyTorch's, read from a safetensors file.
//!
//! ```sh
//! cargo run --release -p tensor-typed --example transformer_block -- [--batch 4] [--weights PATH]
//! ```
//! 1. Loads the block (and a recorded input and PyTorch's output for it) from
//!    `tests/data/transformer_block/block.safetensors`, written by `record.py` beside
//!    this file with PyTorch's `safetensors` package, runs the block on that input and
//!    prints the largest difference from PyTorch's output (the test holds it to 1e-5).
//! 2. Runs token ids `[batch, 16]` through GPT-2 (small)'s embedding (vocab 50257,
//!    d_model 768; seeded weights made at run time rather than a 150 MB file), a
//!    projection 768 → 64, the block, a final layer norm, a projection 64 → 768 and the
//!    tied unembedding to `[batch, 16, 50257]` logits, and prints their checksum.

mod model;

#[cfg(test)]
mod tests;

use model::{Acts, Block, Gpt2Io, Ids, Seq, Vocab};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;
use tensor_core::Result;
use tensor_typed::io::Weights;
use tensor_typed::prelude::*;

/// The recorded file, relative to this crate.
pub fn recorded_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/transformer_block/block.safetensors")
}

/// The recorded input `x` and PyTorch's output `y` for it.
pub fn recorded_io(st: &Weights) -> Result<(Acts, Acts)> {
    Ok((st.load("x")?, st.load("y")?))
}

/// The largest absolute difference between two tensors of the same shape.
pub fn max_abs_diff(a: &Acts, b: &Acts) -> f32 {
    let (a, b) = (a.contiguous_copy().to_vec(), b.contiguous_copy().to_vec());
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(&b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f32::max)
}

/// Deterministic token ids spread over the vocabulary.
fn token_ids(batch: usize) -> Result<Ids> {
    let ids = (0..batch * Seq::SIZE)
        .map(|i| ((i as u64 * 7919 + 13) % Vocab::SIZE as u64) as i64)
        .collect();
    Ids::from_vec(ids, &[batch, Seq::SIZE])
}

fn checksum<S: tensor_typed::Shape>(t: &Tensor<f32, S>) -> f64 {
    t.contiguous_copy()
        .to_vec()
        .iter()
        .map(|&v| f64::from(v))
        .sum()
}

struct Args {
    batch: usize,
    weights: PathBuf,
}

fn parse_args() -> std::result::Result<Args, String> {
    let mut args = Args {
        batch: 4,
        weights: recorded_path(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or(format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--batch" => {
                args.batch = value
                    .parse()
                    .map_err(|_| format!("--batch: not a count: {value}"))?
            }
            "--weights" => args.weights = value.into(),
            _ => {
                return Err(format!(
                    "unknown flag {flag} (flags: --batch N, --weights PATH)"
                ))
            }
        }
    }
    Ok(args)
}

fn run(args: &Args) -> Result<()> {
    let st = Weights::open(&args.weights)?;
    let block = Block::<model::Sizes>::load(&st)?;
    let (x, y_torch) = recorded_io(&st)?;
    let y = block.forward(&x);
    println!(
        "block on the recorded input {:?}: checksum {:.6} (PyTorch {:.6}), max |diff| {:.2e}",
        x.dims(),
        checksum(&y),
        checksum(&y_torch),
        max_abs_diff(&y, &y_torch)
    );

    let start = Instant::now();
    let io = Gpt2Io::seeded(0);
    println!(
        "seeded GPT-2 embedding [50257, 768] in {:.2?}",
        start.elapsed()
    );
    let ids = token_ids(args.batch)?;
    let start = Instant::now();
    let logits = io.forward(&ids, &block);
    let elapsed = start.elapsed();
    let next = logits.narrow::<1, 15, 1>().argmax::<2>();
    println!(
        "logits {:?} in {elapsed:.2?}: checksum {:.6}; next token after each sequence: {:?}",
        logits.dims(),
        checksum(&logits),
        next.to_vec()
    );
    Ok(())
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("transformer_block: {e}");
            return ExitCode::from(2);
        }
    };
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if !args.weights.exists() => {
            eprintln!("transformer_block: {e} (record it with python3 tensor-typed/examples/transformer_block/record.py)");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("transformer_block: {e}");
            ExitCode::FAILURE
        }
    }
}
