//! Judge of `expand.json`: `expand(sizes)` (sizes and strides, or PyTorch's error).

use super::{build_operand, check_outcome, ints, FileReport};
use serde_json::Value;

/// Judges every case: the expanded view's sizes and strides, its values (when given),
/// and that it shares the input's storage; or the error message.
pub fn judge(cases: &Value) -> FileReport {
    FileReport::judge_each(cases, |case| {
        let t = build_operand(&case["input"], 0);
        let sizes = ints(&case["sizes"]);
        let result = t.expand(&sizes);
        if let Ok(e) = &result {
            if !e.shares_storage(&t) {
                return Err("expand copied".into());
            }
        }
        check_outcome(result, &case["result"]).map_err(|e| format!("expand {sizes:?}: {e}"))
    })
}
