//! The typed configs: GPT-2's sizes as types ([`Config`]), one type per model size, and
//! the check of a `save_pretrained` directory's `config.json` against one of them.

use std::collections::HashMap;
use std::path::Path;
use tensor_core::{Error, Result};
use tensor_typed::prelude::*;
use tensor_typed::shape::split::ProductOf;
use tinyjson::JsonValue;

dims! {
    /// Sequences in a batch.
    pub Batch;
    /// The positions of one forward pass: the whole sequence, or the new positions after
    /// a cache.
    pub Tok;
}

/// Token ids `[batch, seq]`.
pub type Ids = Tensor<i64, Shape![Batch, Tok]>;

/// A GPT-2 size: every static dim of the model, named once. The model code is written
/// once over these names (`Shape![Batch, Tok, C::Embd]`); the item bounds state the
/// products it splits and merges (`Embd` is `Heads · HeadDim`, `Qkv` is `3 · Embd`).
pub trait Config: 'static {
    /// The name the command line and errors use (`small`, `tiny`).
    const NAME: &'static str;
    /// `vocab_size`.
    type Vocab: tensor_typed::Dim;
    /// `n_positions`: the context.
    type Positions: tensor_typed::Dim;
    /// `n_embd` = `n_head · head_dim`.
    type Embd: tensor_typed::Dim + ProductOf<Self::Heads, Self::HeadDim>;
    /// `3 * n_embd`: the width of `c_attn`'s output (q, k and v).
    type Qkv: tensor_typed::Dim + ProductOf<D<3>, Self::Embd>;
    /// `n_inner` = `4 * n_embd`: the MLP's width.
    type Inner: tensor_typed::Dim;
    /// `n_head`.
    type Heads: tensor_typed::Dim;
    /// `n_embd / n_head`.
    type HeadDim: tensor_typed::Dim;
    /// `n_layer`.
    const N_LAYER: usize;
}

/// The size of a static dim.
pub fn size<X: tensor_typed::Dim>() -> usize {
    X::STATIC.expect("a config's dims are static")
}

/// A GPT-2 size's dims as a `dims!` block in module `$module`: one name per size
/// (`small::Embd` and `tiny::Embd` are two names: a tensor of one config never meets the
/// other's).
macro_rules! gpt2_dims {
    ($(#[$m:meta])* $module:ident: vocab $v:literal, positions $p:literal, embd $e:literal, heads $h:literal) => {
        $(#[$m])*
        pub mod $module {
            tensor_typed::dims! {
                /// `vocab_size`.
                pub Vocab = $v;
                /// `n_positions`: the context.
                pub Positions = $p;
                /// `n_embd`.
                pub Embd = $e;
                /// `3 * n_embd`: q, k and v side by side.
                pub Qkv = 3 * Embd;
                /// `n_inner` = `4 * n_embd`.
                pub Inner = 4 * Embd;
                /// `n_head`.
                pub Heads = $h;
                /// `n_embd / n_head`.
                pub HeadDim = Embd / Heads;
            }
        }
    };
}

gpt2_dims!(
    /// GPT-2 (small, 124M)'s dims.
    small: vocab 50257, positions 1024, embd 768, heads 12
);
gpt2_dims!(
    /// The tests' GPT-2's dims (`tests/data/gpt2/tiny`, recorded by `record.py`).
    tiny: vocab 1000, positions 128, embd 64, heads 4
);

/// Implements [`Config`] for `$cfg` with the names of the `dims!` module `$dims`.
macro_rules! config {
    ($cfg:ident, $dims:ident, $name:literal, layers = $layers:literal) => {
        impl Config for $cfg {
            const NAME: &'static str = $name;
            type Vocab = Dim![$dims::Vocab];
            type Positions = Dim![$dims::Positions];
            type Embd = Dim![$dims::Embd];
            type Qkv = Dim![$dims::Qkv];
            type Inner = Dim![$dims::Inner];
            type Heads = Dim![$dims::Heads];
            type HeadDim = Dim![$dims::HeadDim];
            const N_LAYER: usize = $layers;
        }
    };
}

/// GPT-2 (small, 124M): vocab 50257, 1024 positions, 768 wide, 12 layers of 12 heads.
pub struct Small;
config!(Small, small, "small", layers = 12);

/// The tests' GPT-2: vocab 1000, 128 positions, 64 wide, 2 layers of 4 heads.
pub struct Tiny;
config!(Tiny, tiny, "tiny", layers = 2);

/// Which typed config a `config.json` is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Which {
    /// [`Small`].
    Small,
    /// [`Tiny`].
    Tiny,
}

/// An error about `config.json`.
fn config_error(message: String) -> Error {
    Error::InvalidArgument {
        op: "config.json",
        message,
    }
}

/// A parsed `config.json`: its top-level fields.
pub struct HfConfig {
    fields: HashMap<String, JsonValue>,
}

impl HfConfig {
    /// Reads `dir/config.json`.
    ///
    /// # Errors
    /// The file cannot be read, or is not a JSON object.
    pub fn read(dir: &Path) -> Result<HfConfig> {
        let path = dir.join("config.json");
        let text = std::fs::read_to_string(&path)
            .map_err(|e| config_error(format!("cannot read {}: {e}", path.display())))?;
        HfConfig::parse(&text)
    }

    /// Parses the text of a `config.json`.
    ///
    /// # Errors
    /// Not a JSON object.
    pub fn parse(text: &str) -> Result<HfConfig> {
        let value: JsonValue = text
            .parse()
            .map_err(|e| config_error(format!("not JSON: {e}")))?;
        match value {
            JsonValue::Object(fields) => Ok(HfConfig { fields }),
            _ => Err(config_error("not a JSON object".into())),
        }
    }

    /// A whole-number field (`n_embd`), `None` when absent or `null`.
    ///
    /// # Errors
    /// The field is not a non-negative whole number, or is past 2^53 (where JSON's
    /// numbers stop being exact), named with its value as written (`n_embd is 1e300`).
    fn count(&self, field: &str) -> Result<Option<usize>> {
        /// 2^53: every whole number up to it is exact in JSON's (f64) numbers.
        const EXACT: f64 = 9_007_199_254_740_992.0;
        match self.fields.get(field) {
            None | Some(JsonValue::Null) => Ok(None),
            Some(JsonValue::Number(n)) if *n >= 0.0 && n.fract() == 0.0 && *n <= EXACT => {
                usize::try_from(*n as u64).map(Some).map_err(|_| {
                    config_error(format!(
                        "{field} is {n}, more than usize holds on this platform"
                    ))
                })
            }
            Some(JsonValue::Number(n)) if *n >= 0.0 && n.fract() == 0.0 => Err(config_error(
                format!("{field} is {n:e}, expected a whole number at most 2^53"),
            )),
            Some(other) => Err(config_error(format!(
                "{field} is {}, expected a whole number",
                other.stringify().unwrap_or_default()
            ))),
        }
    }

    /// A field that must be present and whole.
    fn required(&self, field: &str) -> Result<usize> {
        self.count(field)?
            .ok_or_else(|| config_error(format!("{field} is missing")))
    }

    /// Picks the typed config by `n_embd` and `n_layer`.
    ///
    /// # Errors
    /// Neither config has them: the message names the field and both values.
    pub fn which(&self) -> Result<Which> {
        let (embd, layers) = (self.required("n_embd")?, self.required("n_layer")?);
        let small = (size::<<Small as Config>::Embd>(), Small::N_LAYER);
        let tiny = (size::<<Tiny as Config>::Embd>(), Tiny::N_LAYER);
        if (embd, layers) == small {
            Ok(Which::Small)
        } else if (embd, layers) == tiny {
            Ok(Which::Tiny)
        } else if embd != small.0 && embd != tiny.0 {
            Err(config_error(format!(
                "n_embd is {embd}, the typed configs have {} (small) and {} (tiny)",
                small.0, tiny.0
            )))
        } else {
            let want = if embd == small.0 { small.1 } else { tiny.1 };
            Err(config_error(format!(
                "n_layer is {layers}, the typed config with n_embd {embd} has {want}"
            )))
        }
    }

    /// Checks every field the model depends on against the typed config `C`.
    ///
    /// # Errors
    /// The first field that differs, named with both values (`config.json: vocab_size
    /// is 1000, the typed config small has 50257`).
    pub fn check<C: Config>(&self) -> Result<()> {
        let embd = size::<C::Embd>();
        let counts = [
            ("vocab_size", size::<C::Vocab>()),
            ("n_positions", size::<C::Positions>()),
            ("n_embd", embd),
            ("n_layer", C::N_LAYER),
            ("n_head", size::<C::Heads>()),
        ];
        for (field, want) in counts {
            let got = self.required(field)?;
            if got != want {
                return Err(self.differs(field, &got.to_string(), &want.to_string(), C::NAME));
            }
        }
        if let Some(inner) = self.count("n_inner")? {
            if inner != size::<C::Inner>() {
                return Err(self.differs(
                    "n_inner",
                    &inner.to_string(),
                    &size::<C::Inner>().to_string(),
                    C::NAME,
                ));
            }
        }
        let strings = [("activation_function", "gelu_new"), ("model_type", "gpt2")];
        for (field, want) in strings {
            match self.fields.get(field) {
                Some(JsonValue::String(s)) if s == want => {}
                None if field == "activation_function" => {} // transformers' default
                other => {
                    let got = other.map_or("missing".into(), |v| v.stringify().unwrap_or_default());
                    return Err(self.differs(field, &got, &format!("\"{want}\""), C::NAME));
                }
            }
        }
        let flags = [
            ("tie_word_embeddings", true),
            ("scale_attn_weights", true),
            ("scale_attn_by_inverse_layer_idx", false),
            ("add_cross_attention", false),
        ];
        for (field, want) in flags {
            match self.fields.get(field) {
                None => {}
                Some(JsonValue::Boolean(b)) if *b == want => {}
                Some(v) => {
                    let got = v.stringify().unwrap_or_default();
                    return Err(self.differs(field, &got, &want.to_string(), C::NAME));
                }
            }
        }
        match self.fields.get("layer_norm_epsilon") {
            None => {}
            Some(JsonValue::Number(e)) if (*e - nn::LAYER_NORM_EPS).abs() <= 1e-12 => {}
            Some(v) => {
                let got = v.stringify().unwrap_or_default();
                return Err(self.differs("layer_norm_epsilon", &got, "1e-05", C::NAME));
            }
        }
        Ok(())
    }

    /// The error for a field whose value is not the typed config's.
    fn differs(&self, field: &str, got: &str, want: &str, name: &str) -> Error {
        config_error(format!(
            "{field} is {got}, the typed config {name} has {want}"
        ))
    }
}
