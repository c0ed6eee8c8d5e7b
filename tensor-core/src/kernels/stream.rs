//! Streaming (non-temporal) stores for outputs larger than the cache.
//!
//! An ordinary store first reads the cache line it writes into (read-for-ownership), so
//! a kernel whose output does not fit in the last-level cache moves every output byte
//! across the memory bus twice. A non-temporal store writes whole lines without reading
//! them: `out = a + b` over 16M f32 moves 4 bytes per output element less of 16, and
//! PyTorch's CPU kernels use ordinary stores; this is one place we are faster.
//!
//! Only the slice loops with two or more inputs use it (with one input, or none, as in
//! a fill, ordinary stores measured faster: the hardware's own no-read-for-ownership
//! path for plain write streams wins), and only when the whole output is at least
//! [`STREAM_MIN_BYTES`]: a smaller output is likely to be read again soon and should
//! stay in cache. Values are computed into a small block on the stack (so the
//! arithmetic still vectorises) and the block is streamed out in 16-byte stores;
//! the unaligned head and the tail use ordinary stores. On targets other than x86_64
//! the block is copied with ordinary stores.

use std::mem::{size_of, MaybeUninit};

/// Outputs at least this large (bytes) are written with streaming stores: about the
/// last-level cache of a server core complex (32 MiB here) halved, since the inputs
/// compete for it too.
pub(crate) const STREAM_MIN_BYTES: usize = 16 << 20;

/// Elements computed per block before it is streamed out.
const BLOCK: usize = 64;

/// Alignment (bytes) of the streamed part: one cache line.
const LINE: usize = 64;

/// Writes `out[i] = value(i)` for every `i`, with streaming stores for the
/// cache-line-aligned middle. Ends with a store fence, so the values are visible to
/// any thread that synchronises with this one afterwards.
#[inline(always)]
pub(crate) fn stream_out<O: Copy>(out: &mut [O], value: impl Fn(usize) -> O) {
    let n = out.len();
    let size = size_of::<O>();
    // Elements before the first cache-line boundary (element sizes divide 64).
    let misaligned = (out.as_ptr() as usize) % LINE;
    let head = if misaligned == 0 {
        0
    } else {
        ((LINE - misaligned) / size).min(n)
    };
    for (i, x) in out[..head].iter_mut().enumerate() {
        *x = value(i);
    }
    let mut i = head;
    let mut block = [MaybeUninit::<O>::uninit(); BLOCK];
    while i + BLOCK <= n {
        for (j, b) in block.iter_mut().enumerate() {
            b.write(value(i + j));
        }
        // SAFETY: `block` holds BLOCK initialised elements (written just above);
        // `out[i..i + BLOCK]` is inside `out`, which we borrow mutably, and starts on a
        // cache-line boundary (head, then whole blocks of BLOCK * size bytes, a
        // multiple of 64).
        unsafe {
            stream_block(
                block.as_ptr().cast::<u8>(),
                out.as_mut_ptr().add(i).cast(),
                BLOCK * size,
            )
        };
        i += BLOCK;
    }
    for (k, x) in out[i..].iter_mut().enumerate() {
        *x = value(i + k);
    }
    fence();
}

/// Copies `len` bytes (a multiple of 16) from `src` to the 16-byte aligned `dst` with
/// non-temporal stores.
///
/// # Safety
/// `src` readable and `dst` writable for `len` bytes, not overlapping; `dst` aligned
/// to 16.
#[inline(always)]
unsafe fn stream_block(src: *const u8, dst: *mut u8, len: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_stream_si128};
        let (s, d) = (src.cast::<__m128i>(), dst.cast::<__m128i>());
        for k in 0..len / 16 {
            // SAFETY: inside both ranges (k < len / 16); `d` is 16-byte aligned; SSE2
            // is part of the x86_64 baseline.
            unsafe { _mm_stream_si128(d.add(k), _mm_loadu_si128(s.add(k))) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        // SAFETY: guaranteed by the caller.
        unsafe { std::ptr::copy_nonoverlapping(src, dst, len) };
    }
}

/// Orders the streaming stores before any later store (`sfence`).
#[inline(always)]
fn fence() {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `sfence` has no preconditions; SSE is part of the x86_64 baseline.
    unsafe {
        std::arch::x86_64::_mm_sfence()
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stream_out_writes_every_element_at_any_alignment() {
        let mut v = vec![0u32; 1000];
        for start in 0..20 {
            let out = &mut v[start..start + 700];
            stream_out(out, |i| (i * 3) as u32);
            assert!(out.iter().enumerate().all(|(i, &x)| x == (i * 3) as u32));
        }
        let mut b = vec![false; 333];
        stream_out(&mut b[1..], |i| i % 2 == 0);
        assert!(b[1..].iter().enumerate().all(|(i, &x)| x == (i % 2 == 0)));
        let mut d = vec![0f64; 257];
        stream_out(&mut d, |i| i as f64);
        assert_eq!(d[256], 256.0);
    }

    #[test]
    fn large_binary_op_streams_and_matches_the_naive_sum() {
        use crate::tensor::Tensor;
        // 4M + 37 f32 (past STREAM_MIN_BYTES), starting one element into the storage
        // so the rows do not start on a cache line.
        let n = (STREAM_MIN_BYTES / 4) + 37;
        let a: Vec<f32> = (0..n + 1).map(|i| (i % 1000) as f32).collect();
        let b: Vec<f32> = (0..n + 1).map(|i| (i % 7) as f32 * 0.5).collect();
        let ta = Tensor::from_vec(a.clone(), &[n + 1])
            .unwrap()
            .narrow(0, 1, n)
            .unwrap();
        let tb = Tensor::from_vec(b.clone(), &[n + 1])
            .unwrap()
            .narrow(0, 0, n)
            .unwrap();
        let c = ta.add(&tb).unwrap().to_vec::<f32>().unwrap();
        assert_eq!(c.len(), n);
        assert!((0..n).all(|i| c[i] == a[i + 1] + b[i]));
    }

    #[test]
    fn stream_out_short_slices_use_plain_stores() {
        let mut v = [0u8; 5];
        stream_out(&mut v, |i| i as u8 + 1);
        assert_eq!(v, [1, 2, 3, 4, 5]);
    }
}
