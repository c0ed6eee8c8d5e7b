//! The gpt2 example's command line, parsed by clap (derive): `--help` prints the usage,
//! every value is typed and checked (a finite positive temperature, top-p in (0, 1],
//! positive shapes), and the flags that exclude each other are declared. What needs the
//! model's config (ids within the vocabulary, lengths within the context) is checked
//! once it is read (`model_limits.rs`).

use crate::flag_values::{shape, temperature, top_p};
use crate::generate::Choice;
use clap::Parser;
use std::path::PathBuf;

/// What the command line asks for.
#[derive(Debug)]
pub struct Args {
    /// The `save_pretrained` directory (`--model`).
    pub model: PathBuf,
    /// The prompt's token ids (`--prompt-ids 464,2068,7586`).
    pub prompt_ids: Vec<i64>,
    /// New tokens to generate (`--max-new-tokens`, default 20).
    pub max_new: usize,
    /// Greedy, or sampled when any of temperature, top-k, top-p or seed is given.
    pub choice: Choice,
    /// Whether generation uses the KV cache (`--no-cache` turns it off).
    pub use_cache: bool,
    /// A `tokenizer.json` for `--prompt` and the printed text (feature `tokenizers`).
    #[cfg_attr(not(feature = "tokenizers"), allow(dead_code))]
    pub tokenizer: Option<PathBuf>,
    /// The prompt as text (`--prompt`, with `--tokenizer`).
    #[cfg_attr(not(feature = "tokenizers"), allow(dead_code))]
    pub prompt: Option<String>,
    /// `--bench-forward 2x32,1x128`: time the full forward of these `[batch, seq]`
    /// shapes instead of generating.
    pub bench: Vec<(usize, usize)>,
    /// Timed repetitions per shape (`--reps`, at least 1).
    pub reps: usize,
}

/// The command line as clap reads it.
#[derive(Parser, Debug)]
#[command(
    name = "gpt2",
    about = "Generates tokens with GPT-2 (a save_pretrained directory), greedily or sampled",
    after_help = "Sampling: any of --temperature, --top-k, --top-p or --seed samples \
                  instead of taking the most likely token."
)]
struct Flags {
    /// The save_pretrained directory (config.json and model.safetensors).
    #[arg(long, value_name = "DIR")]
    model: PathBuf,
    /// The prompt's token ids, comma-separated (each within the vocabulary).
    #[arg(long, value_name = "IDS", value_delimiter = ',', allow_negative_numbers = true, required_unless_present_any = ["prompt", "bench_forward"])]
    prompt_ids: Vec<i64>,
    /// New tokens to generate (the prompt and them within the context).
    #[arg(long, value_name = "N", default_value_t = 20)]
    max_new_tokens: usize,
    /// Logits are divided by it: a finite positive number.
    #[arg(long, value_name = "T", value_parser = temperature)]
    temperature: Option<f32>,
    /// Keep only the K most likely tokens (0 keeps all).
    #[arg(long, value_name = "K")]
    top_k: Option<usize>,
    /// Keep the most likely tokens up to this probability, in (0, 1].
    #[arg(long, value_name = "P", value_parser = top_p)]
    top_p: Option<f32>,
    /// The sampler's seed.
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Rerun the whole sequence every step instead of using the KV cache.
    #[arg(long)]
    no_cache: bool,
    /// A tokenizer.json (built with --features tokenizers).
    #[arg(long, value_name = "PATH")]
    tokenizer: Option<PathBuf>,
    /// The prompt as text (with --tokenizer).
    #[arg(
        long,
        value_name = "TEXT",
        requires = "tokenizer",
        conflicts_with = "prompt_ids"
    )]
    prompt: Option<String>,
    /// Time the full forward of these [batch, seq] shapes instead of generating
    /// (BxT, comma-separated).
    #[arg(long, value_name = "BxT", value_delimiter = ',', value_parser = shape, conflicts_with_all = ["prompt_ids", "prompt"])]
    bench_forward: Vec<(usize, usize)>,
    /// Timed repetitions per shape (a positive integer).
    #[arg(long, value_name = "N", default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..))]
    reps: u32,
}

/// What parsing gives: the run's arguments, or the usage to print.
#[derive(Debug)]
pub enum Parsed {
    /// Run with these arguments.
    Run(Args),
    /// Print this text (`--help`) and stop.
    Help(String),
}

/// Parses the flags after the program name.
///
/// # Errors
/// clap's message (with the usage) for an unknown flag, a missing `--model` or prompt, a
/// value that does not parse or is out of range, or flags that exclude each other; a
/// message for `--prompt` in a build without the `tokenizers` feature.
pub fn parse_args(args: impl Iterator<Item = String>) -> std::result::Result<Parsed, String> {
    let flags = match Flags::try_parse_from(std::iter::once("gpt2".to_string()).chain(args)) {
        Ok(f) => f,
        Err(e) if e.kind() == clap::error::ErrorKind::DisplayHelp => {
            return Ok(Parsed::Help(e.render().to_string()))
        }
        Err(e) => {
            let text = e.render().to_string();
            return Err(text.trim_start_matches("error: ").trim_end().to_string());
        }
    };
    if flags.prompt.is_some() && !cfg!(feature = "tokenizers") {
        return Err("--prompt needs the `tokenizers` feature: cargo run --release -p tensor-typed --features tokenizers --example gpt2 -- ...".into());
    }
    let sampled = flags.temperature.is_some()
        || flags.top_k.is_some()
        || flags.top_p.is_some()
        || flags.seed.is_some();
    let choice = if sampled {
        Choice::Sample {
            temperature: flags.temperature.unwrap_or(1.0),
            top_k: flags.top_k.unwrap_or(0),
            top_p: flags.top_p.unwrap_or(1.0),
            seed: flags.seed.unwrap_or(0),
        }
    } else {
        Choice::Greedy
    };
    Ok(Parsed::Run(Args {
        model: flags.model,
        prompt_ids: flags.prompt_ids,
        max_new: flags.max_new_tokens,
        choice,
        use_cache: !flags.no_cache,
        tokenizer: flags.tokenizer,
        prompt: flags.prompt,
        bench: flags.bench_forward,
        reps: flags.reps as usize,
    }))
}
