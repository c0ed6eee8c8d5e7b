//! The loops kernels run on: `for_each` (split across rayon threads like
//! `at::parallel_for`), `serial_for_each` over a linear range with a [`DimCounter`],
//! and the storage locking that makes the raw pointers handed to kernels race-free.

use super::{is_same, TensorIterator};
use crate::layout::is_provably_non_overlapping;
pub use crate::parallel::GRAIN_SIZE;
use crate::parallel::{chunks_for, for_ranges};
use crate::storage::Buffer;
use smallvec::SmallVec;
use std::sync::{RwLockReadGuard, RwLockWriteGuard};

/// Per-operand values kept inline (no allocation for up to this many operands).
type PerOperand<T> = SmallVec<[T; 4]>;

/// Byte strides laid out `[dim * ntensors + arg]` kept inline for common plans.
type LoopStrides = SmallVec<[isize; 16]>;

/// Tile of a transposed 2-D plan along the inner dim (elements): short, so the lines
/// of the operand that is strided along it stay cached while the outer dim advances.
const TILE0: usize = 8;
/// Tile along the outer dim (elements); measured best for 4096 x 4096 f32 transposes.
const TILE1: usize = 256;
/// Smallest size of both dims for tiling to pay off.
const TILE_MIN: usize = 64;

/// Walks a linear range `[begin, end)` of an iteration shape in 2-D steps
/// (TensorIteratorInternal.h `DimCounter`). `values` are the mixed-radix digits of the
/// current position, dim 0 fastest.
#[derive(Clone, Debug)]
pub struct DimCounter {
    shape: Vec<usize>,
    end: usize,
    /// The index along each iteration dim of the current position.
    values: Vec<usize>,
    /// The current linear position.
    offset: usize,
}

impl DimCounter {
    /// A counter at `begin` (size-0 dims are skipped when splitting it into digits).
    #[cfg_attr(unoptimized, inline)]
    pub fn new(shape: &[usize], begin: usize, end: usize) -> DimCounter {
        let mut values = vec![0usize; shape.len()];
        let mut linear = begin;
        for (v, &size) in values.iter_mut().zip(shape) {
            if size > 0 {
                *v = linear % size;
                linear /= size;
            }
        }
        DimCounter {
            shape: shape.to_vec(),
            end,
            values,
            offset: begin,
        }
    }

    /// The index along each iteration dim of the current position (dim 0 first).
    #[cfg_attr(unoptimized, inline)]
    pub fn values(&self) -> &[usize] {
        &self.values
    }

    /// The current linear position.
    #[cfg_attr(unoptimized, inline)]
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// `true` once the whole range has been stepped over.
    #[cfg_attr(unoptimized, inline)]
    pub fn is_done(&self) -> bool {
        self.offset >= self.end
    }

    /// The largest `(size0, size1)` step from here that stays inside the range and
    /// inside one outer row of dim 0.
    #[cfg_attr(unoptimized, inline)]
    pub fn max_2d_step(&self) -> (usize, usize) {
        // Every `values[d] < shape[d]` (kept by `new` and `increment`), so the
        // subtractions below cannot underflow.
        let remaining = self.end.saturating_sub(self.offset);
        let Some(&size0) = self.shape.first() else {
            return (remaining.min(1), 1);
        };
        let step0 = (size0 - self.values[0]).min(remaining);
        let mut step1 = 1;
        if step0 == self.shape[0] && self.shape.len() >= 2 {
            step1 = (self.shape[1] - self.values[1]).min(remaining / self.shape[0]);
        }
        (step0, step1)
    }

    /// Advances by `step0 * step1` elements, carrying into higher dims.
    #[cfg_attr(unoptimized, inline)]
    pub fn increment(&mut self, step0: usize, step1: usize) {
        self.offset = self.offset.saturating_add(step0.saturating_mul(step1));
        let ndim = self.values.len();
        let (mut i, mut carry) = (0usize, step0);
        if step1 != 1 {
            i = 1;
            carry = step1;
        }
        while i < ndim && carry > 0 {
            let size = self.shape[i];
            let mut v = self.values[i] + carry;
            if v >= size {
                // A step larger than a whole dim (misuse) wraps by `%`, keeping the
                // `values[d] < shape[d]` invariant.
                carry = v / size.max(1);
                v %= size.max(1);
            } else {
                carry = 0;
            }
            self.values[i] = v;
            i += 1;
        }
    }
}

/// The 2-D loop a kernel hands to [`TensorIterator::for_each`], as a trait object.
type Loop2d<'a> = dyn Fn(&[*mut u8], &[isize], usize, usize) + Sync + 'a;

/// The 2-D loop of [`TensorIterator::serial_for_each`] (run on one thread).
type SerialLoop2d<'a> = dyn Fn(&[*mut u8], &[isize], usize, usize) + 'a;

/// A held storage lock; kept only for its `Drop`.
#[allow(dead_code)]
enum Guard<'a> {
    Read(RwLockReadGuard<'a, Buffer>),
    Write(RwLockWriteGuard<'a, Buffer>),
}

impl TensorIterator {
    /// Byte strides laid out `[dim * ntensors + arg]`, padded with zeros to at least
    /// two dims (`get_strides`).
    #[cfg_attr(unoptimized, inline)]
    pub fn get_strides(&self) -> Vec<isize> {
        self.loop_strides().into_vec()
    }

    /// [`get_strides`](Self::get_strides) without a heap allocation for small plans.
    #[cfg_attr(unoptimized, inline)]
    fn loop_strides(&self) -> LoopStrides {
        let nt = self.ntensors();
        let ndim = self.ndim().max(2);
        let mut out = LoopStrides::from_elem(0, ndim * nt);
        for (arg, op) in self.operands.iter().enumerate() {
            for (d, &s) in op.stride_bytes.iter().enumerate() {
                out[d * nt + arg] = s;
            }
        }
        out
    }

    /// Locks each distinct storage once, in `Storage::id` order (write when an output
    /// lives on it), and returns the guards and each operand's first-element address.
    #[cfg_attr(unoptimized, inline)]
    fn lock_operands(&self) -> (PerOperand<Guard<'_>>, PerOperand<usize>) {
        let mut storages: PerOperand<(usize, usize, bool)> = self
            .operands
            .iter()
            .enumerate()
            .map(|(k, op)| (op.t().storage().id(), k, op.is_output))
            .collect();
        storages.sort_unstable_by_key(|&(id, k, _)| (id, k));
        let mut guards = PerOperand::new();
        let mut base_of: PerOperand<(usize, usize)> = PerOperand::new(); // (storage id, address)
        let mut i = 0;
        while i < storages.len() {
            let id = storages[i].0;
            let mut j = i;
            let mut write = false;
            while j < storages.len() && storages[j].0 == id {
                write |= storages[j].2;
                j += 1;
            }
            let storage = self.operands[storages[i].1].t().storage();
            let addr = if write {
                let mut g = storage.write();
                let a = g.as_mut_ptr().expose_provenance();
                guards.push(Guard::Write(g));
                a
            } else {
                let g = storage.read();
                let a = g.as_ptr().expose_provenance();
                guards.push(Guard::Read(g));
                a
            };
            base_of.push((id, addr));
            i = j;
        }
        let bases = self
            .operands
            .iter()
            .map(|op| {
                let t = op.t();
                let id = t.storage().id();
                let base = base_of.iter().find(|(s, _)| *s == id).expect("locked").1;
                base + t.storage_offset() * t.dtype().size()
            })
            .collect();
        (guards, bases)
    }

    /// Whether chunks of the range may run on different threads without two threads
    /// touching one address where either writes: every output provably
    /// non-overlapping, and every input on an output's storage the same view as it.
    #[cfg_attr(unoptimized, inline)]
    fn parallel_safe(&self) -> bool {
        if self.is_reduction {
            return false;
        }
        let outs = &self.operands[..self.num_outputs];
        for (i, o) in outs.iter().enumerate() {
            let t = o.t();
            if !is_provably_non_overlapping(t.sizes(), t.strides()) {
                return false;
            }
            for (j, op) in self.operands.iter().enumerate() {
                let same_view_input = !op.is_output && is_same(op.t(), t);
                if j != i && op.t().shares_storage(t) && !same_view_input {
                    return false;
                }
            }
        }
        true
    }

    /// Runs `loop2d` over every element (`TensorIteratorBase::for_each`): serially when
    /// `numel < GRAIN_SIZE`, on one thread, inside a rayon task, in reduction mode or
    /// when outputs might overlap; otherwise `[0, numel)` is split into
    /// `min(threads, ceil(numel / GRAIN_SIZE))` equal chunks (the OpenMP split).
    ///
    /// `loop2d(data, strides, size0, size1)`: see the module docs. Storage locks are
    /// held for the whole call.
    pub fn for_each<F>(&self, loop2d: F)
    where
        F: Fn(&[*mut u8], &[isize], usize, usize) + Sync,
    {
        let n = self.numel();
        if n == 0 {
            return;
        }
        let (_guards, bases) = self.lock_operands();
        // Safety for threads matters only where the plan could be split or tiled (a
        // small untransposed plan runs in one range either way).
        let transposed = self.is_transposed_2d();
        let safe = (transposed || n >= GRAIN_SIZE) && self.parallel_safe();
        if transposed && safe {
            // Generic: `loop2d` inlined into the tile loop knows its rows are at most
            // TILE0 long (measured 5% faster on a 4096 x 4096 transposed add than an
            // indirect call per tile). Debug builds hand in a trait object instead
            // (`kernels::erased!`), so this is compiled once there.
            return self.tiled(&bases, &loop2d);
        }
        self.ranges(&bases, &loop2d, n, safe);
    }

    /// The untiled part of [`for_each`](Self::for_each) behind one indirect call per
    /// 2-D step: the splitting and stepping below are compiled once, not once per
    /// kernel (each kernel × dtype would otherwise carry its own copy of them and of
    /// rayon's scope machinery).
    #[cfg_attr(unoptimized, inline)]
    fn ranges(&self, bases: &[usize], loop2d: &Loop2d<'_>, n: usize, safe: bool) {
        let chunks = if safe { chunks_for(n, GRAIN_SIZE) } else { 1 };
        for_ranges(n, chunks, |begin, end| {
            self.serial_range(bases, loop2d, begin, end)
        });
    }

    /// A 2-D plan (after coalescing) where some operand moves faster along the outer
    /// dim than along the inner one (a transposed operand), both dims at least a tile.
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn is_transposed_2d(&self) -> bool {
        self.ndim() == 2
            && self.shape[0] >= TILE_MIN
            && self.shape[1] >= TILE_MIN
            && self.operands.iter().any(|op| {
                let (s0, s1) = (op.stride_bytes[0].abs(), op.stride_bytes[1].abs());
                s1 != 0 && s0 > s1
            })
    }

    /// Walks a transposed 2-D plan in `TILE0 x TILE1` blocks so that both the
    /// contiguous and the transposed operands stay in cache; the outer dim is split
    /// across threads. Only used when no written element is read or written by
    /// another element's step (`parallel_safe`), so the visiting order is not
    /// observable.
    fn tiled<F>(&self, bases: &[usize], loop2d: &F)
    where
        F: Fn(&[*mut u8], &[isize], usize, usize) + Sync + ?Sized,
    {
        let (n0, n1) = (self.shape[0], self.shape[1]);
        let nt = chunks_for(self.numel(), GRAIN_SIZE);
        // Whole tiles per chunk: chunk boundaries on multiples of TILE1.
        let tiles = n1.div_ceil(TILE1);
        let (t0, t1) = (TILE0, TILE1);
        let run = |j_begin: usize, j_end: usize| {
            let nt = self.ntensors();
            let strides = self.loop_strides();
            let loop_strides = &strides[..2 * nt];
            let mut ptrs: PerOperand<*mut u8> = PerOperand::from_elem(std::ptr::null_mut(), nt);
            for j0 in (j_begin..j_end).step_by(t1) {
                let nj = t1.min(j_end - j0);
                for i0 in (0..n0).step_by(t0) {
                    let ni = t0.min(n0 - i0);
                    for (k, p) in ptrs.iter_mut().enumerate() {
                        let off = i0 as isize * strides[k] + j0 as isize * strides[nt + k];
                        *p = std::ptr::with_exposed_provenance_mut(
                            bases[k].wrapping_add_signed(off),
                        );
                    }
                    loop2d(&ptrs, loop_strides, ni, nj);
                }
            }
        };
        for_ranges(tiles, nt.min(tiles), |t_begin, t_end| {
            run(t_begin * TILE1, n1.min(t_end * TILE1))
        });
    }

    /// Runs `loop2d` over the linear range `[begin, end)` on the calling thread
    /// (`serial_for_each`), holding the storage locks.
    pub fn serial_for_each<F>(&self, loop2d: F, begin: usize, end: usize)
    where
        F: Fn(&[*mut u8], &[isize], usize, usize),
    {
        let end = end.min(self.numel());
        if begin >= end {
            return;
        }
        let (_guards, bases) = self.lock_operands();
        self.serial_range(&bases, &loop2d, begin, end);
    }

    #[cfg_attr(unoptimized, inline)]
    fn serial_range(&self, bases: &[usize], loop2d: &SerialLoop2d<'_>, begin: usize, end: usize) {
        let nt = self.ntensors();
        let strides = self.loop_strides();
        let loop_strides = &strides[..2 * nt];
        let mut ptrs: PerOperand<*mut u8> = PerOperand::from_elem(std::ptr::null_mut(), nt);
        if self.ndim() <= 1 {
            for (k, p) in ptrs.iter_mut().enumerate() {
                let off = begin as isize * strides[k];
                *p = std::ptr::with_exposed_provenance_mut(bases[k].wrapping_add_signed(off));
            }
            loop2d(&ptrs, loop_strides, end - begin, 1);
            return;
        }
        let mut counter = DimCounter::new(&self.shape, begin, end);
        while !counter.is_done() {
            for (k, p) in ptrs.iter_mut().enumerate() {
                let mut off: isize = 0;
                for (d, &v) in counter.values.iter().enumerate() {
                    off += v as isize * strides[d * nt + k];
                }
                *p = std::ptr::with_exposed_provenance_mut(bases[k].wrapping_add_signed(off));
            }
            let (s0, s1) = counter.max_2d_step();
            loop2d(&ptrs, loop_strides, s0, s1);
            counter.increment(s0, s1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dim_counter_steps_rows_then_blocks() {
        let mut c = DimCounter::new(&[3, 4, 2], 2, 24);
        assert_eq!(c.values, vec![2, 0, 0]);
        assert_eq!(c.max_2d_step(), (1, 1));
        c.increment(1, 1);
        assert_eq!(c.values, vec![0, 1, 0]);
        assert_eq!(c.max_2d_step(), (3, 3));
        c.increment(3, 3);
        assert_eq!(c.values, vec![0, 0, 1]);
        assert_eq!(c.offset, 12);
        assert_eq!(c.max_2d_step(), (3, 4));
        c.increment(3, 4);
        assert!(c.is_done());
    }

    #[test]
    fn dim_counter_of_zero_dims_steps_once() {
        let c = DimCounter::new(&[], 0, 1);
        assert_eq!(c.max_2d_step(), (1, 1));
        let c = DimCounter::new(&[3], 5, 2);
        assert!(c.is_done());
        assert_eq!(c.max_2d_step(), (0, 1));
    }
}
