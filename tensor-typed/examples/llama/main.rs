//! A Llama-family model (transformers' `LlamaForCausalLM`) as typed model code: loads a
//! `save_pretrained` directory (`config.json` + `model.safetensors`, weights of any
//! float dtype: a `bfloat16` checkpoint is converted to `f32` at load) and generates
//! tokens, greedily or sampled, with a KV cache.
//!
//! ```sh
//! cargo run --release -p tensor-typed --example llama -- --model DIR \
//!     --prompt-ids 1,2,3 --max-new-tokens 20 \
//!     [--temperature T --top-k K --top-p P --seed S] [--no-cache]
//! cargo run --release -p tensor-typed --example llama -- --model DIR --bench-forward 1x128,4x32 --reps 10
//! # with the `tokenizers` feature: --prompt "The quick brown" [--tokenizer tokenizer.json]
//! # (the model directory's tokenizer.json by default)
//! ```
//!
//! Prints `ids: a, b, c, ...` (the new tokens only) and `time per token: X ms` (the whole
//! generation, prompt included, divided by the new tokens); `--bench-forward` prints
//! `forward [B, T]: best X ms, median Y ms` per shape. The typed config (the tests' tiny
//! ones, SmolLM2-135M, Llama 3.2 1B) is picked from `config.json` by `hidden_size`,
//! `num_hidden_layers` and the RoPE type, and every field the model depends on is
//! checked against it.
//!
//! The model is `tensor_typed::nn`'s layers: `RmsNorm`, `Rotary` (RoPE, with `linear`
//! and `llama3` scaling), `GqaAttention` (grouped queries against keys and values
//! broadcast over the group, not repeated) and `SwiGlu`.
//!
//! - `config.rs`: the typed configs and the `config.json` check;
//! - `model.rs`: the parameters (loaded strictly by name) and the forward pass, written
//!   once and instantiated per config;
//! - `cli.rs`: the command line;
//! - `../common/generate.rs`: greedy and sampled generation and the forward benchmark,
//!   shared with the gpt2 example (and `../common/text.rs`, the tokenizer);
//! - `record.py`: records the tests' fixture (`tests/data/llama`) with transformers.

mod cli;
mod config;
#[path = "../common/flag_values.rs"]
mod flag_values;
#[path = "../common/generate.rs"]
mod generate;
mod model;
#[path = "../common/model_limits.rs"]
mod model_limits;
#[cfg(feature = "tokenizers")]
#[path = "../common/text.rs"]
mod text;

#[cfg(test)]
mod tests;

use cli::{Args, Parsed};
use config::{Config, HfConfig, Which};
use generate::{bench_forward, generate, Model};
use model::Llama;
use model_limits::{available_memory, check_bench, check_prompt};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;
use tensor_core::Result;

/// Generates with a loaded model of `vocab` tokens and prints the ids (and the text,
/// with a tokenizer); or times its forward (`--bench-forward`).
///
/// # Errors
/// A prompt id outside the vocabulary, a bench shape past the context or the memory, a
/// generation longer than the context; the model's and the tokenizer's errors.
fn run_with<M: Model>(model: &M, vocab: usize, args: &Args, prompt: &[i64]) -> Result<()> {
    if !args.bench.is_empty() {
        // Half of what is available: the logits are not the forward's only tensors.
        check_bench(
            &args.bench,
            model.n_positions(),
            vocab,
            available_memory() / 2,
        )?;
        return bench_forward(model, vocab, &args.bench, args.reps);
    }
    check_prompt(prompt, vocab)?;
    let start = Instant::now();
    let ids = generate(model, prompt, args.max_new, &args.choice, args.use_cache)?;
    let elapsed = start.elapsed();
    let list: Vec<String> = ids.iter().map(i64::to_string).collect();
    println!("ids: {}", list.join(", "));
    #[cfg(feature = "tokenizers")]
    if args.prompt.is_some() || args.tokenizer.is_some() {
        println!("text: {}", text::decode(&tokenizer_path(args), &ids)?);
    }
    let per_token = elapsed.as_secs_f64() * 1e3 / args.max_new.max(1) as f64;
    println!("time per token: {per_token:.2} ms");
    Ok(())
}

/// `--tokenizer`, or the model directory's `tokenizer.json`.
#[cfg(feature = "tokenizers")]
fn tokenizer_path(args: &Args) -> std::path::PathBuf {
    args.tokenizer
        .clone()
        .unwrap_or_else(|| args.model.join("tokenizer.json"))
}

/// Checks `config.json` against the typed config `C`, loads the model and runs.
fn run_config<C: Config>(config: &HfConfig, dir: &Path, args: &Args, prompt: &[i64]) -> Result<()> {
    config.check::<C>()?;
    let vocab = config::size::<C::Vocab>();
    run_with(&Llama::<C>::load(dir)?, vocab, args, prompt)
}

/// Loads the model of `dir` (its config checked) and runs.
fn run(args: &Args) -> Result<()> {
    let dir: &Path = &args.model;
    let config = HfConfig::read(dir)?;
    #[cfg(feature = "tokenizers")]
    let prompt = match &args.prompt {
        Some(t) => text::encode(&tokenizer_path(args), t)?,
        None => args.prompt_ids.clone(),
    };
    #[cfg(not(feature = "tokenizers"))]
    let prompt = args.prompt_ids.clone();
    match config.which()? {
        Which::Tiny => run_config::<config::Tiny>(&config, dir, args, &prompt),
        Which::TinyLlama3 => run_config::<config::TinyLlama3>(&config, dir, args, &prompt),
        Which::SmolLm2_135M => run_config::<config::SmolLm2_135M>(&config, dir, args, &prompt),
        Which::Llama32_1B => run_config::<config::Llama32_1B>(&config, dir, args, &prompt),
    }
}

fn main() -> ExitCode {
    let args = match cli::parse_args(std::env::args().skip(1)) {
        Ok(Parsed::Run(a)) => a,
        Ok(Parsed::Help(usage)) => {
            print!("{usage}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("llama: {e}");
            return ExitCode::from(2);
        }
    };
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("llama: {e}");
            ExitCode::FAILURE
        }
    }
}
