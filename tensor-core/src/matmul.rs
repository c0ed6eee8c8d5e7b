//! `matmul`: `torch.matmul` on strided tensors of any layout.
//!
//! Every case (dot, matrix-vector, vector-matrix, matrix-matrix, batched with broadcast
//! batch dims) is lowered to one description: a batch of `m×k` by `k×n` products whose
//! operands are read in place through their strides (a broadcast batch dim or a missing
//! matrix dim has stride 0). `f32`/`f64` go to `matrixmultiply`'s strided GEMM, which
//! accepts any row and column strides, so transposed, sliced and expanded inputs are
//! never copied. Integers use a plain loop with wrapping `i64` arithmetic (the same
//! result as wrapping arithmetic in the narrow type); `f16`/`bf16` accumulate in `f32`.
//!
//! Which error PyTorch raises for mismatched inner dims depends on how `_matmul_impl`
//! lowers the call (`dot`, `mv`, `mm`, a folded `mm`/`mv`, or `bmm`); `shape_error`
//! follows the same decisions so that the messages match.

use crate::alloc::try_vec;
use crate::error::{Error, Result};
use crate::layout::checked_numel;
use crate::{dispatch_dtype, DType, Element, Tensor};
use half::{bf16, f16};
use rayon::prelude::*;

/// Below this many multiply-adds per matrix, a batch is split across rayon threads
/// instead of relying on the GEMM's own threading.
const SMALL_GEMM: usize = 64 * 64 * 64;

/// One operand as a batch of matrices: element `(b, i, p)` lives at
/// `offset + Σ_d b_d * batch_strides[d] + i * rs + p * cs` (elements).
#[derive(Clone, Debug)]
struct MatOperand {
    offset: isize,
    batch_strides: Vec<isize>,
    rs: isize,
    cs: isize,
}

/// The lowered product: `batch` (the broadcast batch sizes) of `m×k · k×n`, and the
/// sizes of the result.
#[derive(Debug)]
struct Plan {
    batch: Vec<usize>,
    m: usize,
    k: usize,
    n: usize,
    a: MatOperand,
    b: MatOperand,
    out_sizes: Vec<usize>,
}

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
    ///   the PyTorch kernel that would run (`mat1 and mat2 shapes cannot be multiplied
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
    pub fn matmul(&self, other: &Tensor) -> Result<Tensor> {
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
        dispatch_dtype!(self.dtype(), T, run::<T>(self, other, &plan))
    }
}

/// Lowers `torch.matmul(t1, t2)` to a batch of strided matrix products, checking shapes
/// as PyTorch does.
fn plan(t1: &Tensor, t2: &Tensor) -> Result<Plan> {
    let (d1, d2) = (t1.dim(), t2.dim());
    let (s1, st1) = (t1.sizes(), t1.strides());
    let (s2, st2) = (t2.sizes(), t2.strides());
    // Inner dims: k1 is t1's last size, k2 is t2's second-to-last (or only) size.
    let k1 = s1[d1 - 1];
    let k2 = if d2 > 1 { s2[d2 - 2] } else { s2[0] };
    let batch1 = &s1[..d1.saturating_sub(2)];
    let batch2 = &s2[..d2.saturating_sub(2)];
    let batch = if d1 >= 3 || d2 >= 3 {
        if !should_fold(t1, t2) {
            broadcast_batch(batch1, batch2)?
        } else if d1 >= d2 {
            batch1.to_vec()
        } else {
            batch2.to_vec()
        }
    } else {
        Vec::new()
    };
    if k1 != k2 {
        return Err(shape_error(t1, t2, &batch));
    }
    let (m, a_rs) = if d1 > 1 {
        (s1[d1 - 2], st1[d1 - 2])
    } else {
        (1, 0)
    };
    let (n, b_cs) = if d2 > 1 {
        (s2[d2 - 1], st2[d2 - 1])
    } else {
        (1, 0)
    };
    let a = MatOperand {
        offset: t1.storage_offset() as isize,
        batch_strides: batch_strides(batch1, &st1[..batch1.len()], &batch),
        rs: a_rs,
        cs: st1[d1 - 1],
    };
    let b = MatOperand {
        offset: t2.storage_offset() as isize,
        batch_strides: batch_strides(batch2, &st2[..batch2.len()], &batch),
        rs: if d2 > 1 { st2[d2 - 2] } else { st2[0] },
        cs: b_cs,
    };
    let mut out_sizes = batch.clone();
    if d1 > 1 {
        out_sizes.push(m);
    }
    if d2 > 1 {
        out_sizes.push(n);
    }
    Ok(Plan {
        batch,
        m,
        k: k1,
        n,
        a,
        b,
        out_sizes,
    })
}

/// Broadcasts two batch shapes (`infer_size`), aligned from the right.
fn broadcast_batch(a: &[usize], b: &[usize]) -> Result<Vec<usize>> {
    let nd = a.len().max(b.len());
    let mut out = vec![0; nd];
    for (i, o) in out.iter_mut().enumerate() {
        let sa = (i + a.len()).checked_sub(nd).map_or(1, |j| a[j]);
        let sb = (i + b.len()).checked_sub(nd).map_or(1, |j| b[j]);
        if sa != sb && sa != 1 && sb != 1 {
            return Err(Error::Broadcast {
                a: sa,
                b: sb,
                dim: i,
            });
        }
        *o = if sa == 1 { sb } else { sa };
    }
    Ok(out)
}

/// Strides of an operand's batch dims aligned to the broadcast batch: missing leading
/// dims and broadcast size-1 dims get stride 0.
fn batch_strides(sizes: &[usize], strides: &[isize], batch: &[usize]) -> Vec<isize> {
    let lead = batch.len() - sizes.len();
    (0..batch.len())
        .map(|i| match i.checked_sub(lead) {
            Some(j) if sizes[j] == batch[i] => strides[j],
            _ => 0,
        })
        .collect()
}

/// PyTorch's `should_fold(tensor1, tensor2)`: whether `_matmul_impl` folds the batch of
/// the larger operand into its matrix rows (and calls `mm`/`mv` instead of `bmm`). Called
/// with the operands in argument order only, as PyTorch does: `[4] @ [2, 3, 5]` (contiguous)
/// does not fold, and its mismatch is the bmm message.
fn should_fold(a: &Tensor, b: &Tensor) -> bool {
    let a_larger = a.dim() >= b.dim();
    let (sizes, strides, dim_t2) = if a_larger {
        (a.sizes().to_vec(), a.strides().to_vec(), b.dim())
    } else {
        // b.mT(): swap the last two dims (b has at least 2 dims here).
        let (mut sz, mut st) = (b.sizes().to_vec(), b.strides().to_vec());
        let nd = sz.len();
        sz.swap(nd - 1, nd - 2);
        st.swap(nd - 1, nd - 2);
        (sz, st, a.dim())
    };
    let dim_t1 = sizes.len();
    if !(dim_t1 >= 3 && dim_t2 <= 2) || a.dim() == 2 {
        return false;
    }
    if sizes.contains(&0) {
        return true;
    }
    (0..dim_t1 - 2).all(|i| {
        let next = isize::try_from(sizes[i + 1]).ok();
        next.and_then(|s| strides[i + 1].checked_mul(s)) == Some(strides[i])
    })
}

/// The error PyTorch raises when the inner dims differ, from the kernel `_matmul_impl`
/// dispatches to.
fn shape_error(t1: &Tensor, t2: &Tensor, batch: &[usize]) -> Error {
    let (d1, d2) = (t1.dim(), t2.dim());
    let (s1, s2) = (t1.sizes(), t2.sizes());
    let mm = |r1: usize, c1: usize, r2: usize, c2: usize| {
        format!("mat1 and mat2 shapes cannot be multiplied ({r1}x{c1} and {r2}x{c2})")
    };
    let mv = |rows: usize, cols: usize, vec: usize| {
        format!("size mismatch, got input ({rows}), mat ({rows}x{cols}), vec ({vec})")
    };
    let message = match (d1, d2) {
        (1, 1) => format!(
            "inconsistent tensor size, expected tensor [{}] and src [{}] to have the same number of elements, but got {} and {} elements respectively",
            s1[0], s2[0], s1[0], s2[0]
        ),
        (2, 1) => mv(s1[0], s1[1], s2[0]),
        (1, 2) => mm(1, s1[0], s2[0], s2[1]),
        (2, 2) => mm(s1[0], s1[1], s2[0], s2[1]),
        _ if should_fold(t1, t2) => {
            if d1 >= d2 {
                // t1 folded to [prod(sizes[..-1]), k1].
                let rows = saturating_product(&s1[..d1 - 1]);
                if d2 == 2 {
                    mm(rows, s1[d1 - 1], s2[0], s2[1])
                } else {
                    mv(rows, s1[d1 - 1], s2[0])
                }
            } else {
                // t2.mT() folded to [prod(batch2) * p, k2]; t1 is 1-d here.
                let rows = saturating_product(&s2[..d2 - 2]).saturating_mul(s2[d2 - 1]);
                mv(rows, s2[d2 - 2], s1[0])
            }
        }
        _ => {
            let bs = saturating_product(batch);
            let k1 = s1[d1 - 1];
            let k2 = if d2 > 1 { s2[d2 - 2] } else { s2[0] };
            format!(
                "Expected size for first two dimensions of batch2 tensor to be: [{bs}, {k1}] but got: [{bs}, {k2}]."
            )
        }
    };
    Error::MatmulShape { message }
}

/// The product of `sizes`, saturating (only used in messages).
fn saturating_product(sizes: &[usize]) -> usize {
    sizes.iter().fold(1usize, |p, &s| p.saturating_mul(s))
}

/// Runs the plan for element type `T`, producing a contiguous tensor.
fn run<T: GemmElement>(t1: &Tensor, t2: &Tensor, plan: &Plan) -> Result<Tensor> {
    let Plan { m, k, n, .. } = *plan;
    let overflow = || Error::NumelOverflow { op: "matmul" };
    let nbatch = checked_product(&plan.batch).ok_or_else(overflow)?;
    let mn = m.checked_mul(n).ok_or_else(overflow)?;
    let total = nbatch.checked_mul(mn).ok_or_else(overflow)?;
    let mut out = try_vec(total, T::ZERO)?;
    if total == 0 || k == 0 {
        return Tensor::from_vec(out, &plan.out_sizes);
    }
    // Lock each distinct storage once, in `Storage::id` order (the order storage.rs
    // promises every kernel keeps, so that two operations never wait on each other).
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
    let one = |(index, c): (usize, &mut [T])| {
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
        T::gemm(m, k, n, a, b, c);
    };
    // m·n·k may exceed usize only for a product far too long to run; treat it as large.
    let small = mn.checked_mul(k).is_some_and(|w| w < SMALL_GEMM);
    if nbatch > 1 && small {
        out.par_chunks_mut(mn).enumerate().for_each(one);
    } else {
        out.chunks_mut(mn).enumerate().for_each(one);
    }
    Tensor::from_vec(out, &plan.out_sizes)
}

/// The product of `sizes`, or `None` when it overflows `usize`.
fn checked_product(sizes: &[usize]) -> Option<usize> {
    sizes.iter().try_fold(1usize, |p, &s| p.checked_mul(s))
}

/// Storage offset (elements) of batch `index`'s matrix, batches in row-major order.
/// Only called after [`in_bounds`] succeeded, so the sum stays within the storage.
fn batch_offset(op: &MatOperand, batch: &[usize], mut index: usize) -> isize {
    let mut offset = op.offset;
    for (&size, &stride) in batch.iter().zip(&op.batch_strides).rev() {
        offset += (index % size) as isize * stride;
        index /= size;
    }
    offset
}

/// `true` when every element of every batch's `rows×cols` matrix lies in `0..len`: the
/// lowest and highest offsets any index reaches are in bounds. Computed in saturating
/// `i128` (one `size × stride` term always fits), so no layout can wrap it around.
/// `rows`, `cols` and every batch size are positive here.
fn in_bounds(op: &MatOperand, batch: &[usize], rows: usize, cols: usize, len: usize) -> bool {
    let (mut lo, mut hi) = (op.offset as i128, op.offset as i128);
    let dims = batch
        .iter()
        .zip(&op.batch_strides)
        .chain([(&rows, &op.rs), (&cols, &op.cs)]);
    for (&size, &stride) in dims {
        let span = (size as i128 - 1).saturating_mul(stride as i128);
        if span < 0 {
            lo = lo.saturating_add(span);
        } else {
            hi = hi.saturating_add(span);
        }
    }
    lo >= 0 && hi < len as i128
}

/// A strided matrix inside a storage slice: element `(i, p)` is
/// `data[offset + i * rs + p * cs]`. Constructed only after [`in_bounds`] succeeded.
#[derive(Clone, Copy)]
struct Strided<'a, T> {
    data: &'a [T],
    offset: isize,
    rs: isize,
    cs: isize,
}

impl<T: Copy> Strided<'_, T> {
    #[inline(always)]
    fn at(&self, i: usize, p: usize) -> T {
        self.data[(self.offset + i as isize * self.rs + p as isize * self.cs) as usize]
    }
}

/// An element type with a matrix-product kernel.
trait GemmElement: Element {
    /// `c = a · b` for an `m×k` matrix `a` and a `k×n` matrix `b`; `c` is row-major
    /// `m×n`, zero on entry; `k > 0`, `m, n > 0`.
    fn gemm(
        m: usize,
        k: usize,
        n: usize,
        a: Strided<'_, Self>,
        b: Strided<'_, Self>,
        c: &mut [Self],
    );
}

macro_rules! blas_gemm {
    ($t:ty, $f:path) => {
        impl GemmElement for $t {
            fn gemm(
                m: usize,
                k: usize,
                n: usize,
                a: Strided<'_, $t>,
                b: Strided<'_, $t>,
                c: &mut [$t],
            ) {
                debug_assert_eq!(c.len(), m * n);
                // SAFETY: `in_bounds` checked that every `(i, p)` of `a` (i < m, p < k)
                // and every `(p, j)` of `b` lies inside its slice, so the offsets are in
                // bounds and the GEMM reads only those elements; `c` is an exclusive,
                // row-major m×n slice (rsc = n, csc = 1) that aliases no input.
                unsafe {
                    $f(
                        m,
                        k,
                        n,
                        1.0,
                        a.data.as_ptr().offset(a.offset),
                        a.rs,
                        a.cs,
                        b.data.as_ptr().offset(b.offset),
                        b.rs,
                        b.cs,
                        0.0,
                        c.as_mut_ptr(),
                        n as isize,
                        1,
                    );
                }
            }
        }
    };
}
blas_gemm!(f32, matrixmultiply::sgemm);
blas_gemm!(f64, matrixmultiply::dgemm);

/// The `i`-`p`-`j` loop: for each row of `a`, accumulate `a[i, p] * b[p, :]` into an
/// accumulator row of type `A`, then convert it into `c`. `ops` is
/// `(widen, mul_add, narrow)`: `T -> A`, `(acc, x, y) -> acc + x * y`, `A -> T`.
fn loop_gemm<T: Copy, A: Copy + Default>(
    m: usize,
    k: usize,
    n: usize,
    a: Strided<'_, T>,
    b: Strided<'_, T>,
    c: &mut [T],
    ops: (impl Fn(T) -> A, impl Fn(A, A, A) -> A, impl Fn(A) -> T),
) {
    let (widen, mul_add, narrow) = ops;
    let mut acc = vec![A::default(); n];
    for (i, row) in c.chunks_mut(n).enumerate().take(m) {
        acc.fill(A::default());
        for p in 0..k {
            let x = widen(a.at(i, p));
            for (j, s) in acc.iter_mut().enumerate() {
                *s = mul_add(*s, x, widen(b.at(p, j)));
            }
        }
        for (o, &s) in row.iter_mut().zip(&acc) {
            *o = narrow(s);
        }
    }
}

macro_rules! int_gemm {
    ($($t:ty),*) => {$(
        impl GemmElement for $t {
            fn gemm(m: usize, k: usize, n: usize, a: Strided<'_, $t>, b: Strided<'_, $t>, c: &mut [$t]) {
                let ops = (|x: $t| x.to_i64(), |s: i64, x: i64, y: i64| s.wrapping_add(x.wrapping_mul(y)), <$t>::from_i64);
                loop_gemm(m, k, n, a, b, c, ops);
            }
        }
    )*};
}
int_gemm!(u8, i8, i16, i32, i64);

macro_rules! half_gemm {
    ($($t:ty),*) => {$(
        impl GemmElement for $t {
            fn gemm(m: usize, k: usize, n: usize, a: Strided<'_, $t>, b: Strided<'_, $t>, c: &mut [$t]) {
                let ops = (|x: $t| x.to_f32(), |s: f32, x: f32, y: f32| s + x * y, <$t>::from_f32);
                loop_gemm(m, k, n, a, b, c, ops);
            }
        }
    )*};
}
half_gemm!(f16, bf16);

impl GemmElement for bool {
    /// Never called: `matmul` rejects bool operands before dispatch.
    fn gemm(
        m: usize,
        k: usize,
        n: usize,
        a: Strided<'_, bool>,
        b: Strided<'_, bool>,
        c: &mut [bool],
    ) {
        let ops = (
            |x: bool| x,
            |s: bool, x: bool, y: bool| s | (x & y),
            |s: bool| s,
        );
        loop_gemm(m, k, n, a, b, c, ops);
    }
}

#[cfg(test)]
#[path = "matmul_tests.rs"]
mod tests;
