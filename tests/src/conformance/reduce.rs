//! Judge of `reduce.json`: `t.sum(dims, keepdim)`, `t.amax(...)`, `t.amin(...)` and
//! `t.prod(dims[0], keepdim)` (sizes, strides, dtype, values, or PyTorch's error).

use super::{build_operand, check_outcome, ints, FileReport};
use serde_json::Value;

/// Judges every case's result against the op it names.
pub fn judge(cases: &Value) -> FileReport {
    FileReport::judge_each(cases, |case| {
        let t = build_operand(&case["input"], 0);
        let op = case["op"].as_str().ok_or("case without op")?;
        let dims = ints(&case["dims"]);
        let keepdim = case["keepdim"].as_bool().ok_or("case without keepdim")?;
        let result = match op {
            "sum" => t.sum(&dims, keepdim),
            "amax" => t.amax(&dims, keepdim),
            "amin" => t.amin(&dims, keepdim),
            // torch.prod takes a single dim.
            "prod" => t.prod(&dims[..dims.len().min(1)], keepdim),
            other => return Err(format!("unknown op {other}")),
        };
        check_outcome(result, &case["result"])
            .map_err(|e| format!("{op} {:?} dims {dims:?} keepdim {keepdim}: {e}", t.sizes()))
    })
}
