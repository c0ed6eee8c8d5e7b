//! `Tensor`: shared storage + layout + dtype, and its constructors and accessors.

use crate::error::{Error, Result};
use crate::layout::{checked_numel, Layout};
use crate::{dispatch_dtype, DType, Element, Scalar, Storage};

/// A strided, dynamically typed tensor: a [`Storage`] shared with every view of it, a
/// [`Layout`] (sizes, strides and storage offset in elements) and a [`DType`].
///
/// Like a PyTorch tensor handle: views made from it share the storage and see each
/// other's writes. [`Tensor::alias`] makes another handle to the same view;
/// [`Tensor::clone`](Tensor::clone) copies the data as `torch.clone` does.
#[derive(Debug)]
pub struct Tensor {
    storage: Storage,
    layout: Layout,
    dtype: DType,
}

impl Tensor {
    /// A tensor over `storage` with `layout`. The caller guarantees the layout stays
    /// inside the storage.
    pub(crate) fn from_parts_unchecked(storage: Storage, layout: Layout, dtype: DType) -> Tensor {
        debug_assert!(layout.required_storage_len() <= storage.len(dtype));
        Tensor {
            storage,
            layout,
            dtype,
        }
    }

    /// A tensor over existing storage, like `torch.as_strided` on a storage: checks
    /// that every element lies inside the storage.
    ///
    /// # Errors
    /// [`Error::StorageBounds`] with PyTorch's `setStorage: ... out of bounds` message.
    pub fn from_parts(storage: Storage, layout: Layout, dtype: DType) -> Result<Tensor> {
        let need = layout.required_storage_len();
        let have = storage.len(dtype);
        if need > have {
            return Err(Error::StorageBounds {
                message: format!(
                    "setStorage: sizes {:?}, strides {:?}, storage offset {}, and itemsize {} requiring a storage size of {} are out of bounds for storage of size {}",
                    layout.sizes(),
                    layout.strides(),
                    layout.storage_offset(),
                    dtype.size(),
                    need * dtype.size(),
                    storage.nbytes()
                ),
            });
        }
        Ok(Tensor::from_parts_unchecked(storage, layout, dtype))
    }

    /// A new handle to the same view (`torch.Tensor.alias`): shares storage and layout.
    pub fn alias(&self) -> Tensor {
        Tensor {
            storage: self.storage.clone(),
            layout: self.layout.clone(),
            dtype: self.dtype,
        }
    }

    /// The same storage seen through another layout (a view). The caller guarantees the
    /// layout stays inside the storage.
    pub(crate) fn with_layout(&self, layout: Layout) -> Tensor {
        Tensor::from_parts_unchecked(self.storage.clone(), layout, self.dtype)
    }

    // ---- constructors ---------------------------------------------------------------

    /// A contiguous tensor of `sizes` holding `data` in row-major order
    /// (`torch.tensor(data).view(sizes)`).
    ///
    /// # Errors
    /// [`Error::DataLength`] when `data.len()` is not the product of `sizes`;
    /// [`Error::NumelOverflow`].
    ///
    /// ```
    /// use tensor_core::Tensor;
    /// let t = Tensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3])?;
    /// assert_eq!(t.strides(), &[3, 1]);
    /// # Ok::<(), tensor_core::Error>(())
    /// ```
    pub fn from_vec<T: Element>(data: Vec<T>, sizes: &[usize]) -> Result<Tensor> {
        let numel = checked_numel(sizes, "from_vec")?;
        if numel != data.len() {
            return Err(Error::DataLength {
                sizes: sizes.to_vec(),
                len: data.len(),
            });
        }
        let layout = Layout::contiguous(sizes)?;
        Ok(Tensor::from_parts_unchecked(
            Storage::from_vec(data),
            layout,
            T::DTYPE,
        ))
    }

    /// A 0-d tensor holding `value` (`torch.tensor(value)`).
    pub fn scalar<T: Element>(value: T) -> Tensor {
        Tensor::from_parts_unchecked(
            Storage::from_vec(vec![value]),
            Layout::new(vec![], vec![], 0),
            T::DTYPE,
        )
    }

    /// A 0-d tensor of `dtype` holding `value` converted to it.
    pub fn scalar_of(value: Scalar, dtype: DType) -> Tensor {
        dispatch_dtype!(dtype, T, Tensor::scalar::<T>(scalar_to::<T>(value)))
    }

    /// A contiguous tensor of `sizes` filled with zeros (`torch.zeros`; also `torch.empty`,
    /// since storage is always initialised).
    ///
    /// # Errors
    /// [`Error::NumelOverflow`] when the sizes multiply past `i64::MAX`.
    pub fn zeros(sizes: &[usize], dtype: DType) -> Result<Tensor> {
        let layout = Layout::contiguous(sizes)?;
        let nbytes = checked_numel(sizes, "zeros")?
            .checked_mul(dtype.size())
            .ok_or(Error::NumelOverflow { op: "zeros" })?;
        Ok(Tensor::from_parts_unchecked(
            Storage::zeroed(nbytes),
            layout,
            dtype,
        ))
    }

    /// `torch.empty(sizes, dtype)`: contiguous. Its elements are zero.
    ///
    /// # Errors
    /// As [`Tensor::zeros`].
    pub fn empty(sizes: &[usize], dtype: DType) -> Result<Tensor> {
        Tensor::zeros(sizes, dtype)
    }

    /// `torch.empty_strided(sizes, strides)`: a fresh storage just large enough for the
    /// layout (strides in elements, offset 0). Its elements are zero.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when lengths differ; [`Error::NumelOverflow`];
    /// [`Error::StorageBounds`] for negative strides
    /// (`as_strided: Negative strides are not supported at the moment`).
    pub fn empty_strided(sizes: &[usize], strides: &[isize], dtype: DType) -> Result<Tensor> {
        if strides.iter().any(|&s| s < 0) {
            return Err(Error::StorageBounds {
                message: format!(
                    "as_strided: Negative strides are not supported at the moment, got strides: {strides:?}"
                ),
            });
        }
        let layout = Layout::checked(sizes.to_vec(), strides.to_vec(), 0)?;
        let len = layout.required_storage_len();
        let nbytes = len.checked_mul(dtype.size()).ok_or(Error::NumelOverflow {
            op: "empty_strided",
        })?;
        Ok(Tensor::from_parts_unchecked(
            Storage::zeroed(nbytes),
            layout,
            dtype,
        ))
    }

    /// A contiguous tensor of `sizes` filled with `value` converted to `dtype`
    /// (`torch.full`).
    ///
    /// # Errors
    /// As [`Tensor::zeros`].
    pub fn full(sizes: &[usize], value: impl Into<Scalar>, dtype: DType) -> Result<Tensor> {
        let t = Tensor::zeros(sizes, dtype)?;
        let value = value.into();
        dispatch_dtype!(dtype, T, {
            let v = scalar_to::<T>(value);
            t.storage.write().as_mut_slice::<T>().fill(v);
        });
        Ok(t)
    }

    /// A contiguous tensor of `sizes` filled with ones (`torch.ones`).
    ///
    /// # Errors
    /// As [`Tensor::zeros`].
    pub fn ones(sizes: &[usize], dtype: DType) -> Result<Tensor> {
        Tensor::full(sizes, Scalar::Int(1), dtype)
    }

    /// `torch.arange(end, dtype=dtype)`: `[0, 1, ..., end-1]`, 1-d.
    pub fn arange(end: usize, dtype: DType) -> Tensor {
        let t = Tensor::zeros(&[end], dtype).expect("a 1-d size cannot overflow");
        dispatch_dtype!(dtype, T, {
            for (i, x) in t.storage.write().as_mut_slice::<T>().iter_mut().enumerate() {
                *x = T::from_i64(i as i64);
            }
        });
        t
    }

    // ---- accessors ------------------------------------------------------------------

    /// Sizes of each dim (`Tensor.size()`), in elements.
    pub fn sizes(&self) -> &[usize] {
        self.layout.sizes()
    }

    /// Strides of each dim (`Tensor.stride()`), in elements.
    pub fn strides(&self) -> &[isize] {
        self.layout.strides()
    }

    /// Offset of the first element in the storage (`Tensor.storage_offset()`), in elements.
    pub fn storage_offset(&self) -> usize {
        self.layout.storage_offset()
    }

    /// Number of dims (`Tensor.dim()`).
    pub fn dim(&self) -> usize {
        self.layout.ndim()
    }

    /// Number of elements (`Tensor.numel()`).
    pub fn numel(&self) -> usize {
        self.layout.numel()
    }

    /// The element type (`Tensor.dtype`).
    pub fn dtype(&self) -> DType {
        self.dtype
    }

    /// The geometry: sizes, strides, storage offset.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The shared storage.
    pub fn storage(&self) -> &Storage {
        &self.storage
    }

    /// `true` when both tensors are views of the same storage.
    pub fn shares_storage(&self, other: &Tensor) -> bool {
        self.storage.same(&other.storage)
    }

    /// The elements in logical row-major order (`t.reshape(-1).tolist()`).
    ///
    /// # Errors
    /// [`Error::DTypeMismatch`] when `T` is not the tensor's dtype
    /// (use `to_dtype` first).
    pub fn to_vec<T: Element>(&self) -> Result<Vec<T>> {
        self.expect_dtype::<T>("to_vec")?;
        let buf = self.storage.read();
        let data = buf.as_slice::<T>();
        Ok(self.layout.offsets().map(|i| data[i]).collect())
    }

    /// The elements converted to `f64`, in logical row-major order, whatever the dtype.
    pub fn to_vec_f64(&self) -> Vec<f64> {
        dispatch_dtype!(self.dtype, T, {
            let buf = self.storage.read();
            let data = buf.as_slice::<T>();
            self.layout.offsets().map(|i| data[i].to_f64()).collect()
        })
    }

    /// The one element of a one-element tensor (`Tensor.item()`).
    ///
    /// # Errors
    /// [`Error::ItemNumel`] (`a Tensor with 2 elements cannot be converted to Scalar`);
    /// [`Error::DTypeMismatch`] when `T` is not the tensor's dtype.
    pub fn item<T: Element>(&self) -> Result<T> {
        if self.numel() != 1 {
            return Err(Error::ItemNumel {
                numel: self.numel(),
            });
        }
        self.expect_dtype::<T>("item")?;
        let buf = self.storage.read();
        Ok(buf.as_slice::<T>()[self.storage_offset()])
    }

    fn expect_dtype<T: Element>(&self, op: &'static str) -> Result<()> {
        if T::DTYPE != self.dtype {
            return Err(Error::DTypeMismatch {
                op,
                found: T::DTYPE,
                expected: self.dtype,
            });
        }
        Ok(())
    }
}

/// Converts a wrapped number to an element type as PyTorch's `fill_` does.
pub(crate) fn scalar_to<T: Element>(s: Scalar) -> T {
    match s {
        Scalar::Bool(b) => T::from_i64(b as i64),
        Scalar::Int(i) => T::from_i64(i),
        Scalar::Float(f) => T::from_f64(f),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn from_vec_with_wrong_length_is_an_error() {
        let e = Tensor::from_vec(vec![1.0f32; 5], &[2, 3]).unwrap_err();
        assert!(e
            .to_string()
            .contains("shape '[2, 3]' is invalid for input of size 5"));
    }

    #[test]
    fn item_of_two_elements_is_an_error() {
        let t = Tensor::from_vec(vec![1i64, 2], &[2]).unwrap();
        assert_eq!(
            t.item::<i64>().unwrap_err().to_string(),
            "a Tensor with 2 elements cannot be converted to Scalar"
        );
    }

    #[test]
    fn to_vec_of_wrong_type_is_an_error() {
        let t = Tensor::zeros(&[2], DType::F64).unwrap();
        assert!(t.to_vec::<f32>().is_err());
    }

    #[test]
    fn full_converts_value_to_dtype() {
        let t = Tensor::full(&[2], 2.7, DType::I32).unwrap();
        assert_eq!(t.to_vec::<i32>().unwrap(), vec![2, 2]);
    }

    #[test]
    fn empty_strided_allocates_just_enough() {
        let t = Tensor::empty_strided(&[2, 3], &[1, 2], DType::F32).unwrap();
        assert_eq!(t.storage().len(DType::F32), 6);
    }
}
