//! Judge of the `nn.json` cases of the indexing, joining, convolution and pooling ops:
//! embedding, index_select, gather, cat, stack, conv2d, max_pool2d, avg_pool2d.
//! `nn.rs` routes these ops here through [`run`]; [`OPS`] lists them.

use super::{build_operand, check_outcome, dtype, usizes};
use serde_json::Value;
use tensor_core::{dispatch_dtype, nn, DType, Element, Storage, Tensor};

/// The ops [`run`] judges.
pub const OPS: &[&str] = &[
    "embedding",
    "index_select",
    "gather",
    "cat",
    "stack",
    "conv2d",
    "max_pool2d",
    "avg_pool2d",
];

/// Builds input number `k` of a case: [`build_operand`], then, for a case with `scale`
/// (and `shift`), each floating-point element `value * scale + shift` in f64 converted
/// to the dtype (integer and bool inputs unchanged), as the cases' README says.
pub fn input(case: &Value, k: usize) -> Tensor {
    let layout = &case["inputs"][k];
    let t = build_operand(layout, k);
    let Some(scale) = case.get("scale").and_then(|s| s.as_f64()) else {
        return t;
    };
    if !t.dtype().is_floating() {
        return t;
    }
    let shift = case.get("shift").and_then(|s| s.as_f64()).unwrap_or(0.0);
    let dt = t.dtype();
    let len = (layout["storage_len"].as_u64().expect("storage_len") as usize).max(1);
    let storage = dispatch_dtype!(dt, T, {
        let data: Vec<T> = (0..len)
            .map(|i| T::from_f64(super::storage_value(i, k, dt) * scale + shift))
            .collect();
        Storage::from_vec(data).expect("case storage fits in memory")
    });
    Tensor::from_parts(storage, t.layout().clone(), dt).expect("case layout fits its storage")
}

/// An explicit operand (`index`, `target`): a contiguous tensor of `values` in its dtype.
pub fn explicit(v: &Value) -> Tensor {
    let sizes = usizes(&v["sizes"]);
    let dt = dtype(&v["dtype"]);
    let values: Vec<f64> = v["values"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|x| match x {
                    Value::Bool(b) => *b as u8 as f64,
                    other => other.as_f64().expect("number"),
                })
                .collect()
        })
        .unwrap_or_default();
    dispatch_dtype!(dt, T, {
        let data: Vec<T> = values.iter().map(|&x| T::from_f64(x)).collect();
        Tensor::from_vec(data, &sizes).expect("explicit operand")
    })
}

/// A pair argument (`[h, w]`, or one int for both).
fn pair(v: &Value) -> [usize; 2] {
    match v.as_u64() {
        Some(x) => [x as usize; 2],
        None => {
            let u = usizes(v);
            [u[0], u[1]]
        }
    }
}

/// Runs `op` of [`OPS`] on `inputs` with the case's arguments (`None` for any other op);
/// the nn judge below and the autograd runner share it.
pub(super) fn apply(
    case: &Value,
    op: &str,
    inputs: &[Tensor],
) -> Result<Option<tensor_core::Result<Tensor>>, String> {
    if !OPS.contains(&op) {
        return Ok(None);
    }
    let args = &case["args"];
    let x = inputs.first().ok_or("case without inputs")?;
    let dim = || args["dim"].as_i64().ok_or("case without dim");
    Ok(Some(match op {
        "embedding" => nn::embedding(&explicit(&case["index"]), x),
        "index_select" => inputs[0].index_select(dim()?, &explicit(&case["index"])),
        "gather" => inputs[0].gather(dim()?, &explicit(&case["index"])),
        "cat" | "stack" => {
            let refs: Vec<&Tensor> = inputs.iter().collect();
            if op == "cat" {
                Tensor::cat(&refs, dim()?)
            } else {
                Tensor::stack(&refs, dim()?)
            }
        }
        "conv2d" => nn::conv2d(
            x,
            inputs.get(1).ok_or("conv2d needs a weight")?,
            inputs.get(2),
            pair(&args["stride"]),
            pair(&args["padding"]),
            pair(&args["dilation"]),
            args["groups"].as_u64().ok_or("case without groups")? as usize,
        ),
        "max_pool2d" | "avg_pool2d" => {
            let k = pair(&args["kernel_size"]);
            let s = match &args["stride"] {
                Value::Null => k,
                v if v.as_array().is_some_and(|a| a.is_empty()) => k,
                v => pair(v),
            };
            let p = pair(&args["padding"]);
            if op == "max_pool2d" {
                nn::max_pool2d(x, k, s, p)
            } else {
                nn::avg_pool2d(x, k, s, p)
            }
        }
        other => return Err(format!("nn_index_conv_pool does not judge op {other}")),
    }))
}

/// Judges one case of an op of [`OPS`] (its result or its error against PyTorch's).
pub fn run(case: &Value) -> Result<(), String> {
    let op = case["op"].as_str().ok_or("case without op")?;
    let args = &case["args"];
    let n = case["inputs"].as_array().map_or(0, |a| a.len());
    let inputs: Vec<Tensor> = (0..n).map(|k| input(case, k)).collect();
    let result = apply(case, op, &inputs)?
        .ok_or_else(|| format!("nn_index_conv_pool does not judge op {op}"))?;
    let expected = match case.get("error") {
        Some(e) => serde_json::json!({ "error": e }),
        None => case["output"].clone(),
    };
    let shapes: Vec<(Vec<usize>, Vec<i64>, DType)> = inputs
        .iter()
        .map(|t| {
            let st = t.strides().iter().map(|&s| s as i64).collect();
            (t.sizes().to_vec(), st, t.dtype())
        })
        .collect();
    check_outcome(result, &expected).map_err(|e| format!("{op} {args} {shapes:?}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::{case_list, load};

    /// Runs every nn.json case of [`OPS`] and prints pass/fail counts per op.
    #[test]
    fn the_index_conv_pool_cases_of_nn_json_pass() {
        let Ok(file) = load("nn") else {
            return; // nn.json not in this checkout's data dir
        };
        let mut failures = Vec::new();
        for op in OPS {
            let (mut pass, mut fail) = (0, 0);
            for (i, case) in case_list(&file).iter().enumerate() {
                if case["op"].as_str() != Some(op) {
                    continue;
                }
                match run(case) {
                    Ok(()) => pass += 1,
                    Err(e) => {
                        fail += 1;
                        failures.push(format!("case {i}: {e}"));
                    }
                }
            }
            println!("{op}: {pass} passed, {fail} failed");
        }
        for f in &failures {
            println!("  {f}");
        }
        assert!(failures.is_empty(), "{} cases differ", failures.len());
    }
}
