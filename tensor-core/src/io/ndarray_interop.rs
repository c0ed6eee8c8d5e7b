//! ndarray in and out: views of a tensor's memory as ndarray arrays, copies into owned
//! arrays, and tensors from arrays (moving an owned array's buffer, copying a view).
//!
//! A [`Tensor`] owns a share of its storage and has no lifetime, so it cannot borrow an
//! [`ArrayView`]'s memory: `TryFrom<ArrayView>` copies (keeping the view's non-negative
//! strides, so an expanded or transposed view stays so without growing), and
//! `TryFrom<Array>` takes the array's buffer without copying. The other way, a tensor's
//! memory is lent to ndarray for as long as a guard holds the storage's lock.

use super::common::invalid;
use crate::element::Element;
use crate::error::{Error, Result};
use crate::layout::Layout;
use crate::storage::{Buffer, Storage};
use crate::tensor::Tensor;
use ndarray::{
    Array, ArrayD, ArrayView, ArrayViewD, ArrayViewMutD, Dimension, IxDyn, ShapeBuilder,
};
use std::marker::PhantomData;
use std::sync::{Arc, RwLockReadGuard, RwLockWriteGuard};

/// ndarray's shape-with-strides for a tensor's layout (strides are never negative in a
/// tensor; ndarray takes them as `usize`).
#[cfg_attr(unoptimized, inline)]
fn nd_shape(layout: &Layout) -> ndarray::StrideShape<IxDyn> {
    let strides: Vec<usize> = layout.strides().iter().map(|&s| s as usize).collect();
    IxDyn(layout.sizes()).strides(IxDyn(&strides))
}

/// The elements from the tensor's first one on (empty for a tensor with no elements).
fn from_offset<'a, T>(data: &'a [T], layout: &Layout) -> &'a [T] {
    if layout.numel() == 0 {
        return &[];
    }
    data.get(layout.storage_offset()..).unwrap_or(&[])
}

/// A tensor's memory lent to ndarray for reading, from [`Tensor::as_array_view`]: holds
/// the storage's read lock while it lives. [`ArrayViewGuard::view`] is the view.
///
/// While it lives, an operation that writes any tensor over the same storage waits for
/// it (on this thread: forever), as a `RwLock` read guard does.
#[derive(Debug)]
pub struct ArrayViewGuard<'a, T> {
    guard: RwLockReadGuard<'a, Buffer>,
    layout: &'a Layout,
    _t: PhantomData<T>,
}

impl<T: Element> ArrayViewGuard<'_, T> {
    /// The tensor as an ndarray view with the same sizes and strides (no copy):
    /// `view()[[i, j]]` is `t[i][j]`.
    pub fn view(&self) -> ArrayViewD<'_, T> {
        let data = from_offset(self.guard.as_slice::<T>(), self.layout);
        ArrayView::from_shape(nd_shape(self.layout), data)
            .expect("checked by Tensor::as_array_view")
    }
}

/// A tensor's memory lent to ndarray for writing, from [`Tensor::as_array_view_mut`]:
/// holds the storage's write lock while it lives. [`ArrayViewMutGuard::view_mut`] is
/// the view; what is written through it is seen through every tensor over the storage.
///
/// While it lives, any operation on a tensor over the same storage waits for it (on
/// this thread: forever), as a `RwLock` write guard does.
#[derive(Debug)]
pub struct ArrayViewMutGuard<'a, T> {
    guard: RwLockWriteGuard<'a, Buffer>,
    layout: &'a Layout,
    _t: PhantomData<T>,
}

impl<T: Element> ArrayViewMutGuard<'_, T> {
    /// The tensor as a mutable ndarray view with the same sizes and strides (no copy).
    pub fn view_mut(&mut self) -> ArrayViewMutD<'_, T> {
        let layout = self.layout;
        let data = self.guard.as_mut_slice::<T>();
        let start = if layout.numel() == 0 {
            data.len()
        } else {
            layout.storage_offset().min(data.len())
        };
        ndarray::ArrayViewMut::from_shape(nd_shape(layout), &mut data[start..])
            .expect("checked by Tensor::as_array_view_mut")
    }

    /// The same memory, read-only.
    pub fn view(&self) -> ArrayViewD<'_, T> {
        let data = from_offset(self.guard.as_slice::<T>(), self.layout);
        ArrayView::from_shape(nd_shape(self.layout), data)
            .expect("checked by Tensor::as_array_view_mut")
    }
}

/// The owner of an array's buffer moved into a storage.
#[derive(Debug)]
struct VecOwner<T>(#[allow(dead_code)] Vec<T>);

impl Tensor {
    /// The tensor's memory as an ndarray view (sizes and strides kept, no copy), behind
    /// a guard holding the storage's read lock; see [`ArrayViewGuard`].
    ///
    /// ```
    /// use tensor_core::Tensor;
    /// let t = Tensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3])?.transpose(0, 1)?;
    /// let g = t.as_array_view::<f32>()?;
    /// assert_eq!(g.view()[[2, 1]], 6.0);
    /// assert_eq!(g.view().strides(), &[1, 3]);
    /// # Ok::<(), tensor_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::DTypeMismatch`] when `T` is not the tensor's dtype.
    pub fn as_array_view<T: Element>(&self) -> Result<ArrayViewGuard<'_, T>> {
        self.check_element::<T>("as_array_view")?;
        let guard = self.storage().read();
        ArrayView::from_shape(
            nd_shape(self.layout()),
            from_offset(guard.as_slice::<T>(), self.layout()),
        )
        .map_err(|e| invalid("as_array_view", format!("internal error: {e}")))?;
        Ok(ArrayViewGuard {
            guard,
            layout: self.layout(),
            _t: PhantomData,
        })
    }

    /// The tensor's memory as a mutable ndarray view, behind a guard holding the
    /// storage's write lock; see [`ArrayViewMutGuard`].
    ///
    /// # Errors
    /// [`Error::DTypeMismatch`] when `T` is not the tensor's dtype;
    /// [`Error::InternalOverlap`] when elements share memory (an expanded tensor), which
    /// a mutable view may not have.
    pub fn as_array_view_mut<T: Element>(&self) -> Result<ArrayViewMutGuard<'_, T>> {
        self.check_element::<T>("as_array_view_mut")?;
        let mut guard = self.storage().write();
        let layout = self.layout();
        {
            let data = guard.as_mut_slice::<T>();
            let start = if layout.numel() == 0 {
                data.len()
            } else {
                layout.storage_offset().min(data.len())
            };
            ndarray::ArrayViewMut::from_shape(nd_shape(layout), &mut data[start..]).map_err(
                |e| match e.kind() {
                    ndarray::ErrorKind::Unsupported => Error::InternalOverlap,
                    _ => invalid("as_array_view_mut", format!("internal error: {e}")),
                },
            )?;
        }
        Ok(ArrayViewMutGuard {
            guard,
            layout,
            _t: PhantomData,
        })
    }

    /// The elements copied into an owned, row-major ndarray array of the same sizes.
    ///
    /// # Errors
    /// [`Error::DTypeMismatch`] when `T` is not the tensor's dtype;
    /// [`Error::OutOfMemory`].
    pub fn to_ndarray<T: Element>(&self) -> Result<ArrayD<T>> {
        let v = self.to_vec::<T>()?;
        ArrayD::from_shape_vec(IxDyn(self.sizes()), v)
            .map_err(|e| invalid("to_ndarray", format!("internal error: {e}")))
    }

    fn check_element<T: Element>(&self, op: &'static str) -> Result<()> {
        if T::DTYPE != self.dtype() {
            return Err(Error::DTypeMismatch {
                op,
                found: self.dtype(),
                expected: T::DTYPE,
            });
        }
        Ok(())
    }
}

/// Sizes and strides (elements) of an ndarray array or view, if no stride is negative.
#[cfg_attr(unoptimized, inline)]
fn non_negative_layout(shape: &[usize], strides: &[isize]) -> Option<(Vec<usize>, Vec<isize>)> {
    if strides.iter().zip(shape).any(|(&s, &n)| s < 0 && n > 1) {
        return None;
    }
    // A negative stride on a dim of size 0 or 1 never moves: make it 0.
    let strides = strides.iter().map(|&s| s.max(0)).collect();
    Some((shape.to_vec(), strides))
}

/// A row-major copy of `view`'s elements as a tensor.
fn copy_row_major<T: Element, D: Dimension>(view: &ArrayView<'_, T, D>) -> Result<Tensor> {
    let mut v = crate::alloc::try_with_capacity(view.len())?;
    v.extend(view.iter().copied());
    Tensor::from_vec(v, view.shape())
}

impl<T: Element, D: Dimension> TryFrom<Array<T, D>> for Tensor {
    type Error = Error;

    /// Moves the array's buffer into a tensor's storage without copying, keeping its
    /// sizes, strides and offset (a Fortran-order or sliced array stays so). An array
    /// with a negative stride (`invert_axis`) is copied into a row-major tensor, since
    /// tensors have no negative strides (as PyTorch).
    ///
    /// # Errors
    /// [`Error::OutOfMemory`] for that copy.
    fn try_from(a: Array<T, D>) -> Result<Tensor> {
        let Some((sizes, strides)) = non_negative_layout(a.shape(), a.strides()) else {
            return copy_row_major(&a.view());
        };
        let (mut vec, offset) = a.into_raw_vec_and_offset();
        let ptr = vec.as_mut_ptr();
        let nbytes = std::mem::size_of_val(vec.as_slice());
        if nbytes == 0 || !(ptr as usize).is_multiple_of(T::DTYPE.size()) {
            // Nothing to share, or aligned less than the storage contract asks (an
            // 8-byte type on a 32-bit target).
            let storage = Storage::from_vec(vec)?;
            let layout = Layout::checked(sizes, strides, offset.unwrap_or(0))?;
            return Tensor::from_parts(storage, layout, T::DTYPE);
        }
        let owner: Arc<dyn std::fmt::Debug + Send + Sync> = Arc::new(VecOwner(vec));
        // SAFETY: `ptr` (from `as_mut_ptr`: provenance over the whole buffer) is the
        // buffer of `vec`, now owned and never touched by `owner` (a moved `Vec` keeps
        // its buffer), so its `nbytes` (≤ isize::MAX) bytes stay allocated, initialised
        // `T`s (valid `T::DTYPE` values), aligned (checked above) and reachable only
        // through this storage while `owner` lives.
        let storage = unsafe { Storage::from_foreign(ptr.cast(), nbytes, T::DTYPE, owner) };
        let layout = Layout::checked(sizes, strides, offset.unwrap_or(0))?;
        Tensor::from_parts(storage, layout, T::DTYPE)
    }
}

impl<T: Element, D: Dimension> TryFrom<ArrayView<'_, T, D>> for Tensor {
    type Error = Error;

    /// Copies the view into a tensor. With non-negative strides the copy is of the
    /// memory the view spans, strides kept (an expanded view stays expanded, a
    /// transposed one transposed, and the copy is never larger than that memory); with
    /// a negative stride, of its elements in row-major order.
    ///
    /// # Errors
    /// [`Error::OutOfMemory`].
    fn try_from(v: ArrayView<'_, T, D>) -> Result<Tensor> {
        let Some((sizes, strides)) = non_negative_layout(v.shape(), v.strides()) else {
            return copy_row_major(&v);
        };
        if v.is_empty() {
            return Tensor::from_vec(Vec::<T>::new(), &sizes);
        }
        // The span: from the first element to the last one, inclusive.
        let span = 1 + sizes
            .iter()
            .zip(&strides)
            .map(|(&n, &s)| (n - 1) * s as usize)
            .sum::<usize>();
        let mut data = crate::alloc::try_with_capacity(span)?;
        // Every index below `span` is in the view's memory: walk it by the element at
        // each offset that some index reaches; offsets no index reaches stay default.
        data.resize(span, T::default());
        // A stride-0 (broadcast) dim repeats the same memory: walk its index 0 only, so
        // the walk is as long as the memory, not the logical size (a 1e12-row broadcast
        // of 3 numbers reads 3).
        let mut distinct = v.view();
        for (ax, &s) in strides.iter().enumerate() {
            if s == 0 {
                distinct.collapse_axis(ndarray::Axis(ax), 0);
            }
        }
        let walk = Layout::checked(distinct.shape().to_vec(), strides.clone(), 0)?;
        for (off, x) in walk.offsets().zip(distinct.iter()) {
            data[off] = *x;
        }
        let layout = Layout::checked(sizes, strides, 0)?;
        Tensor::from_parts(Storage::from_vec(data)?, layout, T::DTYPE)
    }
}

#[cfg(test)]
mod tests {
    use crate::dtype::DType;
    use crate::tensor::Tensor;
    use ndarray::{s, Array, Array2, ArrayView, ShapeBuilder};

    #[test]
    fn array_view_of_transposed_tensor_has_its_strides_and_values() {
        let t = Tensor::from_vec((0..6).map(|i| i as f32).collect(), &[2, 3])
            .unwrap()
            .t()
            .unwrap();
        let g = t.as_array_view::<f32>().unwrap();
        let v = g.view();
        assert_eq!((v.shape(), v.strides()), (&[3, 2][..], &[1, 3][..]));
        assert_eq!(v[[2, 1]], 5.0);
    }

    #[test]
    fn writes_through_the_mutable_view_are_seen_by_the_tensor() {
        let base = Tensor::zeros(&[3, 4], DType::I32).unwrap();
        let col = base.select(1, 2).unwrap();
        {
            let mut g = col.as_array_view_mut::<i32>().unwrap();
            g.view_mut().fill(7);
        }
        let v = base.to_vec::<i32>().unwrap();
        assert_eq!(v.iter().filter(|&&x| x == 7).count(), 3);
        assert_eq!((v[2], v[6], v[10]), (7, 7, 7));
    }

    #[test]
    fn mutable_view_of_expanded_tensor_is_internal_overlap() {
        let t = Tensor::ones(&[1, 3], DType::F32)
            .unwrap()
            .expand(&[4, 3])
            .unwrap();
        let e = t.as_array_view_mut::<f32>().unwrap_err();
        assert!(matches!(e, crate::error::Error::InternalOverlap), "{e}");
        // Reading an expanded tensor through a view is fine.
        assert_eq!(t.as_array_view::<f32>().unwrap().view().sum(), 12.0);
    }

    #[test]
    fn array_view_of_wrong_type_is_dtype_mismatch() {
        let t = Tensor::zeros(&[2], DType::F64).unwrap();
        assert!(t.as_array_view::<f32>().is_err());
        assert!(t.to_ndarray::<i64>().is_err());
    }

    #[test]
    fn owned_fortran_array_moves_into_tensor_sharing_memory() {
        let a: Array2<f64> = Array::from_shape_fn((3, 4).f(), |(i, j)| (i * 10 + j) as f64);
        let ptr = a.as_ptr();
        let t = Tensor::try_from(a).unwrap();
        assert_eq!(t.strides(), &[1, 3]);
        assert_eq!(t.storage().read().as_ptr(), ptr.cast::<u8>());
        assert_eq!(
            t.select(0, 2).unwrap().to_vec::<f64>().unwrap(),
            vec![20.0, 21.0, 22.0, 23.0]
        );
        // Write through the tensor, read through an ndarray view of the same memory.
        t.select(1, 0).unwrap().fill_(-1.0).unwrap();
        assert_eq!(t.as_array_view::<f64>().unwrap().view()[[1, 0]], -1.0);
    }

    #[test]
    fn owned_sliced_array_keeps_its_offset() {
        let mut a = Array::from_shape_vec((4, 5), (0..20i64).collect()).unwrap();
        a.slice_collapse(s![1.., 2..]);
        let t = Tensor::try_from(a).unwrap();
        assert_eq!(t.sizes(), &[3, 3]);
        assert_eq!(t.storage_offset(), 7);
        assert_eq!(
            t.to_vec::<i64>().unwrap(),
            vec![7, 8, 9, 12, 13, 14, 17, 18, 19]
        );
    }

    #[test]
    fn negative_strides_are_copied_row_major() {
        let a = Array::from_shape_vec((2, 3), (0..6u8).collect()).unwrap();
        let v = a.slice(s![.., ..;-1]);
        let t = Tensor::try_from(v).unwrap();
        assert!(t.is_contiguous());
        assert_eq!(t.to_vec::<u8>().unwrap(), vec![2, 1, 0, 5, 4, 3]);
        let mut owned = a.clone();
        owned.invert_axis(ndarray::Axis(0));
        let t = Tensor::try_from(owned).unwrap();
        assert_eq!(t.to_vec::<u8>().unwrap(), vec![3, 4, 5, 0, 1, 2]);
    }

    #[test]
    fn broadcast_view_copies_its_span_not_its_elements() {
        let a = Array::from_vec(vec![1.0f32, 2.0, 3.0]);
        let v = a.broadcast((1000, 3)).unwrap();
        let t = Tensor::try_from(v).unwrap();
        assert_eq!(t.strides(), &[0, 1]);
        assert_eq!(t.storage().len(DType::F32), 3);
        assert_eq!(
            t.select(0, 999).unwrap().to_vec::<f32>().unwrap(),
            vec![1.0, 2.0, 3.0]
        );
    }

    #[test]
    fn broadcast_view_of_1e12_rows_converts_without_walking_them() {
        // Was a walk of every logical element (1e9 rows: 29 s; 1e12: never).
        let a = Array::from_vec(vec![1.0f32, 2.0, 3.0]);
        let v = a.broadcast((1_000_000_000_000usize, 3)).unwrap();
        let t = Tensor::try_from(v).unwrap();
        assert_eq!(t.sizes(), &[1_000_000_000_000, 3]);
        assert_eq!(t.strides(), &[0, 1]);
        assert_eq!(t.storage().len(DType::F32), 3);
        let b = Array::from_shape_vec((2, 1, 2), vec![1i64, 2, 3, 4]).unwrap();
        let v = b.broadcast((2, 5, 2)).unwrap();
        let t = Tensor::try_from(v).unwrap();
        assert_eq!(
            t.select(1, 4)
                .unwrap()
                .contiguous()
                .unwrap()
                .to_vec::<i64>()
                .unwrap(),
            vec![1, 2, 3, 4]
        );
    }

    #[test]
    fn to_ndarray_copies_in_row_major_order() {
        let t = Tensor::from_vec(vec![true, false, true, true], &[2, 2])
            .unwrap()
            .t()
            .unwrap();
        let a = t.to_ndarray::<bool>().unwrap();
        assert_eq!(
            a,
            ArrayView::from_shape((2, 2), &[true, true, false, true])
                .unwrap()
                .into_dyn()
        );
    }
}
