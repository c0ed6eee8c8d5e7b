//! `at::parallel_for` on rayon: a range split into equal chunks, the calling thread
//! working on the first one.
//!
//! PyTorch's OpenMP region runs chunk 0 on the thread that called the op and hands
//! the others to the team. A plain `rayon::scope` called from outside the pool parks
//! the caller and wakes every chunk's worker, which for an in-cache op of tens of
//! microseconds costs as much as the work. [`for_ranges`] keeps the caller busy
//! (`rayon::in_place_scope`) so that a split into two chunks wakes one worker.

/// Number of chunks `at::parallel_for` splits `n` units into: one per thread, but none
/// smaller than `grain` (so `n < grain` runs on one thread), and 1 inside a parallel
/// region (no nested parallelism, as `at::in_parallel_region`).
pub(crate) fn chunks_for(n: usize, grain: usize) -> usize {
    if rayon::current_thread_index().is_some() {
        return 1;
    }
    rayon::current_num_threads()
        .min(n.div_ceil(grain.max(1)))
        .max(1)
}

/// Runs `f(begin, end)` over `[0, n)` split into `chunks` ranges of equal length
/// (the last one shorter); chunk 0 on the calling thread, the others on rayon's pool.
/// Returns when every chunk is done.
pub(crate) fn for_ranges<F>(n: usize, chunks: usize, f: F)
where
    F: Fn(usize, usize) + Sync,
{
    if n == 0 {
        return;
    }
    let chunks = chunks.clamp(1, n);
    if chunks == 1 {
        return f(0, n);
    }
    let len = n.div_ceil(chunks);
    let f = &f;
    rayon::in_place_scope(|s| {
        for t in 1..chunks {
            let (begin, end) = (t * len, n.min((t + 1) * len));
            if begin < end {
                s.spawn(move |_| f(begin, end));
            }
        }
        f(0, len.min(n));
    });
}

/// Runs `f(start, chunk)` on consecutive chunks of `data` of `len` elements each
/// (`start`: the index of the chunk's first element), chunk 0 on the calling thread,
/// the others on rayon's pool.
pub(crate) fn for_chunks_mut<T, F>(data: &mut [T], len: usize, f: F)
where
    T: Send,
    F: Fn(usize, &mut [T]) + Sync,
{
    let len = len.max(1);
    if data.len() <= len {
        return f(0, data);
    }
    let f = &f;
    let mut chunks = data.chunks_mut(len).enumerate();
    let (_, first) = chunks.next().expect("data is longer than one chunk");
    rayon::in_place_scope(|s| {
        for (k, chunk) in chunks {
            s.spawn(move |_| f(k * len, chunk));
        }
        f(0, first);
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[test]
    fn for_ranges_covers_the_range_once() {
        let seen = Mutex::new(Vec::new());
        for_ranges(10, 3, |b, e| seen.lock().unwrap().push((b, e)));
        let mut seen = seen.into_inner().unwrap();
        seen.sort();
        assert_eq!(seen, vec![(0, 4), (4, 8), (8, 10)]);
    }

    #[test]
    fn for_ranges_with_more_chunks_than_units() {
        let seen = Mutex::new(Vec::new());
        for_ranges(2, 8, |b, e| seen.lock().unwrap().push((b, e)));
        let mut seen = seen.into_inner().unwrap();
        seen.sort();
        assert_eq!(seen, vec![(0, 1), (1, 2)]);
    }

    #[test]
    fn for_chunks_mut_writes_every_element() {
        let mut v = vec![0usize; 11];
        for_chunks_mut(&mut v, 4, |start, c| {
            for (i, x) in c.iter_mut().enumerate() {
                *x = start + i;
            }
        });
        assert_eq!(v, (0..11).collect::<Vec<_>>());
    }

    #[test]
    fn chunks_for_respects_the_grain() {
        assert_eq!(chunks_for(100, 32768), 1);
        assert_eq!(
            chunks_for(1 << 20, 32768),
            rayon::current_num_threads().min(32)
        );
        // Inside a pool thread: no nested split.
        assert_eq!(rayon::scope(|_| chunks_for(1 << 20, 1)), 1);
    }
}
