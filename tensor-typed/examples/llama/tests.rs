//! The llama example's tests (run by `cargo test`: the example is built with `test =
//! true`), on the tiny checkpoints of `tests/data/llama` recorded by `record.py` with
//! transformers: logits within 1e-5 and greedy ids equal, with and without the cache,
//! for default RoPE with an untied lm_head (`tiny`) and llama3 RoPE scaling with a tied
//! one (`tiny_llama3`); the bfloat16 copy of `tiny` loads into `f32`. The checkpoints'
//! RMSNorm weights are random (not 1), so a model that drops one cannot pass.

use crate::config::{Config, HfConfig, Ids, SmolLm2_135M, Tiny, TinyLlama3, Which};
use crate::generate::{generate, Choice};
use crate::model::{KvCache, Llama};
use std::path::PathBuf;
use tensor_typed::io::Weights;
use tensor_typed::prelude::*;

const VOCAB: usize = 256;

fn data() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/llama")
}

fn load<C: Config>(dir: &str) -> Llama<C> {
    Llama::load(&data().join(dir)).unwrap()
}

fn expected() -> Weights {
    Weights::open(data().join("expected.safetensors")).unwrap()
}

fn max_abs_diff(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f32::max)
}

fn ids(st: &Weights, name: &str) -> Ids {
    st.load(name).unwrap()
}

/// The full forward of `prompt` and `batch_prompts` against the recorded logits
/// (`prefix` names the model's tensors in expected.safetensors).
fn check_logits<C: Config>(model: &Llama<C>, prefix: &str) {
    let st = expected();
    for (input, output) in [("prompt", "logits"), ("batch_prompts", "batch_logits")] {
        let want: Tensor<f32, Shape![Dyn, Dyn, 256]> =
            st.load(&format!("{prefix}{output}")).unwrap();
        let got = model.forward(&ids(&st, input)).unwrap();
        assert_eq!(got.dims(), want.dims());
        let d = max_abs_diff(&got.to_vec(), &want.to_vec());
        assert!(
            d <= 1e-5,
            "{prefix}{output}: max |ours - transformers| = {d:e}"
        );
    }
}

/// Each cached step's logits against those `generate` chose its tokens from.
fn check_cached_steps<C: Config>(model: &Llama<C>, prefix: &str) {
    let st = expected();
    let greedy = ids(&st, &format!("{prefix}greedy")).to_vec();
    let want: Tensor<f32, Shape![Dyn, 256]> = st.load(&format!("{prefix}step_logits")).unwrap();
    let want = want.to_vec();
    let mut cache = KvCache::<C>::new(1, 7 + greedy.len()).unwrap();
    let mut input = ids(&st, "prompt");
    for (step, &token) in greedy.iter().enumerate() {
        let logits = model
            .next_logits(&input, Some(&mut cache))
            .unwrap()
            .to_vec();
        let d = max_abs_diff(&logits, &want[step * VOCAB..(step + 1) * VOCAB]);
        assert!(
            d <= 1e-5,
            "{prefix}step {step}: max |ours - transformers| = {d:e}"
        );
        input = Ids::from_vec(vec![token], &[1, 1]).unwrap();
    }
    // The prompt and every token but the last went through the cache.
    assert_eq!(cache.len(), 7 + greedy.len() - 1);
}

/// `generate`'s greedy ids, with and without the cache, against transformers'.
fn check_greedy<C: Config>(model: &Llama<C>, prefix: &str) {
    let st = expected();
    let prompt = ids(&st, "prompt").to_vec();
    let want = ids(&st, &format!("{prefix}greedy")).to_vec();
    for use_cache in [true, false] {
        let got = generate(model, &prompt, want.len(), &Choice::Greedy, use_cache).unwrap();
        assert_eq!(got, want, "{prefix}use_cache = {use_cache}");
    }
}

#[test]
fn logits_without_the_cache_match_transformers_within_1e_5() {
    check_logits(&load::<Tiny>("tiny"), "");
}

#[test]
fn each_cached_steps_logits_match_generates_within_1e_5() {
    check_cached_steps(&load::<Tiny>("tiny"), "");
}

#[test]
fn greedy_ids_equal_transformers_generate_with_and_without_the_cache() {
    check_greedy(&load::<Tiny>("tiny"), "");
}

#[test]
fn llama3_rope_scaling_and_a_tied_lm_head_match_transformers() {
    let model = load::<TinyLlama3>("tiny_llama3");
    assert!(model.lm_head.is_none());
    check_logits(&model, "llama3_");
    check_cached_steps(&model, "llama3_");
    check_greedy(&model, "llama3_");
}

#[test]
fn the_bf16_checkpoint_loads_into_f32_and_matches_within_bf16_tolerance() {
    let st = expected();
    let model = load::<Tiny>("tiny_bf16");
    let got = model.forward(&ids(&st, "prompt")).unwrap().to_vec();
    // transformers' forward with the same bfloat16 weights upcast to float32.
    let upcast: Tensor<f32, Shape![1, 7, 256]> = st.load("bf16_logits").unwrap();
    let d = max_abs_diff(&got, &upcast.to_vec());
    assert!(d <= 1e-5, "against the upcast weights: {d:e}");
    // Against the float32 checkpoint's logits: within what rounding the weights to
    // bfloat16 moves them (record.py prints 0.0144).
    let full: Tensor<f32, Shape![1, 7, 256]> = st.load("logits").unwrap();
    let d = max_abs_diff(&got, &full.to_vec());
    assert!(d > 1e-4 && d < 0.05, "against the float32 weights: {d:e}");
}

#[test]
fn the_fixtures_norm_weights_matter() {
    let prompt = ids(&expected(), "prompt");
    let base = load::<Tiny>("tiny").forward(&prompt).unwrap().to_vec();
    let mut m = load::<Tiny>("tiny");
    m.model.norm.weight = Tensor::ones();
    assert!(max_abs_diff(&m.forward(&prompt).unwrap().to_vec(), &base) > 1e-2);
    let mut m = load::<Tiny>("tiny");
    m.model.layers[1].input_layernorm.weight = Tensor::ones();
    assert!(max_abs_diff(&m.forward(&prompt).unwrap().to_vec(), &base) > 1e-2);
}

#[test]
fn the_cache_gives_the_logits_of_the_full_forward() {
    let model = load::<Tiny>("tiny");
    let prompt = ids(&expected(), "prompt");
    let full = model.forward(&prompt).unwrap().to_vec();
    let mut cache = KvCache::<Tiny>::new(1, 7).unwrap();
    for (i, &t) in prompt.to_vec().iter().enumerate() {
        let one = Ids::from_vec(vec![t], &[1, 1]).unwrap();
        let logits = model.next_logits(&one, Some(&mut cache)).unwrap().to_vec();
        let d = max_abs_diff(&logits, &full[i * VOCAB..(i + 1) * VOCAB]);
        assert!(d <= 1e-5, "position {i}: {d:e}");
    }
    let one = Ids::from_vec(vec![1], &[1, 1]).unwrap();
    let e = model
        .next_logits(&one, Some(&mut cache))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("the KV cache holds 7 positions: 7 cached and 1 new exceed it"),
        "{e}"
    );
}

fn tiny_config_text() -> String {
    std::fs::read_to_string(data().join("tiny/config.json")).unwrap()
}

#[test]
fn config_json_is_checked_field_by_field_against_the_typed_config() {
    let text = tiny_config_text();
    let config = HfConfig::parse(&text).unwrap();
    assert_eq!(config.which().unwrap(), Which::Tiny);
    config.check::<Tiny>().unwrap();
    let e = config.check::<TinyLlama3>().unwrap_err().to_string();
    assert_eq!(
        e,
        "config.json: num_hidden_layers is 2, the typed config tiny-llama3 has 1"
    );
    let cases = [
        (
            "\"num_key_value_heads\": 2",
            "\"num_key_value_heads\": 4",
            "num_key_value_heads is 4, the typed config tiny has 2",
        ),
        (
            "\"head_dim\": 16",
            "\"head_dim\": 8",
            "head_dim is 8, the typed config tiny has 16",
        ),
        (
            "\"intermediate_size\": 128",
            "\"intermediate_size\": 256",
            "intermediate_size is 256, the typed config tiny has 128",
        ),
        (
            "\"vocab_size\": 256",
            "\"vocab_size\": 512",
            "vocab_size is 512, the typed config tiny has 256",
        ),
        (
            "\"rms_norm_eps\": 1e-05",
            "\"rms_norm_eps\": 1e-06",
            "rms_norm_eps is 0.000001, the typed config tiny has 1e-5",
        ),
        (
            "\"rope_theta\": 10000.0",
            "\"rope_theta\": 500000.0",
            "rope_theta is 500000, the typed config tiny has 10000",
        ),
        (
            "\"tie_word_embeddings\": false",
            "\"tie_word_embeddings\": true",
            "tie_word_embeddings is true, the typed config tiny has false",
        ),
        (
            "\"max_position_embeddings\": 128",
            "\"max_position_embeddings\": 256",
            "max_position_embeddings is 256, the typed config tiny has 128",
        ),
        (
            "\"hidden_act\": \"silu\"",
            "\"hidden_act\": \"gelu\"",
            "hidden_act is \"gelu\", the typed config tiny has \"silu\"",
        ),
        (
            "\"attention_bias\": false",
            "\"attention_bias\": true",
            "attention_bias is true, the typed config tiny has false",
        ),
    ];
    for (from, to, want) in cases {
        assert!(text.contains(from), "{from}");
        let e = HfConfig::parse(&text.replace(from, to))
            .unwrap()
            .check::<Tiny>()
            .unwrap_err();
        assert!(e.to_string().contains(want), "{to}: {e}");
    }
    let e = HfConfig::parse(&text.replace("\"hidden_size\": 64", "\"hidden_size\": 128"))
        .unwrap()
        .which()
        .unwrap_err()
        .to_string();
    assert!(e.contains("no typed config has hidden_size 128, num_hidden_layers 2 and rope_type default; the typed configs are tiny (64, 2, default), tiny-llama3 (64, 1, llama3)"), "{e}");
}

#[test]
fn the_older_rope_theta_and_rope_scaling_fields_are_read_too() {
    let text = std::fs::read_to_string(data().join("tiny_llama3/config.json")).unwrap();
    let new = HfConfig::parse(&text).unwrap();
    assert_eq!(new.which().unwrap(), Which::TinyLlama3);
    new.check::<TinyLlama3>().unwrap();
    // The Hub's Llama 3 form: rope_theta at the top, the scaling under rope_scaling.
    let old = text.replace(
        "\"rope_parameters\"",
        "\"rope_theta\": 10000.0, \"rope_scaling\"",
    );
    let old = HfConfig::parse(&old).unwrap();
    assert_eq!(old.rope().unwrap(), new.rope().unwrap());
    old.check::<TinyLlama3>().unwrap();
    let yarn = HfConfig::parse(&text.replace("\"llama3\"", "\"yarn\"")).unwrap();
    let e = yarn.which().unwrap_err().to_string();
    assert!(e.contains("Unrecognized RoPE type: yarn"), "{e}");
    let e = HfConfig::parse(&text.replace("\"factor\": 8.0", "\"factor\": 4.0"))
        .unwrap()
        .check::<TinyLlama3>()
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("the rope scaling is Llama3 { factor: 4.0"),
        "{e}"
    );
    let e = HfConfig::parse(&text.replace("\"low_freq_factor\": 1.0,", ""))
        .unwrap()
        .rope()
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("rope_type llama3 needs low_freq_factor, which is missing"),
        "{e}"
    );
}

#[test]
fn loading_is_strict_and_names_missing_and_unused_tensors_and_the_dtype() {
    // Tiny's checkpoint as TinyLlama3 (one layer, tied): layer 1 and lm_head are unused
    // (lm_head is allowed to be, for a tied model).
    let e = Llama::<TinyLlama3>::load(&data().join("tiny"))
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("unused tensors [model.layers.1."), "{e}");
    assert!(!e.contains("lm_head"), "{e}");
    // A tied checkpoint lacks the untied model's lm_head.
    let e = Llama::<Tiny>::load(&data().join("tiny_llama3"))
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("lm_head.weight] (in the model, not in the file)"),
        "{e}"
    );
    let e = Llama::<SmolLm2_135M>::load(&data().join("tiny_bf16"))
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("tensor 'model.embed_tokens.weight' has dtype bfloat16 and shape [256, 64], the model's is float32 [49152, 576]"),
        "{e}"
    );
    let e = Llama::<Tiny>::load(&data().join("nowhere"))
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("nowhere"), "{e}");
}

/// The arguments of the command line `s` (split at spaces).
fn args(s: &str) -> std::result::Result<crate::cli::Args, String> {
    match crate::cli::parse_args(s.split_whitespace().map(String::from))? {
        crate::cli::Parsed::Run(a) => Ok(a),
        crate::cli::Parsed::Help(_) => Err("help".into()),
    }
}

/// The error of running the command line `s` on the tiny checkpoint.
fn run_error(s: &str) -> String {
    let dir = data().join("tiny");
    let a = args(&format!("--model {} {s}", dir.display())).unwrap();
    crate::run(&a).unwrap_err().to_string()
}

#[test]
fn help_prints_the_usage_of_every_flag() {
    let parsed = crate::cli::parse_args(["--help".to_string()].into_iter()).unwrap();
    let crate::cli::Parsed::Help(text) = parsed else {
        panic!("--help is a request for the usage")
    };
    let flags = [
        "Usage:",
        "--model",
        "--prompt-ids",
        "--max-new-tokens",
        "--temperature",
        "--top-k",
        "--top-p",
        "--seed",
        "--no-cache",
        "--tokenizer",
        "--prompt",
        "--bench-forward",
        "--reps",
    ];
    for flag in flags {
        assert!(text.contains(flag), "{flag} missing from:\n{text}");
    }
}

#[test]
fn the_command_line_runs_the_tiny_checkpoints() {
    let dir = data().join("tiny_llama3");
    let a = args(&format!(
        "--model {} --prompt-ids 17,208 --max-new-tokens 3",
        dir.display()
    ))
    .unwrap();
    crate::run(&a).unwrap();
    let a = args(&format!(
        "--model {} --bench-forward 1x4,2x3 --reps 1",
        dir.display()
    ))
    .unwrap();
    crate::run(&a).unwrap();
    let a = args("--model d --prompt-ids 1 --temperature 0.7 --top-k 40 --seed 9").unwrap();
    assert!(matches!(
        a.choice,
        Choice::Sample {
            top_k: 40,
            seed: 9,
            ..
        }
    ));
}

#[test]
fn a_prompt_id_outside_the_vocabulary_or_the_context_is_an_error() {
    let e = run_error("--prompt-ids 17,256");
    assert!(
        e.contains("prompt: id 256 (position 1) is not in the vocabulary of 256 tokens"),
        "{e}"
    );
    let e = run_error("--prompt-ids 1,2 --max-new-tokens 127");
    assert!(
        e.contains("2 prompt tokens and 127 new tokens exceed the context of 128 positions"),
        "{e}"
    );
    let e = run_error("--bench-forward 1x129");
    assert!(
        e.contains("129 tokens exceed the context of 128 positions"),
        "{e}"
    );
}

#[test]
fn sampling_is_seeded_and_the_same_with_and_without_the_cache() {
    let model = load::<Tiny>("tiny");
    let prompt = ids(&expected(), "prompt").to_vec();
    let choice = Choice::Sample {
        temperature: 0.8,
        top_k: 50,
        top_p: 0.9,
        seed: 7,
    };
    let a = generate(&model, &prompt, 10, &choice, true).unwrap();
    let b = generate(&model, &prompt, 10, &choice, false).unwrap();
    assert_eq!(a, b);
}

#[cfg(feature = "tokenizers")]
#[test]
fn text_in_text_out_equals_transformers_through_the_checkpoints_tokenizer() {
    let model = load::<crate::config::Tiny>("tiny");
    crate::text::check_text_in_text_out(&model, &data().join("tiny"), "llama");
}
