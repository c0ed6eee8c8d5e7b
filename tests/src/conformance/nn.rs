//! Judge of `nn.json`: the model ops of the cases' op table (softmax, log_softmax,
//! layer_norm, gelu, silu, cross_entropy, var, std, mean, masked_fill, tril, triu,
//! maximum, minimum, pow_scalar, sub, div, narrow, squeeze, unsqueeze, transpose) are
//! judged here; embedding, index_select, gather, cat, stack, conv2d, max_pool2d and
//! avg_pool2d are routed to [`super::nn_index_conv_pool::run`].

use super::elementwise::expected;
use super::nn_index_conv_pool::{explicit, input};
use super::{check_outcome, ints, usizes, FileReport};
use serde_json::Value;
use tensor_core::nn::{self, GeluApproximate, Reduction};
use tensor_core::{Scalar, Tensor};

/// A Python number argument as the Scalar PyTorch sees (int, float or bool).
pub(super) fn scalar(v: &Value) -> Result<Scalar, String> {
    match v {
        Value::Bool(b) => Ok(Scalar::Bool(*b)),
        Value::Number(n) if n.is_i64() => Ok(Scalar::Int(n.as_i64().unwrap_or(0))),
        Value::Number(n) => Ok(Scalar::Float(n.as_f64().unwrap_or(f64::NAN))),
        other => Err(format!("not a number: {other}")),
    }
}

pub(super) fn int(args: &Value, name: &str) -> Result<i64, String> {
    args[name].as_i64().ok_or(format!("case without {name}"))
}

/// Runs one case's op (not one of [`nn_index_conv_pool::OPS`](super::nn_index_conv_pool::OPS)).
fn run(case: &Value, op: &str) -> Result<tensor_core::Result<Tensor>, String> {
    let n = case["inputs"].as_array().map_or(0, Vec::len);
    let t: Vec<Tensor> = (0..n).map(|k| input(case, k)).collect();
    apply(case, op, &t)
}

/// Runs op `op` of a case (one of the ops this file judges) on the tensors `t`: the
/// case's inputs, or leaves made from them (the autograd judge).
pub(super) fn apply(
    case: &Value,
    op: &str,
    t: &[Tensor],
) -> Result<tensor_core::Result<Tensor>, String> {
    let args = &case["args"];
    let x = t.first().ok_or("case without inputs")?;
    let two = || -> Result<&Tensor, String> { t.get(1).ok_or(format!("{op} needs two inputs")) };
    let dims = || ints(&args["dims"]);
    let keepdim = || args["keepdim"].as_bool().unwrap_or(false);
    Ok(match op {
        "softmax" => nn::softmax(x, int(args, "dim")?),
        "log_softmax" => nn::log_softmax(x, int(args, "dim")?),
        "layer_norm" => nn::layer_norm(
            x,
            &usizes(&args["normalized_shape"]),
            t.get(1),
            t.get(2),
            args["eps"].as_f64().ok_or("case without eps")?,
        ),
        "gelu" => {
            let name = args["approximate"]
                .as_str()
                .ok_or("case without approximate")?;
            GeluApproximate::from_name(name).and_then(|a| nn::gelu(x, a))
        }
        "silu" => nn::silu(x),
        "cross_entropy" => {
            let name = args["reduction"].as_str().ok_or("case without reduction")?;
            let target = explicit(&case["target"]);
            Reduction::from_name(name).and_then(|r| nn::cross_entropy(x, &target, r))
        }
        "var" => x.var(&dims(), scalar(&args["correction"])?, keepdim()),
        "std" => x.std(&dims(), scalar(&args["correction"])?, keepdim()),
        "mean" => x.mean(&dims(), keepdim()),
        "masked_fill" => x.masked_fill(two()?, scalar(&args["value"])?),
        "tril" => x.tril(int(args, "diagonal")?),
        "triu" => x.triu(int(args, "diagonal")?),
        "maximum" => x.maximum(two()?),
        "minimum" => x.minimum(two()?),
        "sub" => x.sub(two()?),
        "div" => x.div(two()?),
        "pow_scalar" => x.pow_scalar(scalar(&args["exponent"])?),
        "narrow" => {
            let length = int(args, "length")?;
            let length = usize::try_from(length).map_err(|_| "negative length")?;
            x.narrow(int(args, "dim")?, int(args, "start")?, length)
        }
        "squeeze" => match args["dim"].as_i64() {
            Some(d) => x.squeeze_dim(d),
            None => Ok(x.squeeze()),
        },
        "unsqueeze" => x.unsqueeze(int(args, "dim")?),
        "transpose" => x.transpose(int(args, "dim0")?, int(args, "dim1")?),
        other => return Err(format!("unknown op {other}")),
    })
}

/// Judges every case of `nn.json`.
pub fn judge(cases: &Value) -> FileReport {
    FileReport::judge_each(cases, |case| {
        let op = case["op"].as_str().ok_or("case without op")?;
        if super::nn_index_conv_pool::OPS.contains(&op) {
            return super::nn_index_conv_pool::run(case);
        }
        check_outcome(run(case, op)?, &expected(case)).map_err(|e| format!("{op}: {e}"))
    })
}
