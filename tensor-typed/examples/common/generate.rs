//! Generation: greedy (as transformers' `generate(do_sample=False)`) or sampled
//! (temperature, top-k, top-p with a seed), with or without the KV cache.

use crate::config::Ids;
use std::time::Instant;
use tensor_core::{Error, Result};

/// What generation needs of a causal language model of any config (GPT-2, Llama).
pub trait Model {
    /// The KV cache.
    type Cache;
    /// The context length (`n_positions`, `max_position_embeddings`).
    fn n_positions(&self) -> usize;
    /// An empty cache for `batch` sequences of up to `capacity` positions (at most the
    /// context; a model may allocate the whole context).
    ///
    /// # Errors
    /// Out of memory.
    fn new_cache(&self, batch: usize, capacity: usize) -> Result<Self::Cache>;
    /// The logits of the last position of `ids` (batch 1), as a vector over the vocabulary.
    ///
    /// # Errors
    /// The model's errors (a cache without room).
    fn next_logits(&self, ids: &Ids, cache: Option<&mut Self::Cache>) -> Result<Vec<f32>>;
    /// The most likely next token of each sequence (`argmax` over the vocabulary).
    ///
    /// # Errors
    /// As [`Model::next_logits`].
    fn next_greedy(&self, ids: &Ids, cache: Option<&mut Self::Cache>) -> Result<Vec<i64>>;
    /// The logits of every position of `ids` `[batch, seq, vocab]`, without a cache
    /// (`GPT2LMHeadModel(ids).logits`); returns their number (what `--bench-forward`
    /// times).
    ///
    /// # Errors
    /// The model's errors.
    fn forward_numel(&self, ids: &Ids) -> Result<usize>;
}

/// How the next token is chosen: greedily, or sampled as transformers' logits warpers
/// do (temperature, then top-k, then top-p), from a seeded generator.
#[derive(Debug, Clone, PartialEq)]
pub enum Choice {
    /// The most likely token (`do_sample=False`).
    Greedy,
    /// A draw from the warped distribution.
    Sample {
        /// Logits are divided by it (`temperature`).
        temperature: f32,
        /// Keep only the `k` most likely tokens (`top_k`; 0 keeps all).
        top_k: usize,
        /// Keep the smallest set of most likely tokens whose probability reaches `p`
        /// (`top_p`; 1 keeps all).
        top_p: f32,
        /// The generator's seed.
        seed: u64,
    },
}

/// A small seeded generator (SplitMix64), uniform in `[0, 1)`.
struct Rng(u64);

impl Rng {
    fn uniform(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Temperature, top-k and top-p applied to `logits` in place (removed tokens become
/// `-inf`), in transformers' order and with its rules: top-k keeps every token at
/// least as likely as the k-th; top-p removes the tokens whose ascending cumulative
/// probability is at most `1 - p`, always keeping the most likely one.
///
/// A temperature other than 1 shifts the logits by their maximum before dividing, in
/// f64 (the same distribution: a softmax does not change with a shift), so that a tiny
/// temperature (`1e-40`) gives the most likely token every probability instead of
/// overflowing to `inf / inf`.
pub fn warp(logits: &mut [f32], temperature: f32, top_k: usize, top_p: f32) {
    if temperature != 1.0 {
        let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let (max, t) = (f64::from(max), f64::from(temperature));
        if max.is_finite() {
            logits
                .iter_mut()
                .for_each(|l| *l = ((f64::from(*l) - max) / t) as f32);
        }
    }
    if top_k > 0 && top_k < logits.len() {
        let mut sorted = logits.to_vec();
        sorted.sort_by(|a, b| b.total_cmp(a));
        let kth = sorted[top_k - 1];
        logits
            .iter_mut()
            .filter(|l| **l < kth)
            .for_each(|l| *l = f32::NEG_INFINITY);
    }
    if top_p < 1.0 {
        let probs = softmax(logits);
        let mut order: Vec<usize> = (0..logits.len()).collect();
        order.sort_by(|&a, &b| logits[a].total_cmp(&logits[b])); // ascending
        let mut cumulative = 0.0;
        for (rank, &i) in order.iter().enumerate() {
            cumulative += probs[i];
            if cumulative <= 1.0 - f64::from(top_p) && rank + 1 < order.len() {
                logits[i] = f32::NEG_INFINITY;
            }
        }
    }
}

/// The softmax of `logits`, in f64.
fn softmax(logits: &[f32]) -> Vec<f64> {
    let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let e: Vec<f64> = logits.iter().map(|&l| f64::from(l - max).exp()).collect();
    let sum: f64 = e.iter().sum();
    e.into_iter().map(|x| x / sum).collect()
}

/// A draw from `softmax(logits)`.
fn draw(logits: &[f32], rng: &mut Rng) -> i64 {
    let probs = softmax(logits);
    let u = rng.uniform();
    let mut cumulative = 0.0;
    for (i, p) in probs.iter().enumerate() {
        cumulative += p;
        if u < cumulative {
            return i as i64;
        }
    }
    probs.iter().rposition(|&p| p > 0.0).unwrap_or(0) as i64
}

/// `max_new` tokens after `prompt` (batch 1): with the cache, the prompt runs once and
/// each new token alone; without it, every step runs the whole sequence so far.
///
/// # Errors
/// An empty prompt, or a prompt and new tokens longer than the context (naming both).
pub fn generate<M: Model>(
    model: &M,
    prompt: &[i64],
    max_new: usize,
    choice: &Choice,
    use_cache: bool,
) -> Result<Vec<i64>> {
    if prompt.is_empty() {
        return Err(Error::InvalidArgument {
            op: "generate",
            message: "the prompt has no tokens".into(),
        });
    }
    if prompt
        .len()
        .checked_add(max_new)
        .is_none_or(|len| len > model.n_positions())
    {
        return Err(Error::InvalidArgument {
            op: "generate",
            message: format!(
                "{} prompt tokens and {max_new} new tokens exceed the context of {} positions",
                prompt.len(),
                model.n_positions()
            ),
        });
    }
    let mut rng = match choice {
        Choice::Sample { seed, .. } => Rng(*seed),
        Choice::Greedy => Rng(0),
    };
    let mut cache = if use_cache {
        Some(model.new_cache(1, prompt.len() + max_new)?)
    } else {
        None
    };
    let mut seq = prompt.to_vec();
    let mut next_input = prompt.to_vec();
    let mut out = Vec::with_capacity(max_new);
    for _ in 0..max_new {
        let input = if use_cache { &next_input } else { &seq };
        let ids = Ids::from_vec(input.clone(), &[1, input.len()])?;
        let token = match choice {
            Choice::Greedy => model.next_greedy(&ids, cache.as_mut())?[0],
            Choice::Sample {
                temperature,
                top_k,
                top_p,
                ..
            } => {
                let mut logits = model.next_logits(&ids, cache.as_mut())?;
                warp(&mut logits, *temperature, *top_k, *top_p);
                draw(&logits, &mut rng)
            }
        };
        out.push(token);
        seq.push(token);
        next_input = vec![token];
    }
    Ok(out)
}

/// `--bench-forward`: for each `[batch, seq]`, two warm-up forwards, then `reps` timed
/// ones; prints the best and the median in ms. The ids are a fixed deterministic
/// pattern within a vocabulary of `vocab` tokens (the values do not change the work).
///
/// # Errors
/// The model's errors; out of memory.
pub fn bench_forward<M: Model>(
    model: &M,
    vocab: usize,
    shapes: &[(usize, usize)],
    reps: usize,
) -> Result<()> {
    for &(b, t) in shapes {
        let ids: Vec<i64> = (0..b * t)
            .map(|i| (i * 7919 % 1000 % vocab.max(1)) as i64)
            .collect();
        let ids = Ids::try_from_dyn(tensor_core::Tensor::from_vec(ids, &[b, t])?)?;
        for _ in 0..2 {
            model.forward_numel(&ids)?;
        }
        let mut ms: Vec<f64> = (0..reps)
            .map(|_| {
                let start = Instant::now();
                model.forward_numel(&ids)?;
                Ok(start.elapsed().as_secs_f64() * 1e3)
            })
            .collect::<Result<_>>()?;
        ms.sort_by(f64::total_cmp);
        println!(
            "forward [{b}, {t}]: best {:.2} ms, median {:.2} ms",
            ms[0],
            ms[ms.len() / 2]
        );
    }
    Ok(())
}
