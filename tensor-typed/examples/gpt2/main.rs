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

mod config;
mod generate;
mod model;
#[cfg(feature = "tokenizers")]
mod text;

#[cfg(test)]
mod tests;

use config::{HfConfig, Which};
use generate::{generate, Choice, Model};
use model::Gpt2;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;
use tensor_core::Result;

/// The command line.
#[derive(Debug)]
struct Args {
    model: PathBuf,
    prompt_ids: Vec<i64>,
    max_new: usize,
    choice: Choice,
    use_cache: bool,
    #[cfg_attr(not(feature = "tokenizers"), allow(dead_code))]
    tokenizer: Option<PathBuf>,
    #[cfg_attr(not(feature = "tokenizers"), allow(dead_code))]
    prompt: Option<String>,
    /// `--bench-forward 2x32,1x128`: time the full forward of these `[batch, seq]`
    /// shapes instead of generating.
    bench: Vec<(usize, usize)>,
    /// Timed repetitions per shape (`--reps`).
    reps: usize,
}

const USAGE: &str = "usage: gpt2 --model DIR (--prompt-ids 464,2068,... | --tokenizer tokenizer.json --prompt TEXT) \
[--max-new-tokens N] [--temperature T] [--top-k K] [--top-p P] [--seed S] [--no-cache] \
| --model DIR --bench-forward 2x32,1x128 [--reps N]";

fn number<T: std::str::FromStr>(flag: &str, value: &str) -> std::result::Result<T, String> {
    value
        .parse()
        .map_err(|_| format!("{flag}: not a number: {value}"))
}

fn parse_args(args: impl Iterator<Item = String>) -> std::result::Result<Args, String> {
    let mut model = None;
    let mut prompt_ids = Vec::new();
    let mut max_new = 20;
    let (mut temperature, mut top_k, mut top_p, mut seed) = (None, None, None, None);
    let mut use_cache = true;
    let (mut tokenizer, mut prompt) = (None, None);
    let (mut bench, mut reps) = (Vec::new(), 10);
    let mut it = args;
    while let Some(flag) = it.next() {
        if flag == "--no-cache" {
            use_cache = false;
            continue;
        }
        let value = it.next().ok_or(format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--model" => model = Some(PathBuf::from(value)),
            "--prompt-ids" => {
                prompt_ids = value
                    .split(',')
                    .map(|s| number::<i64>("--prompt-ids", s.trim()))
                    .collect::<std::result::Result<_, _>>()?
            }
            "--max-new-tokens" => max_new = number(&flag, &value)?,
            "--temperature" => temperature = Some(number::<f32>(&flag, &value)?),
            "--top-k" => top_k = Some(number::<usize>(&flag, &value)?),
            "--top-p" => top_p = Some(number::<f32>(&flag, &value)?),
            "--seed" => seed = Some(number::<u64>(&flag, &value)?),
            "--tokenizer" => tokenizer = Some(PathBuf::from(value)),
            "--prompt" => prompt = Some(value),
            "--bench-forward" => {
                for shape in value.split(',') {
                    let (b, t) = shape
                        .split_once('x')
                        .ok_or(format!("--bench-forward: not BxT: {shape}"))?;
                    bench.push((number(&flag, b)?, number(&flag, t)?));
                }
            }
            "--reps" => reps = number(&flag, &value)?,
            _ => return Err(format!("unknown flag {flag}\n{USAGE}")),
        }
    }
    let model = model.ok_or(format!("--model is required\n{USAGE}"))?;
    if prompt_ids.is_empty() && prompt.is_none() && bench.is_empty() {
        return Err(format!(
            "give --prompt-ids (or --tokenizer and --prompt)\n{USAGE}"
        ));
    }
    if prompt.is_some() && !cfg!(feature = "tokenizers") {
        return Err("--prompt needs the `tokenizers` feature: cargo run --release -p tensor-typed --features tokenizers --example gpt2 -- ...".into());
    }
    if prompt.is_some() && tokenizer.is_none() {
        return Err("--prompt needs --tokenizer tokenizer.json".into());
    }
    let sampled = temperature.is_some() || top_k.is_some() || top_p.is_some() || seed.is_some();
    let choice = if sampled {
        let temperature = temperature.unwrap_or(1.0);
        if temperature <= 0.0 {
            return Err(format!("--temperature must be positive, got {temperature}"));
        }
        let top_p = top_p.unwrap_or(1.0);
        if !(top_p > 0.0 && top_p <= 1.0) {
            return Err(format!("--top-p must be in (0, 1], got {top_p}"));
        }
        Choice::Sample {
            temperature,
            top_k: top_k.unwrap_or(0),
            top_p,
            seed: seed.unwrap_or(0),
        }
    } else {
        Choice::Greedy
    };
    Ok(Args {
        model,
        prompt_ids,
        max_new,
        choice,
        use_cache,
        tokenizer,
        prompt,
        bench,
        reps: reps.max(1),
    })
}

/// `--bench-forward`: for each `[batch, seq]`, two warm-up forwards, then `reps` timed
/// ones; prints the best and the median in ms. The ids are a fixed deterministic
/// pattern (the values do not change the work).
fn bench_forward<M: Model>(model: &M, shapes: &[(usize, usize)], reps: usize) -> Result<()> {
    for &(b, t) in shapes {
        let ids: Vec<i64> = (0..b * t).map(|i| (i * 7919 % 1000) as i64).collect();
        let ids = model::Ids::try_from_dyn(tensor_core::Tensor::from_vec(ids, &[b, t])?)?;
        for _ in 0..2 {
            model.forward_numel(&ids);
        }
        let mut ms: Vec<f64> = (0..reps)
            .map(|_| {
                let start = Instant::now();
                model.forward_numel(&ids);
                start.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        ms.sort_by(f64::total_cmp);
        println!(
            "forward [{b}, {t}]: best {:.2} ms, median {:.2} ms",
            ms[0],
            ms[ms.len() / 2]
        );
    }
    Ok(())
}

/// Generates with a loaded model and prints the ids (and the text, with a tokenizer).
fn run_with<M: Model>(model: &M, args: &Args, prompt: &[i64]) -> Result<()> {
    if !args.bench.is_empty() {
        return bench_forward(model, &args.bench, args.reps);
    }
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
            run_with(&Gpt2::<config::Small>::load(dir)?, args, &prompt)
        }
        Which::Tiny => {
            config.check::<config::Tiny>()?;
            run_with(&Gpt2::<config::Tiny>::load(dir)?, args, &prompt)
        }
    }
}

fn main() -> ExitCode {
    let args = match parse_args(std::env::args().skip(1)) {
        Ok(a) => a,
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
