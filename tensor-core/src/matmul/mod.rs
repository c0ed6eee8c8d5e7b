//! `matmul`: `torch.matmul` on strided tensors of any layout.
//!
//! Every case (dot, matrix-vector, vector-matrix, matrix-matrix, batched with broadcast
//! batch dims) is lowered to one description: a batch of `m×k` by `k×n` products whose
//! operands are read in place through their strides (a broadcast batch dim or a missing
//! matrix dim has stride 0). `f32`/`f64` go to the `gemm` crate's packing kernels
//! (`packed.rs`; narrow `f32` products to `small.rs`, a few rows times a weight to
//! `few_rows.rs` and `row_dots.rs`, one row times a transposed weight to `gemv.rs`),
//! which accept any row and column strides, so transposed, sliced and expanded inputs
//! are never copied. Integers use a plain loop with wrapping `i64` arithmetic (the
//! same result as wrapping arithmetic in the narrow type); `f16`/`bf16` accumulate in
//! `f32`.
//!
//! Which error PyTorch raises for mismatched inner dims depends on how `_matmul_impl`
//! lowers the call (`dot`, `mv`, `mm`, a folded `mm`/`mv`, or `bmm`); `shape_error`
//! follows the same decisions so that the messages match.

mod addmm;
mod few_rows;
mod gemm;
mod gemv;
pub(crate) mod packed;
mod plan;
mod row_dots;
mod small;
mod strided;

#[cfg(test)]
mod tests;

use crate::dispatch_dtype;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::checked_numel;
use crate::parallel;
use crate::shape_ops::slices::write_new;
use crate::tensor::Tensor;
use gemm::GemmElement;
use plan::{batch_offset, checked_product, in_bounds, plan, Plan};
use strided::Strided;

/// Below this many multiply-adds per matrix, a batch is split across rayon threads
/// (whole matrices per thread); from it on, each product's rows are (`gemm_rows`),
/// unless the batch has at least [`BATCH_SPLIT_MIN`] matrices per thread.
const SMALL_GEMM: usize = 64 * 64 * 64;

/// Matrices per thread from which a batch of products of any size is split by whole
/// matrices rather than by rows of each: a `[96, 64, 64] @ [96, 64, 64]` batch (one
/// product of exactly [`SMALL_GEMM`]) split by rows ran on one thread, 1.6x PyTorch's time.
const BATCH_SPLIT_MIN: usize = 2;

/// Multiply-adds per thread below which a batch of small products is not split
/// (`at::internal::GRAIN_SIZE`): waking a worker costs more than a few small products.
const BATCH_GRAIN: usize = 32 * 1024;

impl Tensor {
    /// Matrix product with broadcasting, as `torch.matmul(self, other)`.
    ///
    /// - 1-d · 1-d: dot product, a 0-d result;
    /// - 2-d · 2-d: `[n, m] · [m, p] -> [n, p]`;
    /// - 1-d · 2-d: `[m] · [m, p] -> [p]` (a 1 is prepended, then removed);
    /// - 2-d · 1-d: `[n, m] · [m] -> [n]`;
    /// - either ≥ 3-d: the leading (batch) dims broadcast
    ///   (`[j, 1, n, m] · [k, m, p] -> [j, k, n, p]`), a 1-d operand is treated as above.
    ///
    /// The result is a fresh contiguous tensor of the operands' dtype. Inputs are read
    /// in place through their strides (no copy for transposed, sliced or expanded
    /// inputs). Integer products wrap on overflow; `f16`/`bf16` accumulate in `f32`.
    ///
    /// # Errors
    /// - [`Error::MatmulShape`]: a 0-d operand (`both arguments to matmul need to be at
    ///   least 1D, but they are 0D and 2D`); inner dims that differ, with the message of
    ///   the PyTorch kernel that would run (`mm: mat1 and mat2 shapes cannot be multiplied
    ///   (2x3 and 4x5)`, `inconsistent tensor size, expected tensor [3] and src [4] ...`,
    ///   `size mismatch, got input (2), mat (2x3), vec (4)`,
    ///   `Expected size for first two dimensions of batch2 tensor to be: ...`);
    /// - [`Error::Broadcast`]: batch dims that do not broadcast;
    /// - [`Error::InvalidArgument`]: different dtypes (`expected m1 and m2 to have the
    ///   same dtype, but got: float != double`; for two vectors `dot : expected both
    ///   vectors to have same dtype, but found Float and Double`);
    /// - [`Error::UnsupportedDType`]: bool operands (`"addmm_impl_cpu_" not implemented
    ///   for 'Bool'`);
    /// - [`Error::NumelOverflow`] when the result would be too large.
    #[cfg_attr(unoptimized, inline)]
    pub fn matmul(&self, other: &Tensor) -> Result<Tensor> {
        crate::autograd::apply(
            &[self, other],
            || self.matmul_impl(other),
            |_| crate::autograd::MatmulBackward {
                a: crate::autograd::SavedTensor::input(self),
                b: crate::autograd::SavedTensor::input(other),
                need_a: self.requires_grad(),
                need_b: other.requires_grad(),
            },
        )
    }

    #[cfg_attr(unoptimized, inline)]
    fn matmul_impl(&self, other: &Tensor) -> Result<Tensor> {
        let (d1, d2) = (self.dim(), other.dim());
        if d1 == 0 || d2 == 0 {
            return Err(Error::MatmulShape {
                message: format!(
                    "both arguments to matmul need to be at least 1D, but they are {d1}D and {d2}D"
                ),
            });
        }
        if d1 == 1 && d2 == 1 && self.dtype() != other.dtype() {
            return Err(Error::InvalidArgument {
                op: "dot",
                message: format!(
                    "dot : expected both vectors to have same dtype, but found {} and {}",
                    self.dtype().scalar_type_name(),
                    other.dtype().scalar_type_name()
                ),
            });
        }
        let plan = plan(self, other)?;
        if self.dtype() != other.dtype() {
            return Err(Error::InvalidArgument {
                op: "matmul",
                message: format!(
                    "expected m1 and m2 to have the same dtype, but got: {} != {}",
                    self.dtype().type_meta_name(),
                    other.dtype().type_meta_name()
                ),
            });
        }
        if self.dtype() == DType::Bool {
            let kernel = if d1 == 1 && d2 == 1 {
                "dot"
            } else {
                "addmm_impl_cpu_"
            };
            return Err(Error::UnsupportedDType {
                message: format!("\"{kernel}\" not implemented for 'Bool'"),
            });
        }
        checked_numel(&plan.out_sizes, "matmul")?;
        if let Some(out) = shared_batches(self, other, &plan)? {
            return Ok(out);
        }
        let nbatch = checked_product(&plan.batch).unwrap_or(usize::MAX);
        if self.dim() >= 3
            && !self.is_contiguous()
            && nbatch > 1
            && plan.b.batch_strides.iter().all(|&s| s == 0)
            && folded_rows(&plan, nbatch).is_none()
        {
            // `_matmul_impl`'s fold: a batch times one matrix is one product over the
            // batch's rows; a batch whose rows are not one strided run is copied first
            // (PyTorch's `reshape`), as it does.
            return self.contiguous()?.matmul_impl(other);
        }
        dispatch_dtype!(self.dtype(), T, run::<T>(self, other, &plan, None))
    }
}

/// A batch dim along which neither operand moves (both broadcast or expanded there)
/// gives the same matrix at every index: the product is computed once over the other
/// dims and expanded into the result (one copy), instead of once per index. `None` when
/// no batch dim of size > 1 is shared so.
///
/// # Errors
/// The product's; [`Error::OutOfMemory`] for the result.
#[cfg_attr(unoptimized, inline)]
fn shared_batches(t1: &Tensor, t2: &Tensor, plan: &Plan) -> Result<Option<Tensor>> {
    let nb = plan.batch.len();
    let shared: Vec<usize> = (0..nb)
        .filter(|&i| {
            plan.batch[i] > 1 && plan.a.batch_strides[i] == 0 && plan.b.batch_strides[i] == 0
        })
        .collect();
    if shared.is_empty() {
        return Ok(None);
    }
    // Each operand's own batch dims are the last of the result's.
    let once = |t: &Tensor| -> Result<Tensor> {
        let own = t.dim().saturating_sub(2);
        let mut t = t.alias();
        for &i in &shared {
            if let Some(j) = (i + own).checked_sub(nb) {
                if t.sizes()[j] > 1 {
                    t = t.narrow(j as i64, 0, 1)?;
                }
            }
        }
        Ok(t)
    };
    let (a, b) = (once(t1)?, once(t2)?);
    if a.sizes() == t1.sizes() && b.sizes() == t2.sizes() {
        // Nothing to narrow (cannot happen for a shared dim of size > 1; kept so that
        // the recursion below always ends).
        return Ok(None);
    }
    let product = a.matmul_impl(&b)?;
    let sizes: Vec<i64> = plan.out_sizes.iter().map(|&s| s as i64).collect();
    Ok(Some(product.expand(&sizes)?.contiguous()?))
}

/// Runs the plan for element type `T`, producing a contiguous tensor: a fresh one, or
/// `init` (a fresh contiguous tensor of the result's sizes holding `addmm`'s broadcast
/// input) with the product added to it.
fn run<T: GemmElement>(
    t1: &Tensor,
    t2: &Tensor,
    plan: &Plan,
    init: Option<Tensor>,
) -> Result<Tensor> {
    let Plan { m, k, n, .. } = *plan;
    let overflow = || Error::NumelOverflow { op: "matmul" };
    let nbatch = checked_product(&plan.batch).ok_or_else(overflow)?;
    let mn = m.checked_mul(n).ok_or_else(overflow)?;
    let total = nbatch.checked_mul(mn).ok_or_else(overflow)?;
    if total == 0 || k == 0 {
        return match init {
            Some(init) => Ok(init),
            None => Tensor::zeros(&plan.out_sizes, T::DTYPE),
        };
    }
    // Lock each distinct storage once, in `Storage::id` order (the order storage.rs
    // promises every kernel keeps, so that two operations never wait on each other);
    // the result's storage, the newest, last.
    let (s1, s2) = (t1.storage(), t2.storage());
    let (guard1, guard2);
    if s1.same(s2) {
        guard1 = s1.read();
        guard2 = None;
    } else if s1.id() < s2.id() {
        guard1 = s1.read();
        guard2 = Some(s2.read());
    } else {
        guard2 = Some(s2.read());
        guard1 = s1.read();
    }
    let a_data = guard1.as_slice::<T>();
    let b_data = guard2.as_ref().map_or(a_data, |g| g.as_slice::<T>());
    let a_ok = in_bounds(&plan.a, &plan.batch, m, k, a_data.len());
    let b_ok = in_bounds(&plan.b, &plan.batch, k, n, b_data.len());
    if !(a_ok && b_ok) {
        return Err(Error::InvalidArgument {
            op: "matmul",
            message: "an operand's layout reaches outside its storage".into(),
        });
    }
    match init {
        // The result is a fresh contiguous tensor that the products below write whole
        // (every GEMM writes each element of its `c`, and the `c`s tile the result).
        None => write_new::<T>(&plan.out_sizes, |out| {
            products(plan, nbatch, (a_data, b_data), out, false);
            Ok(())
        }),
        Some(init) => {
            {
                let mut buf = init.storage().write();
                let out = &mut buf.as_mut_slice::<T>()[..total];
                products(plan, nbatch, (a_data, b_data), out, true);
            }
            Ok(init)
        }
    }
}

/// Every product of the plan into `out` (the contiguous result, `nbatch` matrices of
/// `m×n`): `out = a · b`, or `out += a · b` when `accumulate`.
fn products<T: GemmElement>(
    plan: &Plan,
    nbatch: usize,
    (a_data, b_data): (&[T], &[T]),
    out: &mut [T],
    accumulate: bool,
) {
    let Plan { m, k, n, .. } = *plan;
    let mn = m * n;
    if let Some(rows) = folded_rows(plan, nbatch) {
        // `mm` on the batch seen as one matrix of `nbatch · m` rows (PyTorch folds
        // such a product into one `mm` too).
        let a = Strided {
            data: a_data,
            offset: plan.a.offset,
            rs: plan.a.rs,
            cs: plan.a.cs,
        };
        let b = Strided {
            data: b_data,
            offset: plan.b.offset,
            rs: plan.b.rs,
            cs: plan.b.cs,
        };
        return gemm_rows(rows, k, n, a, b, out, accumulate);
    }
    // The matrices of batch `index`.
    let views = |index: usize| {
        let a = Strided {
            data: a_data,
            offset: batch_offset(&plan.a, &plan.batch, index),
            rs: plan.a.rs,
            cs: plan.a.cs,
        };
        let b = Strided {
            data: b_data,
            offset: batch_offset(&plan.b, &plan.batch, index),
            rs: plan.b.rs,
            cs: plan.b.cs,
        };
        (a, b)
    };
    // m·n·k may exceed usize only for a product far too long to run; treat it as large.
    let small = mn.checked_mul(k).is_some_and(|w| w < SMALL_GEMM);
    let many = nbatch >= BATCH_SPLIT_MIN * rayon::current_num_threads();
    if nbatch > 1 && (small || many) {
        // Whole matrices per chunk; one chunk (no thread hand-off) when the batch's
        // multiply-adds are below the grain.
        let total = nbatch * mn;
        let chunks = parallel::chunks_for(total.saturating_mul(k), BATCH_GRAIN).min(nbatch);
        let per = nbatch.div_ceil(chunks.max(1));
        parallel::for_chunks_mut(out, per * mn, |start, part| {
            let first = start / mn;
            for (i, c) in part.chunks_mut(mn).enumerate() {
                let (a, b) = views(first + i);
                T::gemm(m, k, n, a, b, c, accumulate, false);
            }
        });
    } else {
        // Large products one after another, each split over the threads.
        for (index, c) in out.chunks_mut(mn).enumerate() {
            let (a, b) = views(index);
            gemm_rows(m, k, n, a, b, c, accumulate);
        }
    }
}

/// Rows of `a` per block of a product split by rows (conv's GEMMs, the integer and
/// half-precision loops): a multiple of matrixmultiply's f32/f64 AVX row tile (8), so no
/// block ends in a partial tile except the last.
pub(crate) const ROW_BLOCK: usize = 8;

/// Into how many parts (each a run of [`ROW_BLOCK`]-row blocks) to split the rows of one
/// `m×k` by `k×n` product over rayon's pool: 1 below [`SMALL_GEMM`] multiply-adds or
/// inside a parallel region, else one part per thread, at most one per block. Shared by
/// `matmul` and conv's GEMMs.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn row_split(m: usize, k: usize, n: usize) -> usize {
    let work = m.saturating_mul(n).saturating_mul(k);
    if work < SMALL_GEMM {
        1
    } else {
        parallel::chunks_for(work, SMALL_GEMM).min(m.div_ceil(ROW_BLOCK))
    }
}

/// `c = a · b` (`+=` when `accumulate`; `m×k` by `k×n`, `c` row-major `m×n`) over
/// rayon's pool when the product is large: a kernel that splits a product itself
/// ([`GemmElement::SPLITS`], the packing GEMM) is told whether it may; otherwise the rows
/// of `c` are split into one block per thread, each an independent GEMM on a shifted
/// view of `a` and the whole of `b`. One row times a transposed weight goes to the GEMV.
fn gemm_rows<T: GemmElement>(
    m: usize,
    k: usize,
    n: usize,
    a: Strided<'_, T>,
    b: Strided<'_, T>,
    c: &mut [T],
    accumulate: bool,
) {
    if m == 1 && T::gemv(k, n, a, b, c, accumulate) {
        return;
    }
    if T::SPLITS {
        let work = m.saturating_mul(n).saturating_mul(k);
        let threads = parallel::chunks_for(work, SMALL_GEMM) > 1;
        return T::gemm(m, k, n, a, b, c, accumulate, threads);
    }
    let blocks = row_split(m, k, n);
    if blocks <= 1 {
        return T::gemm(m, k, n, a, b, c, accumulate, false);
    }
    let rows = m.div_ceil(blocks).next_multiple_of(ROW_BLOCK);
    parallel::for_chunks_mut(c, rows * n, |start, part| {
        let first = start / n;
        let block = Strided {
            offset: a.offset + first as isize * a.rs,
            ..a
        };
        T::gemm(part.len() / n, k, n, block, b, part, accumulate, false);
    });
}

/// The rows of the one matrix a batch of products is when `b` is the same matrix for
/// every batch entry and `a`'s matrices follow each other at `m` rows of stride `rs`
/// (batch entry `i` starts `i · m · rs` after the first), as a contiguous activation
/// `[batch.., m, k]` times a weight `[k, n]`: `None` when they do not.
#[cfg_attr(unoptimized, inline)]
fn folded_rows(plan: &Plan, nbatch: usize) -> Option<usize> {
    if nbatch <= 1 {
        return None;
    }
    let mut expected = isize::try_from(plan.m).ok()?.checked_mul(plan.a.rs)?;
    let dims = plan
        .batch
        .iter()
        .zip(&plan.a.batch_strides)
        .zip(&plan.b.batch_strides);
    for ((&size, &sa), &sb) in dims.rev() {
        if size == 1 {
            continue;
        }
        if sb != 0 || sa != expected {
            return None;
        }
        expected = expected.checked_mul(isize::try_from(size).ok()?)?;
    }
    plan.m.checked_mul(nbatch)
}
