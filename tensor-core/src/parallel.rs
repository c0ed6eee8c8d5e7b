//! `at::parallel_for` on rayon: a range split into equal chunks, the calling thread
//! working on the first one.
//!
//! PyTorch's OpenMP region runs chunk 0 on the thread that called the op and hands
//! the others to the team. A plain `rayon::scope` called from outside the pool parks
//! the caller and wakes every chunk's worker, which for an in-cache op of tens of
//! microseconds costs as much as the work. [`for_ranges`] keeps the caller busy
//! (`rayon::in_place_scope`) so that a split into two chunks wakes one worker.
//!
//! OpenMP's threads also spin for a while after a parallel region before they sleep,
//! and so does this module: the caller spins (bounded) until the other chunks are
//! done instead of parking in the scope, and after the op the workers it used are kept
//! spinning for [`LINGER`] by a job that ends as soon as the next op starts. Waking a
//! parked thread on a virtual machine takes 15 to 50 µs, as long as a whole in-cache
//! op; with the spinning, a back-to-back op hands out its chunks in about a microsecond.

use std::cell::Cell;
use std::hint::spin_loop;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long the workers of a parallel op stay awake after it, waiting for the next one.
pub(crate) const LINGER: Duration = Duration::from_micros(100);

/// How long the calling thread spins for the other chunks before it parks.
const JOIN_SPIN: Duration = Duration::from_micros(200);

/// Counts parallel ops: a lingering worker ends when it changes.
static EPOCH: AtomicUsize = AtomicUsize::new(0);

/// The number of linger jobs queued or running.
static LINGERING: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// `true` while the calling thread runs its own chunk of a split (chunk 0): the
    /// pool's threads know it from `rayon::current_thread_index`, the caller from this.
    static IN_REGION: Cell<bool> = const { Cell::new(false) };
}

/// Marks the current thread as inside a parallel region until dropped (restoring the
/// previous state, also when the chunk panics).
struct RegionGuard(bool);

impl RegionGuard {
    fn enter() -> RegionGuard {
        RegionGuard(IN_REGION.with(|r| r.replace(true)))
    }
}

impl Drop for RegionGuard {
    fn drop(&mut self) {
        IN_REGION.with(|r| r.set(self.0));
    }
}

/// `at::in_parallel_region()`: `true` on a pool thread, and on the thread that called a
/// split while it runs its own chunk.
pub(crate) fn in_parallel_region() -> bool {
    rayon::current_thread_index().is_some() || IN_REGION.with(Cell::get)
}

/// Spins until `cond()` holds or `limit` has passed, checking the clock and yielding
/// the core to any other runnable thread every 64 spins (so that spinning costs little
/// when there are more threads than cores, as in a parallel test run).
fn spin_until(limit: Duration, cond: impl Fn() -> bool) {
    let start = Instant::now();
    loop {
        for _ in 0..64 {
            if cond() {
                return;
            }
            spin_loop();
        }
        if start.elapsed() >= limit {
            return;
        }
        std::thread::yield_now();
    }
}

/// Keeps up to `workers` pool threads awake for [`LINGER`] or until the next parallel
/// op starts, so that its chunks start at once.
fn linger(workers: usize) {
    let epoch = EPOCH.load(Ordering::Relaxed);
    for _ in 0..workers {
        if LINGERING.fetch_add(1, Ordering::Relaxed) >= workers {
            LINGERING.fetch_sub(1, Ordering::Relaxed);
            return;
        }
        rayon::spawn(move || {
            spin_until(LINGER, || EPOCH.load(Ordering::Relaxed) != epoch);
            LINGERING.fetch_sub(1, Ordering::Relaxed);
        });
    }
}

/// `at::internal::GRAIN_SIZE`: below this many elements a loop runs on one thread.
pub const GRAIN_SIZE: usize = 32768;

/// Number of chunks `at::parallel_for` splits `n` units into: one per thread, but none
/// smaller than `grain` (so `n < grain` runs on one thread), and 1 inside a parallel
/// region (no nested parallelism, as `at::in_parallel_region`).
pub(crate) fn chunks_for(n: usize, grain: usize) -> usize {
    if in_parallel_region() {
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
    ranges_dyn(n, chunks, &f)
}

/// [`for_ranges`] with `f` as a trait object, so that the scope code below (and rayon's
/// behind it) is compiled once, not once per kernel: `f` runs once per chunk, so the
/// indirect call costs nothing measurable.
fn ranges_dyn(n: usize, chunks: usize, f: &(dyn Fn(usize, usize) + Sync)) {
    if n == 0 {
        return;
    }
    let chunks = chunks.clamp(1, n);
    if chunks == 1 {
        return f(0, n);
    }
    let len = n.div_ceil(chunks);
    EPOCH.fetch_add(1, Ordering::Relaxed);
    let (done, mut spawned) = (AtomicUsize::new(0), 0);
    let done = &done;
    rayon::in_place_scope(|s| {
        for t in 1..chunks {
            let (begin, end) = (t * len, n.min((t + 1) * len));
            if begin < end {
                spawned += 1;
                s.spawn(move |_| {
                    f(begin, end);
                    done.fetch_add(1, Ordering::Release);
                });
            }
        }
        {
            let _region = RegionGuard::enter();
            f(0, len.min(n));
        }
        spin_until(JOIN_SPIN, || done.load(Ordering::Acquire) >= spawned);
    });
    linger(spawned);
}

/// Runs `f(start, chunk)` on consecutive chunks of `data` of `len` elements each
/// (`start`: the index of the chunk's first element), chunk 0 on the calling thread,
/// the others on rayon's pool.
pub(crate) fn for_chunks_mut<T, F>(data: &mut [T], len: usize, f: F)
where
    T: Send,
    F: Fn(usize, &mut [T]) + Sync,
{
    chunks_dyn(data, len, &f)
}

/// [`for_chunks_mut`] with `f` as a trait object (compiled once per element type).
fn chunks_dyn<T: Send>(data: &mut [T], len: usize, f: &(dyn Fn(usize, &mut [T]) + Sync)) {
    let len = len.max(1);
    if data.len() <= len {
        return f(0, data);
    }
    // One unit of `ranges_dyn` per chunk (chunk 0 on the calling thread, as there);
    // each chunk is taken by the one range that covers it.
    let parts: Vec<Mutex<Option<&mut [T]>>> =
        data.chunks_mut(len).map(|c| Mutex::new(Some(c))).collect();
    let run = |begin: usize, end: usize| {
        for (k, part) in parts.iter().enumerate().take(end).skip(begin) {
            let chunk = part.lock().unwrap_or_else(|e| e.into_inner()).take();
            if let Some(chunk) = chunk {
                f(k * len, chunk);
            }
        }
    };
    ranges_dyn(parts.len(), parts.len(), &run);
}

/// [`for_chunks_mut`] with OpenMP's dynamic schedule: a team of the calling thread and
/// pool threads (one per pool thread at most; the caller alone inside a parallel
/// region), each taking the next chunk left until none is. Give it more chunks than
/// threads (a few per thread): a thread that runs slower (its CPU shared with other
/// work) then takes fewer of them, where the static split of [`for_chunks_mut`] waits
/// for its last chunk. Which thread runs a chunk is not fixed.
pub(crate) fn for_chunks_mut_dynamic<T, F>(data: &mut [T], len: usize, f: F)
where
    T: Send,
    F: Fn(usize, &mut [T]) + Sync,
{
    dynamic_dyn(data, len, &f)
}

/// [`for_chunks_mut_dynamic`] with `f` as a trait object.
fn dynamic_dyn<T: Send>(data: &mut [T], len: usize, f: &(dyn Fn(usize, &mut [T]) + Sync)) {
    let len = len.max(1);
    if data.len() <= len {
        return f(0, data);
    }
    let parts: Vec<Mutex<Option<&mut [T]>>> =
        data.chunks_mut(len).map(|c| Mutex::new(Some(c))).collect();
    let next = AtomicUsize::new(0);
    let run = |_: usize, _: usize| loop {
        let k = next.fetch_add(1, Ordering::Relaxed);
        let Some(part) = parts.get(k) else {
            return;
        };
        let chunk = part.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(chunk) = chunk {
            f(k * len, chunk);
        }
    };
    let team = if in_parallel_region() {
        1
    } else {
        rayon::current_num_threads().clamp(1, parts.len())
    };
    ranges_dyn(team, team, &run);
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
    fn dynamic_chunks_write_every_element_once_in_and_out_of_a_parallel_region() {
        let fill = |v: &mut [usize], len: usize| {
            let calls = AtomicUsize::new(0);
            for_chunks_mut_dynamic(v, len, |start, c| {
                calls.fetch_add(1, Ordering::Relaxed);
                for (i, x) in c.iter_mut().enumerate() {
                    *x += start + i + 1;
                }
            });
            calls.into_inner()
        };
        for (n, len) in [(0, 3), (1, 3), (11, 4), (1000, 7), (64, 64), (65, 64)] {
            let mut v = vec![0usize; n];
            let calls = fill(&mut v, len);
            assert_eq!(v, (1..=n).collect::<Vec<_>>(), "n {n}, len {len}");
            assert_eq!(calls, n.div_ceil(len).max(1), "n {n}, len {len}");
        }
        // Inside a pool thread the caller takes every chunk itself.
        let mut v = vec![0usize; 100];
        rayon::scope(|_| fill(&mut v, 3));
        assert_eq!(v, (1..=100).collect::<Vec<_>>());
    }

    #[test]
    fn back_to_back_ops_cover_their_range_and_linger_jobs_end() {
        // After an op the workers linger; the next op right after must still cover its
        // range exactly once, and the linger jobs must all end (the counter returns to 0).
        for _ in 0..50 {
            let seen = Mutex::new(Vec::new());
            for_ranges(4, 2, |b, e| seen.lock().unwrap().push((b, e)));
            let mut seen = seen.into_inner().unwrap();
            seen.sort();
            assert_eq!(seen, vec![(0, 2), (2, 4)]);
        }
        let start = std::time::Instant::now();
        while LINGERING.load(Ordering::Relaxed) > 0 {
            // Other tests may start ops meanwhile; each linger lasts at most `LINGER`.
            assert!(start.elapsed().as_secs() < 5, "a linger job never ended");
            std::thread::yield_now();
        }
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

    #[test]
    fn caller_chunk_of_a_split_does_not_split_again() {
        // Chunk 0 runs on the calling thread: a split inside it would queue work behind
        // the pool's own chunks (`at::in_parallel_region` is true there too).
        let nested = Mutex::new(Vec::new());
        for_ranges(2, 2, |_, _| {
            nested.lock().unwrap().push(chunks_for(1 << 20, 1))
        });
        assert_eq!(nested.into_inner().unwrap(), vec![1, 1]);
        assert!(!in_parallel_region());
    }
}
