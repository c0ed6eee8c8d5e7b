//! Ternary ops: `where`, `addcmul`, and `clamp` (a unary op with two scalars).

use crate::error::{Error, Result};
use crate::iterator::{ResultTypeState, TensorIterator, TensorIteratorConfig};
use crate::kernels::arith::Arith;
use crate::kernels::{ternary, unary};
use crate::tensor::scalar_to;
use crate::{dispatch_dtype, result_type, DType, Operand, Scalar, Tensor};

fn unsupported(message: String) -> Error {
    Error::UnsupportedDType { message }
}

impl Tensor {
    /// `torch.where(condition, x, y)`: `x` where `condition` is true, else `y`; all three
    /// broadcast, and `x`, `y` are promoted to `result_type(x, y)` first.
    ///
    /// # Errors
    /// [`Error::UnsupportedDType`] when `condition` is not bool (or uint8):
    /// `where expected condition to be a boolean tensor, but got a tensor with dtype
    /// Float`; [`Error::Broadcast`].
    pub fn where_(condition: &Tensor, x: &Tensor, y: &Tensor) -> Result<Tensor> {
        if !matches!(condition.dtype(), DType::Bool | DType::U8) {
            return Err(unsupported(format!(
                "where expected condition to be a boolean tensor, but got a tensor with dtype {}",
                condition.dtype().scalar_type_name()
            )));
        }
        let rt = result_type(&[Operand::Tensor(x), Operand::Tensor(y)]);
        let x = x.to_dtype(rt)?;
        let y = y.to_dtype(rt)?;
        let cond = condition.to_dtype(DType::Bool)?;
        // PyTorch's functional `where` writes into `empty({0})`, which is resized.
        let out = Tensor::empty(&[0], rt)?;
        let iter = TensorIterator::build(
            TensorIteratorConfig::new()
                .check_all_same_dtype(false)
                .add_output(&out)
                .add_const_input(&cond)
                .add_const_input(&x)
                .add_const_input(&y),
        )?;
        dispatch_dtype!(rt, T, {
            ternary::<bool, T, T, _>(&iter, |c: bool, a: T, b: T| if c { a } else { b })
        });
        Ok(iter.output(0).alias())
    }

    /// `torch.addcmul(self, tensor1, tensor2, value=value)`:
    /// `self + value * tensor1 * tensor2`, broadcasting all three and computing in
    /// their promoted dtype (`value` converted to it).
    ///
    /// # Errors
    /// [`Error::Broadcast`]; [`Error::UnsupportedDType`] for bool
    /// (`"addcmul_cpu_out" not implemented for 'Bool'`).
    pub fn addcmul(&self, tensor1: &Tensor, tensor2: &Tensor, value: Scalar) -> Result<Tensor> {
        let iter = TensorIterator::build(TensorIteratorConfig::ternary_op(
            None, self, tensor1, tensor2,
        ))?;
        let dtype = iter.dtype(0);
        if dtype == DType::Bool {
            return Err(unsupported(
                "\"addcmul_cpu_out\" not implemented for 'Bool'".into(),
            ));
        }
        dispatch_dtype!(dtype, T, {
            let v = scalar_to::<T>(value);
            ternary::<T, T, T, _>(&iter, move |s: T, a: T, b: T| {
                <T as Arith>::addcmul(s, a, b, v)
            })
        });
        Ok(iter.output(0).alias())
    }

    /// `torch.clamp(self, min, max)`: `min(max(x, min), max)` elementwise (NaN stays
    /// NaN; `min > max` gives `max`). A non-floating tensor is first promoted with the
    /// scalars as wrapped numbers (`int tensor.clamp(0.5) -> float32`).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when both bounds are `None`
    /// (`torch.clamp: At least one of 'min' or 'max' must not be None`);
    /// [`Error::UnsupportedDType`] for bool.
    pub fn clamp(&self, min: Option<Scalar>, max: Option<Scalar>) -> Result<Tensor> {
        if min.is_none() && max.is_none() {
            return Err(Error::InvalidArgument {
                op: "clamp",
                message: "torch.clamp: At least one of 'min' or 'max' must not be None".into(),
            });
        }
        let mut dtype = self.dtype();
        if !dtype.is_floating() {
            let mut state = ResultTypeState::default();
            state.update(dtype, self.dim(), false);
            for s in [min, max].into_iter().flatten() {
                state.update(s.dtype(), 0, true);
            }
            dtype = state.result().unwrap_or(dtype);
        }
        if dtype == DType::Bool {
            return Err(unsupported(
                "\"clamp_scalar_cpu\" not implemented for 'Bool'".into(),
            ));
        }
        let input = self.to_dtype(dtype)?;
        let iter = TensorIterator::build(TensorIteratorConfig::unary_op(None, &input))?;
        dispatch_dtype!(dtype, T, {
            let lo = min.map(scalar_to::<T>);
            let hi = max.map(scalar_to::<T>);
            unary::<T, T, _>(&iter, move |x: T| <T as Arith>::clamp(x, lo, hi))
        });
        Ok(iter.output(0).alias())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn where_promotes_and_broadcasts() {
        let c = Tensor::from_vec(vec![true, false], &[2]).unwrap();
        let x = Tensor::from_vec(vec![1i32, 2], &[2]).unwrap();
        let y = Tensor::from_vec(vec![0.5f32], &[1]).unwrap();
        let r = Tensor::where_(&c, &x, &y).unwrap();
        assert_eq!(r.dtype(), DType::F32);
        assert_eq!(r.to_vec::<f32>().unwrap(), vec![1.0, 0.5]);
        let bad = Tensor::zeros(&[2], DType::F32).unwrap();
        assert_eq!(
            Tensor::where_(&bad, &x, &y).unwrap_err().to_string(),
            "where expected condition to be a boolean tensor, but got a tensor with dtype Float"
        );
    }

    #[test]
    fn addcmul_and_clamp() {
        let s = Tensor::from_vec(vec![1.0f32, 2.0], &[2]).unwrap();
        let r = s.addcmul(&s, &s, Scalar::Float(0.5)).unwrap();
        assert_eq!(r.to_vec::<f32>().unwrap(), vec![1.5, 4.0]);
        let i = Tensor::from_vec(vec![-3i64, 5], &[2]).unwrap();
        let c = i.clamp(Some(Scalar::Float(0.5)), None).unwrap();
        assert_eq!(c.dtype(), DType::F32);
        assert_eq!(c.to_vec::<f32>().unwrap(), vec![0.5, 5.0]);
        let c = i.clamp(Some(Scalar::Int(0)), Some(Scalar::Int(2))).unwrap();
        assert_eq!(c.to_vec::<i64>().unwrap(), vec![0, 2]);
    }
}
