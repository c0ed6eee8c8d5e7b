//! Text in and out with a `tokenizer.json` (the `tokenizers` crate; cargo feature
//! `tokenizers` of tensor-typed, off by default).

use std::path::Path;
use tensor_core::{Error, Result};
use tokenizers::Tokenizer;

fn load(path: &Path) -> Result<Tokenizer> {
    Tokenizer::from_file(path).map_err(|e| Error::InvalidArgument {
        op: "tokenizer",
        message: format!("cannot load {}: {e}", path.display()),
    })
}

/// The ids of `text`.
///
/// # Errors
/// The tokenizer cannot be loaded or fails.
pub fn encode(path: &Path, text: &str) -> Result<Vec<i64>> {
    let encoding = load(path)?
        .encode(text, false)
        .map_err(|e| Error::InvalidArgument {
            op: "tokenizer",
            message: format!("cannot encode the prompt: {e}"),
        })?;
    Ok(encoding.get_ids().iter().map(|&i| i64::from(i)).collect())
}

/// The text of `ids`.
///
/// # Errors
/// The tokenizer cannot be loaded, or an id is not one of its tokens (named, with the
/// tokenizer's size).
pub fn decode(path: &Path, ids: &[i64]) -> Result<String> {
    let tokenizer = load(path)?;
    let mut known = Vec::with_capacity(ids.len());
    for &id in ids {
        match u32::try_from(id)
            .ok()
            .filter(|&i| tokenizer.id_to_token(i).is_some())
        {
            Some(i) => known.push(i),
            None => {
                return Err(Error::InvalidArgument {
                    op: "tokenizer",
                    message: format!(
                        "{} has no token for id {id} (its vocabulary has {} tokens)",
                        path.display(),
                        tokenizer.get_vocab_size(true)
                    ),
                })
            }
        }
    }
    tokenizer
        .decode(&known, false)
        .map_err(|e| Error::InvalidArgument {
            op: "tokenizer",
            message: format!("cannot decode: {e}"),
        })
}
