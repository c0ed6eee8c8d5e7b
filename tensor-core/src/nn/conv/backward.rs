//! Backward of `F.conv2d` (PyTorch's `convolution_backward`), batch of images by batch
//! of images and group by group, with the forward's im2col layout (`K = (c, ki, kj)`,
//! columns `(image, oy, ox)`: `cols.rs`) and the packing GEMM:
//!
//! - `d col[K, b·P] = W_gᵀ[K, C_out_g] · dy[C_out_g, b·P]`, then col2im adds each
//!   column entry into the (padded) input position it was read from;
//! - `d W_g[C_out_g, K] += dy[C_out_g, b·P] · colᵀ[b·P, K]`;
//! - `d bias[c] = Σ_{n, P} dy[n, c, P]`.
//!
//! `f16`/`bf16` compute in `f32` and round once.

use super::cols::{col2im, im2col, kept_at, pad_images, unpad_images, Images, Kept};
use super::geometry::{Cols, ConvParams, Gemm};
use crate::error::Result;
use crate::kernels::acc::{dispatch_float, Acc, FloatAcc};
use crate::nn::backward::common::{load, store};
use crate::parallel;
use crate::tensor::Tensor;
use rayon::prelude::*;

/// Which gradients of a conv2d are wanted: input, weight, bias.
pub(crate) type ConvMask = [bool; 3];

/// The gradients of a conv2d: input, weight, bias (each when asked for).
pub(crate) type ConvGrads = (Option<Tensor>, Option<Tensor>, Option<Tensor>);

/// The gradients as row-major values: input, weight, bias.
type RawGrads<A> = (Option<Vec<A>>, Option<Vec<A>>, Option<Vec<A>>);

/// Geometry of one call, from the (4-d) sizes.
struct Geo {
    n: usize,
    cin: usize,
    h: usize,
    w: usize,
    cout: usize,
    kh: usize,
    kw: usize,
    oh: usize,
    ow: usize,
    s: [usize; 2],
    p: [usize; 2],
    d: [usize; 2],
    groups: usize,
}

/// The values a run reads: the output's gradient, the input, the weight (row-major),
/// and the forward's column matrices when it kept them (`small.rs`).
struct Data<'a, A> {
    dy: Vec<A>,
    x: Vec<A>,
    w: Vec<A>,
    kept: Option<&'a [A]>,
}

/// Multiply-adds per thread below which the images are not split across threads
/// (as the small matmul kernel's grain).
const GRAIN: usize = 256 * 1024;

/// Images `[first, first + count)`, in batches of `batch` images (`first` a multiple
/// of it: the forward's batches), one GEMM per batch and group for each gradient: adds
/// their weight gradient into `dw` (when not empty) and writes their input gradient
/// into `dx` (when given: their `[count, C_in, H, W]` values).
#[allow(clippy::too_many_arguments)]
fn images<A: Acc + Gemm>(
    d: &Data<'_, A>,
    g: &Geo,
    cols: &Cols,
    batch: usize,
    first: usize,
    count: usize,
    mut dx: Option<&mut [A]>,
    dw: &mut [A],
) {
    let (cing, coutg) = (g.cin / g.groups, g.cout / g.groups);
    let (kk, p) = (cols.rows(), cols.positions());
    let img = g.cin * g.h * g.w;
    let mut col = vec![A::zero(); kk * batch * p];
    let mut dy_t = vec![A::zero(); coutg * batch * p];
    let mut pad = vec![A::zero(); batch * cols.padded_len()];
    let src = Images {
        data: &d.x[..],
        offset: 0,
        st: [img as isize, (g.h * g.w) as isize, g.w as isize, 1],
    };
    let mut n0 = first;
    while n0 < first + count {
        let b = batch.min(first + count - n0);
        let ld = b * p;
        for gi in 0..g.groups {
            // dy of this group as `[C_out_g, b·P]`: one row per channel, images side
            // by side.
            for (co, row) in dy_t[..coutg * ld].chunks_exact_mut(ld).enumerate() {
                for (j, block) in row.chunks_exact_mut(p).enumerate() {
                    block.copy_from_slice(&d.dy[((n0 + j) * g.cout + gi * coutg + co) * p..][..p]);
                }
            }
            if !dw.is_empty() {
                let col: &[A] = match d.kept {
                    Some(kept) => &kept[kept_at(n0, b, gi, g.groups, kk * p)..][..kk * ld],
                    None => {
                        pad_images(&src, cols, n0, b, gi * cing, &mut pad);
                        im2col(&pad, cols, b, &mut col);
                        &col
                    }
                };
                let dw_g = &mut dw[gi * coutg * kk..][..coutg * kk];
                // SAFETY: dy_t is coutg×ld (row stride ld) inside its coutg·ld
                // elements, col read as its transpose ld×kk (strides 1, ld) inside its
                // kk·ld elements, dw_g is coutg×kk (row stride kk), initialised
                // (beta = 1), distinct from both.
                unsafe {
                    A::gemm(
                        coutg,
                        ld,
                        kk,
                        (dy_t.as_ptr(), ld as isize, 1),
                        (col.as_ptr(), 1, ld as isize),
                        A::one(),
                        (dw_g.as_mut_ptr(), kk as isize, 1),
                    );
                }
            }
            if let Some(dx) = dx.as_deref_mut() {
                let w_g = &d.w[gi * coutg * kk..][..coutg * kk];
                // SAFETY: w_g read as its transpose kk×coutg (strides 1, kk) inside its
                // coutg·kk elements, dy_t is coutg×ld, col is kk×ld (row stride ld)
                // inside its kk·batch·P elements, written whole (beta = 0), distinct
                // from both.
                unsafe {
                    A::gemm(
                        kk,
                        coutg,
                        ld,
                        (w_g.as_ptr(), 1, kk as isize),
                        (dy_t.as_ptr(), ld as isize, 1),
                        A::zero(),
                        (col.as_mut_ptr(), ld as isize, 1),
                    );
                }
                let pad = &mut pad[..b * cols.padded_len()];
                pad.fill(A::zero());
                col2im(&col, cols, b, pad);
                let out = &mut dx[(n0 - first) * img..][..b * img];
                unpad_images(pad, cols, b, g.cin, gi * cing, out);
            }
        }
        n0 += b;
    }
}

fn run<A: Acc + Gemm>(
    grad: &Tensor,
    input: &Tensor,
    weight: &Tensor,
    g: &Geo,
    mask: ConvMask,
    kept: Option<&Kept>,
) -> Result<RawGrads<A>> {
    let cols = Cols {
        cing: g.cin / g.groups,
        h: g.h,
        w: g.w,
        p: g.p,
        k: [g.kh, g.kw],
        s: g.s,
        d: g.d,
        oh: g.oh,
        ow: g.ow,
    };
    let (kk, p) = (cols.rows(), cols.positions());
    let img = g.cin * g.h * g.w;
    // The forward's column matrices, when it kept them for this dtype and geometry.
    let kept = kept
        .and_then(|c| c.downcast_ref::<Vec<A>>())
        .filter(|c| mask[1] && c.len() == g.groups * kk * g.n * p)
        .map(Vec::as_slice);
    let d = Data {
        dy: load::<A>(grad)?,
        x: if mask[1] && kept.is_none() {
            load::<A>(input)?
        } else {
            Vec::new()
        },
        w: if mask[0] {
            load::<A>(weight)?
        } else {
            Vec::new()
        },
        kept,
    };
    let mut dx = mask[0].then(|| vec![A::zero(); g.n * img]);
    let mut dw = mask[1].then(|| vec![A::zero(); g.cout * kk]);
    if p > 0 && kk > 0 && img > 0 && g.n > 0 && (mask[0] || mask[1]) {
        // Images split across threads, each chunk with its own buffers and
        // weight-gradient partial, summed in chunk order.
        let gemms = usize::from(mask[0]) + usize::from(mask[1]);
        let macs = g.n * g.cout * p * kk * gemms;
        // The forward's batches of images, whole in each chunk.
        let batch = cols.batch(g.cout / g.groups, g.n);
        let batches = g.n.div_ceil(batch);
        let chunks = parallel::chunks_for(macs, GRAIN).min(batches);
        let per = batches.div_ceil(chunks) * batch;
        let dw_len = if mask[1] { g.cout * kk } else { 0 };
        let mut jobs: Vec<(Vec<A>, Option<&mut [A]>)> = match dx.as_mut() {
            Some(dx) => dx
                .chunks_mut(per * img)
                .map(|c| (vec![A::zero(); dw_len], Some(c)))
                .collect(),
            None => (0..g.n.div_ceil(per))
                .map(|_| (vec![A::zero(); dw_len], None))
                .collect(),
        };
        // Each job is a whole run of images with its own weight-gradient partial: one
        // job runs on the calling thread, several are rayon's parallel iterator.
        let run = |c: usize, (part, dxc): &mut (Vec<A>, Option<&mut [A]>)| {
            let first = c * per;
            images(
                &d,
                g,
                &cols,
                batch,
                first,
                per.min(g.n - first),
                dxc.as_deref_mut(),
                part,
            );
        };
        if let [job] = jobs.as_mut_slice() {
            run(0, job);
        } else {
            jobs.par_iter_mut()
                .enumerate()
                .for_each(|(c, job)| run(c, job));
        }
        if let Some(dw) = dw.as_mut() {
            for (part, _) in &jobs {
                for (a, &b) in dw.iter_mut().zip(part) {
                    *a = *a + b;
                }
            }
        }
    }
    let db = mask[2].then(|| {
        let mut db = vec![A::zero(); g.cout];
        for n in 0..g.n {
            for (c, b) in db.iter_mut().enumerate() {
                let s = d.dy[(n * g.cout + c) * p..][..p]
                    .iter()
                    .fold(A::zero(), |a, &v| a + v);
                *b = *b + s;
            }
        }
        db
    });
    Ok((dx, dw, db))
}

/// The gradients of `F.conv2d(input, weight, bias, stride, padding, dilation, groups)`
/// given the gradient `grad` of its output: `(d input, d weight, d bias)`, each computed
/// when `mask` asks for it (`d bias` has `C_out` elements and `grad`'s dtype).
/// Contiguous, in the input's / weight's dtype. `input` may be unbatched (3-d).
///
/// # Errors
/// A non-float dtype; allocation errors.
#[cfg(test)]
pub(crate) fn conv2d_backward(
    grad: &Tensor,
    input: &Tensor,
    weight: &Tensor,
    params: &ConvParams,
    mask: ConvMask,
) -> Result<ConvGrads> {
    conv2d_backward_cols(grad, input, weight, params, mask, None)
}

/// [`conv2d_backward`] given the column matrices
/// the forward of a small convolution kept (`small.rs`), which the weight's
/// gradient then reads instead of computing them again.
///
/// # Errors
/// As [`conv2d_backward`].
#[cfg_attr(unoptimized, inline)]
pub(crate) fn conv2d_backward_cols(
    grad: &Tensor,
    input: &Tensor,
    weight: &Tensor,
    params: &ConvParams,
    mask: ConvMask,
    kept: Option<&Kept>,
) -> Result<ConvGrads> {
    let ConvParams {
        stride,
        padding,
        dilation,
        groups,
    } = *params;
    let batched = input.dim() == 4;
    let (x4, g4) = if batched {
        (input.alias(), grad.alias())
    } else {
        (input.unsqueeze(0)?, grad.unsqueeze(0)?)
    };
    let (xs, ws, gs) = (x4.sizes(), weight.sizes(), g4.sizes());
    let geo = Geo {
        n: xs[0],
        cin: xs[1],
        h: xs[2],
        w: xs[3],
        cout: ws[0],
        kh: ws[2],
        kw: ws[3],
        oh: gs[2],
        ow: gs[3],
        s: stride,
        p: padding,
        d: dilation,
        groups,
    };
    let (dx, dw, db) = dispatch_float!(
        input.dtype(),
        "convolution_backward",
        T,
        run::<<T as FloatAcc>::A>(&g4, &x4, weight, &geo, mask, kept).and_then(|(dx, dw, db)| {
            Ok((
                dx.map(|v| store(v, input.sizes(), input.dtype()))
                    .transpose()?,
                dw.map(|v| store(v, weight.sizes(), weight.dtype()))
                    .transpose()?,
                db.map(|v| store(v, &[geo.cout], grad.dtype()))
                    .transpose()?,
            ))
        })
    )?;
    Ok((dx, dw, db))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(n: usize, seed: usize) -> Vec<f64> {
        (0..n)
            .map(|i| (((i * 7 + seed * 3) % 23) as f64 - 11.0) / 8.0)
            .collect()
    }

    /// Images split across threads give the sums of the images taken one at a time.
    #[test]
    fn conv2d_backward_threads_match_image_by_image() {
        let x = Tensor::from_vec(values(4 * 4 * 8 * 8, 0), &[4, 4, 8, 8]).unwrap();
        let w = Tensor::from_vec(values(8 * 4 * 3 * 3, 1), &[8, 4, 3, 3]).unwrap();
        let g = Tensor::from_vec(values(4 * 8 * 6 * 6, 2), &[4, 8, 6, 6]).unwrap();
        let params = ConvParams::default();
        let all = [true; 3];
        let (dx, dw, db) = conv2d_backward(&g, &x, &w, &params, all).unwrap();
        let mut dw_sum = vec![0.0; 8 * 4 * 9];
        let mut db_sum = vec![0.0; 8];
        let mut dx_all = Vec::new();
        for n in 0..4 {
            let (xn, gn) = (x.select(0, n).unwrap(), g.select(0, n).unwrap());
            let (a, b, c) = conv2d_backward(&gn, &xn, &w, &params, all).unwrap();
            dx_all.extend(a.unwrap().to_vec::<f64>().unwrap());
            for (acc, v) in dw_sum.iter_mut().zip(b.unwrap().to_vec::<f64>().unwrap()) {
                *acc += v;
            }
            for (acc, v) in db_sum.iter_mut().zip(c.unwrap().to_vec::<f64>().unwrap()) {
                *acc += v;
            }
        }
        assert_eq!(dx.unwrap().to_vec::<f64>().unwrap(), dx_all);
        let close = |a: Vec<f64>, b: Vec<f64>| {
            for (x, y) in a.iter().zip(&b) {
                assert!((x - y).abs() <= 1e-12 * y.abs().max(1.0), "{x} vs {y}");
            }
        };
        close(dw.unwrap().to_vec::<f64>().unwrap(), dw_sum);
        close(db.unwrap().to_vec::<f64>().unwrap(), db_sum);
    }
}
