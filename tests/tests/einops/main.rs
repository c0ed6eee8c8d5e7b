//! `layout!` against einops 0.8: every positive case of `tests/data/pytorch/einops.json`
//! as a real `layout!` invocation on a typed tensor with static dims, its output type
//! spelled out (so the type-level shape computation is checked by the compiler), and its
//! sizes and values compared with einops' (input = arange(numel) as f64).
//!
//! `cases.rs` is generated from the JSON by `gen_cases.py` (beside it), in the JSON's
//! order; `dyn_and_views.rs` holds the hand-written tests for `Dyn` dims, run-time
//! sizes, views and token patterns.

mod cases;
mod dyn_and_views;

use serde_json::Value;
use std::sync::OnceLock;
use tensor_typed::{Shape, Tensor};

/// `cases[i]` of einops.json.
fn case(i: usize) -> &'static Value {
    static FILE: OnceLock<Value> = OnceLock::new();
    let file = FILE.get_or_init(|| {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/pytorch/einops.json");
        let text = std::fs::read_to_string(path).expect("read einops.json");
        serde_json::from_str(&text).expect("parse einops.json")
    });
    &file["cases"][i]
}

fn usizes(v: &Value) -> Vec<usize> {
    v.as_array()
        .expect("a list")
        .iter()
        .map(|x| x.as_u64().expect("a size") as usize)
        .collect()
}

/// The input of the einops cases: arange(numel) as f64, with static shape `S`.
fn arange<S: Shape>() -> Tensor<f64, S> {
    let dims = S::all_static().expect("static shape");
    let data = (0..dims.iter().product::<usize>())
        .map(|i| i as f64)
        .collect();
    Tensor::from_vec(data, &dims).expect("arange")
}

/// `y` has einops' output sizes and values for case `i` (values within 1e-6 relative).
fn assert_case<S: Shape>(y: &Tensor<f64, S>, i: usize) {
    let c = case(i);
    assert_eq!(
        y.dims(),
        usizes(&c["output_shape"]).as_slice(),
        "sizes of {}",
        c["pattern"]
    );
    let want: Vec<f64> = c["values"]
        .as_array()
        .expect("values")
        .iter()
        .map(|v| v.as_f64().expect("a value"))
        .collect();
    let got = y.to_vec();
    assert_eq!(got.len(), want.len(), "numel of {}", c["pattern"]);
    for (k, (g, w)) in got.iter().zip(&want).enumerate() {
        assert!(
            (g - w).abs() <= 1e-6 * w.abs().max(1.0),
            "{}: element {k} is {g}, einops {w}",
            c["pattern"]
        );
    }
}
