//! `views_inplace.json`: views × in-place ops × backward (recorded by
//! `tests/data/pytorch/record_views.py`, whose docstring describes a case). Each case
//! is replayed step by step: the leaf `x`, the base `y = x * 2`, the view, the in-place
//! write, the `grad_fn` names, the loss and the gradients, or PyTorch's error.

use super::{dtype, error_matches, usizes, FileReport};
use serde_json::Value;
use tensor_core::{DType, Result, Tensor};

pub fn judge(cases: &Value) -> FileReport {
    FileReport::judge_each(cases, run)
}

fn int(v: &Value) -> i64 {
    v.as_i64().expect("an integer")
}

fn view_of(y: &Tensor, spec: &[Value]) -> Result<Tensor> {
    match spec[0].as_str().expect("a view kind") {
        "narrow" => y.narrow(int(&spec[1]), int(&spec[2]), int(&spec[3]) as usize),
        "select" => y.select(int(&spec[1]), int(&spec[2])),
        "transpose" => y.transpose(int(&spec[1]), int(&spec[2])),
        "view" => y.view(&super::ints(&spec[1])),
        "expand" => y.expand(&super::ints(&spec[1])),
        "as_strided" => {
            let strides: Vec<isize> = super::ints(&spec[2]).iter().map(|&s| s as isize).collect();
            y.as_strided(
                &usizes(&spec[1]),
                &strides,
                y.storage_offset() + int(&spec[3]) as usize,
            )
        }
        k => panic!("unknown view {k}"),
    }
}

/// `arange(n) * step + start` as `sizes` in `dt`.
fn ramp(sizes: &[usize], step: f64, start: f64, dt: DType) -> Result<Tensor> {
    let n: usize = sizes.iter().product();
    let v: Vec<f64> = (0..n).map(|i| i as f64 * step + start).collect();
    Tensor::from_vec(v, sizes)?.to_dtype(dt)
}

/// What a case does, up to the gradients: `(grad_fn names, loss, x, z)`.
type Outcome = (Vec<Option<&'static str>>, f64, Tensor, Option<Tensor>);

fn replay(case: &Value) -> Result<Outcome> {
    let dt = dtype(&case["dtype"]);
    let x = ramp(&usizes(&case["sizes"]), 0.25, -1.0, dt)?.requires_grad_(true)?;
    let y = x.mul_scalar(2)?;
    let v = view_of(&y, case["view"].as_array().expect("a view"))?;
    let target = match case["target"].as_str().expect("a target") {
        "base" => y.alias(),
        "view" => v.alias(),
        _ => v.narrow(0, 0, 1)?,
    };
    let op = case["op"].as_array().expect("an op");
    let mut z = None;
    match op[0].as_str().expect("an op name") {
        "mul_scalar_" => target.mul_scalar_(op[1].as_f64().expect("a number"))?,
        "add_scalar_" => target.add_scalar_(op[1].as_f64().expect("a number"))?,
        _ => {
            let w = ramp(target.sizes(), 0.5, 1.0, dt)?.requires_grad_(true)?;
            target.mul_(&w)?;
            z = Some(w);
        }
    }
    let names = vec![y.grad_fn_name(), v.grad_fn_name()];
    let src = if case["loss"] == "base" { &y } else { &v };
    let loss = src.mul(src)?.sum(&[], false)?;
    let value = loss.to_dtype(DType::F64)?.to_vec::<f64>()?[0];
    loss.backward()?;
    Ok((names, value, x, z))
}

fn close(ours: &[f64], want: &Value, tol: f64, what: &str) -> std::result::Result<(), String> {
    let want: Vec<f64> = want
        .as_array()
        .ok_or(format!("{what}: expected null"))?
        .iter()
        .map(|v| v.as_f64().expect("a number"))
        .collect();
    if ours.len() != want.len() {
        return Err(format!(
            "{what}: {} values, expected {}",
            ours.len(),
            want.len()
        ));
    }
    for (i, (a, b)) in ours.iter().zip(&want).enumerate() {
        if (a - b).abs() > tol * b.abs().max(1.0) {
            return Err(format!("{what}[{i}]: {a} vs PyTorch {b}"));
        }
    }
    Ok(())
}

fn grad_values(t: &Tensor) -> Option<Vec<f64>> {
    t.grad().map(|g| g.to_vec_f64().expect("a float gradient"))
}

fn run(case: &Value) -> std::result::Result<(), String> {
    let outcome = replay(case);
    if let Some(want) = case.get("error").and_then(Value::as_str) {
        return match outcome {
            Err(e) if error_matches(&e.to_string(), want) => Ok(()),
            Err(e) => Err(format!("error `{e}`, PyTorch `{want}`")),
            Ok(_) => Err(format!("no error, PyTorch `{want}`")),
        };
    }
    let (names, loss, x, z) = outcome.map_err(|e| format!("error `{e}`"))?;
    let want_names: Vec<Option<&str>> = case["grad_fn"]
        .as_array()
        .expect("grad_fn names")
        .iter()
        .map(Value::as_str)
        .collect();
    if names != want_names {
        return Err(format!("grad_fn {names:?}, PyTorch {want_names:?}"));
    }
    let tol = if case["dtype"] == "float32" {
        1e-5
    } else {
        1e-12
    };
    close(
        &[loss],
        &Value::from(vec![case["loss_value"].clone()]),
        tol,
        "loss",
    )?;
    match (grad_values(&x), &case["grad_x"]) {
        (Some(g), want) if !want.is_null() => close(&g, want, tol, "x.grad")?,
        (None, Value::Null) => {}
        (g, want) => return Err(format!("x.grad {g:?}, PyTorch {want}")),
    }
    match (z.as_ref().and_then(grad_values), &case["grad_z"]) {
        (Some(g), want) if !want.is_null() => close(&g, want, tol, "z.grad")?,
        (None, Value::Null) => {}
        (g, want) => return Err(format!("z.grad {g:?}, PyTorch {want}")),
    }
    Ok(())
}
