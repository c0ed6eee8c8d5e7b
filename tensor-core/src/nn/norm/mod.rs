//! `layer_norm` over the trailing dims, as PyTorch's `layer_norm_cpu` and
//! `LayerNormKernelImpl`: per row, the mean and the biased variance in the
//! accumulation type, `rstd = 1 / sqrt(var + eps)`, then
//! `y = (x * rstd - mean * rstd) * weight + bias`, one fused pass per row.

pub(super) mod backward;

use super::backward::node::node;
use crate::alloc::try_with_capacity;
use crate::autograd::{self, SavedTensor};
use crate::dtype::DType;
use crate::error::{list, Error, Result};
use crate::kernels::acc::{dispatch_float, Acc, FloatAcc};
use crate::kernels::rows::{par_rows_grain, sum_row, ROW_GRAIN};
use crate::shape_ops::slices::{read, write_new};
use crate::tensor::Tensor;
use num_traits::Float;

#[cfg_attr(unoptimized, inline)]
fn invalid(message: String) -> Error {
    Error::InvalidArgument {
        op: "layer_norm",
        message,
    }
}

/// `_check_layer_norm_inputs`: shapes of `normalized_shape`, weight, bias and input.
#[cfg_attr(unoptimized, inline)]
fn check_shapes(
    input: &Tensor,
    normalized_shape: &[usize],
    weight: Option<&Tensor>,
    bias: Option<&Tensor>,
) -> Result<()> {
    if normalized_shape.is_empty() {
        return Err(invalid(format!(
            "Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one element, but got normalized_shape = {}",
            list(normalized_shape)
        )));
    }
    for (name, p) in [("weight", weight), ("bias", bias)] {
        if let Some(p) = p {
            if p.sizes() != normalized_shape {
                return Err(invalid(format!(
                    "Expected {name} to be of same shape as normalized_shape, but got {name} of shape {} and normalized_shape = {}",
                    list(p.sizes()),
                    list(normalized_shape)
                )));
            }
        }
    }
    let sizes = input.sizes();
    let k = normalized_shape.len();
    if sizes.len() < k || &sizes[sizes.len() - k..] != normalized_shape {
        let tail: String = normalized_shape.iter().map(|s| format!(", {s}")).collect();
        return Err(invalid(format!(
            "Given normalized_shape={}, expected input with shape [*{tail}], but got input of size{}",
            list(normalized_shape),
            list(sizes)
        )));
    }
    Ok(())
}

/// PyTorch's mixed-dtype rule on CPU: the parameters may be `Float` for a `Half` or
/// `BFloat16` input; otherwise every tensor has the input's dtype.
#[cfg_attr(unoptimized, inline)]
fn check_dtypes(input: &Tensor, weight: Option<&Tensor>, bias: Option<&Tensor>) -> Result<()> {
    let params: Vec<&Tensor> = [weight, bias].into_iter().flatten().collect();
    let mixed = params.first().is_some_and(|p| p.dtype() != input.dtype());
    if mixed {
        if params.iter().any(|p| p.dtype() != DType::F32) {
            return Err(invalid(
                "mixed dtype (CPU): expect parameter to have scalar type of Float".into(),
            ));
        }
        if !matches!(input.dtype(), DType::F16 | DType::BF16) {
            return Err(invalid(
                "mixed dtype (CPU): all inputs must share same datatype.".into(),
            ));
        }
        return Ok(());
    }
    if input.dtype().is_floating() {
        if let Some(p) = params.iter().find(|p| p.dtype() != input.dtype()) {
            return Err(invalid(format!(
                "expected scalar type {} but found {}",
                input.dtype().scalar_type_name(),
                p.dtype().scalar_type_name()
            )));
        }
    }
    Ok(())
}

/// PyTorch's argument checks of `layer_norm`, in its order (shapes, then dtypes),
/// without computing: the checks a caller that holds the logical tensors only as
/// metadata (global tensors' stand-ins) runs before any communication.
///
/// # Errors
/// As [`layer_norm`], but for the unsupported-dtype error of a non-float input.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn check_layer_norm_inputs(
    input: &Tensor,
    normalized_shape: &[usize],
    weight: Option<&Tensor>,
    bias: Option<&Tensor>,
) -> Result<()> {
    check_shapes(input, normalized_shape, weight, bias)?;
    check_dtypes(input, weight, bias)
}

/// A parameter's elements in the accumulation type, row-major.
fn param<A: Acc>(p: Option<&Tensor>) -> Result<Option<Vec<A>>> {
    let Some(p) = p else { return Ok(None) };
    let values = p.to_vec_f64()?;
    let mut out = try_with_capacity(values.len())?;
    out.extend(values.into_iter().map(A::c));
    Ok(Some(out))
}

/// One row: `y = (x * rstd + (-mean * rstd)) * gamma + beta`.
#[inline(always)]
fn row<T: FloatAcc>(x: &[T], y: &mut [T], g: Option<&[T::A]>, b: Option<&[T::A]>, eps: T::A) {
    let n = T::A::c(x.len() as f64);
    let mean = sum_row(x, |v| v) / n;
    let var = sum_row(x, |v| (v - mean) * (v - mean)) / n;
    let zero = T::A::c(0.0);
    let rstd = T::A::c(1.0) / ((if var > zero { var } else { zero }) + eps).sqrt();
    let shift = -mean * rstd;
    match (g, b) {
        (Some(g), Some(b)) => {
            for (((o, &v), &gv), &bv) in y.iter_mut().zip(x).zip(g).zip(b) {
                *o = T::down((v.up() * rstd + shift) * gv + bv);
            }
        }
        (Some(g), None) => {
            for ((o, &v), &gv) in y.iter_mut().zip(x).zip(g) {
                *o = T::down((v.up() * rstd + shift) * gv);
            }
        }
        (None, Some(b)) => {
            for ((o, &v), &bv) in y.iter_mut().zip(x).zip(b) {
                *o = T::down((v.up() * rstd + shift) + bv);
            }
        }
        (None, None) => {
            for (o, &v) in y.iter_mut().zip(x) {
                *o = T::down(v.up() * rstd + shift);
            }
        }
    }
}

fn run<T: FloatAcc>(
    x: &Tensor,
    n: usize,
    weight: Option<&Tensor>,
    bias: Option<&Tensor>,
    eps: f64,
) -> Result<Tensor> {
    let g = param::<T::A>(weight)?;
    let b = param::<T::A>(bias)?;
    let eps = T::A::c(eps);
    read::<T, _>(x, |xs| {
        write_new::<T>(x.sizes(), |ys| {
            par_rows_grain(
                xs,
                n,
                ys,
                n,
                ROW_GRAIN,
                #[inline(always)]
                |_, xr, yr| row(xr, yr, g.as_deref(), b.as_deref(), eps),
            );
            Ok(())
        })
    })
}

/// `torch.nn.functional.layer_norm(input, normalized_shape, weight, bias, eps)`:
/// normalises over the trailing dims `normalized_shape` (each row of
/// `prod(normalized_shape)` elements to mean 0 and variance 1, the biased variance
/// plus `eps` under the square root), then scales by `weight` and shifts by `bias`
/// (both of shape `normalized_shape`, optional).
///
/// Float dtypes; computed in the accumulation type (`f32` for `f16`/`bf16`, whose
/// `weight`/`bias` may be `f32`). The result has `input`'s sizes and dtype and is
/// contiguous.
///
/// # Errors
/// [`Error::InvalidArgument`] with PyTorch's messages: an empty `normalized_shape`
/// (`Expected normalized_shape to be at least 1-dimensional, ...`), a weight or bias
/// of another shape (`Expected weight to be of same shape as normalized_shape, but got
/// weight of shape [4] and normalized_shape = [3]`), an input whose trailing sizes
/// differ (`Given normalized_shape=[3, 5], expected input with shape [*, 3, 5], but got
/// input of size[3, 4]`), mixed dtypes (`mixed dtype (CPU): ...`, `expected scalar type
/// Half but found Float`); [`Error::UnsupportedDType`] for a non-float input
/// (`"LayerNormKernelImpl" not implemented for 'Long'`).
#[cfg_attr(unoptimized, inline)]
pub fn layer_norm(
    input: &Tensor,
    normalized_shape: &[usize],
    weight: Option<&Tensor>,
    bias: Option<&Tensor>,
    eps: f64,
) -> Result<Tensor> {
    let mut inputs = vec![input];
    inputs.extend(weight);
    inputs.extend(bias);
    let n_inputs = inputs.len();
    let shape = normalized_shape.to_vec();
    let (has_w, has_b) = (weight.is_some(), bias.is_some());
    autograd::apply(
        &inputs,
        || layer_norm_forward(input, normalized_shape, weight, bias, eps),
        |_| {
            let saved = inputs.iter().map(|t| SavedTensor::input(t)).collect();
            node("NativeLayerNormBackward0", saved, n_inputs, move |g, s| {
                let w = has_w.then(|| &s[1]);
                let b = has_b.then(|| &s[s.len() - 1]);
                let (dx, dw, db) = backward::layer_norm_backward(g, &s[0], &shape, w, b, eps)?;
                let mut grads = vec![Some(dx)];
                grads.extend(dw.map(Some));
                grads.extend(db.map(Some));
                Ok(grads)
            })
        },
    )
}

#[cfg_attr(unoptimized, inline)]
fn layer_norm_forward(
    input: &Tensor,
    normalized_shape: &[usize],
    weight: Option<&Tensor>,
    bias: Option<&Tensor>,
    eps: f64,
) -> Result<Tensor> {
    check_layer_norm_inputs(input, normalized_shape, weight, bias)?;
    let n: usize = normalized_shape.iter().product();
    if input.numel() == 0 {
        crate::kernels::acc::check_float(input.dtype(), "LayerNormKernelImpl")?;
        return Tensor::empty(input.sizes(), input.dtype());
    }
    let x = input.contiguous()?;
    dispatch_float!(
        input.dtype(),
        "LayerNormKernelImpl",
        T,
        run::<T>(&x, n, weight, bias, eps)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layer_norm_of_one_row() {
        // F.layer_norm(torch.tensor([[1., 2., 3., 4.]]), [4])
        let x = Tensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0], &[1, 4]).unwrap();
        let y = layer_norm(&x, &[4], None, None, 1e-5).unwrap();
        let want = [
            -1.3416354656219482,
            -0.4472118318080902,
            0.4472118318080902,
            1.3416354656219482,
        ];
        for (a, b) in y.to_vec_f64().unwrap().iter().zip(want) {
            assert!((a - b).abs() < 1e-6, "{a} {b}");
        }
    }

    #[test]
    fn layer_norm_weight_and_bias_of_transposed_input() {
        let x = Tensor::from_vec((0..6).map(|i| i as f64).collect(), &[3, 2])
            .unwrap()
            .t()
            .unwrap();
        let w = Tensor::from_vec(vec![2.0f64, 2.0, 2.0], &[3]).unwrap();
        let b = Tensor::from_vec(vec![1.0f64, 1.0, 1.0], &[3]).unwrap();
        let y = layer_norm(&x, &[3], Some(&w), Some(&b), 0.0).unwrap();
        assert_eq!(y.strides(), &[3, 1]);
        let s = 1.5f64.sqrt();
        let want = [1.0 - s * 2.0, 1.0, 1.0 + s * 2.0];
        for (a, b) in y.to_vec::<f64>().unwrap()[3..].iter().zip(want) {
            assert!((a - b).abs() < 1e-12, "{a} {b}");
        }
    }

    #[test]
    fn layer_norm_shape_errors_have_pytorch_messages() {
        let x = Tensor::zeros(&[3, 4], DType::F32).unwrap();
        let e = layer_norm(&x, &[3, 5], None, None, 1e-5).unwrap_err();
        assert!(e.to_string().contains(
            "Given normalized_shape=[3, 5], expected input with shape [*, 3, 5], but got input of size[3, 4]"
        ));
        let w = Tensor::zeros(&[5], DType::F32).unwrap();
        let e = layer_norm(&x, &[4], Some(&w), None, 1e-5).unwrap_err();
        assert!(e.to_string().contains(
            "Expected weight to be of same shape as normalized_shape, but got weight of shape [5] and normalized_shape = [4]"
        ));
        let l = Tensor::zeros(&[3, 4], DType::I64).unwrap();
        assert!(layer_norm(&l, &[4], None, None, 1e-5)
            .unwrap_err()
            .to_string()
            .contains("\"LayerNormKernelImpl\" not implemented for 'Long'"));
    }

    #[test]
    fn layer_norm_mixed_dtypes_follow_the_cpu_rule() {
        let h = Tensor::zeros(&[2, 3], DType::BF16).unwrap();
        let w = Tensor::ones(&[3], DType::F32).unwrap();
        assert_eq!(
            layer_norm(&h, &[3], Some(&w), None, 1e-5).unwrap().dtype(),
            DType::BF16
        );
        let d = Tensor::zeros(&[2, 3], DType::F64).unwrap();
        assert!(layer_norm(&d, &[3], Some(&w), None, 1e-5)
            .unwrap_err()
            .to_string()
            .contains("mixed dtype (CPU): all inputs must share same datatype."));
    }
}
