//! The gpt2 example's tests (run by `cargo test`: the example is built with `test =
//! true`), on the tiny checkpoint of `tests/data/gpt2` recorded by `record.py` with
//! transformers: logits within 1e-5 and greedy ids equal, with and without the cache.
//! The checkpoint's biases and layer norms are random (not 0 and 1), so a model that
//! drops one cannot pass.

use crate::config::{HfConfig, Ids, Tiny, Which};
use crate::generate::{generate, warp, Choice};
use crate::model::{Gpt2, KvCache};
use std::path::PathBuf;
use tensor_typed::io::Weights;
use tensor_typed::prelude::*;

fn data() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/gpt2")
}

fn tiny() -> Gpt2<Tiny> {
    Gpt2::load(&data().join("tiny")).unwrap()
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

#[test]
fn logits_without_the_cache_match_transformers_within_1e_5() {
    let (model, st) = (tiny(), expected());
    for (input, output) in [("prompt", "logits"), ("batch_prompts", "batch_logits")] {
        let want: Tensor<f32, Shape![Dyn, Dyn, 1000]> = st.load(output).unwrap();
        let got = model.forward(&ids(&st, input));
        assert_eq!(got.dims(), want.dims());
        let d = max_abs_diff(&got.to_vec(), &want.to_vec());
        assert!(d <= 1e-5, "{output}: max |ours - transformers| = {d:e}");
    }
}

#[test]
fn each_cached_steps_logits_match_generates_within_1e_5() {
    let (model, st) = (tiny(), expected());
    let prompt = ids(&st, "prompt");
    let greedy = ids(&st, "greedy").to_vec();
    let want: Tensor<f32, Shape![Dyn, 1000]> = st.load("step_logits").unwrap();
    let want = want.to_vec();
    let mut cache = KvCache::<Tiny>::new(1).unwrap();
    let mut input = prompt;
    for (step, &token) in greedy.iter().enumerate() {
        let logits = model.next_logits(&input, Some(&mut cache)).to_vec();
        let row = &want[step * 1000..(step + 1) * 1000];
        let d = max_abs_diff(&logits, row);
        assert!(d <= 1e-5, "step {step}: max |ours - transformers| = {d:e}");
        input = Ids::from_vec(vec![token], &[1, 1]).unwrap();
    }
    // The prompt and every token but the last went through the cache.
    assert_eq!(cache.len, 7 + greedy.len() - 1);
}

#[test]
fn greedy_ids_equal_transformers_generate_with_and_without_the_cache() {
    let (model, st) = (tiny(), expected());
    let prompt = ids(&st, "prompt").to_vec();
    let want = ids(&st, "greedy").to_vec();
    for use_cache in [true, false] {
        let got = generate(&model, &prompt, want.len(), &Choice::Greedy, use_cache).unwrap();
        assert_eq!(got, want, "use_cache = {use_cache}");
    }
}

#[test]
fn the_fixtures_biases_and_layer_norms_matter() {
    // Zeroing one bias, or setting one layer norm's scale to 1, moves the logits far
    // beyond the tolerance: a model that ignored them could not pass the tests above.
    let st = expected();
    let prompt = ids(&st, "prompt");
    let base = tiny().forward(&prompt).to_vec();
    let mut m = tiny();
    m.h[1].mlp.c_proj.bias = Some(Tensor::zeros());
    assert!(max_abs_diff(&m.forward(&prompt).to_vec(), &base) > 1e-2);
    let mut m = tiny();
    m.ln_f.weight = Tensor::ones();
    assert!(max_abs_diff(&m.forward(&prompt).to_vec(), &base) > 1e-2);
    let mut m = tiny();
    m.h[0].attn.c_attn.bias = Some(Tensor::zeros());
    assert!(max_abs_diff(&m.forward(&prompt).to_vec(), &base) > 1e-2);
}

#[test]
fn the_cache_gives_the_logits_of_the_full_forward() {
    let (model, st) = (tiny(), expected());
    let prompt = ids(&st, "prompt");
    let full = model.forward(&prompt).to_vec();
    let mut cache = KvCache::<Tiny>::new(1).unwrap();
    for (i, &t) in prompt.to_vec().iter().enumerate() {
        let one = Ids::from_vec(vec![t], &[1, 1]).unwrap();
        let logits = model.next_logits(&one, Some(&mut cache)).to_vec();
        let d = max_abs_diff(&logits, &full[i * 1000..(i + 1) * 1000]);
        assert!(d <= 1e-5, "position {i}: {d:e}");
    }
}

#[test]
fn config_json_is_checked_field_by_field_against_the_typed_config() {
    let text = std::fs::read_to_string(data().join("tiny/config.json")).unwrap();
    let config = HfConfig::parse(&text).unwrap();
    assert_eq!(config.which().unwrap(), Which::Tiny);
    config.check::<Tiny>().unwrap();
    let e = config
        .check::<crate::config::Small>()
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "config.json: vocab_size is 1000, the typed config small has 50257"
    );
    let wrong = HfConfig::parse(&text.replace("\"n_head\": 4", "\"n_head\": 8")).unwrap();
    let e = wrong.check::<Tiny>().unwrap_err().to_string();
    assert_eq!(e, "config.json: n_head is 8, the typed config tiny has 4");
    let gelu = HfConfig::parse(&text.replace("gelu_new", "relu")).unwrap();
    let e = gelu.check::<Tiny>().unwrap_err().to_string();
    assert!(
        e.contains("activation_function is \"relu\", the typed config tiny has \"gelu_new\""),
        "{e}"
    );
    let wide = HfConfig::parse(&text.replace("\"n_embd\": 64", "\"n_embd\": 128")).unwrap();
    let e = wide.which().unwrap_err().to_string();
    assert_eq!(
        e,
        "config.json: n_embd is 128, the typed configs have 768 (small) and 64 (tiny)"
    );
    let deep = HfConfig::parse(&text.replace("\"n_layer\": 2", "\"n_layer\": 3")).unwrap();
    let e = deep.which().unwrap_err().to_string();
    assert_eq!(
        e,
        "config.json: n_layer is 3, the typed config with n_embd 64 has 2"
    );
}

#[test]
fn loading_is_strict_and_names_missing_and_unused_tensors() {
    let st = Weights::open(data().join("tiny/model.safetensors")).unwrap();
    let mut tensors: Vec<(String, tensor_core::Tensor)> = st
        .names()
        .filter(|n| *n != "transformer.h.1.ln_2.bias")
        .map(|n| (n.to_string(), st.load_dyn(n).unwrap()))
        .collect();
    tensors.push((
        "transformer.extra".into(),
        st.load_dyn("transformer.ln_f.bias").unwrap(),
    ));
    let dir = std::env::temp_dir().join(format!("gpt2_strict_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let refs: Vec<(&str, &tensor_core::Tensor)> =
        tensors.iter().map(|(n, t)| (n.as_str(), t)).collect();
    tensor_core::io::save_safetensors(dir.join("model.safetensors"), &refs).unwrap();
    let e = Gpt2::<Tiny>::load(&dir).err().unwrap().to_string();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(
        e.contains("missing tensors [transformer.h.1.ln_2.bias]"),
        "{e}"
    );
    assert!(e.contains("unused tensors [transformer.extra]"), "{e}");
    let small = Gpt2::<crate::config::Small>::load(&data().join("tiny"))
        .err()
        .unwrap()
        .to_string();
    assert!(
        small.contains("tensor 'transformer.wte.weight' has dtype float32 and shape [1000, 64], the model's is float32 [50257, 768]"),
        "{small}"
    );
}

#[test]
fn sampling_is_seeded_and_follows_the_warpers() {
    let (model, st) = (tiny(), expected());
    let prompt = ids(&st, "prompt").to_vec();
    let choice = Choice::Sample {
        temperature: 0.8,
        top_k: 50,
        top_p: 0.9,
        seed: 7,
    };
    let a = generate(&model, &prompt, 10, &choice, true).unwrap();
    let b = generate(&model, &prompt, 10, &choice, false).unwrap();
    assert_eq!(a, b, "the same draws with and without the cache");
    let top1 = Choice::Sample {
        temperature: 1.0,
        top_k: 1,
        top_p: 1.0,
        seed: 3,
    };
    let greedy = generate(&model, &prompt, 10, &Choice::Greedy, true).unwrap();
    assert_eq!(generate(&model, &prompt, 10, &top1, true).unwrap(), greedy);

    let mut l = vec![1.0, 3.0, 2.0, 0.0];
    warp(&mut l, 1.0, 2, 1.0);
    assert_eq!(l, [f32::NEG_INFINITY, 3.0, 2.0, f32::NEG_INFINITY]);
    // Probabilities of [0, ln 2, ln 3, ln 4] are 0.1, 0.2, 0.3, 0.4: top-p 0.6 keeps 0.4 and 0.3.
    let mut l = vec![0.0, 2f32.ln(), 3f32.ln(), 4f32.ln()];
    warp(&mut l, 1.0, 0, 0.6);
    assert_eq!(l[..2], [f32::NEG_INFINITY, f32::NEG_INFINITY]);
    assert!(l[2].is_finite() && l[3].is_finite());
}

#[test]
fn too_long_a_generation_is_an_error_naming_the_context() {
    let model = tiny();
    let e = generate(&model, &[1, 2, 3], 126, &Choice::Greedy, true)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("3 prompt tokens and 126 new tokens exceed the context of 128 positions"),
        "{e}"
    );
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
fn the_command_line_reads_ids_and_sampling_flags() {
    let a = args("--model d --prompt-ids 464,2068,7586 --max-new-tokens 5").unwrap();
    assert_eq!(
        (a.prompt_ids.clone(), a.max_new, a.choice.clone()),
        (vec![464, 2068, 7586], 5, Choice::Greedy)
    );
    let a = args("--model d --prompt-ids 1 --temperature 0.7 --top-k 40 --top-p 0.95 --seed 9")
        .unwrap();
    assert_eq!(
        a.choice,
        Choice::Sample {
            temperature: 0.7,
            top_k: 40,
            top_p: 0.95,
            seed: 9
        }
    );
    let e = args("--prompt-ids 1").unwrap_err();
    assert!(e.contains("--model"), "{e}");
    let e = args("--model d --prompt-ids 1,x").unwrap_err();
    assert!(e.contains("'x'") && e.contains("--prompt-ids"), "{e}");
    let a = args("--model d --bench-forward 2x32,1x128 --reps 3").unwrap();
    assert_eq!((a.bench, a.reps), (vec![(2, 32), (1, 128)], 3));
}

/// Every flag of the command line, in its usage's order.
const FLAGS: [&str; 12] = [
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

#[test]
fn help_prints_the_usage_of_every_flag() {
    let parsed = crate::cli::parse_args(["--help".to_string()].into_iter()).unwrap();
    let crate::cli::Parsed::Help(text) = parsed else {
        panic!("--help is a request for the usage")
    };
    for flag in std::iter::once("Usage:").chain(FLAGS) {
        assert!(text.contains(flag), "{flag} missing from:\n{text}");
    }
}

#[test]
fn a_temperature_that_is_not_finite_and_positive_is_an_error() {
    for t in ["NaN", "inf", "0", "-1", "1e39", "x"] {
        let e = args(&format!("--model d --prompt-ids 1 --temperature={t}")).unwrap_err();
        assert!(
            e.contains("expected a finite positive number"),
            "--temperature {t}: {e}"
        );
    }
}

#[test]
fn a_top_p_outside_0_to_1_is_an_error() {
    for p in ["0", "1.5", "NaN", "-0.5"] {
        let e = args(&format!("--model d --prompt-ids 1 --top-p={p}")).unwrap_err();
        assert!(
            e.contains("expected a number in (0, 1]"),
            "--top-p {p}: {e}"
        );
    }
}

#[test]
fn flags_that_exclude_each_other_are_errors() {
    let e = args("--model d --prompt-ids 1 --bench-forward 1x2").unwrap_err();
    assert!(e.contains("cannot be used with"), "{e}");
    let e = args("--model d --prompt hello").unwrap_err();
    assert!(e.contains("--tokenizer"), "{e}");
    let e = args("--model d").unwrap_err();
    assert!(e.contains("--prompt-ids"), "{e}");
    for shape in ["0x4", "4x0", "4", "x", "-1x2", "18446744073709551616x1"] {
        let e = args(&format!("--model d --bench-forward={shape}")).unwrap_err();
        assert!(e.contains("expected BxT"), "{shape}: {e}");
    }
    assert!(args("--model d --bench-forward 1x1 --reps 0").is_err());
}

#[test]
fn a_prompt_id_outside_the_vocabulary_is_an_error() {
    // The README's ids are GPT-2 small's; the tiny checkpoint has 1000 tokens.
    let e = run_error("--prompt-ids 464,2068,7586");
    assert!(
        e.contains("prompt: id 2068 (position 1) is not in the vocabulary of 1000 tokens"),
        "{e}"
    );
    let e = run_error("--prompt-ids -1");
    assert!(e.contains("prompt: id -1 (position 0)"), "{e}");
}

#[test]
fn a_generation_longer_than_any_context_is_an_error_not_an_overflow() {
    let e = run_error("--prompt-ids 1,2 --max-new-tokens 18446744073709551615");
    assert!(e.contains("exceed the context of 128 positions"), "{e}");
}

#[test]
fn a_bench_shape_past_the_context_or_the_memory_is_an_error() {
    let e = run_error("--bench-forward 1x129");
    assert!(
        e.contains("--bench-forward: 1x129: 129 tokens exceed the context of 128 positions"),
        "{e}"
    );
    let e = run_error("--bench-forward 1000000x1000000");
    assert!(e.contains("exceed the context"), "{e}");
    let e = crate::model_limits::check_bench(&[(1_000_000, 128)], 128, 1000, 1 << 30)
        .unwrap_err()
        .to_string();
    assert!(e.contains("need more than the 1024 MiB"), "{e}");
    let e = crate::model_limits::check_bench(&[(usize::MAX, 128)], 128, 1000, u64::MAX)
        .unwrap_err()
        .to_string();
    assert!(e.contains("need more than"), "{e}");
    crate::model_limits::check_bench(&[(2, 128)], 128, 1000, 1 << 30).unwrap();
}

#[test]
fn a_tiny_temperature_samples_the_most_likely_tokens() {
    let (model, st) = (tiny(), expected());
    let prompt = ids(&st, "prompt").to_vec();
    let greedy = generate(&model, &prompt, 8, &Choice::Greedy, true).unwrap();
    let cold = Choice::Sample {
        temperature: 1e-40,
        top_k: 0,
        top_p: 1.0,
        seed: 1,
    };
    assert_eq!(generate(&model, &prompt, 8, &cold, true).unwrap(), greedy);
    let mut l = vec![1.0, 3.0, 2.0];
    warp(&mut l, 1e-40, 0, 1.0);
    assert_eq!(l, [f32::NEG_INFINITY, 0.0, f32::NEG_INFINITY]);
}

#[test]
fn a_huge_count_in_config_json_is_reported_with_its_value() {
    let text = std::fs::read_to_string(data().join("tiny/config.json")).unwrap();
    let huge = HfConfig::parse(&text.replace("\"n_embd\": 64", "\"n_embd\": 1e300")).unwrap();
    let e = huge.which().unwrap_err().to_string();
    assert!(e.contains("n_embd is 1e300"), "{e}");
}

/// A small deterministic generator for the argument fuzz (xorshift64*).
struct Xorshift(u64);

impl Xorshift {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }
}

#[test]
fn random_command_lines_parse_or_fail_without_panicking() {
    let flags: Vec<&str> = FLAGS
        .iter()
        .copied()
        .chain(["--help", "--", "--bogus"])
        .collect();
    let values = [
        "0",
        "1",
        "-1",
        "1,2,3",
        "464,2068,7586",
        "1,,2",
        "18446744073709551615",
        "18446744073709551616",
        "NaN",
        "inf",
        "1e-40",
        "1e39",
        "0.5",
        "1.0",
        "",
        "x",
        "1x129",
        "1000000x1000000",
        "2x32,1x128",
        "0x0",
        "\u{0}",
        "é",
        "d",
    ];
    let mut rng = Xorshift(0x2545_f491_4f6c_dd1d);
    let start = std::time::Instant::now();
    for _ in 0..3000 {
        let len = rng.below(8);
        let args: Vec<String> = (0..len)
            .map(|_| {
                if rng.below(2) == 0 {
                    flags[rng.below(flags.len())].to_string()
                } else {
                    values[rng.below(values.len())].to_string()
                }
            })
            .collect();
        if let Ok(crate::cli::Parsed::Run(a)) = crate::cli::parse_args(args.clone().into_iter()) {
            assert!(a.reps >= 1, "{args:?}");
            assert!(a.bench.iter().all(|&(b, t)| b > 0 && t > 0), "{args:?}");
            if let Choice::Sample {
                temperature, top_p, ..
            } = a.choice
            {
                assert!(temperature.is_finite() && temperature > 0.0, "{args:?}");
                assert!(top_p > 0.0 && top_p <= 1.0, "{args:?}");
            }
            assert!(!a.prompt_ids.is_empty() || a.prompt.is_some() || !a.bench.is_empty());
        }
    }
    assert!(start.elapsed().as_secs() < 30, "took {:?}", start.elapsed());
}

#[cfg(feature = "tokenizers")]
#[test]
fn text_in_text_out_equals_transformers_through_the_checkpoints_tokenizer() {
    crate::text::check_text_in_text_out(&tiny(), &data().join("tiny"), "gpt2");
}
