//! The forward of a small `f32`/`f64` convolution with a contiguous output: images
//! taken together, one im2col over the batch (`cols.rs`) and one GEMM per batch
//! and group, `out[C_out_g, b·P] = W_g[C_out_g, K] · col[K, b·P]`, whose rows are then
//! copied to their images. For a few thousand multiply-adds per image (the digits CNN's
//! `[32, 1, 8, 8]` and `[32, 8, 4, 4]` stages) one GEMM per image spends more on its
//! call, packing and border tests than on the products.

use std::cell::Cell;

use super::cols::{im2col, kept_at, pad_images, Images, Kept};
use super::geometry::{Cols, Gemm};
use crate::alloc::try_vec;
use crate::error::Result;
use crate::layout::strides_for_format;
use crate::layout::MemoryFormat;
use crate::shape_ops::slices::fresh_output;
use crate::tensor::Tensor;

/// Per-image `C_out · P · K` below which a convolution takes this path (the per-image
/// path splits images across threads from there).
pub(super) const SMALL_MACS: usize = 1 << 16;

/// Elements of the column matrices a recorded small convolution keeps for its
/// backward at most (16 MiB of `f32`); above, the backward computes them again.
pub(super) const KEEP_LIMIT: usize = 1 << 22;

/// The geometry of a call, as `mod.rs` validated it.
pub(super) struct Small {
    pub n: usize,
    pub cin: usize,
    pub cout: usize,
    pub groups: usize,
    pub cols: Cols,
}

/// `conv2d` of `x` (4-d, any strides) by `weight` (`[C_out, C_in_g, kH, kW]`) plus
/// `bias`, output contiguous `[N, C_out, oh, ow]`.
///
/// With `keep`, the column matrices of every batch and group are left there (a
/// `Vec<T>`: batch after batch, group after group, each `[K, b·P]` row-major) for the
/// weight's gradient, unless they would exceed [`KEEP_LIMIT`] elements.
pub(super) fn conv_small<T: Gemm>(
    x: &Tensor,
    weight: &Tensor,
    bias: Option<&Tensor>,
    g: &Small,
    keep: Option<&Cell<Option<Kept>>>,
) -> Result<Tensor> {
    let cols = &g.cols;
    let coutg = g.cout / g.groups;
    let (kk, p) = (cols.rows(), cols.positions());
    let w = weight.to_vec::<T>()?; // [C_out, K] row-major
    let bias = bias.map(|b| b.to_vec::<T>()).transpose()?;
    let sizes = [g.n, g.cout, cols.oh, cols.ow];
    let strides = strides_for_format(&sizes, MemoryFormat::Contiguous)?;
    let batch = cols.batch(coutg, g.n);
    let all = g.groups.saturating_mul(kk).saturating_mul(g.n * p);
    let keep = keep.filter(|_| all <= KEEP_LIMIT);
    let mut col = try_vec(if keep.is_some() { all } else { kk * batch * p }, T::ZERO)?;
    let mut pad = try_vec(batch * cols.padded_len(), T::ZERO)?;
    let mut prod = try_vec(coutg * batch * p, T::ZERO)?;
    let xs = x.strides();
    let buf = x.storage().read();
    let src = Images {
        data: buf.as_slice::<T>(),
        offset: x.storage_offset(),
        st: [xs[0], xs[1], xs[2], xs[3]],
    };
    let fill = |out: &mut [std::mem::MaybeUninit<T>]| {
        let mut n0 = 0;
        while n0 < g.n {
            let b = batch.min(g.n - n0);
            let ld = b * p;
            for gi in 0..g.groups {
                let c0 = gi * (g.cin / g.groups);
                pad_images(&src, cols, n0, b, c0, &mut pad);
                // Kept matrices lie where the backward reads them (`kept_at`).
                let at = if keep.is_some() {
                    kept_at(n0, b, gi, g.groups, kk * p)
                } else {
                    0
                };
                let col = &mut col[at..at + kk * ld];
                im2col(&pad, cols, b, col);
                let prod = &mut prod[..coutg * ld];
                let beta = match &bias {
                    Some(bv) => {
                        for (co, row) in prod.chunks_exact_mut(ld).enumerate() {
                            row.fill(bv[gi * coutg + co]);
                        }
                        T::ONE
                    }
                    None => T::ZERO,
                };
                if kk > 0 {
                    // SAFETY: W_g is coutg×kk (row stride kk) inside `w` from row
                    // gi·coutg, col is kk×ld (row stride ld) inside its kk·ld
                    // elements, prod is coutg×ld, initialised when beta is 1,
                    // distinct from both.
                    unsafe {
                        T::gemm(
                            coutg,
                            kk,
                            ld,
                            (w[gi * coutg * kk..].as_ptr(), kk as isize, 1),
                            (col.as_ptr(), ld as isize, 1),
                            beta,
                            (prod.as_mut_ptr(), ld as isize, 1),
                        );
                    }
                } else if beta == T::ZERO {
                    prod.fill(T::ZERO);
                }
                for (co, row) in prod.chunks_exact(ld).enumerate() {
                    for (j, block) in row.chunks_exact(p).enumerate() {
                        let at = ((n0 + j) * g.cout + gi * coutg + co) * p;
                        for (slot, &v) in out[at..at + p].iter_mut().zip(block) {
                            slot.write(v);
                        }
                    }
                }
            }
            n0 += b;
        }
        Ok(())
    };
    // SAFETY: for every batch of images and every group, each of the group's
    // `C_out_g` rows of each image (`P` slots) is written from `prod`: the images,
    // groups and channels tile the output.
    let out = unsafe { fresh_output::<T>(&sizes, &strides, fill) }?;
    if let Some(keep) = keep {
        keep.set(Some(Box::new(col)));
    }
    Ok(out)
}
