//! Judge of `view_reshape.json`: `view(shape)` (sizes and strides, or PyTorch's error) and
//! `reshape(shape)` (sizes, strides, values, and whether it is a view).

use super::{build_operand, check_outcome, check_result, error_matches, FileReport};
use serde_json::Value;

/// Judges every case's `view` and `reshape` outcome.
pub fn judge(cases: &Value) -> FileReport {
    FileReport::judge_each(cases, judge_case)
}

fn judge_case(case: &Value) -> Result<(), String> {
    let t = build_operand(&case["input"], 0);
    let shape = super::ints(&case["shape"]);
    check_outcome(t.view(&shape), &case["view"]).map_err(|e| format!("view {shape:?}: {e}"))?;
    let want = &case["reshape"];
    match (
        t.reshape_with_kind(&shape),
        want.get("error").and_then(Value::as_str),
    ) {
        (Ok((r, is_view)), None) => {
            check_result(&r, want).map_err(|e| format!("reshape {shape:?}: {e}"))?;
            let want_view = want["is_view"].as_bool().unwrap_or(false);
            if is_view != want_view || r.shares_storage(&t) != want_view {
                return Err(format!(
                    "reshape {shape:?}: is_view {is_view} (shares storage {}), expected {want_view}",
                    r.shares_storage(&t)
                ));
            }
            Ok(())
        }
        (Ok((r, _)), Some(e)) => Err(format!(
            "reshape {shape:?}: expected error {e:?}, got sizes {:?}",
            r.sizes()
        )),
        (Err(ours), None) => Err(format!("reshape {shape:?}: unexpected error {ours}")),
        (Err(ours), Some(e)) if error_matches(&ours.to_string(), e) => Ok(()),
        (Err(ours), Some(e)) => Err(format!("reshape {shape:?}: error {ours:?}, expected {e:?}")),
    }
}
