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

/// Text in, text out against transformers: for each case that
/// `tests/data/tokenizers/record.py` recorded for checkpoint `key` (`gpt2`, `llama`), the
/// prompt's ids through the checkpoint's `tokenizer.json`, the greedy new ids and the
/// decoded text of the prompt and them equal transformers'.
#[cfg(test)]
pub fn check_text_in_text_out<M: crate::generate::Model>(model: &M, dir: &Path, key: &str) {
    use crate::generate::{generate, Choice};
    use tinyjson::JsonValue;
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tokenizers");
    let text = std::fs::read_to_string(data.join("expected.json")).unwrap();
    let json: JsonValue = text.parse().unwrap();
    let max_new = json["max_new_tokens"].get::<f64>().copied().unwrap() as usize;
    let JsonValue::Array(cases) = &json[key] else {
        panic!("no cases for {key}")
    };
    let ids_of = |v: &JsonValue| -> Vec<i64> {
        let JsonValue::Array(a) = v else {
            panic!("not a list of ids")
        };
        a.iter().map(|x| *x.get::<f64>().unwrap() as i64).collect()
    };
    let tokenizer = dir.join("tokenizer.json");
    for case in cases {
        let prompt: &String = case["prompt"].get().unwrap();
        let ids = encode(&tokenizer, prompt).unwrap();
        assert_eq!(ids, ids_of(&case["prompt_ids"]), "{key}: ids of {prompt:?}");
        let out = generate(model, &ids, max_new, &Choice::Greedy, true).unwrap();
        let all = ids_of(&case["ids"]);
        assert_eq!(out, all[ids.len()..], "{key}: greedy ids after {prompt:?}");
        let want: &String = case["text"].get().unwrap();
        let text = decode(&tokenizer, &[ids, out].concat()).unwrap();
        assert_eq!(&text, want, "{key}: text");
    }
}
