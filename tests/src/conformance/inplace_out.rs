//! Judge for `inplace_out.json`: `a.add_(b)`, `a.mul_(b)` and `torch.add(a, b, out=c)`;
//! the written-to tensor afterwards (sizes, strides, dtype, values), or PyTorch's
//! error.

use super::elementwise::expected;
use super::{build_operand, check_outcome, FileReport};
use serde_json::Value;
use tensor_core::Tensor;

fn run(case: &Value) -> Result<tensor_core::Result<Tensor>, String> {
    let layouts = case["inputs"].as_array().ok_or("case without inputs")?;
    let (a, b) = match layouts.as_slice() {
        [a, b] => (build_operand(a, 0), build_operand(b, 1)),
        _ => return Err("expected two inputs".into()),
    };
    Ok(match case["op"].as_str() {
        Some("add_") => a.add_(&b).map(|()| a),
        Some("mul_") => a.mul_(&b).map(|()| a),
        Some("out") => {
            let out = build_operand(&case["out"], 2);
            a.add_out(&b, &out)
        }
        other => return Err(format!("unknown op {other:?}")),
    })
}

/// Judges every case of `inplace_out.json`.
pub fn judge(cases: &Value) -> FileReport {
    FileReport::judge_each(cases, |case| check_outcome(run(case)?, &expected(case)))
}
