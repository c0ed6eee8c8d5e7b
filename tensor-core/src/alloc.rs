//! Fallible allocation: buffers whose size follows from user input are reserved with
//! `try_reserve_exact`, so a request the machine cannot meet is an
//! [`Error::OutOfMemory`] instead of an abort.

use crate::error::{Error, Result};

/// An empty `Vec` with room for `n` elements, or [`Error::OutOfMemory`] naming the bytes
/// asked for (saturating at `usize::MAX` when `n * size_of::<T>()` overflows).
pub(crate) fn try_with_capacity<T>(n: usize) -> Result<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| Error::OutOfMemory {
        nbytes: n.saturating_mul(std::mem::size_of::<T>()),
    })?;
    Ok(v)
}

/// `vec![value; n]`, or [`Error::OutOfMemory`] when it cannot be allocated.
pub(crate) fn try_vec<T: Clone>(n: usize, value: T) -> Result<Vec<T>> {
    let mut v = try_with_capacity(n)?;
    v.resize(n, value);
    Ok(v)
}

/// The unit this crate allocates storage in: one 64-byte cache line, aligned to 64
/// bytes (PyTorch's CPU allocator aligns to 64 too). At the system allocator's 16 bytes
/// every other 32-byte vector load of a contiguous row (and every 64-byte one) straddles
/// two cache lines; aligned, none does. (No speed-up of its own was measurable beside the
/// run-to-run noise of the benchmarks.)
#[repr(C, align(64))]
#[derive(Clone, Copy)]
pub(crate) struct Line(#[allow(dead_code)] pub(crate) [u64; 8]);

/// Bytes in a [`Line`].
pub(crate) const LINE: usize = std::mem::size_of::<Line>();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn impossible_vec_is_out_of_memory_not_an_abort() {
        let e = try_vec(usize::MAX / 4, 0u64).unwrap_err();
        assert!(e
            .to_string()
            .starts_with("DefaultCPUAllocator: not enough memory: you tried to allocate"));
    }

    #[test]
    fn small_vec_is_filled() {
        assert_eq!(try_vec(3, 7u8).unwrap(), vec![7, 7, 7]);
    }
}
