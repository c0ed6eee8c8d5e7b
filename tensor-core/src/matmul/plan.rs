//! The plan of a `matmul`: `torch.matmul`'s lowering (`_matmul_impl` in PyTorch's
//! `LinearAlgebra.cpp`) to a batch of strided `m×k · k×n` products, the shape checks with
//! the message of the kernel PyTorch would call, and the bounds of every operand.

use crate::error::{Error, Result};
use crate::layout::broadcast_shapes;
use crate::tensor::Tensor;

/// One operand as a batch of matrices: element `(b, i, p)` lives at
/// `offset + Σ_d b_d * batch_strides[d] + i * rs + p * cs` (elements).
#[derive(Clone, Debug)]
pub(super) struct MatOperand {
    pub(super) offset: isize,
    pub(super) batch_strides: Vec<isize>,
    pub(super) rs: isize,
    pub(super) cs: isize,
}

/// The lowered product: `batch` (the broadcast batch sizes) of `m×k · k×n`, and the
/// sizes of the result.
#[derive(Debug)]
pub(super) struct Plan {
    pub(super) batch: Vec<usize>,
    pub(super) m: usize,
    pub(super) k: usize,
    pub(super) n: usize,
    pub(super) a: MatOperand,
    pub(super) b: MatOperand,
    pub(super) out_sizes: Vec<usize>,
}

/// Lowers `torch.matmul(t1, t2)` to a batch of strided matrix products, checking shapes
/// as PyTorch does.
#[cfg_attr(unoptimized, inline)]
pub(super) fn plan(t1: &Tensor, t2: &Tensor) -> Result<Plan> {
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
            broadcast_shapes(batch1, batch2)?
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

/// Strides of an operand's batch dims aligned to the broadcast batch: missing leading
/// dims and broadcast size-1 dims get stride 0.
#[cfg_attr(unoptimized, inline)]
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
#[cfg_attr(unoptimized, inline)]
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
#[cfg_attr(unoptimized, inline)]
fn shape_error(t1: &Tensor, t2: &Tensor, batch: &[usize]) -> Error {
    let (d1, d2) = (t1.dim(), t2.dim());
    let (s1, s2) = (t1.sizes(), t2.sizes());
    let mm = |r1: usize, c1: usize, r2: usize, c2: usize| {
        format!("mm: mat1 and mat2 shapes cannot be multiplied ({r1}x{c1} and {r2}x{c2})")
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
#[cfg_attr(unoptimized, inline)]
fn saturating_product(sizes: &[usize]) -> usize {
    sizes.iter().fold(1usize, |p, &s| p.saturating_mul(s))
}

/// The product of `sizes`, or `None` when it overflows `usize`.
#[cfg_attr(unoptimized, inline)]
pub(super) fn checked_product(sizes: &[usize]) -> Option<usize> {
    sizes.iter().try_fold(1usize, |p, &s| p.checked_mul(s))
}

/// Storage offset (elements) of batch `index`'s matrix, batches in row-major order.
/// Only called after [`in_bounds`] succeeded, so the sum stays within the storage.
#[cfg_attr(unoptimized, inline)]
pub(super) fn batch_offset(op: &MatOperand, batch: &[usize], mut index: usize) -> isize {
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
#[cfg_attr(unoptimized, inline)]
pub(super) fn in_bounds(
    op: &MatOperand,
    batch: &[usize],
    rows: usize,
    cols: usize,
    len: usize,
) -> bool {
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
