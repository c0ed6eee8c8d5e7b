//! Judge of `memory_format.json`: the strides PyTorch picks for `clone(preserve_format)`,
//! `empty_like`, `contiguous()`, and for 4-d/5-d `contiguous(channels_last[_3d])` and
//! `to(memory_format=channels_last[_3d])`.

use super::{build_operand, ints, FileReport};
use serde_json::Value;
use tensor_core::{MemoryFormat, Tensor};

/// Judges every case: each op's strides (ignored when the tensor has no elements), and
/// that every copy holds the input's values.
pub fn judge(cases: &Value) -> FileReport {
    FileReport::judge_each(cases, judge_case)
}

fn judge_case(case: &Value) -> Result<(), String> {
    let t = build_operand(&case["input"], 0);
    let cl = match t.dim() {
        4 => Some(MemoryFormat::ChannelsLast),
        5 => Some(MemoryFormat::ChannelsLast3d),
        _ => None,
    };
    let mut ops: Vec<(&str, tensor_core::Result<Tensor>)> = vec![
        ("clone_preserve", t.clone(MemoryFormat::Preserve)),
        ("empty_like", t.empty_like(MemoryFormat::Preserve)),
        ("contiguous", t.contiguous()),
    ];
    if let Some(cl) = cl {
        ops.push(("contiguous_cl", t.contiguous_format(cl)));
        ops.push(("to_cl", t.to_memory_format(cl)));
    }
    let values = t.to_vec_f64().map_err(|e| e.to_string())?;
    for (key, result) in ops {
        let Some(want) = case.get(key) else { continue };
        let r = result.map_err(|e| format!("{key}: unexpected error {e}"))?;
        let got: Vec<i64> = r.strides().iter().map(|&s| s as i64).collect();
        if r.sizes() != t.sizes() {
            return Err(format!(
                "{key}: sizes {:?}, expected {:?}",
                r.sizes(),
                t.sizes()
            ));
        }
        if r.numel() > 0 && got != ints(want) {
            return Err(format!(
                "{key}: strides {got:?}, expected {:?} (input sizes {:?} strides {:?})",
                ints(want),
                t.sizes(),
                t.strides()
            ));
        }
        if key != "empty_like" && r.to_vec_f64().unwrap() != values {
            return Err(format!("{key}: values differ from the input's"));
        }
    }
    Ok(())
}
