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
/// The tokenizer cannot be loaded, or an id is not in it.
pub fn decode(path: &Path, ids: &[i64]) -> Result<String> {
    let ids: Vec<u32> = ids.iter().map(|&i| i as u32).collect();
    load(path)?
        .decode(&ids, false)
        .map_err(|e| Error::InvalidArgument {
            op: "tokenizer",
            message: format!("cannot decode: {e}"),
        })
}
