//! Shared, lock-protected storage: the bytes behind a tensor and all its views.

use crate::error::{Error, Result};
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
///
/// A storage remembers the [`DType`] it was created for ([`Storage::dtype`]). Its bytes
/// may be seen as another dtype only when both dtypes accept every bit pattern (all
/// integer and float types); a `Bool` storage is only ever seen as `Bool`, so every byte
/// of it is 0 or 1 (see [`Storage::can_view_as`]).
///
/// Its length is at most `isize::MAX` bytes (Rust's allocation limit), so every byte
/// offset inside it fits in an `isize`.
#[derive(Clone, Debug)]
pub struct Storage {
    inner: Arc<RwLock<Buffer>>,
    nbytes: usize,
    dtype: DType,
}

/// Bytes aligned to 8, so that any element type can be read in place.
///
/// Invariant: every byte of `[0, nbytes)` is initialised before anything reads it. A
/// buffer from [`Storage::zeroed`] or [`Storage::from_vec`] is initialised at once; one
/// from the crate-private `Storage::uninit` is fully written by its creator before the
/// tensor over it can be reached by anyone else (see `Tensor::fresh_copy`). Every byte
/// of a buffer created for `Bool` is 0 or 1.
#[derive(Debug)]
pub struct Buffer {
    words: Box<[MaybeUninit<u64>]>,
    nbytes: usize,
    dtype: DType,
}

/// `true` when every bit pattern of `dtype`'s size is a valid value of it. Exhaustive
/// on purpose: a new dtype must decide here.
const fn every_bit_pattern_valid(dtype: DType) -> bool {
    match dtype {
        DType::Bool => false,
        DType::U8
        | DType::I8
        | DType::I16
        | DType::I32
        | DType::I64
        | DType::F16
        | DType::BF16
        | DType::F32
        | DType::F64 => true,
    }
}

/// `true` when bytes written as `stored` may be read and written as `viewed`: the same
/// dtype, or two dtypes that accept every bit pattern.
const fn compatible(stored: DType, viewed: DType) -> bool {
    stored as u8 == viewed as u8
        || (every_bit_pattern_valid(stored) && every_bit_pattern_valid(viewed))
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

    /// The dtype the buffer was created for.
    pub fn dtype(&self) -> DType {
        self.dtype
    }

    /// Panics unless `T` may see this buffer's bytes: an internal invariant (tensors
    /// are built only over compatible storage), checked in release too because the
    /// soundness of `as_slice` rests on it.
    fn check_view<T: Element>(&self) {
        assert!(
            compatible(self.dtype, T::DTYPE),
            "storage of {:?} seen as {:?}",
            self.dtype,
            T::DTYPE
        );
    }

    /// The buffer as a slice of `T` (whole elements only). Crate-private: outside the
    /// crate, read elements through a [`crate::Tensor`].
    pub(crate) fn as_slice<T: Element>(&self) -> &[T] {
        self.check_view::<T>();
        let n = self.nbytes / std::mem::size_of::<T>();
        // SAFETY: `words` holds at least `nbytes` initialised bytes (the `Buffer`
        // invariant), aligned to 8 (≥ the alignment of every `Element`); `check_view`
        // proved that `T` is the buffer's dtype or that both accept every bit pattern, so
        // every `T` read here is valid (a `Bool` buffer is only ever written as 0/1).
        unsafe { std::slice::from_raw_parts(self.as_ptr() as *const T, n) }
    }

    /// The buffer as a mutable slice of `T` (whole elements only). Crate-private.
    pub(crate) fn as_mut_slice<T: Element>(&mut self) -> &mut [T] {
        self.check_view::<T>();
        let n = self.nbytes / std::mem::size_of::<T>();
        // SAFETY: as in `as_slice`; and since `T` is compatible with the buffer's dtype,
        // every `T` written through the slice is valid for the buffer's dtype too.
        // `&mut self` gives exclusive access.
        unsafe { std::slice::from_raw_parts_mut(self.as_mut_ptr() as *mut T, n) }
    }
}

/// `nwords` 8-byte words, zeroed (calloc: the OS hands out lazily zeroed pages) or
/// uninitialised, or [`Error::OutOfMemory`] naming `nbytes`.
fn alloc_words(nwords: usize, zeroed: bool, nbytes: usize) -> Result<Box<[MaybeUninit<u64>]>> {
    let oom = Error::OutOfMemory { nbytes };
    if nwords == 0 {
        return Ok(Box::new([]));
    }
    let layout = std::alloc::Layout::array::<u64>(nwords).map_err(|_| oom.clone())?;
    // SAFETY: `layout` has a non-zero size (nwords > 0) and was checked by
    // `Layout::array` (size ≤ isize::MAX, align 8).
    let ptr = unsafe {
        if zeroed {
            std::alloc::alloc_zeroed(layout)
        } else {
            std::alloc::alloc(layout)
        }
    };
    if ptr.is_null() {
        return Err(oom);
    }
    let slice = std::ptr::slice_from_raw_parts_mut(ptr.cast::<MaybeUninit<u64>>(), nwords);
    // SAFETY: `ptr` was just allocated by the global allocator with the layout of
    // `[u64; nwords]`, which is the layout `Box<[MaybeUninit<u64>]>` of `nwords` frees
    // with; `MaybeUninit` needs no initialisation; nothing else owns the block.
    Ok(unsafe { Box::from_raw(slice) })
}

impl Storage {
    fn with_words(words: Box<[MaybeUninit<u64>]>, nbytes: usize, dtype: DType) -> Storage {
        Storage {
            inner: Arc::new(RwLock::new(Buffer {
                words,
                nbytes,
                dtype,
            })),
            nbytes,
            dtype,
        }
    }

    /// Zero-filled storage of `nbytes` bytes for elements of `dtype` (zero is a valid
    /// value of every dtype). Allocated with `alloc_zeroed`, so large storage costs no
    /// zero-fill pass.
    ///
    /// # Errors
    /// [`Error::OutOfMemory`] (`DefaultCPUAllocator: not enough memory: you tried to
    /// allocate N bytes.`) when the allocation fails or exceeds `isize::MAX` bytes.
    pub fn zeroed(nbytes: usize, dtype: DType) -> Result<Storage> {
        let words = alloc_words(nbytes.div_ceil(8), true, nbytes)?;
        Ok(Storage::with_words(words, nbytes, dtype))
    }

    /// Storage of `nbytes` bytes whose contents are not initialised (`torch.empty`'s
    /// allocation): no zero-fill pass before a kernel writes every element.
    ///
    /// # Safety
    /// The caller must write every byte of `[0, nbytes)` with valid values of `dtype`
    /// before anything reads it, and must not let the storage (or a tensor over it) be
    /// reached by other code before then.
    ///
    /// # Errors
    /// [`Error::OutOfMemory`] when the allocation fails.
    pub(crate) unsafe fn uninit(nbytes: usize, dtype: DType) -> Result<Storage> {
        let words = alloc_words(nbytes.div_ceil(8), false, nbytes)?;
        Ok(Storage::with_words(words, nbytes, dtype))
    }

    /// Storage holding `data`, element for element, created for `T`'s dtype.
    ///
    /// # Errors
    /// [`Error::OutOfMemory`] when the (8-byte aligned) copy cannot be allocated.
    pub fn from_vec<T: Element>(data: Vec<T>) -> Result<Storage> {
        let nbytes = std::mem::size_of_val(data.as_slice());
        // SAFETY: the copy below writes all `nbytes` bytes (valid `T`s) before the
        // storage is returned.
        let s = unsafe { Storage::uninit(nbytes, T::DTYPE)? };
        {
            let mut buf = s.write();
            let dst = buf.as_mut_ptr().cast::<T>();
            // SAFETY: `dst` is aligned to 8 (≥ align_of::<T>()) and has room for
            // `data.len()` elements (`nbytes` bytes); `data` is a distinct allocation.
            unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), dst, data.len()) };
        }
        Ok(s)
    }

    /// Length in bytes.
    pub fn nbytes(&self) -> usize {
        self.nbytes
    }

    /// The dtype the storage was created for.
    pub fn dtype(&self) -> DType {
        self.dtype
    }

    /// `true` when a tensor of `dtype` may be built over this storage: `dtype` is the
    /// storage's own, or both accept every bit pattern (so no read can produce an
    /// invalid value and no write can plant one). `Bool` pairs only with `Bool`.
    pub fn can_view_as(&self, dtype: DType) -> bool {
        compatible(self.dtype, dtype)
    }

    /// Length in whole elements of `dtype`.
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
        let a = Storage::from_vec(vec![1.0f32, 2.0, 3.0]).unwrap();
        let b = a.clone();
        b.write().as_mut_slice::<f32>()[1] = 7.0;
        assert_eq!(a.read().as_slice::<f32>(), &[1.0, 7.0, 3.0]);
        assert!(a.same(&b));
        assert_eq!(a.id(), b.id());
    }

    #[test]
    fn f64_storage_is_aligned() {
        let a = Storage::from_vec(vec![1.0f64; 3]).unwrap();
        assert_eq!(a.read().as_ptr() as usize % 8, 0);
    }

    #[test]
    fn zeroed_usize_max_is_out_of_memory_not_a_panic() {
        let e = Storage::zeroed(usize::MAX, DType::U8).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "DefaultCPUAllocator: not enough memory: you tried to allocate {} bytes.",
                usize::MAX
            )
        );
    }

    #[test]
    fn zeroed_large_storage_is_lazily_zero() {
        let s = Storage::zeroed(1 << 28, DType::F32).unwrap();
        let buf = s.read();
        let v = buf.as_slice::<f32>();
        assert_eq!((v[0], v[v.len() - 1]), (0.0, 0.0));
    }

    #[test]
    fn zeroed_empty_storage_has_no_bytes() {
        assert!(Storage::zeroed(0, DType::F32).unwrap().is_empty());
    }

    #[test]
    fn bool_storage_pairs_only_with_bool() {
        let b = Storage::from_vec(vec![true]).unwrap();
        assert!(b.can_view_as(DType::Bool) && !b.can_view_as(DType::U8));
        let u = Storage::from_vec(vec![2u8]).unwrap();
        assert!(!u.can_view_as(DType::Bool) && u.can_view_as(DType::I8));
    }

    #[test]
    #[should_panic(expected = "storage of U8 seen as Bool")]
    fn u8_buffer_read_as_bool_is_refused() {
        let u = Storage::from_vec(vec![2u8]).unwrap();
        let _ = u.read().as_slice::<bool>().len();
    }
}
