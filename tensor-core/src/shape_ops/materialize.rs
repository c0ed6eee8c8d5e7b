//! Fresh tensors filled by one copy: the allocation behind `clone`, `contiguous`,
//! a copying `reshape`, `repeat` and `to(dtype)`.
//!
//! PyTorch allocates these with `at::empty` (memory not initialised) and writes every
//! element once with `copy_`. Zero-filling first would be a second pass over the
//! output; for a copy that fits in cache it is a third of the time. So the storage is
//! allocated uninitialised when the layout is non-overlapping and dense (every storage
//! element is some element of the tensor, so the copy writes all of them), and
//! zero-filled otherwise.

use crate::dtype::DType;
use crate::error::Result;
use crate::layout::{checked_numel, Layout};
use crate::storage::Storage;
use crate::tensor::Tensor;

impl Tensor {
    /// A fresh tensor of `src`'s sizes with `strides` (elements, offset 0) and `dtype`,
    /// holding `src`'s values cast to `dtype` (`empty_strided(...).copy_(src)`).
    ///
    /// # Errors
    /// Those of [`Tensor::empty_strided`] (size overflow, negative strides,
    /// [`crate::error::Error::OutOfMemory`]); those of [`Tensor::copy_`].
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn fresh_copy(src: &Tensor, strides: &[isize], dtype: DType) -> Result<Tensor> {
        // SAFETY: `copy_` writes every element of `out` (src broadcasts to out's own
        // sizes) before `out` is returned; if it fails, `out` is dropped here unread.
        // `out` is reachable by no other code until then.
        let out = unsafe { Tensor::empty_strided_uninit(src.sizes(), strides, dtype)? };
        // `out` is fresh: the copy is part of an op (recorded by its caller, if at all).
        crate::autograd::no_grad(|| out.copy_(src))?;
        Ok(out)
    }

    /// `at::empty_strided`: like [`Tensor::empty_strided`], but when the layout is
    /// non-overlapping and dense (every storage element is an element of the tensor)
    /// the storage is not zero-filled. Other layouts are zero-filled (their gaps would
    /// never be written).
    ///
    /// # Safety
    /// The caller must write every element of the returned tensor before any element
    /// is read, and must not hand the tensor (or a view of it) out before then.
    ///
    /// # Errors
    /// As [`Tensor::empty_strided`].
    #[cfg_attr(unoptimized, inline)]
    pub(crate) unsafe fn empty_strided_uninit(
        sizes: &[usize],
        strides: &[isize],
        dtype: DType,
    ) -> Result<Tensor> {
        let layout = Layout::checked_from_slices(sizes, strides, 0)?;
        if !layout.is_non_overlapping_and_dense() {
            return Tensor::empty_strided(sizes, strides, dtype);
        }
        checked_numel(sizes, "empty_strided")?;
        let nbytes = layout.required_storage_bytes(dtype.size())?;
        // SAFETY: the layout is non-overlapping and dense with offset 0, so its elements
        // are exactly the storage's `nbytes / dtype.size()` elements, and the caller
        // writes each of them (with valid values of `dtype`) before anything reads them.
        let storage = unsafe { Storage::uninit(nbytes, dtype)? };
        Ok(Tensor::from_parts_unchecked(storage, layout, dtype))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fresh_copy_of_transposed_is_contiguous_with_values() {
        let t = Tensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3])
            .unwrap()
            .t()
            .unwrap();
        let c = Tensor::fresh_copy(&t, &[2, 1], DType::F32).unwrap();
        assert_eq!(c.strides(), &[2, 1]);
        assert_eq!(
            c.to_vec::<f32>().unwrap(),
            vec![1.0, 4.0, 2.0, 5.0, 3.0, 6.0]
        );
    }

    #[test]
    fn fresh_copy_with_gaps_zero_fills_the_gaps() {
        let t = Tensor::from_vec(vec![7i32, 8], &[2]).unwrap();
        let c = Tensor::fresh_copy(&t, &[2], DType::I64).unwrap();
        assert_eq!(c.to_vec::<i64>().unwrap(), vec![7, 8]);
        assert_eq!(c.storage().read().as_slice::<i64>(), &[7, 0, 8]);
    }

    #[test]
    fn fresh_copy_of_bool_to_u8_casts() {
        let t = Tensor::from_vec(vec![true, false, true], &[3]).unwrap();
        let c = Tensor::fresh_copy(&t, &[1], DType::U8).unwrap();
        assert_eq!(c.to_vec::<u8>().unwrap(), vec![1, 0, 1]);
    }
}
