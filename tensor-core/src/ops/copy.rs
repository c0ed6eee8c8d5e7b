//! `copy_` and `to(dtype)`.

use crate::error::Result;
use crate::iterator::{is_same, TensorIterator, TensorIteratorConfig};
use crate::kernels::{copy_kernel, nullary_fill};
use crate::{dispatch_dtype, DType, Scalar, Tensor};

impl Tensor {
    /// `self.copy_(src)`: writes `src`, broadcast to `self`'s sizes and cast to `self`'s
    /// dtype, into `self` in place (`Tensor.copy_`). Copying a view onto itself does
    /// nothing.
    ///
    /// # Errors
    /// [`Error::Broadcast`](crate::Error::Broadcast) /
    /// [`Error::OutputShape`](crate::Error::OutputShape) when `src` does not broadcast
    /// to `self` (`output with shape [3] doesn't match the broadcast shape [2, 3]`);
    /// [`Error::InternalOverlap`](crate::Error::InternalOverlap) when `self` is expanded;
    /// [`Error::PartialOverlap`](crate::Error::PartialOverlap).
    pub fn copy_(&self, src: &Tensor) -> Result<()> {
        if is_same(self, src) {
            return Ok(());
        }
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
        Ok(())
    }

    /// `self.fill_(value)`: writes `value`, converted to `self`'s dtype, to every
    /// element in place (`Tensor.fill_`).
    ///
    /// # Errors
    /// [`Error::InternalOverlap`](crate::Error::InternalOverlap) when `self` is expanded.
    pub fn fill_(&self, value: impl Into<Scalar>) -> Result<()> {
        let value = value.into();
        let iter = TensorIterator::build(TensorIteratorConfig::nullary_op(self))?;
        dispatch_dtype!(self.dtype(), T, {
            nullary_fill::<T>(&iter, crate::tensor::scalar_to::<T>(value))
        });
        Ok(())
    }

    /// `self.to(dtype)`: the same tensor (a new handle) when the dtype already matches,
    /// else a copy in `dtype` that keeps the layout (`memory_format=preserve_format`:
    /// dense strides kept, others made dense in the same order).
    ///
    /// # Errors
    /// Only allocation errors.
    pub fn to_dtype(&self, dtype: DType) -> Result<Tensor> {
        if dtype == self.dtype() {
            return Ok(self.alias());
        }
        crate::iterator::types_to_dtype_preserve(self, dtype)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Layout;

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
