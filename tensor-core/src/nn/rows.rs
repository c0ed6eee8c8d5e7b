//! Row access for the fused nn kernels: a contiguous tensor's elements as a slice, a
//! fresh output written as a slice, and a loop over rows split across threads (the
//! `at::parallel_for` over rows of PyTorch's softmax and layer_norm kernels).
//!
//! Everything here is safe code: the slices come from the storages' locks, an input's
//! read lock and a fresh output's write lock (two different storages).

use crate::error::Result;
use crate::iterator::GRAIN_SIZE;
use crate::parallel::{chunks_for, for_chunks_mut};
use crate::{Element, Tensor};

/// Runs `f` compiled for the widest vectors the CPU has: AVX-512 (as PyTorch's
/// `AVX512` CPU capability), else AVX2 and FMA ([`crate::simd`]'s rule), else the
/// baseline. Every copy computes the same operations in the same order (Rust never
/// fuses a multiply and an add on its own), so results do not depend on the CPU.
#[inline(always)]
pub(crate) fn widest<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512bw")
        && std::is_x86_feature_detected!("avx512vl")
        && std::is_x86_feature_detected!("fma")
    {
        // SAFETY: the CPU supports every feature `with_avx512` enables, checked above.
        return unsafe { with_avx512(f) };
    }
    crate::simd::vectorized(f)
}

/// `f()` in a function compiled with AVX-512 (F, BW, VL), AVX2 and FMA enabled.
///
/// # Safety
/// The CPU must support those features.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2,fma")]
unsafe fn with_avx512<R>(f: impl FnOnce() -> R) -> R {
    f()
}

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
    let strides = crate::contiguous_strides(sizes);
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

/// Elements per thread below which the row kernels of softmax over the last dim and
/// of layer_norm are not split. PyTorch splits those rows with a grain of one row (or
/// none), so a few thousand elements already run on every thread there; this keeps
/// the split where a thread hand-off (about a microsecond) is worth it.
pub(crate) const ROW_GRAIN: usize = 4096;

/// Runs `f(row_index, in_row, out_row)` for each of the rows of `input` (rows of
/// `in_len`) and `out` (rows of `out_len`), splitting the rows across threads when
/// there are at least [`GRAIN_SIZE`] input elements (as `at::parallel_for` with
/// PyTorch's grain), each chunk compiled for the widest vectors the CPU has ([`widest`]).
pub(crate) fn par_rows<T, U, F>(input: &[T], in_len: usize, out: &mut [U], out_len: usize, f: F)
where
    T: Sync,
    U: Send,
    F: Fn(usize, &[T], &mut [U]) + Sync,
{
    par_rows_grain(input, in_len, out, out_len, GRAIN_SIZE, f)
}

/// [`par_rows`] split only when there are at least `grain` elements per thread.
pub(crate) fn par_rows_grain<T, U, F>(
    input: &[T],
    in_len: usize,
    out: &mut [U],
    out_len: usize,
    grain: usize,
    f: F,
) where
    T: Sync,
    U: Send,
    F: Fn(usize, &[T], &mut [U]) + Sync,
{
    if out_len == 0 {
        return;
    }
    let rows = out.len() / out_len;
    if rows == 0 {
        return;
    }
    let chunks = chunks_for(rows.saturating_mul(in_len.max(out_len)), grain).min(rows);
    let per_chunk = rows.div_ceil(chunks.max(1));
    let f = &f;
    for_chunks_mut(out, per_chunk * out_len, |start, chunk| {
        let first = start / out_len;
        widest(
            #[inline(always)]
            || {
                for (i, o) in chunk.chunks_exact_mut(out_len).enumerate() {
                    let r = first + i;
                    f(r, &input[r * in_len..(r + 1) * in_len], o);
                }
            },
        )
    });
}

/// Runs `f(x, y)` over `input` and `out` (equal lengths) split into equal parts across
/// threads when there are at least [`GRAIN_SIZE`] elements, each part compiled for the
/// widest vectors the CPU has: an elementwise map over a flat span.
pub(crate) fn par_flat<T, U, F>(input: &[T], out: &mut [U], f: F)
where
    T: Sync,
    U: Send,
    F: Fn(&[T], &mut [U]) + Sync,
{
    let n = out.len().min(input.len());
    let chunks = chunks_for(n, GRAIN_SIZE);
    let len = n.div_ceil(chunks.max(1)).max(1);
    let f = &f;
    for_chunks_mut(&mut out[..n], len, |start, chunk| {
        widest(
            #[inline(always)]
            || f(&input[start..start + chunk.len()], chunk),
        )
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn par_rows_visits_every_row_once() {
        let input: Vec<f32> = (0..6000).map(|i| i as f32).collect();
        let mut out = vec![0.0f32; 2000];
        par_rows(&input, 3, &mut out, 1, |r, x, o| {
            assert_eq!(x[0], (3 * r) as f32);
            o[0] = x.iter().sum();
        });
        assert_eq!(out[0], 3.0);
        assert_eq!(out[1999], (5997 + 5998 + 5999) as f32);
    }

    #[test]
    fn par_rows_grain_splits_small_inputs_and_visits_every_row_once() {
        // 64 rows of 16 with a grain of 16 elements: split whenever the pool has threads.
        let input: Vec<f32> = (0..1024).map(|i| i as f32).collect();
        let mut out = vec![0.0f32; 64];
        par_rows_grain(&input, 16, &mut out, 1, 16, |r, x, o| {
            assert_eq!(x[0], (16 * r) as f32);
            o[0] = x[15];
        });
        let want: Vec<f32> = (0..64).map(|r| (16 * r + 15) as f32).collect();
        assert_eq!(out, want);
    }
}
