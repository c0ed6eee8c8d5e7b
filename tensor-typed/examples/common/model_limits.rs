//! The checks of a command line against the model it loaded, shared by the gpt2 and
//! llama examples: prompt ids within the vocabulary, `--bench-forward` shapes within the
//! context and the memory.

use tensor_core::{Error, Result};

/// An error of the command line's `what` against the model's config.
fn arg_error(what: &'static str, message: String) -> Error {
    Error::InvalidArgument { op: what, message }
}

/// Checks that every id of `prompt` is a token of a vocabulary of `vocab` ids.
///
/// # Errors
/// The first id outside `0..vocab`, named with its position and the vocabulary's size.
pub fn check_prompt(prompt: &[i64], vocab: usize) -> Result<()> {
    match prompt
        .iter()
        .enumerate()
        .find(|(_, &id)| usize::try_from(id).map_or(true, |id| id >= vocab))
    {
        Some((i, id)) => Err(arg_error(
            "prompt",
            format!(
                "id {id} (position {i}) is not in the vocabulary of {vocab} tokens (ids 0 to {})",
                vocab.saturating_sub(1)
            ),
        )),
        None => Ok(()),
    }
}

/// Checks that each `--bench-forward` shape `[batch, seq]` fits the model: `seq` within
/// the context of `n_positions`, and the logits (`batch * seq * vocab` f32s) within
/// `memory` bytes, all in checked arithmetic.
///
/// # Errors
/// The first shape that does not fit, named with the bound it passes.
pub fn check_bench(
    shapes: &[(usize, usize)],
    n_positions: usize,
    vocab: usize,
    memory: u64,
) -> Result<()> {
    for &(b, t) in shapes {
        if t > n_positions {
            return Err(arg_error(
                "--bench-forward",
                format!("{b}x{t}: {t} tokens exceed the context of {n_positions} positions"),
            ));
        }
        let bytes = b
            .checked_mul(t)
            .and_then(|n| n.checked_mul(vocab))
            .and_then(|n| n.checked_mul(4))
            .and_then(|n| u64::try_from(n).ok());
        match bytes {
            Some(bytes) if bytes <= memory => {}
            _ => {
                return Err(arg_error("--bench-forward", format!(
                    "{b}x{t}: the logits alone ({b} x {t} x {vocab} f32s) need more than the {} MiB of memory available",
                    memory >> 20
                )))
            }
        }
    }
    Ok(())
}

/// The memory available to a run, in bytes (`MemAvailable` of `/proc/meminfo`; without
/// it, 16 GiB).
pub fn available_memory() -> u64 {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| {
            let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
            let kb = line.split_whitespace().nth(1)?.parse::<u64>().ok()?;
            Some(kb.saturating_mul(1024))
        })
        .unwrap_or(16 << 30)
}
