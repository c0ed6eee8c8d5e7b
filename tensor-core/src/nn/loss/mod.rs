//! `cross_entropy`, as PyTorch's `cross_entropy_loss`: class-index targets go through
//! `log_softmax` along the class dim and `nll_loss_nd`, here fused into one pass per
//! row (max, `Σ e^(x - max)`, and the target's log-probability); targets with the
//! input's shape are class probabilities.

pub(super) mod backward;
mod reduction;

pub use reduction::{Reduction, IGNORE_INDEX};

use super::backward::node::node;
use crate::alloc::try_vec;
use crate::autograd::{self, SavedTensor};
use crate::dtype::DType;
use crate::error::{list, Error, Result};
use crate::kernels::acc::{check_float, dispatch_float, Acc, FloatAcc};
use crate::kernels::rows::{max_row, par_rows, sum_row};
use crate::layout::wrap_dim;
use crate::shape_ops::slices::read;
use crate::tensor::Tensor;
use num_traits::Float;

#[cfg_attr(unoptimized, inline)]
fn invalid(message: String) -> Error {
    Error::InvalidArgument {
        op: "cross_entropy",
        message,
    }
}

/// `nll_loss_nd`'s and `nll_loss`'s shape checks, for an input of at least one dim.
#[cfg_attr(unoptimized, inline)]
fn check_nll_shapes(input: &Tensor, target: &Tensor) -> Result<()> {
    let (x, t) = (input.sizes(), target.sizes());
    if x.len() != 1 && x[0] != t.first().copied().unwrap_or(0) {
        return Err(invalid(format!(
            "Expected input batch_size ({}) to match target batch_size ({}).",
            x[0],
            t.first().copied().unwrap_or(0)
        )));
    }
    match x.len() {
        1 | 2 => {
            if t.len() > 1 {
                return Err(invalid(
                    "0D or 1D target tensor expected, multi-target not supported".into(),
                ));
            }
            if x.len() == 1 && t.len() == 1 && t[0] != 1 {
                return Err(invalid(format!(
                    "For 1D input, 1D target must have size 1, but got target size: {}",
                    t[0]
                )));
            }
        }
        4 => {
            if t.len() != 3 {
                return Err(invalid(format!(
                    "only batches of spatial targets supported (3D tensors) but got targets of dimension: {}",
                    t.len()
                )));
            }
            if x[2] != t[1] || x[3] != t[2] {
                return Err(invalid(format!(
                    "size mismatch (got input: {} , target: {}",
                    list(x),
                    list(t)
                )));
            }
        }
        _ => {
            let mut want = vec![x[0]];
            want.extend_from_slice(&x[2..]);
            if t.is_empty() || t[1..] != x[2..] {
                return Err(invalid(format!(
                    "Expected target size {}, got {}",
                    list(&want),
                    list(t)
                )));
            }
        }
    }
    Ok(())
}

/// The targets as `i64`, checked against the class count: PyTorch's
/// `Target 5 is out of bounds.` (a `Byte` target is printed as the character it is,
/// as PyTorch's stream does).
#[cfg_attr(unoptimized, inline)]
fn targets(target: &Tensor, classes: usize) -> Result<Vec<i64>> {
    let values: Vec<i64> = match target.dtype() {
        DType::I64 => target.to_vec::<i64>()?,
        DType::U8 => {
            let v = target.to_vec::<u8>()?;
            if let Some(&b) = v.iter().find(|&&b| b as usize >= classes) {
                return Err(invalid(format!("Target {} is out of bounds.", b as char)));
            }
            v.into_iter().map(i64::from).collect()
        }
        other => {
            return Err(invalid(format!(
                "expected target dtype to be Long or Byte, but got {}",
                other.scalar_type_name()
            )))
        }
    };
    if let Some(&t) = values
        .iter()
        .find(|&&t| t != IGNORE_INDEX && (t < 0 || t as u64 >= classes as u64))
    {
        return Err(invalid(format!("Target {t} is out of bounds.")));
    }
    Ok(values)
}

/// Per-row losses `-log_softmax(x)[t]` (rounded to `T`, as PyTorch's intermediate
/// `log_softmax` tensor is), 0 for an ignored target, reduced.
fn run<T: FloatAcc>(x: &Tensor, t: &[i64], c: usize, reduction: Reduction) -> Result<Tensor> {
    let rows = t.len();
    let mut losses = try_vec(rows, T::A::c(0.0))?;
    read::<T, _>(x, |xs| {
        par_rows(
            xs,
            c,
            &mut losses,
            1,
            #[inline(always)]
            |r, xr, out| {
                let target = t[r];
                if target == IGNORE_INDEX {
                    return;
                }
                let m = max_row(xr);
                let s = sum_row(xr, |v| (v - m).exp_fused());
                let lsm = T::down((xr[target as usize].up() - m) - s.ln());
                out[0] = -lsm.up();
            },
        )
    });
    let counted = t.iter().filter(|&&v| v != IGNORE_INDEX).count();
    match reduction {
        Reduction::None => {
            let v: Vec<T> = losses.into_iter().map(T::down).collect();
            Tensor::from_vec(v, &[rows])
        }
        Reduction::Sum | Reduction::Mean => {
            let total = losses.iter().fold(T::A::c(0.0), |a, &b| a + b);
            let v = if reduction == Reduction::Mean {
                total / T::A::c(counted as f64)
            } else {
                total
            };
            Ok(Tensor::scalar(T::down(v)))
        }
    }
}

/// Class-index targets: `input` `[N, C, d...]` (or `[C]`), `target` `[N, d...]` (or
/// `[]`).
#[cfg_attr(unoptimized, inline)]
fn class_indices(input: &Tensor, target: &Tensor, reduction: Reduction) -> Result<Tensor> {
    let nd = input.dim();
    let class_dim = if nd == 1 { 0 } else { 1 };
    wrap_dim(class_dim, nd)?;
    let kernel = if class_dim as usize == nd - 1 {
        "log_softmax_lastdim_kernel_impl"
    } else {
        "log_softmax_kernel_impl"
    };
    check_float(input.dtype(), kernel)?;
    check_nll_shapes(input, target)?;
    let c = input.sizes()[class_dim as usize];
    let t = targets(target, c)?;
    // Rows of C classes: move the class dim last.
    let rows = if nd <= 2 {
        input.reshape(&[-1, c as i64])?
    } else {
        let mut perm: Vec<i64> = (0..nd as i64).filter(|&d| d != 1).collect();
        perm.push(1);
        input.permute(&perm)?.reshape(&[-1, c as i64])?
    };
    let x = rows.contiguous()?;
    let out = dispatch_float!(input.dtype(), kernel, T, run::<T>(&x, &t, c, reduction))?;
    if reduction == Reduction::None {
        let shape: Vec<i64> = if nd == 1 {
            vec![]
        } else {
            target.sizes().iter().map(|&s| s as i64).collect()
        };
        return out.reshape(&shape);
    }
    Ok(out)
}

/// Class-probability targets (`target` with `input`'s shape): `-Σ_c target · log_softmax
/// (input)` along the class dim, reduced (`mean` divides by the number of rows).
#[cfg_attr(unoptimized, inline)]
fn class_probabilities(input: &Tensor, target: &Tensor, reduction: Reduction) -> Result<Tensor> {
    if !target.dtype().is_floating() {
        return Err(invalid(format!(
            "Expected floating point type for target with class probabilities, got {}",
            target.dtype().scalar_type_name()
        )));
    }
    let nd = input.dim();
    if nd == 0 {
        return Err(invalid(
            "Dimension specified as 1 but tensor has no dimensions".into(),
        ));
    }
    let class_dim = if nd == 1 { 0 } else { 1 };
    let lsm = super::softmax::log_softmax(input, class_dim)?;
    let per = lsm.mul(target)?.sum(&[class_dim], false)?.neg()?;
    match reduction {
        Reduction::None => Ok(per),
        Reduction::Sum => per.sum(&[], false),
        Reduction::Mean => {
            let rows = if nd == 1 {
                1
            } else {
                input.numel() / input.sizes()[1].max(1)
            };
            per.sum(&[], false)?.div_scalar(rows as f64)
        }
    }
}

/// `torch.nn.functional.cross_entropy(input, target, reduction=reduction)`, with
/// `ignore_index = -100` (PyTorch's default), no class weights and no label smoothing.
///
/// - Class indices: `input` `[N, C]` (or `[C]`, or `[N, C, d1, ...]`) of a float
///   dtype, `target` `int64` (or `uint8`) `[N]` (or `[]`, or `[N, d1, ...]`) in
///   `[0, C)`. The loss of an element is `-log_softmax(input)[target]`; `None` gives
///   one per target element (shaped as `target`), `Sum` their sum, `Mean` their sum
///   over the number of targets that are not `-100` (NaN when there are none).
/// - Class probabilities: a float `target` of `input`'s shape.
///
/// Computed in the accumulation type (`f32` for `f16`/`bf16`); the result has
/// `input`'s dtype, 0-d for `Sum` and `Mean`.
///
/// # Errors
/// [`Error::InvalidArgument`] with PyTorch's messages: `Expected input batch_size (4)
/// to match target batch_size (3).`, `0D or 1D target tensor expected, multi-target
/// not supported`, `Expected target size [2, 5], got [2, 4]`, `expected target dtype
/// to be Long or Byte, but got Float`, `Target 5 is out of bounds.`;
/// [`Error::UnsupportedDType`] for a non-float input
/// (`"log_softmax_lastdim_kernel_impl" not implemented for 'Long'`);
/// [`Error::DimOutOfRange`](crate::error::Error::DimOutOfRange) for a 0-d input.
#[cfg_attr(unoptimized, inline)]
pub fn cross_entropy(input: &Tensor, target: &Tensor, reduction: Reduction) -> Result<Tensor> {
    let t = target.detach();
    autograd::apply(
        &[input],
        || cross_entropy_forward(input, target, reduction),
        |_| {
            node(
                "NllLossBackward0",
                vec![SavedTensor::input(input)],
                1,
                move |g, s| {
                    Ok(vec![Some(backward::cross_entropy_backward(
                        g, &s[0], &t, reduction,
                    )?)])
                },
            )
        },
    )
}

#[cfg_attr(unoptimized, inline)]
fn cross_entropy_forward(input: &Tensor, target: &Tensor, reduction: Reduction) -> Result<Tensor> {
    if input.sizes() == target.sizes() {
        return class_probabilities(input, target, reduction);
    }
    class_indices(input, target, reduction)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn logits() -> Tensor {
        Tensor::from_vec((0..6).map(|i| i as f32).collect(), &[2, 3]).unwrap()
    }

    #[test]
    fn cross_entropy_reductions() {
        // F.cross_entropy(torch.arange(6.).view(2, 3), torch.tensor([1, 2]), reduction=...)
        let t = Tensor::from_vec(vec![1i64, 2], &[2]).unwrap();
        let none = cross_entropy(&logits(), &t, Reduction::None).unwrap();
        let v = none.to_vec::<f32>().unwrap();
        assert!((v[0] - 1.407_605_9).abs() < 1e-6 && (v[1] - 0.407_605_95).abs() < 1e-6);
        let mean = cross_entropy(&logits(), &t, Reduction::Mean).unwrap();
        assert_eq!(mean.sizes(), &[] as &[usize]);
        assert!((mean.item::<f32>().unwrap() - 0.907_605_9).abs() < 1e-6);
    }

    #[test]
    fn cross_entropy_ignores_minus_100() {
        let t = Tensor::from_vec(vec![1i64, -100], &[2]).unwrap();
        let m = cross_entropy(&logits(), &t, Reduction::Mean).unwrap();
        assert!((m.item::<f32>().unwrap() - 1.407_605_9).abs() < 1e-6);
        let t = Tensor::from_vec(vec![-100i64, -100], &[2]).unwrap();
        assert!(cross_entropy(&logits(), &t, Reduction::Mean)
            .unwrap()
            .item::<f32>()
            .unwrap()
            .is_nan());
    }

    #[test]
    fn cross_entropy_target_errors() {
        let t = Tensor::from_vec(vec![1i64, 3], &[2]).unwrap();
        assert!(cross_entropy(&logits(), &t, Reduction::Sum)
            .unwrap_err()
            .to_string()
            .contains("Target 3 is out of bounds."));
        let t = Tensor::from_vec(vec![1i64, 0, 0], &[3]).unwrap();
        assert!(cross_entropy(&logits(), &t, Reduction::Sum)
            .unwrap_err()
            .to_string()
            .contains("Expected input batch_size (2) to match target batch_size (3)."));
        let t = Tensor::from_vec(vec![1.0f32, 0.0], &[2]).unwrap();
        assert!(cross_entropy(&logits(), &t, Reduction::Sum)
            .unwrap_err()
            .to_string()
            .contains("expected target dtype to be Long or Byte, but got Float"));
        let t = Tensor::zeros(&[2, 2], DType::I64).unwrap();
        assert!(cross_entropy(&logits(), &t, Reduction::Sum)
            .unwrap_err()
            .to_string()
            .contains("0D or 1D target tensor expected, multi-target not supported"));
    }

    #[test]
    fn cross_entropy_spatial_matches_rows() {
        // [N=1, C=3, d=2]: the same as rows [[0, 2, 4], [1, 3, 5]].
        let x = Tensor::from_vec((0..6).map(|i| i as f64).collect(), &[1, 3, 2]).unwrap();
        let t = Tensor::from_vec(vec![0i64, 2], &[1, 2]).unwrap();
        let l = cross_entropy(&x, &t, Reduction::None).unwrap();
        assert_eq!(l.sizes(), &[1, 2]);
        let v = l.to_vec::<f64>().unwrap();
        let lse = |a: f64, b: f64, c: f64| (a.exp() + b.exp() + c.exp()).ln();
        assert!((v[0] - (lse(0.0, 2.0, 4.0) - 0.0)).abs() < 1e-12);
        assert!((v[1] - (lse(1.0, 3.0, 5.0) - 5.0)).abs() < 1e-12);
        let bad = Tensor::from_vec(vec![0i64, 2, 1], &[1, 3]).unwrap();
        assert!(cross_entropy(&x, &bad, Reduction::None)
            .unwrap_err()
            .to_string()
            .contains("Expected target size [1, 2], got [1, 3]"));
    }

    #[test]
    fn cross_entropy_reduction_names() {
        assert_eq!(Reduction::from_name("sum").unwrap(), Reduction::Sum);
        assert!(Reduction::from_name("avg")
            .unwrap_err()
            .to_string()
            .contains("avg is not a valid value for reduction"));
    }
}
