//! The typed configs: a Llama-family model's sizes as types ([`Config`]), one type per
//! model, and the check of a `save_pretrained` directory's `config.json` against one of
//! them, field by field. Both forms of the RoPE fields are read: transformers 5's
//! `rope_parameters` (`{"rope_type": "llama3", "rope_theta": ..., "factor": ...}`) and
//! the older top-level `rope_theta` with `rope_scaling` (as the Hub's Llama 3
//! checkpoints have them).

use std::collections::HashMap;
use std::path::Path;
use tensor_core::{Error, Result};
use tensor_typed::nn::{GqaDims, RopeScaling};
use tensor_typed::prelude::*;
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

/// A Llama-family model: its attention's dims ([`GqaDims`]: `Hidden`, `Heads`,
/// `KvHeads`, `Rep`, `HeadDim`, `QWidth`, `KvWidth`), the vocabulary and MLP widths, and
/// the values the forward pass reads. The model code is written once over these names.
pub trait Config: GqaDims {
    /// The name the command line and errors use (`tiny`, `llama-3.2-1b`).
    const NAME: &'static str;
    /// `vocab_size`.
    type Vocab: tensor_typed::Dim;
    /// `intermediate_size`: the MLP's width.
    type Inner: tensor_typed::Dim;
    /// `num_hidden_layers`.
    const N_LAYER: usize;
    /// `max_position_embeddings`: the context.
    const MAX_POSITIONS: usize;
    /// `rms_norm_eps`.
    const RMS_NORM_EPS: f64;
    /// `rope_theta`.
    const ROPE_THETA: f64;
    /// `rope_type` and its parameters.
    const ROPE_SCALING: RopeScaling;
    /// `tie_word_embeddings`: the lm_head is the token embedding.
    const TIE_WORD_EMBEDDINGS: bool;
}

/// The size of a static dim.
pub fn size<X: tensor_typed::Dim>() -> usize {
    X::STATIC.expect("a config's dims are static")
}

/// A model's dims as a `dims!` block in module `$module` (one name per size and model:
/// `tiny::Hidden` and `llama32_1b::Hidden` never meet) and the impl of [`GqaDims`] for
/// `$cfg`.
macro_rules! llama_dims {
    ($(#[$m:meta])* $module:ident for $cfg:ident: vocab $v:literal, hidden $e:literal,
     inner $i:literal, heads $h:literal, kv $kv:literal, head_dim $d:literal) => {
        $(#[$m])*
        pub mod $module {
            tensor_typed::dims! {
                /// `vocab_size`.
                pub Vocab = $v;
                /// `hidden_size`.
                pub Hidden = $e;
                /// `intermediate_size`.
                pub Inner = $i;
                /// `num_attention_heads`.
                pub Heads = $h;
                /// `num_key_value_heads`.
                pub KvHeads = $kv;
                /// Query heads per key/value head.
                pub Rep = Heads / KvHeads;
                /// `head_dim`.
                pub HeadDim = $d;
                /// `q_proj`'s width.
                pub QWidth = Heads * HeadDim;
                /// `k_proj`'s and `v_proj`'s width.
                pub KvWidth = KvHeads * HeadDim;
            }
        }
        impl GqaDims for $cfg {
            type Hidden = Dim![$module::Hidden];
            type Heads = Dim![$module::Heads];
            type KvHeads = Dim![$module::KvHeads];
            type Rep = Dim![$module::Rep];
            type HeadDim = Dim![$module::HeadDim];
            type QWidth = Dim![$module::QWidth];
            type KvWidth = Dim![$module::KvWidth];
        }
    };
}

/// The tests' model (`tests/data/llama/tiny`, recorded by `record.py`): vocab 256,
/// hidden 64, 2 layers of 4 query heads over 2 key/value heads, default RoPE.
pub struct Tiny;
llama_dims!(
    /// [`Tiny`]'s dims.
    tiny for Tiny: vocab 256, hidden 64, inner 128, heads 4, kv 2, head_dim 16
);
impl Config for Tiny {
    const NAME: &'static str = "tiny";
    type Vocab = Dim![tiny::Vocab];
    type Inner = Dim![tiny::Inner];
    const N_LAYER: usize = 2;
    const MAX_POSITIONS: usize = 128;
    const RMS_NORM_EPS: f64 = 1e-5;
    const ROPE_THETA: f64 = 10000.0;
    const ROPE_SCALING: RopeScaling = RopeScaling::Default;
    const TIE_WORD_EMBEDDINGS: bool = false;
}

/// The tests' model with llama3 RoPE scaling and a tied lm_head
/// (`tests/data/llama/tiny_llama3`): [`Tiny`]'s sizes, 1 layer.
pub struct TinyLlama3;
llama_dims!(
    /// [`TinyLlama3`]'s dims.
    tiny_llama3 for TinyLlama3: vocab 256, hidden 64, inner 128, heads 4, kv 2, head_dim 16
);
impl Config for TinyLlama3 {
    const NAME: &'static str = "tiny-llama3";
    type Vocab = Dim![tiny_llama3::Vocab];
    type Inner = Dim![tiny_llama3::Inner];
    const N_LAYER: usize = 1;
    const MAX_POSITIONS: usize = 128;
    const RMS_NORM_EPS: f64 = 1e-5;
    const ROPE_THETA: f64 = 10000.0;
    const ROPE_SCALING: RopeScaling = RopeScaling::Llama3 {
        factor: 8.0,
        low_freq_factor: 1.0,
        high_freq_factor: 4.0,
        original_max_position_embeddings: 32,
    };
    const TIE_WORD_EMBEDDINGS: bool = true;
}

/// SmolLM2-135M (`HuggingFaceTB/SmolLM2-135M`, a `LlamaForCausalLM`): vocab 49152,
/// hidden 576, 30 layers of 9 query heads over 3 key/value heads.
pub struct SmolLm2_135M;
llama_dims!(
    /// [`SmolLm2_135M`]'s dims.
    smollm2_135m for SmolLm2_135M: vocab 49152, hidden 576, inner 1536, heads 9, kv 3, head_dim 64
);
impl Config for SmolLm2_135M {
    const NAME: &'static str = "smollm2-135m";
    type Vocab = Dim![smollm2_135m::Vocab];
    type Inner = Dim![smollm2_135m::Inner];
    const N_LAYER: usize = 30;
    const MAX_POSITIONS: usize = 8192;
    const RMS_NORM_EPS: f64 = 1e-5;
    const ROPE_THETA: f64 = 100000.0;
    const ROPE_SCALING: RopeScaling = RopeScaling::Default;
    const TIE_WORD_EMBEDDINGS: bool = true;
}

/// Llama 3.2 1B (`meta-llama/Llama-3.2-1B`): vocab 128256, hidden 2048, 16 layers of 32
/// query heads over 8 key/value heads, llama3 RoPE scaling (factor 32).
pub struct Llama32_1B;
llama_dims!(
    /// [`Llama32_1B`]'s dims.
    llama32_1b for Llama32_1B: vocab 128256, hidden 2048, inner 8192, heads 32, kv 8, head_dim 64
);
impl Config for Llama32_1B {
    const NAME: &'static str = "llama-3.2-1b";
    type Vocab = Dim![llama32_1b::Vocab];
    type Inner = Dim![llama32_1b::Inner];
    const N_LAYER: usize = 16;
    const MAX_POSITIONS: usize = 131072;
    const RMS_NORM_EPS: f64 = 1e-5;
    const ROPE_THETA: f64 = 500000.0;
    const ROPE_SCALING: RopeScaling = RopeScaling::Llama3 {
        factor: 32.0,
        low_freq_factor: 1.0,
        high_freq_factor: 4.0,
        original_max_position_embeddings: 8192,
    };
    const TIE_WORD_EMBEDDINGS: bool = true;
}

/// Which typed config a `config.json` is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Which {
    /// [`Tiny`].
    Tiny,
    /// [`TinyLlama3`].
    TinyLlama3,
    /// [`SmolLm2_135M`].
    SmolLm2_135M,
    /// [`Llama32_1B`].
    Llama32_1B,
}

/// `(which, name, hidden_size, num_hidden_layers, rope_type)` of every typed config.
fn configs() -> [(Which, &'static str, usize, usize, &'static str); 4] {
    fn row<C: Config>(which: Which) -> (Which, &'static str, usize, usize, &'static str) {
        let rope = rope_type(&C::ROPE_SCALING);
        (which, C::NAME, size::<C::Hidden>(), C::N_LAYER, rope)
    }
    [
        row::<Tiny>(Which::Tiny),
        row::<TinyLlama3>(Which::TinyLlama3),
        row::<SmolLm2_135M>(Which::SmolLm2_135M),
        row::<Llama32_1B>(Which::Llama32_1B),
    ]
}

/// transformers' name of a scaling (`rope_type`).
fn rope_type(s: &RopeScaling) -> &'static str {
    match s {
        RopeScaling::Default => "default",
        RopeScaling::Linear { .. } => "linear",
        RopeScaling::Llama3 { .. } => "llama3",
    }
}

/// An error about `config.json`.
fn config_error(message: String) -> Error {
    Error::InvalidArgument {
        op: "config.json",
        message,
    }
}

/// A JSON value as written (`"relu"`, `8.0`, `null`).
fn text(v: &JsonValue) -> String {
    v.stringify().unwrap_or_default()
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

    /// A field, `None` when absent or `null`.
    fn get(&self, field: &str) -> Option<&JsonValue> {
        self.fields
            .get(field)
            .filter(|v| !matches!(v, JsonValue::Null))
    }

    /// A whole-number field, `None` when absent or `null`.
    ///
    /// # Errors
    /// The field is not a whole number in `0..=2^53`, named with its value as written.
    fn count(&self, field: &str) -> Result<Option<usize>> {
        self.get(field).map(|v| whole(field, v)).transpose()
    }

    /// A field that must be present and whole.
    fn required(&self, field: &str) -> Result<usize> {
        self.count(field)?
            .ok_or_else(|| config_error(format!("{field} is missing")))
    }

    /// Picks the typed config by `hidden_size`, `num_hidden_layers` and the RoPE type.
    ///
    /// # Errors
    /// No typed config has them: the message lists the typed configs.
    pub fn which(&self) -> Result<Which> {
        let (hidden, layers) = (
            self.required("hidden_size")?,
            self.required("num_hidden_layers")?,
        );
        let rope = self.rope()?.1;
        let found = configs()
            .into_iter()
            .find(|&(_, _, e, l, r)| (e, l, r) == (hidden, layers, rope_type(&rope)));
        match found {
            Some((which, ..)) => Ok(which),
            None => {
                let known: Vec<String> = configs()
                    .iter()
                    .map(|(_, name, e, l, r)| format!("{name} ({e}, {l}, {r})"))
                    .collect();
                Err(config_error(format!(
                    "no typed config has hidden_size {hidden}, num_hidden_layers {layers} and rope_type {}; the typed configs are {}",
                    rope_type(&rope),
                    known.join(", ")
                )))
            }
        }
    }

    /// `rope_theta` and the scaling: from `rope_parameters` when present, else from
    /// the top-level `rope_theta` (default 10000) and `rope_scaling` (`rope_type`, or
    /// the older `type`).
    ///
    /// # Errors
    /// A `rope_type` other than `default`, `linear` and `llama3` (transformers'
    /// message for an unknown one names it too), a missing or non-numeric parameter.
    pub fn rope(&self) -> Result<(f64, RopeScaling)> {
        let (params, theta) = match self.get("rope_parameters") {
            Some(JsonValue::Object(p)) => (Some(p), p.get("rope_theta")),
            Some(v) => {
                return Err(config_error(format!(
                    "rope_parameters is {}, expected an object",
                    text(v)
                )))
            }
            None => match self.get("rope_scaling") {
                Some(JsonValue::Object(p)) => (Some(p), self.get("rope_theta")),
                Some(v) => {
                    return Err(config_error(format!(
                        "rope_scaling is {}, expected an object",
                        text(v)
                    )))
                }
                None => (None, self.get("rope_theta")),
            },
        };
        let theta = match theta {
            None => 10000.0,
            Some(JsonValue::Number(n)) => *n,
            Some(v) => {
                return Err(config_error(format!(
                    "rope_theta is {}, expected a number",
                    text(v)
                )))
            }
        };
        let Some(p) = params else {
            return Ok((theta, RopeScaling::Default));
        };
        let kind = match p.get("rope_type").or_else(|| p.get("type")) {
            None => "default".to_string(),
            Some(JsonValue::String(s)) => s.clone(),
            Some(v) => {
                return Err(config_error(format!(
                    "rope_type is {}, expected a string",
                    text(v)
                )))
            }
        };
        let number = |name: &str| match p.get(name) {
            Some(JsonValue::Number(n)) => Ok(*n as f32),
            Some(v) => Err(config_error(format!(
                "rope {name} is {}, expected a number",
                text(v)
            ))),
            None => Err(config_error(format!(
                "rope_type {kind} needs {name}, which is missing"
            ))),
        };
        let scaling = match kind.as_str() {
            "default" => RopeScaling::Default,
            "linear" => RopeScaling::Linear {
                factor: number("factor")?,
            },
            "llama3" => RopeScaling::Llama3 {
                factor: number("factor")?,
                low_freq_factor: number("low_freq_factor")?,
                high_freq_factor: number("high_freq_factor")?,
                original_max_position_embeddings: match p.get("original_max_position_embeddings") {
                    Some(v) => whole("original_max_position_embeddings", v)?,
                    None => return Err(config_error("rope_type llama3 needs original_max_position_embeddings, which is missing".into())),
                },
            },
            other => {
                return Err(config_error(format!(
                    "Unrecognized RoPE type: {other} (this example implements default, linear and llama3)"
                )))
            }
        };
        Ok((theta, scaling))
    }

    /// Checks every field the model depends on against the typed config `C`.
    ///
    /// # Errors
    /// The first field that differs, named with both values (`config.json:
    /// num_key_value_heads is 4, the typed config tiny has 2`).
    pub fn check<C: Config>(&self) -> Result<()> {
        let differs = |field: &str, got: String, want: String| {
            config_error(format!(
                "{field} is {got}, the typed config {} has {want}",
                C::NAME
            ))
        };
        let heads = self.required("num_attention_heads")?;
        let hidden = self.required("hidden_size")?;
        let counts = [
            (
                "vocab_size",
                Some(self.required("vocab_size")?),
                size::<C::Vocab>(),
            ),
            ("hidden_size", Some(hidden), size::<C::Hidden>()),
            (
                "intermediate_size",
                Some(self.required("intermediate_size")?),
                size::<C::Inner>(),
            ),
            (
                "num_hidden_layers",
                Some(self.required("num_hidden_layers")?),
                C::N_LAYER,
            ),
            ("num_attention_heads", Some(heads), size::<C::Heads>()),
            // transformers' defaults: as many key/value heads as query heads, head_dim
            // hidden_size / num_attention_heads.
            (
                "num_key_value_heads",
                Some(self.count("num_key_value_heads")?.unwrap_or(heads)),
                size::<C::KvHeads>(),
            ),
            (
                "head_dim",
                Some(self.count("head_dim")?.unwrap_or(hidden / heads.max(1))),
                size::<C::HeadDim>(),
            ),
            (
                "max_position_embeddings",
                self.count("max_position_embeddings")?,
                C::MAX_POSITIONS,
            ),
        ];
        for (field, got, want) in counts {
            let got = got.ok_or_else(|| config_error(format!("{field} is missing")))?;
            if got != want {
                return Err(differs(field, got.to_string(), want.to_string()));
            }
        }
        match self.get("rms_norm_eps") {
            Some(JsonValue::Number(e))
                if (*e - C::RMS_NORM_EPS).abs() <= C::RMS_NORM_EPS * 1e-9 => {}
            other => {
                let got = other.map_or("missing".into(), text);
                return Err(differs(
                    "rms_norm_eps",
                    got,
                    format!("{:e}", C::RMS_NORM_EPS),
                ));
            }
        }
        let (theta, scaling) = self.rope()?;
        if theta != C::ROPE_THETA {
            return Err(differs(
                "rope_theta",
                theta.to_string(),
                C::ROPE_THETA.to_string(),
            ));
        }
        if scaling != C::ROPE_SCALING {
            return Err(differs(
                "the rope scaling",
                format!("{scaling:?}"),
                format!("{:?}", C::ROPE_SCALING),
            ));
        }
        let strings = [("model_type", "llama", false), ("hidden_act", "silu", true)];
        for (field, want, optional) in strings {
            match self.get(field) {
                Some(JsonValue::String(s)) if s == want => {}
                None if optional => {}
                other => {
                    let got = other.map_or("missing".into(), text);
                    return Err(differs(field, got, format!("\"{want}\"")));
                }
            }
        }
        // transformers' defaults when absent: untied, no biases.
        let flags = [
            ("tie_word_embeddings", C::TIE_WORD_EMBEDDINGS),
            ("attention_bias", false),
            ("mlp_bias", false),
        ];
        for (field, want) in flags {
            match self.get(field) {
                None if !want => {}
                Some(JsonValue::Boolean(b)) if *b == want => {}
                other => {
                    let got = other.map_or("missing (false)".into(), text);
                    return Err(differs(field, got, want.to_string()));
                }
            }
        }
        Ok(())
    }
}

/// A whole number of a field.
///
/// # Errors
/// Not a whole number in `0..=2^53` (where JSON's numbers stop being exact), named with
/// its value as written (`head_dim is 1e300`).
fn whole(field: &str, v: &JsonValue) -> Result<usize> {
    /// 2^53: every whole number up to it is exact in JSON's (f64) numbers.
    const EXACT: f64 = 9_007_199_254_740_992.0;
    match v {
        JsonValue::Number(n) if *n >= 0.0 && n.fract() == 0.0 && *n <= EXACT => {
            usize::try_from(*n as u64).map_err(|_| {
                config_error(format!(
                    "{field} is {n}, more than usize holds on this platform"
                ))
            })
        }
        JsonValue::Number(n) if *n >= 0.0 && n.fract() == 0.0 => Err(config_error(format!(
            "{field} is {n:e}, expected a whole number at most 2^53"
        ))),
        other => Err(config_error(format!(
            "{field} is {}, expected a whole number",
            text(other)
        ))),
    }
}
