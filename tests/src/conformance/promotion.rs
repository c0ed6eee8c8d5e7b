//! Judge for `promotion.json`: `torch.result_type(a, b)` for tensors with dims, 0-d
//! tensors and Python scalars (wrapped numbers).

use super::{dtype, FileReport};
use serde_json::Value;
use tensor_core::{result_type, DType, Operand, Scalar, Tensor};

fn tensor(d: DType, with_dims: bool) -> Result<Tensor, String> {
    let sizes: &[usize] = if with_dims { &[2] } else { &[] };
    Tensor::zeros(sizes, d).map_err(|e| e.to_string())
}

fn scalar(name: &str) -> Result<Scalar, String> {
    match name {
        "bool_scalar" => Ok(Scalar::Bool(true)),
        "int_scalar" => Ok(Scalar::Int(2)),
        "float_scalar" => Ok(Scalar::Float(2.5)),
        other => Err(format!("unknown scalar {other}")),
    }
}

fn judge_case(case: &Value) -> Result<(), String> {
    let a_dtype = dtype(&case["a"]);
    let kind = case["b_kind"].as_str().ok_or("case without b_kind")?;
    let b = case["b"].as_str().ok_or("case without b")?;
    let want = dtype(&case["result"]);
    let got = match kind {
        "tensor" | "zero_dim" | "both_zero_dim" => {
            let a = tensor(a_dtype, kind != "both_zero_dim")?;
            let b = tensor(dtype(&case["b"]), kind == "tensor")?;
            result_type(&[Operand::Tensor(&a), Operand::Tensor(&b)])
        }
        "scalar" | "scalar_zero_dim_a" => {
            let a = tensor(a_dtype, kind == "scalar")?;
            result_type(&[Operand::Tensor(&a), Operand::Scalar(scalar(b)?)])
        }
        other => return Err(format!("unknown b_kind {other}")),
    };
    if got != want {
        return Err(format!("result_type {got}, expected {want} ({case})"));
    }
    Ok(())
}

/// Judges every case of `promotion.json`.
pub fn judge(cases: &Value) -> FileReport {
    FileReport::judge_each(cases, judge_case)
}
