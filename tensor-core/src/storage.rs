//! Shared, lock-protected storage: the bytes behind a tensor and all its views.

use crate::alloc::{Line, LINE};
use crate::dtype::DType;
use crate::element::Element;
use crate::error::{Error, Result};
use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicU64, Ordering};
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
///
/// Storage this crate allocates starts at an address aligned to 64. Storage over a
/// memory-mapped file ([`crate::io`]) starts where the tensor's bytes are in the file,
/// aligned to at least its dtype's size; it may be seen only as dtypes no larger than its
/// alignment ([`Storage::can_view_as`]).
#[derive(Clone, Debug)]
pub struct Storage {
    inner: Arc<Shared>,
    nbytes: usize,
    dtype: DType,
    align: usize,
}

/// What every handle to one storage shares: the bytes behind their lock, and the
/// version counter of autograd (PyTorch's `VariableVersion`, shared by a tensor, its
/// views and its `detach()`ed handles).
#[derive(Debug)]
struct Shared {
    lock: RwLock<Buffer>,
    version: AtomicU64,
}

/// Bytes aligned to 64 (or, for a memory-mapped file, to at least the dtype's size), so
/// that elements can be read in place.
///
/// Invariant: every byte of `[0, nbytes)` is initialised before anything reads it. A
/// buffer from [`Storage::zeroed`] or [`Storage::from_vec`] is initialised at once; one
/// from the crate-private `Storage::uninit` is fully written by its creator before the
/// tensor over it can be reached by anyone else (see `Tensor::fresh_copy`). Every byte
/// of a buffer created for `Bool` is 0 or 1.
#[derive(Debug)]
pub struct Buffer {
    bytes: Bytes,
    nbytes: usize,
    dtype: DType,
}

impl Drop for Buffer {
    /// A buffer this crate allocated goes to the buffer cache (`buffer_cache`) (which keeps it
    /// only when its size is worth keeping).
    fn drop(&mut self) {
        if let Bytes::Words(words) = &mut self.bytes {
            crate::buffer_cache::give(std::mem::take(words));
        }
    }
}

/// Where a buffer's bytes live.
#[derive(Debug)]
enum Bytes {
    /// Allocated by this crate (64-byte lines).
    Words(Box<[MaybeUninit<Line>]>),
    /// Owned by `owner` (a memory-mapped file, see `io::safetensors`), which keeps them
    /// alive and valid while it lives; `addr` is the exposed address of the first byte.
    /// The contract of [`Storage::from_foreign`] holds for them.
    Foreign {
        addr: usize,
        _owner: Arc<dyn std::fmt::Debug + Send + Sync>,
    },
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
        match &self.bytes {
            Bytes::Words(words) => words.as_ptr() as *const u8,
            Bytes::Foreign { addr, .. } => std::ptr::with_exposed_provenance(*addr),
        }
    }

    /// Mutable pointer to the first byte.
    pub fn as_mut_ptr(&mut self) -> *mut u8 {
        match &mut self.bytes {
            Bytes::Words(words) => words.as_mut_ptr() as *mut u8,
            Bytes::Foreign { addr, .. } => std::ptr::with_exposed_provenance_mut(*addr),
        }
    }

    /// `true` when the bytes are owned by something else than this crate's allocator
    /// (a memory-mapped file).
    pub fn is_foreign(&self) -> bool {
        matches!(self.bytes, Bytes::Foreign { .. })
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
        assert!(
            self.as_ptr().cast::<T>().is_aligned(),
            "storage of {:?} not aligned for {:?}",
            self.dtype,
            T::DTYPE
        );
    }

    /// The bytes, whatever the dtype (every byte of a buffer is initialised, and any
    /// byte is a valid `u8`; a `Bool` buffer's are 0 or 1). Read-only on purpose: a byte
    /// written into a `Bool` buffer could be an invalid `bool`.
    pub(crate) fn as_bytes(&self) -> &[u8] {
        // SAFETY: the `Buffer` invariant: `nbytes` initialised bytes at `as_ptr()`
        // (our words, or a foreign range under `Storage::from_foreign`'s contract);
        // `u8` has alignment 1 and accepts every bit pattern; `&self` keeps writers out.
        unsafe { std::slice::from_raw_parts(self.as_ptr(), self.nbytes) }
    }

    /// The buffer as a slice of `T` (whole elements only). Crate-private: outside the
    /// crate, read elements through a [`crate::tensor::Tensor`].
    pub(crate) fn as_slice<T: Element>(&self) -> &[T] {
        self.check_view::<T>();
        let n = self.nbytes / std::mem::size_of::<T>();
        // SAFETY: the bytes (our words, or a foreign range under the contract of
        // `Storage::from_foreign`) are at least `nbytes` initialised bytes (the `Buffer`
        // invariant), aligned to 64 (≥ the alignment of every `Element`); `check_view`
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

/// `nlines` [`Line`]s, zeroed (calloc: the OS hands out lazily zeroed pages) or
/// uninitialised (a freed block of the same size from [`crate::buffer_cache`] when there
/// is one), or [`Error::OutOfMemory`] naming `nbytes`.
fn alloc_words(nlines: usize, zeroed: bool, nbytes: usize) -> Result<Box<[MaybeUninit<Line>]>> {
    let oom = Error::OutOfMemory { nbytes };
    if nlines == 0 {
        return Ok(Box::new([]));
    }
    if !zeroed {
        if let Some(block) = crate::buffer_cache::take(nlines) {
            return Ok(block);
        }
    }
    let layout = std::alloc::Layout::array::<Line>(nlines).map_err(|_| oom.clone())?;
    // SAFETY: `layout` has a non-zero size (nlines > 0) and was checked by
    // `Layout::array` (size ≤ isize::MAX, align 64).
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
    advise_huge_pages(ptr, layout.size());
    let slice = std::ptr::slice_from_raw_parts_mut(ptr.cast::<MaybeUninit<Line>>(), nlines);
    // SAFETY: `ptr` was just allocated by the global allocator with the layout of
    // `[Line; nlines]`, which is the layout `Box<[MaybeUninit<Line>]>` of `nlines` frees
    // with; `MaybeUninit` needs no initialisation; nothing else owns the block.
    Ok(unsafe { Box::from_raw(slice) })
}

/// Size of a transparent huge page on x86-64 Linux (bytes).
const HUGE_PAGE: usize = 2 << 20;

/// Asks Linux to back the whole 2 MiB pages inside a fresh block of `nbytes` bytes at
/// `ptr` with transparent huge pages (`madvise(MADV_HUGEPAGE)`; where the THP mode
/// is `madvise`, the default of many distributions, a block gets 4 KiB pages unless it asks). A streaming kernel over a
/// 64 MiB input then misses the TLB 512x less often and pays one page fault per 2 MiB
/// on first touch: a plain two-thread sum over 64 MiB ran about 15% faster (one thread
/// 27%). Only a hint: the bytes and their contents are unchanged, and a refusal is
/// ignored.
#[cfg_attr(unoptimized, inline)]
fn advise_huge_pages(ptr: *mut u8, nbytes: usize) {
    #[cfg(target_os = "linux")]
    {
        let start = (ptr as usize).next_multiple_of(HUGE_PAGE);
        let end = (ptr as usize).saturating_add(nbytes) / HUGE_PAGE * HUGE_PAGE;
        if end > start {
            // SAFETY: `[start, end)` lies inside the block just allocated (`ptr` for
            // `nbytes` bytes), which this process owns; `MADV_HUGEPAGE` only changes how
            // the kernel backs those pages, never their contents or their mapping.
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (ptr, nbytes, HUGE_PAGE);
}

impl Storage {
    fn with_words(words: Box<[MaybeUninit<Line>]>, nbytes: usize, dtype: DType) -> Storage {
        Storage::with_bytes(Bytes::Words(words), nbytes, dtype, LINE)
    }

    fn with_bytes(bytes: Bytes, nbytes: usize, dtype: DType, align: usize) -> Storage {
        Storage {
            inner: Arc::new(Shared {
                lock: RwLock::new(Buffer {
                    bytes,
                    nbytes,
                    dtype,
                }),
                version: AtomicU64::new(0),
            }),
            nbytes,
            dtype,
            align,
        }
    }

    /// Storage over `nbytes` bytes at `ptr` that `owner` keeps alive (a memory-mapped
    /// file): no copy. Dropping the last handle drops this reference to `owner`.
    ///
    /// # Safety
    /// While `owner` lives, `[ptr, ptr + nbytes)` must be valid for reads and writes,
    /// initialised with valid values of `dtype` (`Bool`: every byte 0 or 1), and reached
    /// by nothing but this storage (other foreign storages of the same owner cover
    /// disjoint ranges). `ptr` must be aligned to `dtype.size()` and
    /// `nbytes <= isize::MAX`; `ptr` must carry the provenance of the whole range (it
    /// is exposed here and recovered on each access).
    pub(crate) unsafe fn from_foreign(
        ptr: *mut u8,
        nbytes: usize,
        dtype: DType,
        owner: Arc<dyn std::fmt::Debug + Send + Sync>,
    ) -> Storage {
        debug_assert!((ptr as usize).is_multiple_of(dtype.size()) && nbytes <= isize::MAX as usize);
        let addr = ptr.expose_provenance();
        // The largest power of two ≤ 8 dividing the address (8 for address 0, which a
        // valid `ptr` never is).
        let align = 1usize << addr.trailing_zeros().min(3);
        let bytes = Bytes::Foreign {
            addr,
            _owner: owner,
        };
        Storage::with_bytes(bytes, nbytes, dtype, align)
    }

    /// Zero-filled storage of `nbytes` bytes for elements of `dtype` (zero is a valid
    /// value of every dtype). Allocated with `alloc_zeroed`, so large storage costs no
    /// zero-fill pass.
    ///
    /// # Errors
    /// [`Error::OutOfMemory`] (`DefaultCPUAllocator: not enough memory: you tried to
    /// allocate N bytes.`) when the allocation fails or exceeds `isize::MAX` bytes.
    pub fn zeroed(nbytes: usize, dtype: DType) -> Result<Storage> {
        let words = alloc_words(nbytes.div_ceil(LINE), true, nbytes)?;
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
        let words = alloc_words(nbytes.div_ceil(LINE), false, nbytes)?;
        Ok(Storage::with_words(words, nbytes, dtype))
    }

    /// Storage holding `data`, element for element, created for `T`'s dtype.
    ///
    /// # Errors
    /// [`Error::OutOfMemory`] when the (64-byte aligned) copy cannot be allocated.
    pub fn from_vec<T: Element>(data: Vec<T>) -> Result<Storage> {
        let nbytes = std::mem::size_of_val(data.as_slice());
        // SAFETY: the copy below writes all `nbytes` bytes (valid `T`s) before the
        // storage is returned.
        let s = unsafe { Storage::uninit(nbytes, T::DTYPE)? };
        {
            let mut buf = s.write();
            let dst = buf.as_mut_ptr().cast::<T>();
            // SAFETY: `dst` is aligned to 64 (≥ align_of::<T>()) and has room for
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
    /// invalid value and no write can plant one), and the storage's first byte is
    /// aligned to `dtype`'s size (always, except for some memory-mapped storage).
    /// `Bool` pairs only with `Bool`.
    pub fn can_view_as(&self, dtype: DType) -> bool {
        compatible(self.dtype, dtype) && dtype.size() <= self.align
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
        self.inner.lock.read().unwrap_or_else(|e| e.into_inner())
    }

    /// Exclusive access; blocks while anyone else holds the storage.
    pub fn write(&self) -> RwLockWriteGuard<'_, Buffer> {
        self.inner.lock.write().unwrap_or_else(|e| e.into_inner())
    }

    /// The autograd version counter (`Tensor._version`): the number of in-place
    /// writes (in-place ops, `_out` ops, `copy_`, `fill_`) into this storage through
    /// any view since it was created.
    pub fn version(&self) -> u64 {
        self.inner.version.load(Ordering::Acquire)
    }

    /// Counts one in-place write (`bump_version` of PyTorch's `VariableVersion`).
    pub(crate) fn bump_version(&self) {
        self.inner.version.fetch_add(1, Ordering::AcqRel);
    }

    /// `true` when this is the only handle to the storage (no view or other tensor
    /// shares it), so its bytes may be taken over without a copy.
    pub(crate) fn is_unique(&self) -> bool {
        Arc::strong_count(&self.inner) == 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn storage_starts_on_a_64_byte_line_zeroed_uninit_reused_or_copied() {
        let big = 1 << 20;
        let a = Storage::zeroed(big, DType::F32).unwrap();
        let b = Storage::from_vec(vec![1u8; 3]).unwrap();
        // SAFETY: written below before anything reads it.
        let c = unsafe { Storage::uninit(big, DType::F32).unwrap() };
        c.write().as_mut_slice::<f32>().fill(0.0);
        drop(c);
        // SAFETY: as above (this one may be the block just given back to the cache).
        let d = unsafe { Storage::uninit(big, DType::F32).unwrap() };
        d.write().as_mut_slice::<f32>().fill(0.0);
        for s in [&a, &b, &d] {
            assert_eq!(s.read().as_ptr() as usize % 64, 0);
        }
    }

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
