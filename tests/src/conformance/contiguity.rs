//! Judge of `contiguity.json`: the contiguity predicates and `suggest_memory_format`
//! of a layout, against PyTorch's `is_contiguous(memory_format=...)` and c10's flags.

use super::{build_operand, FileReport};
use serde_json::Value;
use tensor_core::MemoryFormat;

/// Judges every case: `is_contiguous`, `is_channels_last_contiguous`,
/// `is_channels_last_3d_contiguous`, `is_non_overlapping_and_dense` and
/// `suggest_memory_format` (exact_match = false).
pub fn judge(cases: &Value) -> FileReport {
    FileReport::judge_each(cases, judge_case)
}

fn format_name(f: MemoryFormat) -> &'static str {
    match f {
        MemoryFormat::Contiguous => "contiguous",
        MemoryFormat::ChannelsLast => "channels_last",
        MemoryFormat::ChannelsLast3d => "channels_last_3d",
        MemoryFormat::Preserve => "preserve",
    }
}

fn judge_case(case: &Value) -> Result<(), String> {
    let t = build_operand(&case["layout"], 0);
    let got = [
        ("is_contiguous", t.is_contiguous()),
        (
            "is_channels_last_contiguous",
            t.is_contiguous_format(MemoryFormat::ChannelsLast),
        ),
        (
            "is_channels_last_3d_contiguous",
            t.is_contiguous_format(MemoryFormat::ChannelsLast3d),
        ),
        (
            "is_non_overlapping_and_dense",
            t.is_non_overlapping_and_dense(),
        ),
    ];
    let mut diffs = Vec::new();
    for (key, ours) in got {
        if let Some(want) = case.get(key).and_then(Value::as_bool) {
            if want != ours {
                diffs.push(format!("{key} {ours}, expected {want}"));
            }
        }
    }
    if let Some(want) = case.get("suggest_memory_format").and_then(Value::as_str) {
        let ours = format_name(t.suggest_memory_format(false));
        if ours != want {
            diffs.push(format!("suggest_memory_format {ours}, expected {want}"));
        }
    }
    if diffs.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} (sizes {:?} strides {:?})",
            diffs.join("; "),
            t.sizes(),
            t.strides()
        ))
    }
}
