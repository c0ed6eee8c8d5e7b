//! `torch.where(condition, x, y)`: select elementwise between two tensors, functional
//! and with an output tensor (PyTorch has no in-place `where_`).

use crate::dispatch_dtype;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::iterator::{result_type, Operand};
use crate::iterator::{TensorIterator, TensorIteratorConfig};
use crate::kernels::ternary;
use crate::tensor::Tensor;

/// PyTorch's `where_self_out`: promotes `x`, `y` to `result_type(x, y)`, checks `out`'s
/// dtype and `condition`'s, builds the iterator (no dtype check, overlap check, `out`
/// resized when its shape is not the broadcast shape) and selects.
#[cfg_attr(unoptimized, inline)]
fn run(condition: &Tensor, x: &Tensor, y: &Tensor, out: Option<&Tensor>) -> Result<Tensor> {
    let rt = result_type(&[Operand::Tensor(x), Operand::Tensor(y)]);
    if let Some(out) = out {
        if out.dtype() != rt {
            return Err(Error::InvalidArgument {
                op: "where",
                message: format!(
                    "Expected out type to be {} but got {}",
                    rt.scalar_type_name(),
                    out.dtype().scalar_type_name()
                ),
            });
        }
    }
    // A uint8 condition is accepted (PyTorch warns once) and read as bool.
    if !matches!(condition.dtype(), DType::Bool | DType::U8) {
        return Err(Error::UnsupportedDType {
            message: format!(
                "where expected condition to be a boolean tensor, but got a tensor with dtype {}",
                condition.dtype().scalar_type_name()
            ),
        });
    }
    let x = x.to_dtype(rt)?;
    let y = y.to_dtype(rt)?;
    let cond = condition.to_dtype(DType::Bool)?;
    // The functional form writes into `empty({0})`, which the iterator resizes.
    let fresh;
    let out = match out {
        Some(out) => out,
        None => {
            fresh = Tensor::empty(&[0], rt)?;
            &fresh
        }
    };
    let config = TensorIteratorConfig::new()
        .check_all_same_dtype(false)
        .add_output(out)
        .add_const_input(&cond)
        .add_const_input(&x)
        .add_const_input(&y);
    let iter = TensorIterator::build_and_run(config, |iter| {
        Ok(dispatch_dtype!(rt, T, {
            ternary::<bool, T, T, _>(iter, |c: bool, a: T, b: T| if c { a } else { b })
        }))
    })?;
    Ok(iter.final_output(0).alias())
}

impl Tensor {
    /// `torch.where(condition, x, y)`: `x` where `condition` is true, else `y`. The three
    /// sizes broadcast to the result's; `x`, `y` are first promoted to
    /// `result_type(x, y)`, the result's dtype. Strides follow the operands' layout (the
    /// TensorIterator's perm).
    ///
    /// # Errors
    /// [`Error::UnsupportedDType`] when `condition` is not bool (or uint8):
    /// `where expected condition to be a boolean tensor, but got a tensor with dtype
    /// Float`; [`Error::Broadcast`].
    #[cfg_attr(unoptimized, inline)]
    pub fn where_(condition: &Tensor, x: &Tensor, y: &Tensor) -> Result<Tensor> {
        crate::autograd::apply(
            &[condition, x, y],
            || run(condition, x, y, None),
            |_| crate::autograd::WhereBackward {
                cond: crate::autograd::SavedTensor::input(condition),
            },
        )
    }

    /// `torch.where(condition, x, y, out=out)`: [`where_`](Self::where_) written into
    /// `out`, whose dtype must be `result_type(x, y)` exactly. An `out` whose sizes are
    /// not the broadcast shape is resized (PyTorch warns when it had elements); a
    /// correctly-sized `out` keeps its strides. Returns the tensor written: `out`, or a
    /// fresh tensor when `out` had to be resized (a PyTorch `resize_` cannot change this
    /// handle).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] `Expected out type to be Float but got Int` (checked
    /// first); the errors of [`where_`](Self::where_); [`Error::InternalOverlap`] /
    /// [`Error::PartialOverlap`] when `out` overlaps itself or an input.
    #[cfg_attr(unoptimized, inline)]
    pub fn where_out(condition: &Tensor, x: &Tensor, y: &Tensor, out: &Tensor) -> Result<Tensor> {
        crate::autograd::check_out("where", &[x, y], out)?;
        let r = run(condition, x, y, Some(out))?;
        crate::autograd::wrote(out);
        Ok(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cxy() -> (Tensor, Tensor, Tensor) {
        (
            Tensor::from_vec(vec![true, false], &[2]).unwrap(),
            Tensor::from_vec(vec![1i32, 2], &[2]).unwrap(),
            Tensor::from_vec(vec![0.5f32], &[1]).unwrap(),
        )
    }

    #[test]
    fn where_promotes_and_broadcasts() {
        let (c, x, y) = cxy();
        let r = Tensor::where_(&c, &x, &y).unwrap();
        assert_eq!(r.dtype(), DType::F32);
        assert_eq!(r.to_vec::<f32>().unwrap(), vec![1.0, 0.5]);
    }

    #[test]
    fn where_float_condition_is_rejected() {
        let (_, x, y) = cxy();
        let bad = Tensor::zeros(&[2], DType::F32).unwrap();
        assert_eq!(
            Tensor::where_(&bad, &x, &y).unwrap_err().to_string(),
            "where expected condition to be a boolean tensor, but got a tensor with dtype Float"
        );
    }

    #[test]
    fn where_out_of_other_dtype_errors_before_condition_check() {
        // torch.where(c, int32, float32, out=int32) and with a float condition.
        let (c, x, y) = cxy();
        let out = Tensor::empty(&[0], DType::I32).unwrap();
        let e = Tensor::where_out(&c, &x, &y, &out).unwrap_err().to_string();
        assert!(
            e.contains("Expected out type to be Float but got Int"),
            "{e}"
        );
        let f64_out = Tensor::empty(&[2], DType::F64).unwrap();
        let e = Tensor::where_out(&c, &x, &y, &f64_out).unwrap_err();
        assert!(e
            .to_string()
            .contains("Expected out type to be Float but got Double"));
        let bad = Tensor::zeros(&[2], DType::F32).unwrap();
        let e = Tensor::where_out(&bad, &x, &y, &out)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("Expected out type to be Float but got Int"),
            "{e}"
        );
    }

    #[test]
    fn where_out_empty_is_resized() {
        let (c, x, y) = cxy();
        let out = Tensor::empty(&[0], DType::F32).unwrap();
        let r = Tensor::where_out(&c, &x, &y, &out).unwrap();
        assert_eq!(r.sizes(), &[2]);
        assert_eq!(r.to_vec::<f32>().unwrap(), vec![1.0, 0.5]);
        // A wrongly-sized non-empty out is resized too (PyTorch only warns).
        let out = Tensor::empty(&[2, 2], DType::F32).unwrap();
        let r = Tensor::where_out(&c, &x, &y, &out).unwrap();
        assert_eq!(r.sizes(), &[2]);
    }

    #[test]
    fn where_out_strided_keeps_its_strides_and_is_written_in_place() {
        let (c, x, y) = cxy();
        let base = Tensor::zeros(&[4], DType::F32).unwrap();
        let out = base.slice(0, None, None, 2).unwrap();
        let r = Tensor::where_out(&c, &x, &y, &out).unwrap();
        assert_eq!(r.strides(), &[2]);
        assert_eq!(out.to_vec::<f32>().unwrap(), vec![1.0, 0.5]);
        assert_eq!(base.to_vec::<f32>().unwrap(), vec![1.0, 0.0, 0.5, 0.0]);
    }

    #[test]
    fn where_out_transposed_keeps_out_strides() {
        // torch.where(ones(2,3).bool(), ones(2,3), zeros(2,3), out=empty(3,2).t())
        let c = Tensor::ones(&[2, 3], DType::Bool).unwrap();
        let x = Tensor::ones(&[2, 3], DType::F32).unwrap();
        let y = Tensor::zeros(&[2, 3], DType::F32).unwrap();
        let out = Tensor::empty(&[3, 2], DType::F32).unwrap().t().unwrap();
        let r = Tensor::where_out(&c, &x, &y, &out).unwrap();
        assert_eq!(r.strides(), &[1, 2]);
        assert_eq!(out.to_vec::<f32>().unwrap(), vec![1.0; 6]);
    }

    #[test]
    fn where_out_may_be_an_input() {
        // torch.where(c, x, y, out=x) with x float32.
        let c = Tensor::from_vec(vec![true, false], &[2]).unwrap();
        let x = Tensor::from_vec(vec![1.0f32, 2.0], &[2]).unwrap();
        let y = Tensor::from_vec(vec![0.5f32], &[1]).unwrap();
        Tensor::where_out(&c, &x, &y, &x).unwrap();
        assert_eq!(x.to_vec::<f32>().unwrap(), vec![1.0, 0.5]);
    }

    #[test]
    fn where_out_expanded_is_internal_overlap() {
        let (c, x, y) = cxy();
        let out = Tensor::zeros(&[1], DType::F32)
            .unwrap()
            .expand(&[2])
            .unwrap();
        let e = Tensor::where_out(&c, &x, &y, &out).unwrap_err();
        assert_eq!(e, Error::InternalOverlap);
    }

    #[test]
    fn where_uint8_condition_is_read_as_bool() {
        let c = Tensor::from_vec(vec![2u8, 0], &[2]).unwrap();
        let x = Tensor::from_vec(vec![1i64, 2], &[2]).unwrap();
        let y = Tensor::from_vec(vec![7i64, 8], &[2]).unwrap();
        let out = Tensor::empty(&[2], DType::I64).unwrap();
        Tensor::where_out(&c, &x, &y, &out).unwrap();
        assert_eq!(out.to_vec::<i64>().unwrap(), vec![1, 8]);
    }
}
