//! `Tensor`: shared storage + layout + dtype, and its constructors and accessors.

use crate::alloc::try_with_capacity;
use crate::autograd::AutogradMeta;
use crate::dispatch_dtype;
use crate::dtype::DType;
use crate::element::Element;
use crate::error::{Error, Result};
use crate::layout::{checked_numel, contiguous_nbytes, Layout};
use crate::scalar::Scalar;
use crate::storage::Storage;
use std::sync::Arc;

/// A strided, dynamically typed tensor: a [`Storage`] shared with every view of it, a
/// [`Layout`] (sizes, strides and storage offset in elements) and a [`DType`].
///
/// Like a PyTorch tensor handle: views made from it share the storage and see each
/// other's writes. [`Tensor::alias`] makes another handle to the same view;
/// [`Tensor::clone`](Tensor::clone) copies the data as `torch.clone` does.
///
/// # Invariant
/// Every `Tensor`, however made, satisfies:
/// 1. `sizes` and `strides` have the same length, every size and the element count
///    fit in `i64`, and every stride is `>= 0`;
/// 2. the storage may be seen as `dtype` ([`Storage::can_view_as`]: `Bool` only over
///    `Bool` storage);
/// 3. when the tensor has elements, the byte offset of every element,
///    `(storage_offset + Σ i_d · stride_d) · itemsize` for `i_d < size_d`, plus
///    `itemsize`, is at most `storage.nbytes()`, which is at most `isize::MAX`.
///
/// So every partial sum `Σ i_d · stride_d · itemsize` with `i_d < size_d` lies in
/// `[0, nbytes)` and fits in `isize`: the offset arithmetic of views, of the
/// TensorIterator and of the kernels cannot overflow, and no element lies outside the
/// storage. (Strides of size-0 and size-1 dims take no part in any element's offset and
/// may be as large as `isize::MAX`, as in PyTorch.) [`Tensor::from_parts`] checks all
/// three; crate code makes views through `try_with_layout` (checked) or `with_layout`
/// (checked too, panicking on a violation, which would be a bug of this crate).
///
/// # Autograd
/// A tensor may carry autograd metadata ([`Tensor::requires_grad`], its gradient and
/// the node that produced it, `grad_fn`); most tensors carry none, and ops on them pay
/// one `Option` check. Handles made by [`Tensor::alias`] share the metadata (they are
/// the same tensor to autograd); views and results of ops get their own.
pub struct Tensor {
    storage: Storage,
    layout: Layout,
    dtype: DType,
    autograd: Option<Arc<AutogradMeta>>,
}

impl std::fmt::Debug for Tensor {
    #[cfg_attr(unoptimized, inline)]
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tensor")
            .field("storage", &self.storage)
            .field("layout", &self.layout)
            .field("dtype", &self.dtype)
            .field("requires_grad", &self.requires_grad())
            .finish()
    }
}

/// Checks the [`Tensor`] invariant for `layout` over `storage` as `dtype`.
#[cfg_attr(unoptimized, inline)]
fn check_fits(storage: &Storage, layout: &Layout, dtype: DType, op: &'static str) -> Result<()> {
    if !storage.can_view_as(dtype) {
        return Err(Error::StorageDType {
            op,
            storage: storage.dtype(),
            dtype,
        });
    }
    if layout.strides().iter().any(|&s| s < 0) {
        return Err(Error::StorageBounds {
            message: format!(
                "as_strided: Negative strides are not supported at the moment, got strides: {:?}",
                layout.strides()
            ),
        });
    }
    if layout.sizes().iter().any(|&s| s > isize::MAX as usize) {
        return Err(Error::StorageSizeOverflow {
            sizes: layout.sizes().to_vec(),
            strides: Some(layout.strides().to_vec()),
        });
    }
    checked_numel(layout.sizes(), op)?;
    let need = layout.required_storage_bytes(dtype.size())?;
    if need > storage.nbytes() {
        return Err(Error::StorageBounds {
            message: format!(
                "setStorage: sizes {:?}, strides {:?}, storage offset {}, and itemsize {} requiring a storage size of {} are out of bounds for storage of size {}",
                layout.sizes(),
                layout.strides(),
                layout.storage_offset(),
                dtype.size(),
                need,
                storage.nbytes()
            ),
        });
    }
    Ok(())
}

impl Tensor {
    /// A tensor over `storage` with `layout`, for storage this crate just allocated for
    /// exactly this layout (the invariant holds by construction; checked in debug).
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn from_parts_unchecked(storage: Storage, layout: Layout, dtype: DType) -> Tensor {
        debug_assert!(check_fits(&storage, &layout, dtype, "from_parts").is_ok());
        Tensor {
            storage,
            layout,
            dtype,
            autograd: None,
        }
    }

    /// A tensor over existing storage, like `torch.as_strided` on a storage
    /// (`setStorage`): checks the [`Tensor`] invariant.
    ///
    /// # Errors
    /// [`Error::StorageDType`] when the storage was created for a dtype whose bytes
    /// `dtype` may not reinterpret (bool and non-bool);
    /// [`Error::StorageBounds`] with PyTorch's `setStorage: sizes [..], strides [..],
    /// storage offset .., and itemsize .. requiring a storage size of .. are out of bounds
    /// for storage of size ..` message, or for negative strides;
    /// [`Error::StorageSizeOverflow`] when the extent overflows.
    #[cfg_attr(unoptimized, inline)]
    pub fn from_parts(storage: Storage, layout: Layout, dtype: DType) -> Result<Tensor> {
        check_fits(&storage, &layout, dtype, "from_parts")?;
        Ok(Tensor {
            storage,
            layout,
            dtype,
            autograd: None,
        })
    }

    /// A new handle to the same view (`torch.Tensor.alias`): shares storage and layout.
    /// Autograd sees both handles as one tensor: they share `requires_grad`, `grad`
    /// and `grad_fn`.
    #[cfg_attr(unoptimized, inline)]
    pub fn alias(&self) -> Tensor {
        Tensor {
            storage: self.storage.clone(),
            layout: self.layout.clone(),
            dtype: self.dtype,
            autograd: self.autograd.clone(),
        }
    }

    /// The same view without autograd metadata (`Tensor.detach()`'s data).
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn alias_detached(&self) -> Tensor {
        Tensor {
            storage: self.storage.clone(),
            layout: self.layout.clone(),
            dtype: self.dtype,
            autograd: None,
        }
    }

    /// The autograd metadata, `None` for a tensor autograd never saw.
    #[inline]
    pub(crate) fn autograd_meta(&self) -> Option<&Arc<AutogradMeta>> {
        self.autograd.as_ref()
    }

    /// Replaces the autograd metadata.
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn set_autograd_meta(&mut self, meta: Option<Arc<AutogradMeta>>) {
        self.autograd = meta;
    }

    /// The same storage seen through another layout (a view), checked against the
    /// invariant.
    ///
    /// # Errors
    /// As [`Tensor::from_parts`].
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn try_with_layout(&self, layout: Layout) -> Result<Tensor> {
        Tensor::from_parts(self.storage.clone(), layout, self.dtype)
    }

    /// The same storage seen through another layout (a view) that crate code derived
    /// from a valid one. The invariant is checked in release builds too (O(ndim)); a
    /// violation is a bug of this crate and panics rather than risk an out-of-bounds
    /// access.
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn with_layout(&self, layout: Layout) -> Tensor {
        if let Err(e) = check_fits(&self.storage, &layout, self.dtype, "view") {
            panic!("internal error: a view broke the tensor invariant: {e}");
        }
        Tensor {
            storage: self.storage.clone(),
            layout,
            dtype: self.dtype,
            autograd: None,
        }
    }

    // ---- constructors ---------------------------------------------------------------

    /// A contiguous tensor of `sizes` holding `data` in row-major order
    /// (`torch.tensor(data).view(sizes)`).
    ///
    /// # Errors
    /// [`Error::DataLength`] when `data.len()` is not the product of `sizes`;
    /// [`Error::StorageSizeOverflow`]; [`Error::OutOfMemory`].
    ///
    /// ```
    /// use tensor_core::Tensor;
    /// let t = Tensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3])?;
    /// assert_eq!(t.strides(), &[3, 1]);
    /// # Ok::<(), tensor_core::Error>(())
    /// ```
    pub fn from_vec<T: Element>(data: Vec<T>, sizes: &[usize]) -> Result<Tensor> {
        let layout = Layout::contiguous(sizes)?;
        if layout.numel() != data.len() {
            return Err(Error::DataLength {
                sizes: sizes.to_vec(),
                len: data.len(),
            });
        }
        Ok(Tensor::from_parts_unchecked(
            Storage::from_vec(data)?,
            layout,
            T::DTYPE,
        ))
    }

    /// A 0-d tensor holding `value` (`torch.tensor(value)`).
    pub fn scalar<T: Element>(value: T) -> Tensor {
        // An 8-byte allocation whose size does not depend on any input: its failure is
        // the allocator's ordinary out-of-memory handling, as for any `Box::new`.
        let storage = Storage::from_vec(vec![value])
            .unwrap_or_else(|_| std::alloc::handle_alloc_error(std::alloc::Layout::new::<u64>()));
        Tensor::from_parts_unchecked(storage, Layout::new(vec![], vec![], 0), T::DTYPE)
    }

    /// A 0-d tensor of `dtype` holding `value` converted to it.
    #[cfg_attr(unoptimized, inline)]
    pub fn scalar_of(value: Scalar, dtype: DType) -> Tensor {
        dispatch_dtype!(dtype, T, Tensor::scalar::<T>(scalar_to::<T>(value)))
    }

    /// A contiguous tensor of `sizes` filled with zeros (`torch.zeros`; also `torch.empty`,
    /// since storage is always initialised). The storage comes from `alloc_zeroed`, so
    /// pages are zeroed lazily by the OS.
    ///
    /// # Errors
    /// [`Error::StorageSizeOverflow`] (`Storage size calculation overflowed with
    /// sizes=[..]`) when the bytes exceed `isize::MAX`; [`Error::OutOfMemory`]
    /// (`DefaultCPUAllocator: not enough memory: you tried to allocate N bytes.`).
    #[cfg_attr(unoptimized, inline)]
    pub fn zeros(sizes: &[usize], dtype: DType) -> Result<Tensor> {
        let nbytes = contiguous_nbytes(sizes, dtype.size())?;
        let layout = Layout::contiguous(sizes)?;
        Ok(Tensor::from_parts_unchecked(
            Storage::zeroed(nbytes, dtype)?,
            layout,
            dtype,
        ))
    }

    /// `torch.empty(sizes, dtype)`: contiguous. Its elements are zero.
    ///
    /// # Errors
    /// As [`Tensor::zeros`].
    #[cfg_attr(unoptimized, inline)]
    pub fn empty(sizes: &[usize], dtype: DType) -> Result<Tensor> {
        Tensor::zeros(sizes, dtype)
    }

    /// `torch.empty_strided(sizes, strides)`: a fresh storage just large enough for the
    /// layout (strides in elements, offset 0). Its elements are zero.
    ///
    /// # Errors
    /// Those of [`Layout::checked`] (mismatched lengths, negative strides
    /// `as_strided: Negative strides are not supported at the moment`, size overflow);
    /// [`Error::StorageSizeOverflow`] when the bytes exceed `isize::MAX`;
    /// [`Error::OutOfMemory`].
    #[cfg_attr(unoptimized, inline)]
    pub fn empty_strided(sizes: &[usize], strides: &[isize], dtype: DType) -> Result<Tensor> {
        let layout = Layout::checked_from_slices(sizes, strides, 0)?;
        checked_numel(sizes, "empty_strided")?;
        let nbytes = layout.required_storage_bytes(dtype.size())?;
        Ok(Tensor::from_parts_unchecked(
            Storage::zeroed(nbytes, dtype)?,
            layout,
            dtype,
        ))
    }

    /// A contiguous tensor of `sizes` filled with `value` converted to `dtype`
    /// (`torch.full`).
    ///
    /// # Errors
    /// As [`Tensor::zeros`]; [`Error::InvalidArgument`] when `value` does not fit `dtype`
    /// (`value cannot be converted to type uint8_t without overflow`, as `fill_`).
    pub fn full(sizes: &[usize], value: impl Into<Scalar>, dtype: DType) -> Result<Tensor> {
        let value = value.into();
        dispatch_dtype!(dtype, T, {
            let v = crate::scalar::cast::checked_scalar::<T>(value, "full")?;
            let t = Tensor::zeros(sizes, dtype)?;
            t.storage.write().as_mut_slice::<T>().fill(v);
            Ok(t)
        })
    }

    /// A contiguous tensor of `sizes` filled with ones (`torch.ones`).
    ///
    /// # Errors
    /// As [`Tensor::zeros`].
    #[cfg_attr(unoptimized, inline)]
    pub fn ones(sizes: &[usize], dtype: DType) -> Result<Tensor> {
        Tensor::full(sizes, Scalar::Int(1), dtype)
    }

    /// `torch.arange(end, dtype=dtype)`: `[0, 1, ..., end-1]`, 1-d.
    ///
    /// # Errors
    /// As [`Tensor::zeros`] (`arange(usize::MAX, F32)` is
    /// [`Error::StorageSizeOverflow`]; a large one that does not fit in memory is
    /// [`Error::OutOfMemory`]).
    #[cfg_attr(unoptimized, inline)]
    pub fn arange(end: usize, dtype: DType) -> Result<Tensor> {
        let t = Tensor::zeros(&[end], dtype)?;
        dispatch_dtype!(dtype, T, {
            for (i, x) in t.storage.write().as_mut_slice::<T>().iter_mut().enumerate() {
                *x = T::from_i64(i as i64);
            }
        });
        Ok(t)
    }

    // ---- accessors ------------------------------------------------------------------

    /// Sizes of each dim (`Tensor.size()`), in elements.
    #[cfg_attr(unoptimized, inline)]
    pub fn sizes(&self) -> &[usize] {
        self.layout.sizes()
    }

    /// Strides of each dim (`Tensor.stride()`), in elements.
    #[cfg_attr(unoptimized, inline)]
    pub fn strides(&self) -> &[isize] {
        self.layout.strides()
    }

    /// Offset of the first element in the storage (`Tensor.storage_offset()`), in elements.
    #[cfg_attr(unoptimized, inline)]
    pub fn storage_offset(&self) -> usize {
        self.layout.storage_offset()
    }

    /// Number of dims (`Tensor.dim()`).
    #[cfg_attr(unoptimized, inline)]
    pub fn dim(&self) -> usize {
        self.layout.ndim()
    }

    /// Number of elements (`Tensor.numel()`).
    #[cfg_attr(unoptimized, inline)]
    pub fn numel(&self) -> usize {
        self.layout.numel()
    }

    /// The element type (`Tensor.dtype`).
    #[cfg_attr(unoptimized, inline)]
    pub fn dtype(&self) -> DType {
        self.dtype
    }

    /// The geometry: sizes, strides, storage offset.
    #[cfg_attr(unoptimized, inline)]
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The shared storage.
    #[cfg_attr(unoptimized, inline)]
    pub fn storage(&self) -> &Storage {
        &self.storage
    }

    /// `true` when both tensors are views of the same storage.
    #[cfg_attr(unoptimized, inline)]
    pub fn shares_storage(&self, other: &Tensor) -> bool {
        self.storage.same(&other.storage)
    }

    /// The elements in logical row-major order (`t.reshape(-1).tolist()`).
    ///
    /// # Errors
    /// [`Error::DTypeMismatch`] when `T` is not the tensor's dtype
    /// (use `to_dtype` first); [`Error::OutOfMemory`] when the result cannot be
    /// allocated (an expanded tensor may have far more elements than its storage).
    pub fn to_vec<T: Element>(&self) -> Result<Vec<T>> {
        self.expect_dtype::<T>("to_vec")?;
        let mut out = try_with_capacity(self.numel())?;
        let buf = self.storage.read();
        let data = buf.as_slice::<T>();
        if self.is_contiguous() && self.numel() > 0 {
            // One copy of the elements' span.
            let start = self.storage_offset();
            out.extend_from_slice(&data[start..start + self.numel()]);
        } else {
            out.extend(self.layout.offsets().map(|i| data[i]));
        }
        Ok(out)
    }

    /// The elements converted to `f64`, in logical row-major order, whatever the dtype.
    ///
    /// # Errors
    /// [`Error::OutOfMemory`] when the result cannot be allocated.
    #[cfg_attr(unoptimized, inline)]
    pub fn to_vec_f64(&self) -> Result<Vec<f64>> {
        let mut out = try_with_capacity(self.numel())?;
        dispatch_dtype!(self.dtype, T, {
            let buf = self.storage.read();
            let data = buf.as_slice::<T>();
            if self.is_contiguous() && self.numel() > 0 {
                let start = self.storage_offset();
                out.extend(data[start..start + self.numel()].iter().map(|v| v.to_f64()));
            } else {
                out.extend(self.layout.offsets().map(|i| data[i].to_f64()));
            }
        });
        Ok(out)
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
                found: self.dtype,
                expected: T::DTYPE,
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
    fn full_300_of_uint8_is_an_overflow_error() {
        let e = Tensor::full(&[2], 300, DType::U8).unwrap_err();
        assert!(e
            .to_string()
            .contains("value cannot be converted to type uint8_t without overflow"));
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

    #[test]
    fn empty_strided_9_by_stride_2_pow_61_is_an_error() {
        let e = Tensor::empty_strided(&[9], &[1 << 61], DType::F32).unwrap_err();
        assert!(matches!(e, Error::StorageSizeOverflow { .. }), "{e}");
        let e = Tensor::empty_strided(&[9], &[1 << 57], DType::F32).unwrap_err();
        assert!(matches!(e, Error::OutOfMemory { .. }), "{e}");
    }

    #[test]
    fn empty_strided_mismatched_lengths_is_an_error() {
        assert!(Tensor::empty_strided(&[2, 3], &[1], DType::F32).is_err());
    }

    #[test]
    fn from_parts_u8_storage_as_bool_is_an_error() {
        let s = Storage::from_vec(vec![2u8]).unwrap();
        let l = Layout::checked(vec![1], vec![1], 0).unwrap();
        let e = Tensor::from_parts(s, l.clone(), DType::Bool).unwrap_err();
        assert!(matches!(e, Error::StorageDType { .. }), "{e}");
        let b = Storage::from_vec(vec![true]).unwrap();
        assert!(Tensor::from_parts(b.clone(), l.clone(), DType::U8).is_err());
        assert!(Tensor::from_parts(b, l, DType::Bool).is_ok());
    }

    #[test]
    fn from_parts_reinterprets_between_plain_dtypes() {
        let s = Storage::from_vec(vec![1.0f32]).unwrap();
        let l = Layout::checked(vec![4], vec![1], 0).unwrap();
        let t = Tensor::from_parts(s, l, DType::U8).unwrap();
        assert_eq!(t.to_vec::<u8>().unwrap(), 1.0f32.to_ne_bytes().to_vec());
    }

    #[test]
    fn from_parts_out_of_bounds_has_pytorch_message() {
        let s = Storage::from_vec(vec![1.0f32]).unwrap();
        let l = Layout::checked(vec![9], vec![1], 0).unwrap();
        assert_eq!(
            Tensor::from_parts(s, l, DType::F32).unwrap_err().to_string(),
            "setStorage: sizes [9], strides [1], storage offset 0, and itemsize 4 requiring a storage size of 36 are out of bounds for storage of size 4"
        );
    }

    #[test]
    fn zeros_2_pow_40_is_out_of_memory_not_an_abort() {
        let e = Tensor::zeros(&[1 << 40, 1 << 20], DType::F32).unwrap_err();
        assert_eq!(
            e.to_string(),
            "DefaultCPUAllocator: not enough memory: you tried to allocate 4611686018427387904 bytes."
        );
    }

    #[test]
    fn zeros_numel_overflow_has_pytorch_message() {
        let e = Tensor::zeros(&[usize::MAX, 2], DType::F32).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "Storage size calculation overflowed with sizes=[{}, 2]",
                usize::MAX
            )
        );
    }

    #[test]
    fn arange_usize_max_is_an_error_not_a_panic() {
        assert!(Tensor::arange(usize::MAX, DType::F32).is_err());
        assert!(Tensor::arange(usize::MAX, DType::U8).is_err());
        assert_eq!(
            Tensor::arange(3, DType::I64)
                .unwrap()
                .to_vec::<i64>()
                .unwrap(),
            vec![0, 1, 2]
        );
    }

    #[test]
    fn to_vec_of_expanded_2_pow_46_is_out_of_memory() {
        let one = Tensor::ones(&[1], DType::F32).unwrap();
        // 2^46 f32 = 256 TiB: beyond any address space, whatever the overcommit policy.
        let big = one.expand(&[1 << 46]).unwrap();
        assert!(matches!(
            big.to_vec::<f32>(),
            Err(Error::OutOfMemory { .. })
        ));
        assert!(matches!(big.to_vec_f64(), Err(Error::OutOfMemory { .. })));
    }
}
