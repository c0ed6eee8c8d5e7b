//! Judge of `einsum.json`: `Tensor::einsum(equation, inputs)` against `torch.einsum`
//! (contracted left to right): the result's sizes, strides, dtype and values, or
//! PyTorch's error; for gradient cases, each input with `requires_grad` becomes a leaf,
//! `out.backward(grad_output)` runs, and each leaf's `.grad` is compared as the
//! autograd judge does (a grad's stride at a size-1 dim is informative only).

use super::autograd::backward_and_check;
use super::nn_index_conv_pool::input;
use super::{check_outcome, FileReport};
use serde_json::Value;
use std::collections::BTreeMap;
use tensor_core::Tensor;

/// The case's inputs, each a leaf requiring grad where the case says so.
fn inputs(case: &Value) -> Result<Vec<Tensor>, String> {
    let n = case["inputs"].as_array().map_or(0, Vec::len);
    let flags = case["requires_grad"].as_array();
    (0..n)
        .map(|k| {
            let t = input(case, k);
            let rg = flags
                .and_then(|f| f.get(k))
                .and_then(Value::as_bool)
                .unwrap_or(false);
            if rg {
                t.detach().requires_grad_(true).map_err(|e| e.to_string())
            } else {
                Ok(t)
            }
        })
        .collect()
}

fn judge_case(case: &Value) -> Result<(), String> {
    let equation = case["equation"].as_str().ok_or("case without equation")?;
    let t = inputs(case)?;
    let refs: Vec<&Tensor> = t.iter().collect();
    let out = Tensor::einsum(equation, &refs);
    let expected = &case["output"];
    if case.get("grads").is_none() {
        return check_outcome(out, expected);
    }
    let out = out.map_err(|e| format!("unexpected error: {e}"))?;
    check_outcome(Ok(out.detach()), expected)?;
    backward_and_check(case, &out, &t)
}

/// Judges every case of `einsum.json`, printing the pass/fail count of each kind.
pub fn judge(cases: &Value) -> FileReport {
    let mut per_kind: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut report = FileReport::default();
    for (i, case) in super::case_list(cases).iter().enumerate() {
        let kind = case["kind"].as_str().unwrap_or("?").to_string();
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| judge_case(case)))
            .unwrap_or_else(|_| Err("panicked".into()));
        let e = per_kind.entry(kind).or_default();
        match &outcome {
            Ok(()) => e.0 += 1,
            Err(_) => e.1 += 1,
        }
        let eq = case["equation"].as_str().unwrap_or("?");
        report.record(i, outcome.map_err(|why| format!("{eq:?}: {why}")));
    }
    for (kind, (pass, fail)) in per_kind {
        println!("  einsum.json {kind}: {pass} passed, {fail} failed");
    }
    report
}
