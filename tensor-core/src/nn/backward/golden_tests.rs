//! The backward kernels against the gradients PyTorch recorded
//! (`tests/data/pytorch/autograd.json`, the model-op cases): each case's inputs are
//! built as the conformance runner builds them, the forward runs, the kernel gets the
//! case's `grad_output`, and every recorded gradient must match (1e-6 relative).

use crate::dispatch_dtype;
use crate::dtype::DType;
use crate::element::Element;
use crate::layout::Layout;
use crate::nn::cat::backward::InputMeta;
use crate::nn::{self, GeluApproximate, Reduction};
use crate::scalar::Scalar;
use crate::storage::Storage;
use crate::tensor::Tensor;
use serde_json::Value;

fn cases() -> Value {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/pytorch/autograd.json");
    let text = std::fs::read_to_string(&path).expect("autograd.json is in the repo");
    serde_json::from_str(&text).expect("valid JSON")
}

fn ints(v: &Value) -> Vec<i64> {
    v.as_array()
        .map(|a| a.iter().map(|x| x.as_i64().expect("integer")).collect())
        .unwrap_or_default()
}

fn usizes(v: &Value) -> Vec<usize> {
    ints(v).into_iter().map(|x| x as usize).collect()
}

fn dtype(v: &Value) -> DType {
    DType::from_name(v.as_str().expect("dtype")).expect("known dtype")
}

/// Operand `k` of a case (the README's generator, scaled and shifted for floats).
fn input(case: &Value, k: usize) -> Tensor {
    let layout = &case["inputs"][k];
    let dt = dtype(&layout["dtype"]);
    let len = (layout["storage_len"].as_u64().expect("storage_len") as usize).max(1);
    let scale = case["scale"].as_f64();
    let shift = case["shift"].as_f64().unwrap_or(0.0);
    let value = |i: usize| -> f64 {
        if dt == DType::Bool {
            return !(i + k).is_multiple_of(3) as u8 as f64;
        }
        let v = (((i * 7 + k * 3) % 23) + 1) as f64;
        match scale {
            Some(s) if dt.is_floating() => v * s + shift,
            _ => v,
        }
    };
    let storage = dispatch_dtype!(dt, T, {
        let data: Vec<T> = (0..len).map(|i| T::from_f64(value(i))).collect();
        Storage::from_vec(data).expect("storage")
    });
    let strides: Vec<isize> = ints(&layout["strides"])
        .iter()
        .map(|&s| s as isize)
        .collect();
    let offset = layout["offset"].as_u64().unwrap_or(0) as usize;
    let l = Layout::checked(usizes(&layout["sizes"]), strides, offset).expect("layout");
    Tensor::from_parts(storage, l, dt).expect("fits")
}

/// An explicit operand (`index`, `target`): contiguous values.
fn explicit(v: &Value) -> Tensor {
    let dt = dtype(&v["dtype"]);
    let values: Vec<f64> = v["values"]
        .as_array()
        .map(|a| a.iter().map(|x| x.as_f64().expect("number")).collect())
        .unwrap_or_default();
    dispatch_dtype!(dt, T, {
        let data: Vec<T> = values.iter().map(|&x| T::from_f64(x)).collect();
        Tensor::from_vec(data, &usizes(&v["sizes"])).expect("explicit")
    })
}

fn scalar(v: &Value) -> Scalar {
    match v {
        Value::Bool(b) => Scalar::Bool(*b),
        Value::Number(n) if n.is_i64() => Scalar::Int(n.as_i64().unwrap_or(0)),
        Value::Number(n) => Scalar::Float(n.as_f64().unwrap_or(f64::NAN)),
        other => panic!("not a number: {other}"),
    }
}

fn pair(v: &Value) -> [usize; 2] {
    let u = usizes(v);
    [u[0], u[1]]
}

/// The forward output and the gradients of every input (None where not computed).
fn run(case: &Value) -> (Tensor, Vec<Option<Tensor>>) {
    let op = case["op"].as_str().expect("op");
    let args = &case["args"];
    let n = case["inputs"].as_array().map_or(0, Vec::len);
    let t: Vec<Tensor> = (0..n).map(|k| input(case, k)).collect();
    let x = &t[0];
    let int = |name: &str| args[name].as_i64().expect(name);
    let go = &case["grad_output"];
    let grad_of = |out: &Tensor| -> Tensor {
        let values: Vec<f64> = go["values"]
            .as_array()
            .expect("grad values")
            .iter()
            .map(|v| v.as_f64().expect("number"))
            .collect();
        Tensor::from_vec(values, &usizes(&go["sizes"]))
            .unwrap()
            .to_dtype(out.dtype())
            .unwrap()
    };
    let one = |out: Tensor, g: crate::error::Result<Tensor>| (out, vec![Some(g.unwrap())]);
    match op {
        "softmax" | "log_softmax" => {
            let dim = int("dim");
            let log = op == "log_softmax";
            let y = if log {
                nn::log_softmax(x, dim)
            } else {
                nn::softmax(x, dim)
            }
            .unwrap();
            let g = grad_of(&y);
            let dx = if log {
                crate::nn::softmax::backward::log_softmax_backward(&g, &y, dim)
            } else {
                crate::nn::softmax::backward::softmax_backward(&g, &y, dim)
            };
            one(y, dx)
        }
        "layer_norm" => {
            let shape = usizes(&args["normalized_shape"]);
            let eps = args["eps"].as_f64().unwrap();
            let y = nn::layer_norm(x, &shape, t.get(1), t.get(2), eps).unwrap();
            let g = grad_of(&y);
            let (dx, dw, db) = crate::nn::norm::backward::layer_norm_backward(
                &g,
                x,
                &shape,
                t.get(1),
                t.get(2),
                eps,
            )
            .unwrap();
            (y, vec![Some(dx), dw, db])
        }
        "gelu" => {
            let a = GeluApproximate::from_name(args["approximate"].as_str().unwrap()).unwrap();
            let y = nn::gelu(x, a).unwrap();
            let g = grad_of(&y);
            one(y, crate::nn::activation::backward::gelu_backward(&g, x, a))
        }
        "silu" => {
            let y = nn::silu(x).unwrap();
            let g = grad_of(&y);
            one(y, crate::nn::activation::backward::silu_backward(&g, x))
        }
        "embedding" => {
            let idx = explicit(&case["index"]);
            let y = nn::embedding(&idx, x).unwrap();
            let g = grad_of(&y);
            one(
                y,
                crate::nn::index::backward::embedding_backward(&g, &idx, x.sizes()[0]),
            )
        }
        "index_select" => {
            let idx = explicit(&case["index"]);
            let dim = int("dim");
            let y = x.index_select(dim, &idx).unwrap();
            let g = grad_of(&y);
            one(
                y,
                crate::nn::index::backward::index_select_backward(&g, x.sizes(), dim, &idx),
            )
        }
        "gather" => {
            let idx = explicit(&case["index"]);
            let dim = int("dim");
            let y = x.gather(dim, &idx).unwrap();
            let g = grad_of(&y);
            one(
                y,
                crate::nn::index::backward::gather_backward(&g, x.sizes(), dim, &idx),
            )
        }
        "cat" | "stack" => {
            let dim = int("dim");
            let refs: Vec<&Tensor> = t.iter().collect();
            let meta: Vec<InputMeta> = t.iter().map(|t| (t.sizes().to_vec(), t.dtype())).collect();
            let y = if op == "cat" {
                Tensor::cat(&refs, dim)
            } else {
                Tensor::stack(&refs, dim)
            }
            .unwrap();
            let g = grad_of(&y);
            let grads = if op == "cat" {
                crate::nn::cat::backward::cat_backward(&g, &meta, dim)
            } else {
                crate::nn::cat::backward::stack_backward(&g, &meta, dim)
            }
            .unwrap();
            (y, grads.into_iter().map(Some).collect())
        }
        "cross_entropy" => {
            let target = explicit(&case["target"]);
            let r = Reduction::from_name(args["reduction"].as_str().unwrap()).unwrap();
            let y = nn::cross_entropy(x, &target, r).unwrap();
            let g = grad_of(&y);
            one(
                y,
                crate::nn::loss::backward::cross_entropy_backward(&g, x, &target, r),
            )
        }
        "conv2d" => {
            let (s, p, d) = (
                pair(&args["stride"]),
                pair(&args["padding"]),
                pair(&args["dilation"]),
            );
            let groups = args["groups"].as_u64().unwrap() as usize;
            let y = nn::conv2d(x, &t[1], t.get(2), s, p, d, groups).unwrap();
            let g = grad_of(&y);
            let params = crate::nn::conv::ConvParams {
                stride: s,
                padding: p,
                dilation: d,
                groups,
            };
            let (dx, dw, db) = crate::nn::conv::backward::conv2d_backward(
                &g,
                x,
                &t[1],
                &params,
                [true, true, t.len() > 2],
            )
            .unwrap();
            (y, vec![dx, dw, db])
        }
        "max_pool2d" | "avg_pool2d" => {
            let (k, s, p) = (
                pair(&args["kernel_size"]),
                pair(&args["stride"]),
                pair(&args["padding"]),
            );
            if op == "max_pool2d" {
                let y = nn::max_pool2d(x, k, s, p).unwrap();
                let g = grad_of(&y);
                let idx = crate::nn::pool::max_pool2d_indices(x, k, s, p).unwrap();
                one(
                    y,
                    crate::nn::pool::backward::max_pool2d_backward(&g, x.sizes(), &idx),
                )
            } else {
                let y = nn::avg_pool2d(x, k, s, p).unwrap();
                let g = grad_of(&y);
                one(
                    y,
                    crate::nn::pool::backward::avg_pool2d_backward(&g, x.sizes(), k, s, p),
                )
            }
        }
        "var" | "std" => {
            let dims = ints(&args["dims"]);
            let c = scalar(&args["correction"]);
            let keepdim = args["keepdim"].as_bool().unwrap_or(false);
            let y = if op == "var" {
                x.var(&dims, c, keepdim)
            } else {
                x.std(&dims, c, keepdim)
            }
            .unwrap();
            let g = grad_of(&y);
            let dx = if op == "var" {
                crate::nn::moments::backward::var_backward(&g, x, &dims, c.to_f64())
            } else {
                crate::nn::moments::backward::std_backward(&g, x, &y, &dims, c.to_f64())
            };
            one(y, dx)
        }
        "masked_fill" => {
            let y = x.masked_fill(&t[1], scalar(&args["value"])).unwrap();
            let g = grad_of(&y);
            (
                y,
                vec![
                    Some(
                        crate::nn::mask::backward::masked_fill_backward(&g, &t[1], x.sizes())
                            .unwrap(),
                    ),
                    None,
                ],
            )
        }
        "tril" | "triu" => {
            let d = int("diagonal");
            let lower = op == "tril";
            let y = if lower { x.tril(d) } else { x.triu(d) }.unwrap();
            let g = grad_of(&y);
            one(
                y,
                crate::nn::triangle::backward::triangle_backward(&g, d, lower),
            )
        }
        other => panic!("not an nn op: {other}"),
    }
}

/// The forward of a case through the public op (recording when an input requires
/// grad).
fn forward(case: &Value, t: &[Tensor]) -> Tensor {
    let op = case["op"].as_str().expect("op");
    let args = &case["args"];
    let x = &t[0];
    let int = |name: &str| args[name].as_i64().expect(name);
    let refs: Vec<&Tensor> = t.iter().collect();
    match op {
        "softmax" => nn::softmax(x, int("dim")),
        "log_softmax" => nn::log_softmax(x, int("dim")),
        "layer_norm" => nn::layer_norm(
            x,
            &usizes(&args["normalized_shape"]),
            t.get(1),
            t.get(2),
            args["eps"].as_f64().unwrap(),
        ),
        "gelu" => nn::gelu(
            x,
            GeluApproximate::from_name(args["approximate"].as_str().unwrap()).unwrap(),
        ),
        "silu" => nn::silu(x),
        "embedding" => nn::embedding(&explicit(&case["index"]), x),
        "index_select" => x.index_select(int("dim"), &explicit(&case["index"])),
        "gather" => x.gather(int("dim"), &explicit(&case["index"])),
        "cat" => Tensor::cat(&refs, int("dim")),
        "stack" => Tensor::stack(&refs, int("dim")),
        "cross_entropy" => nn::cross_entropy(
            x,
            &explicit(&case["target"]),
            Reduction::from_name(args["reduction"].as_str().unwrap()).unwrap(),
        ),
        "conv2d" => nn::conv2d(
            x,
            &t[1],
            t.get(2),
            pair(&args["stride"]),
            pair(&args["padding"]),
            pair(&args["dilation"]),
            args["groups"].as_u64().unwrap() as usize,
        ),
        "max_pool2d" => nn::max_pool2d(
            x,
            pair(&args["kernel_size"]),
            pair(&args["stride"]),
            pair(&args["padding"]),
        ),
        "avg_pool2d" => nn::avg_pool2d(
            x,
            pair(&args["kernel_size"]),
            pair(&args["stride"]),
            pair(&args["padding"]),
        ),
        "var" => x.var(
            &ints(&args["dims"]),
            scalar(&args["correction"]),
            args["keepdim"].as_bool().unwrap_or(false),
        ),
        "std" => x.std(
            &ints(&args["dims"]),
            scalar(&args["correction"]),
            args["keepdim"].as_bool().unwrap_or(false),
        ),
        "masked_fill" => x.masked_fill(&t[1], scalar(&args["value"])),
        "tril" => x.tril(int("diagonal")),
        "triu" => x.triu(int("diagonal")),
        other => panic!("not an nn op: {other}"),
    }
    .expect("forward")
}

/// The case's `grad_output` as a contiguous tensor of `out`'s dtype.
fn grad_output(case: &Value, out: &Tensor) -> Tensor {
    let go = &case["grad_output"];
    let values: Vec<f64> = go["values"]
        .as_array()
        .expect("grad values")
        .iter()
        .map(|v| v.as_f64().expect("number"))
        .collect();
    Tensor::from_vec(values, &usizes(&go["sizes"]))
        .unwrap()
        .to_dtype(out.dtype())
        .unwrap()
}

/// The gradients of a case's inputs through the autograd engine: leaves for the inputs
/// that require grad, the public op, `backward_with(grad_output)`, `.grad()` of each.
fn run_engine(case: &Value) -> Vec<Option<Tensor>> {
    let n = case["inputs"].as_array().map_or(0, Vec::len);
    let wants: Vec<bool> = case["requires_grad"]
        .as_array()
        .map(|a| a.iter().map(|b| b.as_bool().unwrap_or(false)).collect())
        .unwrap_or_default();
    let t: Vec<Tensor> = (0..n)
        .map(|k| {
            let x = input(case, k);
            if wants.get(k).copied().unwrap_or(false) {
                x.detach().requires_grad_(true).expect("leaf")
            } else {
                x
            }
        })
        .collect();
    let y = forward(case, &t);
    let g = grad_output(case, &y);
    y.backward_with(&g).expect("backward");
    t.iter().map(Tensor::grad).collect()
}

/// The model ops whose backward lives in this module.
pub(crate) const NN_OPS: &[&str] = &[
    "softmax",
    "log_softmax",
    "layer_norm",
    "gelu",
    "silu",
    "embedding",
    "index_select",
    "gather",
    "cat",
    "stack",
    "cross_entropy",
    "conv2d",
    "max_pool2d",
    "avg_pool2d",
    "var",
    "std",
    "masked_fill",
    "tril",
    "triu",
];

fn check(got: &Tensor, want: &Value, strides: bool) -> Result<(), String> {
    let sizes = usizes(&want["sizes"]);
    if got.sizes() != sizes.as_slice() {
        return Err(format!("sizes {:?}, expected {sizes:?}", got.sizes()));
    }
    if strides {
        let want_st = ints(&want["strides"]);
        for (d, (&g, &w)) in got.strides().iter().zip(&want_st).enumerate() {
            if got.sizes()[d] != 1 && g as i64 != w && got.numel() > 0 {
                return Err(format!("strides {:?}, expected {want_st:?}", got.strides()));
            }
        }
    }
    let dt = dtype(&want["dtype"]);
    if got.dtype() != dt {
        return Err(format!("dtype {}, expected {dt}", got.dtype()));
    }
    let Some(values) = want["values"].as_array() else {
        return Ok(());
    };
    let v = got.to_vec_f64().map_err(|e| e.to_string())?;
    for (i, (g, w)) in v.iter().zip(values).enumerate() {
        let w = w.as_f64().unwrap_or(f64::NAN);
        let ok = g == &w || (g - w).abs() <= 1e-6 * g.abs().max(w.abs());
        if !ok {
            return Err(format!("value {i}: {g}, expected {w}"));
        }
    }
    Ok(())
}

/// Judges every nn case of the file with `grads_of`; `strides`: compare the grads'
/// strides too (at dims of size > 1).
fn judge(grads_of: fn(&Value) -> Vec<Option<Tensor>>, strides: bool) {
    let file = cases();
    let mut failures = Vec::new();
    let mut passed = 0;
    for (i, case) in file["cases"].as_array().unwrap().iter().enumerate() {
        let op = case["op"].as_str().unwrap_or("");
        if !NN_OPS.contains(&op) {
            continue;
        }
        let outcome = std::panic::catch_unwind(|| {
            let grads = grads_of(case);
            let want = case["grads"].as_array().expect("grads");
            for (k, w) in want.iter().enumerate() {
                let got = grads.get(k).and_then(Option::as_ref);
                match (got, w.is_null()) {
                    (_, true) if !strides => {}
                    (None, true) => {}
                    (Some(_), true) => return Err(format!("a gradient for input {k}")),
                    (None, false) => return Err(format!("no gradient for input {k}")),
                    (Some(g), false) => {
                        check(g, w, strides).map_err(|e| format!("input {k}: {e}"))?
                    }
                }
            }
            Ok::<(), String>(())
        })
        .unwrap_or_else(|p| {
            Err(p
                .downcast_ref::<String>()
                .cloned()
                .unwrap_or_else(|| "panicked".into()))
        });
        match outcome {
            Ok(()) => passed += 1,
            Err(e) => failures.push(format!("case {i} ({op}): {e}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{passed} passed, {} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(passed, NN_OPS.len() * 20);
}

#[test]
fn every_nn_backward_kernel_matches_pytorch_gradients() {
    judge(|case| run(case).1, false);
}

#[test]
fn every_nn_op_differentiates_through_the_engine_as_pytorch() {
    judge(run_engine, true);
}
