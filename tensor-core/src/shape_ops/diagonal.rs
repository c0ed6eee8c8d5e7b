//! `diagonal`: the view of the elements whose indices along two dims differ by a fixed
//! offset (PyTorch's `diagonal` in `TensorShape.cpp`).

use crate::error::{Error, Result};
use crate::layout::{wrap_dim, Layout};
use crate::tensor::Tensor;

impl Tensor {
    /// The diagonal of dims `dim1` and `dim2` as a view, as
    /// `torch.diagonal(self, offset, dim1, dim2)`.
    ///
    /// Both dims are removed and a last dim holds the diagonal: element `k` of it is
    /// `self[.., k, .., k + offset, ..]` (`dim1` at `k`, `dim2` at `k + offset`; a
    /// negative offset moves down `dim1` instead). Its size is the number of such
    /// elements (0 when the offset is past the end); its stride is the sum of the two
    /// dims' strides. Dims may be negative (counted from the end).
    ///
    /// # Errors
    /// [`Error::DimOutOfRange`] for a dim outside `[-dim, dim - 1]`;
    /// [`Error::InvalidArgument`] when the two dims are the same (`diagonal dimensions
    /// cannot be identical 1, 1`).
    ///
    /// # Example
    /// ```
    /// use tensor_core::{DType, Tensor};
    ///
    /// let x = Tensor::arange(9, DType::F32)?.reshape(&[3, 3])?;
    /// let d = x.diagonal(0, 0, 1)?;
    /// assert_eq!((d.sizes(), d.strides()), (&[3][..], &[4][..]));
    /// assert_eq!(d.to_vec::<f32>()?, vec![0.0, 4.0, 8.0]);
    /// # Ok::<(), tensor_core::Error>(())
    /// ```
    #[cfg_attr(unoptimized, inline)]
    pub fn diagonal(&self, offset: i64, dim1: i64, dim2: i64) -> Result<Tensor> {
        crate::autograd::apply_view(
            &[self],
            || self.diagonal_impl(offset, dim1, dim2),
            |_| crate::autograd::DiagonalBackward {
                sizes: self.sizes().to_vec(),
                offset,
                dim1,
                dim2,
            },
        )
    }

    #[cfg_attr(unoptimized, inline)]
    fn diagonal_impl(&self, offset: i64, dim1: i64, dim2: i64) -> Result<Tensor> {
        let ndim = self.dim();
        let d1 = wrap_dim(dim1, ndim)?;
        let d2 = wrap_dim(dim2, ndim)?;
        if d1 == d2 {
            return Err(Error::InvalidArgument {
                op: "diagonal",
                message: format!("diagonal dimensions cannot be identical {dim1}, {dim2}"),
            });
        }
        let (size1, size2) = (self.sizes()[d1] as i64, self.sizes()[d2] as i64);
        let (stride1, stride2) = (self.strides()[d1], self.strides()[d2]);
        let diag_size = if offset >= 0 {
            size1.min(size2 - offset).max(0)
        } else {
            (size1 + offset).min(size2).max(0)
        };
        let mut storage_offset = self.storage_offset() as i64;
        if diag_size > 0 {
            if offset >= 0 {
                storage_offset += offset * stride2 as i64;
            } else {
                storage_offset -= offset * stride1 as i64;
            }
        }
        let mut sizes = Vec::with_capacity(ndim - 1);
        let mut strides = Vec::with_capacity(ndim - 1);
        for d in (0..ndim).filter(|&d| d != d1 && d != d2) {
            sizes.push(self.sizes()[d]);
            strides.push(self.strides()[d]);
        }
        sizes.push(diag_size as usize);
        strides.push(stride1 + stride2);
        let layout = Layout::checked(sizes, strides, storage_offset as usize)?;
        self.try_with_layout(layout)
    }
}

#[cfg(test)]
mod tests {
    use crate::dtype::DType;
    use crate::error::Error;
    use crate::tensor::Tensor;

    fn zeros_3_4_5() -> Tensor {
        Tensor::zeros(&[3, 4, 5], DType::F32).unwrap()
    }

    #[test]
    fn diagonal_of_dims_0_2_with_offset_1_starts_one_column_in() {
        let d = zeros_3_4_5().diagonal(1, 0, 2).unwrap();
        assert_eq!(d.sizes(), &[4, 3]);
        assert_eq!(d.strides(), &[5, 21]);
        assert_eq!(d.storage_offset(), 1);
    }

    #[test]
    fn diagonal_with_negative_offset_moves_down_dim1() {
        let d = zeros_3_4_5().diagonal(-1, 2, 0).unwrap();
        assert_eq!((d.sizes(), d.strides()), (&[4, 3][..], &[5, 21][..]));
        assert_eq!(d.storage_offset(), 1);
    }

    #[test]
    fn diagonal_offset_past_the_end_is_empty_at_offset_0() {
        let d = zeros_3_4_5().diagonal(5, 0, 1).unwrap();
        assert_eq!(d.sizes(), &[5, 0]);
        assert_eq!(d.storage_offset(), 0);
    }

    #[test]
    fn diagonal_of_identical_dims_is_pytorchs_error() {
        let e = zeros_3_4_5().diagonal(0, 1, 1).unwrap_err();
        assert!(matches!(e, Error::InvalidArgument { .. }));
        assert!(e
            .to_string()
            .contains("diagonal dimensions cannot be identical 1, 1"));
    }

    #[test]
    fn diagonal_backward_writes_the_gradient_on_the_diagonal() {
        let x = Tensor::zeros(&[3, 3], DType::F64)
            .unwrap()
            .requires_grad_(true)
            .unwrap();
        let d = x.diagonal(0, 0, 1).unwrap();
        assert_eq!(d.grad_fn_name(), Some("DiagonalBackward0"));
        let g = Tensor::from_vec(vec![1.0f64, 2.0, 3.0], &[3]).unwrap();
        d.backward_with(&g).unwrap();
        let grad = x.grad().unwrap().to_vec::<f64>().unwrap();
        assert_eq!(grad, vec![1.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 3.0]);
    }
}
