//! Shared, lock-protected storage: the bytes behind a tensor and all its views.

use crate::{DType, Element};
use std::mem::MaybeUninit;
use std::sync::{Arc, RwLock, RwLockReadGuard, RwLockWriteGuard};

/// The buffer behind a tensor and its views (`torch.UntypedStorage`).
///
/// Cloning a `Storage` clones the handle, not the bytes. Readers share a lock, writers
/// take it alone, so writes through one view are seen through every other view and no
/// data race is possible through the safe API. Kernels that touch several storages lock
/// each distinct one once, in the order of [`Storage::id`], so two operations can never
/// deadlock.
#[derive(Clone, Debug)]
pub struct Storage {
    inner: Arc<RwLock<Buffer>>,
    nbytes: usize,
}

/// Bytes aligned to 8, so that any element type can be read in place.
///
/// Invariant: every byte of `[0, nbytes)` is initialised before anything reads it. A
/// buffer from [`Storage::zeroed`] or [`Storage::from_vec`] is initialised at once; one
/// from the crate-private `Storage::uninit` is fully written by its creator before the
/// tensor over it can be reached by anyone else (see `Tensor::fresh_copy`).
#[derive(Debug)]
pub struct Buffer {
    words: Box<[MaybeUninit<u64>]>,
    nbytes: usize,
}

impl Buffer {
    /// Pointer to the first byte.
    pub fn as_ptr(&self) -> *const u8 {
        self.words.as_ptr() as *const u8
    }

    /// Mutable pointer to the first byte.
    pub fn as_mut_ptr(&mut self) -> *mut u8 {
        self.words.as_mut_ptr() as *mut u8
    }

    /// Length in bytes.
    pub fn nbytes(&self) -> usize {
        self.nbytes
    }

    /// The buffer as a slice of `T` (whole elements only).
    pub fn as_slice<T: Element>(&self) -> &[T] {
        let n = self.nbytes / std::mem::size_of::<T>();
        // SAFETY: `words` holds at least `nbytes` initialised bytes, aligned to 8 (≥ the
        // alignment of every `Element`), and every bit pattern written through the
        // typed API is a valid `T` of the storage's dtype (bool is written as 0/1).
        unsafe { std::slice::from_raw_parts(self.as_ptr() as *const T, n) }
    }

    /// The buffer as a mutable slice of `T` (whole elements only).
    pub fn as_mut_slice<T: Element>(&mut self) -> &mut [T] {
        let n = self.nbytes / std::mem::size_of::<T>();
        // SAFETY: as in `as_slice`, and `&mut self` gives exclusive access.
        unsafe { std::slice::from_raw_parts_mut(self.as_mut_ptr() as *mut T, n) }
    }
}

impl Storage {
    fn with_words(words: Box<[MaybeUninit<u64>]>, nbytes: usize) -> Storage {
        Storage {
            inner: Arc::new(RwLock::new(Buffer { words, nbytes })),
            nbytes,
        }
    }

    /// Zero-filled storage of `nbytes` bytes.
    pub fn zeroed(nbytes: usize) -> Storage {
        Storage::with_words(Box::new_zeroed_slice(nbytes.div_ceil(8)), nbytes)
    }

    /// Storage of `nbytes` bytes whose contents are not initialised (`torch.empty`'s
    /// allocation): no zero-fill pass before a kernel writes every element.
    ///
    /// # Safety
    /// The caller must write every byte of `[0, nbytes)` before anything reads it, and
    /// must not let the storage (or a tensor over it) be reached by other code before
    /// then.
    pub(crate) unsafe fn uninit(nbytes: usize) -> Storage {
        Storage::with_words(Box::new_uninit_slice(nbytes.div_ceil(8)), nbytes)
    }

    /// Storage holding `data`, element for element.
    pub fn from_vec<T: Element>(data: Vec<T>) -> Storage {
        let nbytes = std::mem::size_of_val(data.as_slice());
        // SAFETY: the copy below writes all `nbytes` bytes before the storage is returned.
        let s = unsafe { Storage::uninit(nbytes) };
        {
            let mut buf = s.write();
            let dst = buf.as_mut_ptr().cast::<T>();
            // SAFETY: `dst` is aligned to 8 (≥ align_of::<T>()) and has room for
            // `data.len()` elements; `data` is a distinct allocation.
            unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), dst, data.len()) };
        }
        s
    }

    /// Length in bytes.
    pub fn nbytes(&self) -> usize {
        self.nbytes
    }

    /// Length in elements of `dtype`.
    pub fn len(&self, dtype: DType) -> usize {
        self.nbytes / dtype.size()
    }

    /// `true` when the storage holds no bytes.
    pub fn is_empty(&self) -> bool {
        self.nbytes == 0
    }

    /// A number that identifies the storage (equal for handles to the same bytes); the
    /// order in which kernels take storage locks.
    pub fn id(&self) -> usize {
        Arc::as_ptr(&self.inner) as *const u8 as usize
    }

    /// `true` when both handles refer to the same bytes.
    pub fn same(&self, other: &Storage) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
    }

    /// Shared access; blocks while a writer holds the storage.
    pub fn read(&self) -> RwLockReadGuard<'_, Buffer> {
        self.inner.read().unwrap_or_else(|e| e.into_inner())
    }

    /// Exclusive access; blocks while anyone else holds the storage.
    pub fn write(&self) -> RwLockWriteGuard<'_, Buffer> {
        self.inner.write().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_through_one_handle_are_seen_through_another() {
        let a = Storage::from_vec(vec![1.0f32, 2.0, 3.0]);
        let b = a.clone();
        b.write().as_mut_slice::<f32>()[1] = 7.0;
        assert_eq!(a.read().as_slice::<f32>(), &[1.0, 7.0, 3.0]);
        assert!(a.same(&b));
        assert_eq!(a.id(), b.id());
    }

    #[test]
    fn f64_storage_is_aligned() {
        let a = Storage::from_vec(vec![1.0f64; 3]);
        assert_eq!(a.read().as_ptr() as usize % 8, 0);
    }
}
