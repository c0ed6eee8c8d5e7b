//! Views that take part of one dim: `narrow`, `slice` (with step) and `select`
//! (TensorShape.cpp). Each moves the storage offset and never copies.

use crate::error::{Error, Result};
use crate::layout::wrap_dim;
use crate::layout::Layout;
use crate::tensor::Tensor;

/// The error for ops that need at least one dim (`select() cannot be applied to a 0-dim
/// tensor.`).
#[cfg_attr(unoptimized, inline)]
fn zero_dim_error(op: &'static str) -> Error {
    Error::InvalidArgument {
        op,
        message: format!("{op}() cannot be applied to a 0-dim tensor."),
    }
}

impl Tensor {
    /// The storage offset of index `index` along `dim`, in elements. For `index` within
    /// the dim (or equal to its size when the view is empty) the [`Tensor`] invariant
    /// keeps this in range; it is checked anyway.
    #[cfg_attr(unoptimized, inline)]
    fn offset_at(&self, dim: usize, index: usize) -> Result<usize> {
        let stride = self.strides()[dim];
        usize::try_from(stride)
            .ok()
            .and_then(|st| index.checked_mul(st))
            .and_then(|o| o.checked_add(self.storage_offset()))
            .ok_or_else(|| Error::StorageBounds {
                message: format!(
                    "storage offset of index {index} at dimension {dim} (stride {stride}) overflows"
                ),
            })
    }

    /// `Tensor.slice(dim, start, end, step)` (Python `t[..., start:end:step]`): indices
    /// `start, start+step, ...` below `end`. Negative `start`/`end` count from the end;
    /// both are then clamped to `[0, size]` (and `end` to at least `start`), as PyTorch
    /// does. `None` means 0 and the end of the dim.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for a 0-d tensor or `step <= 0`
    /// (`slice step must be positive`); [`Error::DimOutOfRange`].
    #[cfg_attr(unoptimized, inline)]
    pub fn slice(
        &self,
        dim: i64,
        start: Option<i64>,
        end: Option<i64>,
        step: i64,
    ) -> Result<Tensor> {
        crate::autograd::apply_view(
            &[self],
            || self.slice_impl(dim, start, end, step),
            |_| crate::autograd::SliceBackward {
                sizes: self.sizes().to_vec(),
                dim,
                start,
                end,
                step,
            },
        )
    }

    #[cfg_attr(unoptimized, inline)]
    fn slice_impl(
        &self,
        dim: i64,
        start: Option<i64>,
        end: Option<i64>,
        step: i64,
    ) -> Result<Tensor> {
        if self.dim() == 0 {
            return Err(zero_dim_error("slice"));
        }
        let d = wrap_dim(dim, self.dim())?;
        if step <= 0 {
            return Err(Error::InvalidArgument {
                op: "slice",
                message: "slice step must be positive".into(),
            });
        }
        let size = self.sizes()[d] as i64;
        let mut start = start.unwrap_or(0);
        let mut end = end.unwrap_or(i64::MAX);
        if start < 0 {
            start += size;
        }
        if end < 0 {
            end += size;
        }
        start = start.clamp(0, size);
        end = end.clamp(start, size);
        let len = (end - start) as usize;
        let step_u = step as usize;
        let (mut sizes, mut strides) = (self.sizes().to_vec(), self.strides().to_vec());
        let offset = self.offset_at(d, start as usize)?;
        sizes[d] = len.div_ceil(step_u);
        // With two or more elements left, (size-1)·stride·step stays inside the storage;
        // with fewer the stride takes no part in any offset, so it saturates.
        strides[d] = strides[d].saturating_mul(step as isize);
        self.try_with_layout(Layout::new(sizes, strides, offset))
    }

    /// `Tensor.narrow(dim, start, length)`: `length` indices from `start` (which may be
    /// negative, counting from the end), as `slice(dim, start, start + length, 1)`.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for a 0-d tensor or a range past the end (`start (2) +
    /// length (3) exceeds dimension size (4).`); [`Error::IndexOutOfRange`] for `start`
    /// outside `[-size, size]`; [`Error::DimOutOfRange`].
    #[cfg_attr(unoptimized, inline)]
    pub fn narrow(&self, dim: i64, start: i64, length: usize) -> Result<Tensor> {
        if self.dim() == 0 {
            return Err(zero_dim_error("narrow"));
        }
        let d = wrap_dim(dim, self.dim())?;
        let size = self.sizes()[d] as i64;
        if start < -size || start > size {
            return Err(Error::IndexOutOfRange {
                op: "narrow()",
                message: format!(
                    "start out of range (expected to be in range of [{}, {size}], but got {start})",
                    -size
                ),
            });
        }
        let start = if start < 0 { start + size } else { start };
        if length > (size - start) as usize {
            return Err(Error::InvalidArgument {
                op: "narrow",
                message: format!(
                    "start ({start}) + length ({length}) exceeds dimension size ({size})."
                ),
            });
        }
        // `length <= size - start` here, so `start + length` fits in i64.
        self.slice(d as i64, Some(start), Some(start + length as i64), 1)
    }

    /// `Tensor.select(dim, index)` (Python `t[..., index]`): removes `dim`, keeping
    /// element `index` of it (negative counts from the end).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for a 0-d tensor; [`Error::DimOutOfRange`];
    /// [`Error::IndexOutOfRange`]: `select(): index 5 out of range for tensor of size [3]
    /// at dimension 0`.
    #[cfg_attr(unoptimized, inline)]
    pub fn select(&self, dim: i64, index: i64) -> Result<Tensor> {
        crate::autograd::apply_view(
            &[self],
            || self.select_impl(dim, index),
            |_| crate::autograd::SelectBackward {
                sizes: self.sizes().to_vec(),
                dim,
                index,
            },
        )
    }

    #[cfg_attr(unoptimized, inline)]
    fn select_impl(&self, dim: i64, index: i64) -> Result<Tensor> {
        if self.dim() == 0 {
            return Err(zero_dim_error("select"));
        }
        let d = wrap_dim(dim, self.dim())?;
        let size = self.sizes()[d] as i64;
        if index < -size || index >= size {
            return Err(Error::IndexOutOfRange {
                op: "select()",
                message: format!(
                    "index {index} out of range for tensor of size {:?} at dimension {d}",
                    self.sizes()
                ),
            });
        }
        let index = if index < 0 { index + size } else { index } as usize;
        let offset = self.offset_at(d, index)?;
        let (mut sizes, mut strides) = (self.sizes().to_vec(), self.strides().to_vec());
        sizes.remove(d);
        strides.remove(d);
        self.try_with_layout(Layout::new(sizes, strides, offset))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::arange;

    #[test]
    fn slice_with_step_rounds_up() {
        let s = arange(&[2, 7]).slice(1, Some(1), None, 3).unwrap();
        assert_eq!(
            (s.sizes(), s.strides()),
            (&[2usize, 2][..], &[7isize, 3][..])
        );
        assert_eq!(s.storage_offset(), 1);
        assert_eq!(s.to_vec_f64().unwrap(), vec![1.0, 4.0, 8.0, 11.0]);
    }

    #[test]
    fn slice_clamps_start_and_end() {
        let x = arange(&[5]);
        assert_eq!(
            x.slice(0, Some(-2), Some(100), 1)
                .unwrap()
                .to_vec_f64()
                .unwrap(),
            vec![3.0, 4.0]
        );
        assert_eq!(
            x.slice(0, Some(-100), Some(2), 1)
                .unwrap()
                .to_vec_f64()
                .unwrap(),
            vec![0.0, 1.0]
        );
        assert_eq!(x.slice(0, Some(4), Some(2), 1).unwrap().sizes(), &[0]);
    }

    #[test]
    fn slice_step_must_be_positive() {
        let e = arange(&[5]).slice(0, None, None, 0).unwrap_err();
        assert!(e.to_string().contains("slice step must be positive"));
    }

    #[test]
    fn narrow_takes_a_window() {
        let n = arange(&[3, 4]).narrow(1, -3, 2).unwrap();
        assert_eq!(n.to_vec_f64().unwrap(), vec![1.0, 2.0, 5.0, 6.0, 9.0, 10.0]);
        let e = arange(&[4]).narrow(0, 2, 3).unwrap_err();
        assert!(e
            .to_string()
            .contains("start (2) + length (3) exceeds dimension size (4)."));
        let e = arange(&[3]).narrow(0, 5, 0).unwrap_err();
        assert!(e
            .to_string()
            .contains("start out of range (expected to be in range of [-3, 3], but got 5)"));
    }

    #[test]
    fn select_removes_the_dim() {
        let s = arange(&[3, 4]).select(1, -1).unwrap();
        assert_eq!((s.sizes(), s.strides()), (&[3usize][..], &[4isize][..]));
        assert_eq!(s.to_vec_f64().unwrap(), vec![3.0, 7.0, 11.0]);
        let e = arange(&[3]).select(0, 5).unwrap_err();
        assert_eq!(
            e.to_string(),
            "select(): index 5 out of range for tensor of size [3] at dimension 0"
        );
        assert!(Tensor::scalar(1.0f32)
            .select(0, 0)
            .unwrap_err()
            .to_string()
            .contains("select() cannot be applied to a 0-dim tensor."));
    }

    #[test]
    fn narrow_0_0_usize_max_is_an_error() {
        let e = arange(&[2]).narrow(0, 0, usize::MAX).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "narrow: start (0) + length ({}) exceeds dimension size (2).",
                usize::MAX
            )
        );
        let e = arange(&[2]).narrow(0, 1, 1 << 63).unwrap_err();
        assert!(e.to_string().contains("exceeds dimension size (2)."));
        assert_eq!(arange(&[2]).narrow(0, 2, 0).unwrap().numel(), 0);
    }

    #[test]
    fn slice_with_step_i64_max_saturates_the_stride() {
        let s = arange(&[5]).slice(0, Some(1), None, i64::MAX).unwrap();
        assert_eq!(s.sizes(), &[1]);
        assert_eq!(s.to_vec_f64().unwrap(), vec![1.0]);
    }
}
