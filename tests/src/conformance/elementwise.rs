//! Judge for `elementwise.json`: `torch.add`, `torch.mul`, `torch.neg`,
//! `torch.addcmul` (value 1) and `torch.where` on strided operands; sizes, strides,
//! dtype and values of the result, or PyTorch's error.

use super::{build_operand, check_outcome, FileReport};
use serde_json::{json, Value};
use tensor_core::{Scalar, Tensor};

/// The expected outcome of a case: its `output`, or `{"error": ...}`.
pub(crate) fn expected(case: &Value) -> Value {
    match case.get("error") {
        Some(e) => json!({ "error": e }),
        None => case["output"].clone(),
    }
}

/// Runs one case's op on its operands.
fn run(case: &Value) -> Result<tensor_core::Result<Tensor>, String> {
    let layouts = case["inputs"].as_array().ok_or("case without inputs")?;
    let t: Vec<Tensor> = layouts
        .iter()
        .enumerate()
        .map(|(k, l)| build_operand(l, k))
        .collect();
    let op = case["op"].as_str().ok_or("case without op")?;
    Ok(match (op, t.as_slice()) {
        ("add", [a, b]) => a.add(b),
        ("mul", [a, b]) => a.mul(b),
        ("neg", [a]) => a.neg(),
        ("addcmul", [a, b, c]) => a.addcmul(b, c, Scalar::Int(1)),
        ("where", [c, x, y]) => Tensor::where_(c, x, y),
        _ => return Err(format!("unknown op {op} with {} inputs", t.len())),
    })
}

/// Judges every case of `elementwise.json`.
pub fn judge(cases: &Value) -> FileReport {
    FileReport::judge_each(cases, |case| check_outcome(run(case)?, &expected(case)))
}
