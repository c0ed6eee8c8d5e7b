//! Shared, lock-protected storage: the bytes behind a tensor and all its views.

use crate::{DType, Element};
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
#[derive(Debug)]
pub struct Buffer {
    words: Vec<u64>,
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
    /// Zero-filled storage of `nbytes` bytes.
    pub fn zeroed(nbytes: usize) -> Storage {
        let words = vec![0u64; nbytes.div_ceil(8)];
        Storage {
            inner: Arc::new(RwLock::new(Buffer { words, nbytes })),
            nbytes,
        }
    }

    /// Storage holding `data`, element for element.
    pub fn from_vec<T: Element>(data: Vec<T>) -> Storage {
        let s = Storage::zeroed(data.len() * std::mem::size_of::<T>());
        s.write().as_mut_slice::<T>().copy_from_slice(&data);
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
