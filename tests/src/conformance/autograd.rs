//! Judge of `autograd.json`: for each case the op runs on leaves made from its inputs
//! (`operand.detach().requires_grad_()` where `requires_grad`), `out.backward(g)` runs
//! with the case's `grad_output`, and the output and every leaf's `.grad` are compared
//! (a grad's stride at a size-1 dim is informative only). The error cases replay the
//! Python `scenario` they were recorded from.

use super::elementwise::expected;
use super::nn::{int, scalar};
use super::nn_index_conv_pool::input;
use super::{check_outcome, check_values, dtype, ints, usizes, FileReport};
use serde_json::Value;
use std::collections::BTreeMap;
use tensor_core::{DType, Scalar, Tensor, UnaryOp};

/// Runs the op of a case on `t` (its inputs, leaves already made).
fn run_op(case: &Value, op: &str, t: &[Tensor]) -> Result<tensor_core::Result<Tensor>, String> {
    let args = &case["args"];
    let x = t.first().ok_or("case without inputs")?;
    let two = || -> Result<&Tensor, String> { t.get(1).ok_or(format!("{op} needs two inputs")) };
    let dims = || ints(&args["dims"]);
    let keepdim = || args["keepdim"].as_bool().unwrap_or(false);
    let opt = |name: &str| -> Result<Option<Scalar>, String> {
        match &args[name] {
            Value::Null => Ok(None),
            v => scalar(v).map(Some),
        }
    };
    // Every op of tensor-core's unary table, by its PyTorch name.
    if let Some(u) = UnaryOp::from_name(op) {
        return Ok(x.unary(u));
    }
    // embedding, index_select, gather, cat/stack, conv2d and the pools: the nn judge's.
    if let Some(r) = super::nn_index_conv_pool::apply(case, op, t)? {
        return Ok(r);
    }
    Ok(match op {
        "add" => x.add(two()?),
        "mul" => x.mul(two()?),
        "matmul" => x.matmul(two()?),
        "sum" => match &args["dims"] {
            Value::Null => x.sum(&[], false),
            _ => x.sum(&dims(), keepdim()),
        },
        "amax" => x.amax(&dims(), keepdim()),
        "prod" => x.prod(&[int(args, "dim")?], false),
        "permute" => x.permute(&ints(&args["dims"])),
        "expand" => x.expand(&ints(&args["sizes"])),
        "reshape" => x.reshape(&ints(&args["shape"])),
        "repeat" => x.repeat(&ints(&args["repeats"])),
        "where" => Tensor::where_(x, two()?, t.get(2).ok_or("where needs three inputs")?),
        "clamp" => x.clamp(opt("min")?, opt("max")?),
        // The model ops of nn.json (softmax ... transpose): the nn judge runs them.
        _ => return super::nn::apply(case, op, t),
    })
}

/// The inputs of a case, each with `requires_grad` set as the case says.
fn leaves(case: &Value) -> Result<Vec<Tensor>, String> {
    let n = case["inputs"].as_array().map_or(0, Vec::len);
    let flags = case["requires_grad"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    (0..n)
        .map(|k| {
            let t = input(case, k).detach();
            let rg = flags.get(k).and_then(Value::as_bool).unwrap_or(false);
            if rg {
                t.requires_grad_(true).map_err(|e| e.to_string())
            } else {
                Ok(t)
            }
        })
        .collect()
}

/// A contiguous tensor of `dt` holding `values` with `sizes`.
fn filled(sizes: &[usize], values: &[f64], dt: DType) -> Result<Tensor, String> {
    let r = match dt {
        DType::F64 => Tensor::from_vec(values.to_vec(), sizes),
        DType::F32 => Tensor::from_vec(values.iter().map(|&v| v as f32).collect(), sizes),
        other => return Err(format!("grad_output of dtype {other}")),
    };
    r.map_err(|e| e.to_string())
}

/// Compares a leaf's `.grad` with the recorded one: sizes, dtype, values, and strides
/// except at size-1 dims.
fn check_grad(k: usize, got: Option<Tensor>, want: &Value) -> Result<(), String> {
    let g = got.ok_or(format!("input {k}: no grad"))?;
    let sizes = usizes(&want["sizes"]);
    if g.sizes() != sizes.as_slice() {
        return Err(format!(
            "grad {k}: sizes {:?}, expected {sizes:?}",
            g.sizes()
        ));
    }
    if g.dtype() != dtype(&want["dtype"]) {
        return Err(format!("grad {k}: dtype {}", g.dtype()));
    }
    let strides = ints(&want["strides"]);
    if g.numel() > 0 {
        for (d, (&s, &w)) in g.strides().iter().zip(&strides).enumerate() {
            if sizes[d] != 1 && s as i64 != w {
                return Err(format!(
                    "grad {k}: strides {:?}, expected {strides:?} (sizes {sizes:?})",
                    g.strides()
                ));
            }
        }
    }
    if let Some(v) = want["values"].as_array() {
        check_values(&g, v).map_err(|e| format!("grad {k}: {e}"))?;
    }
    Ok(())
}

/// Judges one case with gradients.
fn judge_grad_case(case: &Value, op: &str) -> Result<(), String> {
    let t = leaves(case)?;
    let out = run_op(case, op, &t)?;
    let out = match out {
        Ok(o) => o,
        Err(e) => return check_outcome(Err(e), &expected(case)),
    };
    check_outcome(Ok(out.detach()), &expected(case))?;
    backward_and_check(case, &out, &t)
}

/// Runs `out.backward(grad_output)` with the case's `grad_output` and compares each
/// leaf's `.grad` with the case's `grads` (`null`: the leaf must have none).
pub(super) fn backward_and_check(
    case: &Value,
    out: &Tensor,
    leaves: &[Tensor],
) -> Result<(), String> {
    let go = &case["grad_output"];
    let values: Vec<f64> = go["values"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_f64).collect())
        .unwrap_or_default();
    let g = filled(&usizes(&go["sizes"]), &values, out.dtype())?;
    out.backward_with(&g)
        .map_err(|e| format!("backward: {e}"))?;
    let grads = case["grads"].as_array().cloned().unwrap_or_default();
    for (k, x) in leaves.iter().enumerate() {
        match grads.get(k) {
            Some(Value::Null) | None => {
                if x.grad().is_some() {
                    return Err(format!("input {k} has a grad, expected none"));
                }
            }
            Some(want) => check_grad(k, x.grad(), want)?,
        }
    }
    Ok(())
}

/// The unary op `torch.<name>(x)` of a scenario (any op of tensor-core's unary table).
fn unary(name: &str, x: &Tensor) -> tensor_core::Result<Tensor> {
    match UnaryOp::from_name(name) {
        Some(op) => x.unary(op),
        None => panic!("scenario with unknown op {name}"),
    }
}

/// Replays an error scenario; returns its outcome (the error expected).
fn scenario(case: &Value, op: &str) -> Result<tensor_core::Result<()>, String> {
    let s = case["scenario"].as_str().ok_or("case without scenario")?;
    let t = leaves(case)?;
    let x0 = t.first().ok_or("scenario without inputs")?;
    let f = s
        .split("torch.")
        .nth(1)
        .and_then(|r| r.split('(').next())
        .unwrap_or("");
    let sum_back = |y: tensor_core::Result<Tensor>| y?.sum(&[], false)?.backward();
    Ok(match op {
        "leaf_inplace" if s.starts_with("x0.mul_") => x0.mul_scalar_(2.0),
        "leaf_inplace" if s.starts_with("x0.add_") => x0.add_scalar_(2.0),
        "no_grad_fn" => sum_back(unary(f, x0)),
        "nonscalar_backward" => unary(f, x0).and_then(|y| y.backward()),
        "backward_twice" => (|| {
            let y = if f == "mul" {
                x0.mul(
                    t.get(1)
                        .ok_or("mul needs two inputs")
                        .map_err(|_| tensor_core::Error::NoGradFn)?,
                )?
            } else {
                unary(f, x0)?
            };
            let s = y.sum(&[], false)?;
            s.backward()?;
            s.backward()
        })(),
        "inplace_saved" if s.starts_with("h = x0 + 1.0") => (|| {
            let h = x0.add_scalar(1.0)?;
            let y = h.mul(&h)?;
            h.add_scalar_(1.0)?;
            y.sum(&[], false)?.backward()
        })(),
        "inplace_saved" => (|| {
            let y = unary(f, x0)?;
            y.mul_scalar_(2.0)?;
            y.sum(&[], false)?.backward()
        })(),
        "grad_shape_mismatch" => (|| {
            let y = unary(f, x0)?;
            let g = Tensor::ones(&usizes(&case["grad_sizes"]), x0.dtype())?;
            y.backward_with(&g)
        })(),
        other => return Err(format!("unknown scenario {other}: {s}")),
    })
}

fn judge_case(case: &Value) -> Result<(), String> {
    let op = case["op"].as_str().ok_or("case without op")?;
    if case.get("scenario").is_some() {
        let want = case["error"].as_str().ok_or("scenario without error")?;
        return match scenario(case, op)? {
            Ok(()) => Err(format!("{op}: no error, expected {want:?}")),
            Err(e) if super::error_matches(&e.to_string(), want) => Ok(()),
            Err(e) => Err(format!(
                "{op}: error {:?}, expected {want:?}",
                e.to_string()
            )),
        };
    }
    judge_grad_case(case, op)
}

/// Pass/fail counts per op, for the report.
pub fn per_op(cases: &Value) -> BTreeMap<String, (usize, usize, Vec<String>)> {
    let mut m: BTreeMap<String, (usize, usize, Vec<String>)> = BTreeMap::new();
    for (i, case) in super::case_list(cases).iter().enumerate() {
        let op = case["op"].as_str().unwrap_or("?").to_string();
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| judge_case(case)))
            .unwrap_or_else(|_| Err("panicked".into()));
        let e = m.entry(op.clone()).or_default();
        match r {
            Ok(()) => e.0 += 1,
            Err(why) => {
                e.1 += 1;
                e.2.push(format!("case {i}: {op}: {why}"));
            }
        }
    }
    m
}

/// Judges every case of `autograd.json`, printing the pass/fail count of each op.
pub fn judge(cases: &Value) -> FileReport {
    let mut report = FileReport::default();
    for (op, (pass, fail, why)) in per_op(cases) {
        println!("  autograd.json {op}: {pass} passed, {fail} failed");
        report.passed += pass;
        report.failed += fail;
        report.failures.extend(why);
    }
    report
}

#[cfg(test)]
mod tests {
    use super::check_grad;
    use serde_json::json;
    use tensor_core::{DType, Layout, Storage, Tensor};

    /// A float32 gradient of `sizes` with `strides` over 16 zeros.
    fn grad(sizes: &[usize], strides: &[isize]) -> Tensor {
        let storage = Storage::from_vec(vec![0.0f32; 16]).unwrap();
        let layout = Layout::checked(sizes.to_vec(), strides.to_vec(), 0).unwrap();
        Tensor::from_parts(storage, layout, DType::F32).unwrap()
    }

    #[test]
    fn a_matmul_grad_whose_stride_differs_only_at_a_size_1_dim_passes() {
        let want = json!({"sizes": [4, 1, 4], "strides": [4, 1, 1], "dtype": "float32",
            "values": null});
        assert_eq!(
            check_grad(0, Some(grad(&[4, 1, 4], &[4, 4, 1])), &want),
            Ok(())
        );
    }

    #[test]
    fn a_grad_whose_stride_differs_at_a_dim_of_size_above_1_is_reported() {
        let want = json!({"sizes": [4, 1, 4], "strides": [1, 1, 4], "dtype": "float32",
            "values": null});
        assert_eq!(
            check_grad(1, Some(grad(&[4, 1, 4], &[4, 4, 1])), &want),
            Err("grad 1: strides [4, 4, 1], expected [1, 1, 4] (sizes [4, 1, 4])".into())
        );
    }
}
