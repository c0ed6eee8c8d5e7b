//! GPT-2 as typed model code: loads a `save_pretrained` directory (`config.json` +
//! `model.safetensors`) and generates tokens, greedily or sampled, with a KV cache.
//!
//! ```sh
//! cargo run --release -p tensor-typed --example gpt2 -- --model DIR \
//!     --prompt-ids 464,2068,7586 --max-new-tokens 20 \
//!     [--temperature T --top-k K --top-p P --seed S] [--no-cache]
//! # with the `tokenizers` feature: --tokenizer tokenizer.json --prompt "The quick brown"
//! ```
//!
//! Prints `ids: a, b, c, ...` (the new tokens only) and `time per token: X ms` (the whole
//! generation, prompt included, divided by the new tokens). The typed config (GPT-2
//! small, or the tests' tiny one) is picked from `config.json` by `n_embd` and
//! `n_layer`, and every field the model depends on is checked against it.
//!
//! - `config.rs`: the typed configs and the `config.json` check;
//! - `model.rs`: the parameters (loaded strictly by name) and the forward pass, written
//!   once and instantiated per config;
//! - `generate.rs`: greedy and sampled generation, with or without the cache;
//! - `record.py`: records the tests' fixture (`tests/data/gpt2`) with transformers.

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
use config::{HfConfig, Which};
use generate::{bench_forward, generate, Model};
use model::Gpt2;
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
    if let Some(path) = &args.tokenizer {
        println!("text: {}", text::decode(path, &ids)?);
    }
    let per_token = elapsed.as_secs_f64() * 1e3 / args.max_new.max(1) as f64;
    println!("time per token: {per_token:.2} ms");
    Ok(())
}

/// Loads the model of `dir` (its config checked) and runs.
fn run(args: &Args) -> Result<()> {
    let dir: &Path = &args.model;
    let config = HfConfig::read(dir)?;
    #[cfg(feature = "tokenizers")]
    let prompt = match (&args.tokenizer, &args.prompt) {
        (Some(path), Some(text)) => text::encode(path, text)?,
        _ => args.prompt_ids.clone(),
    };
    #[cfg(not(feature = "tokenizers"))]
    let prompt = args.prompt_ids.clone();
    match config.which()? {
        Which::Small => {
            config.check::<config::Small>()?;
            let vocab = config::size::<<config::Small as config::Config>::Vocab>();
            run_with(&Gpt2::<config::Small>::load(dir)?, vocab, args, &prompt)
        }
        Which::Tiny => {
            config.check::<config::Tiny>()?;
            let vocab = config::size::<<config::Tiny as config::Config>::Vocab>();
            run_with(&Gpt2::<config::Tiny>::load(dir)?, vocab, args, &prompt)
        }
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
            eprintln!("gpt2: {e}");
            return ExitCode::from(2);
        }
    };
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("gpt2: {e}");
            ExitCode::FAILURE
        }
    }
}
