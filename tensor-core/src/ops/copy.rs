//! `copy_` and `to(dtype)`.

use crate::dispatch_dtype;
use crate::dtype::DType;
use crate::error::Result;
use crate::iterator::{is_same, TensorIterator, TensorIteratorConfig};
use crate::kernels::{copy_kernel, nullary_fill};
use crate::scalar::cast::checked_scalar;
use crate::scalar::Scalar;
use crate::tensor::Tensor;

impl Tensor {
    /// `self.copy_(src)`: writes `src`, broadcast to `self`'s sizes and cast to `self`'s
    /// dtype, into `self` in place (`Tensor.copy_`). Copying a view onto itself does
    /// nothing.
    ///
    /// # Errors
    /// [`Error::Broadcast`](crate::error::Error::Broadcast) /
    /// [`Error::OutputShape`](crate::error::Error::OutputShape) when `src` does not broadcast
    /// to `self` (`output with shape [3] doesn't match the broadcast shape [2, 3]`);
    /// [`Error::InternalOverlap`](crate::error::Error::InternalOverlap) when `self` is expanded;
    /// [`Error::PartialOverlap`](crate::error::Error::PartialOverlap).
    #[cfg_attr(unoptimized, inline)]
    pub fn copy_(&self, src: &Tensor) -> Result<()> {
        if is_same(self, src) {
            return Ok(());
        }
        if crate::autograd::needs_grad(&[self, src]) {
            // The new value is `src` everywhere: `where(true, src, old)` has that value
            // and the gradients of `copy_` (all to `src`, none to the old value).
            let all = Tensor::scalar(true);
            return crate::autograd::inplace_rebase(self, |old| Tensor::where_(&all, src, old));
        }
        crate::autograd::check_writable(self)?;
        let iter = TensorIterator::build(
            TensorIteratorConfig::new()
                .add_output(self)
                .add_const_input(src)
                .resize_outputs(false)
                .check_all_same_dtype(false),
        )?;
        if iter.numel() == 0 {
            return Ok(());
        }
        copy_kernel(&iter);
        crate::autograd::wrote(self);
        Ok(())
    }

    /// `self.fill_(value)`: writes `value`, converted to `self`'s dtype, to every
    /// element in place (`Tensor.fill_`). As in PyTorch, an expanded (self-overlapping)
    /// `self` is allowed: filling is idempotent, so every element that aliases another
    /// gets the same value.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`](crate::error::Error::InvalidArgument) when `value` does not
    /// fit `self`'s dtype (c10's checked `Scalar::to<T>()`: `fill_(300)` on uint8, NaN or
    /// infinity on an integer tensor, `1e300` on float32): `value cannot be converted to
    /// type uint8_t without overflow`. The tensor is left unchanged.
    pub fn fill_(&self, value: impl Into<Scalar>) -> Result<()> {
        let value = value.into();
        if crate::autograd::needs_grad(&[self]) {
            let all = Tensor::scalar(true);
            let v = Tensor::scalar_of(value, self.dtype());
            return crate::autograd::inplace_rebase(self, |old| Tensor::where_(&all, &v, old));
        }
        crate::autograd::check_writable(self)?;
        // PyTorch's `fill_out`: no overlap check (fill is idempotent), no resizing.
        let config = TensorIteratorConfig::new()
            .set_check_mem_overlap(false)
            .check_all_same_dtype(false)
            .resize_outputs(false)
            .add_output(self);
        let iter = TensorIterator::build(config)?;
        dispatch_dtype!(self.dtype(), T, {
            let v = checked_scalar::<T>(value, "fill_")?;
            nullary_fill::<T>(&iter, v)
        });
        crate::autograd::wrote(self);
        Ok(())
    }

    /// `self.to(dtype)`: the same tensor (a new handle) when the dtype already matches,
    /// else a copy in `dtype` that keeps the layout (`memory_format=preserve_format`:
    /// dense strides kept, others made dense in the same order).
    ///
    /// # Errors
    /// Only allocation errors.
    #[cfg_attr(unoptimized, inline)]
    pub fn to_dtype(&self, dtype: DType) -> Result<Tensor> {
        crate::autograd::apply(
            &[self],
            || self.to_dtype_impl(dtype),
            |_| crate::autograd::IdentityBackward {
                name: "ToCopyBackward0",
            },
        )
    }

    #[cfg_attr(unoptimized, inline)]
    fn to_dtype_impl(&self, dtype: DType) -> Result<Tensor> {
        if dtype == self.dtype() {
            return Ok(self.alias());
        }
        crate::iterator::types_to_dtype_preserve(self, dtype)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::Layout;

    #[test]
    fn copy_broadcasts_and_casts() {
        let dst = Tensor::zeros(&[2, 3], DType::F64).unwrap();
        let src = Tensor::from_vec(vec![1i32, 2, 3], &[3]).unwrap();
        dst.copy_(&src).unwrap();
        assert_eq!(
            dst.to_vec::<f64>().unwrap(),
            vec![1.0, 2.0, 3.0, 1.0, 2.0, 3.0]
        );
    }

    #[test]
    fn copy_from_larger_shape_is_an_error() {
        let dst = Tensor::zeros(&[3], DType::F32).unwrap();
        let src = Tensor::zeros(&[2, 3], DType::F32).unwrap();
        assert_eq!(
            dst.copy_(&src).unwrap_err().to_string(),
            "output with shape [3] doesn't match the broadcast shape [2, 3]"
        );
    }

    #[test]
    fn copy_transposed_into_contiguous() {
        let src = Tensor::from_vec((0..6).map(|x| x as f32).collect(), &[2, 3]).unwrap();
        let t = src.with_layout(Layout::new(vec![3, 2], vec![1, 3], 0));
        let dst = Tensor::zeros(&[3, 2], DType::F32).unwrap();
        dst.copy_(&t).unwrap();
        assert_eq!(
            dst.to_vec::<f32>().unwrap(),
            vec![0.0, 3.0, 1.0, 4.0, 2.0, 5.0]
        );
    }

    #[test]
    fn fill_300_on_uint8_is_an_overflow_error() {
        let t = Tensor::zeros(&[3], DType::U8).unwrap();
        assert_eq!(
            t.fill_(300).unwrap_err().to_string(),
            "fill_: value cannot be converted to type uint8_t without overflow"
        );
        assert_eq!(t.to_vec::<u8>().unwrap(), vec![0, 0, 0]);
        t.fill_(255).unwrap();
        assert_eq!(t.to_vec::<u8>().unwrap(), vec![255; 3]);
        // c10 lets uint8 take negative ints down to -255 (two's complement).
        t.fill_(-1).unwrap();
        assert_eq!(t.to_vec::<u8>().unwrap(), vec![255; 3]);
    }

    #[test]
    fn fill_nan_or_inf_on_integer_tensor_is_an_overflow_error() {
        let t = Tensor::zeros(&[2], DType::I32).unwrap();
        let msg = "value cannot be converted to type int without overflow";
        assert!(t.fill_(f64::NAN).unwrap_err().to_string().contains(msg));
        assert!(t
            .fill_(f64::INFINITY)
            .unwrap_err()
            .to_string()
            .contains(msg));
        let l = Tensor::zeros(&[2], DType::I64).unwrap();
        assert!(l
            .fill_(f64::NEG_INFINITY)
            .unwrap_err()
            .to_string()
            .contains("value cannot be converted to type int64_t without overflow"));
        assert_eq!(t.to_vec::<i32>().unwrap(), vec![0, 0]);
    }

    #[test]
    fn fill_float_accepts_inf_and_nan_but_not_finite_overflow() {
        let t = Tensor::zeros(&[1], DType::F32).unwrap();
        t.fill_(f64::INFINITY).unwrap();
        assert_eq!(t.item::<f32>().unwrap(), f32::INFINITY);
        t.fill_(f64::NAN).unwrap();
        assert!(t.item::<f32>().unwrap().is_nan());
        assert!(t
            .fill_(1e300)
            .unwrap_err()
            .to_string()
            .contains("value cannot be converted to type float without overflow"));
        let b = Tensor::zeros(&[1], DType::Bool).unwrap();
        b.fill_(300).unwrap();
        assert!(b.item::<bool>().unwrap());
    }

    #[test]
    fn fill_on_expanded_view_is_allowed() {
        let base = Tensor::zeros(&[1, 3], DType::F32).unwrap();
        let e = base.expand(&[4, 3]).unwrap();
        e.fill_(2.5).unwrap();
        assert_eq!(base.to_vec::<f32>().unwrap(), vec![2.5; 3]);
        assert_eq!(e.to_vec::<f32>().unwrap(), vec![2.5; 12]);
    }

    #[test]
    fn to_dtype_float_to_uint8_wraps_like_pytorch() {
        let t = Tensor::from_vec(vec![300.0f32, -1.0, 2.9, f32::NAN], &[4]).unwrap();
        let u = t.to_dtype(DType::U8).unwrap();
        assert_eq!(u.to_vec::<u8>().unwrap(), vec![44, 255, 2, 0]);
        let i = t.to_dtype(DType::I32).unwrap();
        assert_eq!(i.to_vec::<i32>().unwrap(), vec![300, -1, 2, i32::MIN]);
    }

    #[test]
    fn copy_float_into_int_wraps_like_pytorch() {
        let dst = Tensor::zeros(&[3], DType::I16).unwrap();
        let src = Tensor::from_vec(vec![40000.0f64, 1e10, -2.5], &[3]).unwrap();
        dst.copy_(&src).unwrap();
        assert_eq!(dst.to_vec::<i16>().unwrap(), vec![-25536, 0, -2]);
    }

    #[test]
    fn to_dtype_keeps_transposed_strides() {
        let src = Tensor::from_vec((0..6).map(|x| x as f32).collect(), &[2, 3]).unwrap();
        let t = src.with_layout(Layout::new(vec![3, 2], vec![1, 3], 0));
        let d = t.to_dtype(DType::F64).unwrap();
        assert_eq!(d.strides(), &[1, 3]);
        assert_eq!(
            d.to_vec::<f64>().unwrap(),
            vec![0.0, 3.0, 1.0, 4.0, 2.0, 5.0]
        );
    }
}
