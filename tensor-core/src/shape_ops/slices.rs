//! A tensor's elements as one slice: a contiguous tensor's read in place, a fresh
//! tensor's written once (contiguous and initialised, or any dense layout as
//! uninitialised slots). The kernels that compute on slices (`kernels::rows`, the nn
//! ops, matmul's results, `sum_to_size`) meet their tensors here.
//!
//! The slices come from the storages' locks: an input's read lock, a fresh output's
//! write lock (two different storages).

use std::mem::MaybeUninit;

use crate::element::Element;
use crate::error::Result;
use crate::tensor::Tensor;

/// Runs `f` on the elements of `t`, which must be contiguous, as a slice in row-major
/// order.
pub(crate) fn read<T: Element, R>(t: &Tensor, f: impl FnOnce(&[T]) -> R) -> R {
    debug_assert!(t.is_contiguous());
    if t.numel() == 0 {
        // The offset of an empty tensor may lie past its storage.
        return f(&[]);
    }
    let buf = t.storage().read();
    let off = t.storage_offset();
    f(&buf.as_slice::<T>()[off..off + t.numel()])
}

/// A fresh contiguous tensor of `sizes` and `T`'s dtype whose elements `f` writes,
/// given them as one slice in row-major order. `f` must write every element (the
/// storage is not zero-filled, as PyTorch's `at::empty`); when it returns an error the
/// tensor is dropped unread.
pub(crate) fn write_new<T: Element>(
    sizes: &[usize],
    f: impl FnOnce(&mut [T]) -> Result<()>,
) -> Result<Tensor> {
    let strides = crate::layout::contiguous_strides(sizes);
    // SAFETY: the layout is contiguous (non-overlapping and dense); every caller's `f`
    // writes each element of the slice (the whole tensor) before the tensor is
    // returned, and nothing else can reach the tensor before then.
    let out = unsafe { Tensor::empty_strided_uninit(sizes, &strides, T::DTYPE)? };
    {
        let mut buf = out.storage().write();
        let n = out.numel();
        f(&mut buf.as_mut_slice::<T>()[..n])?;
    }
    Ok(out)
}

/// A fresh tensor of `sizes` and `strides` (elements, offset 0; non-overlapping and
/// dense) whose storage `fill` initialises: `fill` receives every storage element, in
/// storage order, as uninitialised slots.
///
/// # Safety
/// `fill` must write every slot it receives, or return an error (the tensor is then
/// dropped unread).
///
/// # Errors
/// Those of `Tensor::empty_strided` (size overflow, [`crate::error::Error::OutOfMemory`]) and of
/// `fill`.
pub(crate) unsafe fn fresh_output<T: Element>(
    sizes: &[usize],
    strides: &[isize],
    fill: impl FnOnce(&mut [MaybeUninit<T>]) -> Result<()>,
) -> Result<Tensor> {
    // SAFETY: the caller's `fill` writes every storage element (a dense layout's
    // storage holds exactly its elements) before the tensor is returned.
    let out = unsafe { Tensor::empty_strided_uninit(sizes, strides, T::DTYPE)? };
    {
        let mut buf = out.storage().write();
        let n = buf.nbytes() / std::mem::size_of::<T>();
        // SAFETY: the buffer is 8-byte aligned (≥ align_of::<T>()) and holds `n`
        // elements of `T`'s size (it was made for `T::DTYPE`); `MaybeUninit<T>` accepts
        // any bytes, initialised or not; the write guard makes the access exclusive for
        // the slice's lifetime.
        let slots =
            unsafe { std::slice::from_raw_parts_mut(buf.as_mut_ptr().cast::<MaybeUninit<T>>(), n) };
        fill(slots)?;
    }
    Ok(out)
}
