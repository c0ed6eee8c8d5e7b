//! Judge of `repeat.json`: `repeat(repeats)` (sizes, strides, dtype, values, or PyTorch's
//! error).

use super::{build_operand, check_outcome, ints, FileReport};
use serde_json::Value;

/// Judges every case's result, which must also be a fresh tensor.
pub fn judge(cases: &Value) -> FileReport {
    FileReport::judge_each(cases, |case| {
        let t = build_operand(&case["input"], 0);
        let repeats = ints(&case["repeats"]);
        let result = t.repeat(&repeats);
        if let Ok(r) = &result {
            if r.shares_storage(&t) {
                return Err("repeat returned a view".into());
            }
        }
        check_outcome(result, &case["result"]).map_err(|e| format!("repeat {repeats:?}: {e}"))
    })
}
