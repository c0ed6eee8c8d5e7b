//! Backward of `F.conv2d` (PyTorch's `convolution_backward`), image by image and group
//! by group, with the forward's im2col layout (`K = (c, ki, kj)`, `P = (oy, ox)`) and
//! `matrixmultiply`'s GEMM:
//!
//! - `d col[K, P] = W_gᵀ[K, C_out_g] · dy[C_out_g, P]`, then col2im adds each column
//!   entry into the input position it was read from (padding positions dropped);
//! - `d W_g[C_out_g, K] += dy[C_out_g, P] · colᵀ[P, K]`;
//! - `d bias[c] = Σ_{n, P} dy[n, c, P]`.
//!
//! `f16`/`bf16` compute in `f32` and round once.

use rayon::prelude::*;

use super::super::conv::Gemm;
use super::common::{dispatch_acc, load, store, Real};
use crate::error::Result;
use crate::Tensor;

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

/// The input coordinate read by output `o` at kernel offset `k`, `None` in padding.
#[inline(always)]
fn in_coord(o: usize, k: usize, s: usize, p: usize, d: usize, size: usize) -> Option<usize> {
    (o * s + k * d).checked_sub(p).filter(|&i| i < size)
}

/// im2col of one image (`x`: its `[C_in, H, W]` values), channels `[c0, c0 + C_in_g)`:
/// `col[K, P]` row-major.
fn im2col<A: Real>(x: &[A], g: &Geo, c0: usize, col: &mut [A]) {
    let (cing, p) = (g.cin / g.groups, g.oh * g.ow);
    for c in 0..cing {
        let plane = &x[(c0 + c) * g.h * g.w..][..g.h * g.w];
        for ki in 0..g.kh {
            for kj in 0..g.kw {
                let row = &mut col[((c * g.kh + ki) * g.kw + kj) * p..][..p];
                for oy in 0..g.oh {
                    let iy = in_coord(oy, ki, g.s[0], g.p[0], g.d[0], g.h);
                    for ox in 0..g.ow {
                        let ix = in_coord(ox, kj, g.s[1], g.p[1], g.d[1], g.w);
                        row[oy * g.ow + ox] = match (iy, ix) {
                            (Some(iy), Some(ix)) => plane[iy * g.w + ix],
                            _ => A::zero(),
                        };
                    }
                }
            }
        }
    }
}

/// col2im of one image (`dx`: its `[C_in, H, W]` gradient), channels
/// `[c0, c0 + C_in_g)`: adds `col[K, P]` into `dx`.
fn col2im<A: Real>(col: &[A], g: &Geo, c0: usize, dx: &mut [A]) {
    let (cing, p) = (g.cin / g.groups, g.oh * g.ow);
    for c in 0..cing {
        let plane = &mut dx[(c0 + c) * g.h * g.w..][..g.h * g.w];
        for ki in 0..g.kh {
            for kj in 0..g.kw {
                let row = &col[((c * g.kh + ki) * g.kw + kj) * p..][..p];
                for oy in 0..g.oh {
                    let Some(iy) = in_coord(oy, ki, g.s[0], g.p[0], g.d[0], g.h) else {
                        continue;
                    };
                    for ox in 0..g.ow {
                        if let Some(ix) = in_coord(ox, kj, g.s[1], g.p[1], g.d[1], g.w) {
                            let at = iy * g.w + ix;
                            plane[at] = plane[at] + row[oy * g.ow + ox];
                        }
                    }
                }
            }
        }
    }
}

/// The values a run reads: the output's gradient, the input, the weight (row-major).
struct Data<A> {
    dy: Vec<A>,
    x: Vec<A>,
    w: Vec<A>,
}

/// Images `[first, first + count)`: adds their weight gradient into `dw` (when not
/// empty) and writes their input gradient into `dx` (when given: their `[count, C_in,
/// H, W]` values).
fn images<A: Real + Gemm>(
    d: &Data<A>,
    g: &Geo,
    first: usize,
    count: usize,
    mut dx: Option<&mut [A]>,
    dw: &mut [A],
) {
    let (cing, coutg) = (g.cin / g.groups, g.cout / g.groups);
    let (kk, p) = (cing * g.kh * g.kw, g.oh * g.ow);
    let img = g.cin * g.h * g.w;
    let mut col = vec![A::zero(); kk * p];
    for i in 0..count {
        let n = first + i;
        for gi in 0..g.groups {
            let dy_ng = &d.dy[(n * g.cout + gi * coutg) * p..][..coutg * p];
            if !dw.is_empty() {
                im2col(&d.x[n * img..][..img], g, gi * cing, &mut col);
                let dw_g = &mut dw[gi * coutg * kk..][..coutg * kk];
                // SAFETY: dy_ng is coutg×p (row stride p), col read as its transpose
                // p×kk (strides 1, p) inside its kk·p elements, dw_g is coutg×kk (row
                // stride kk), initialised (beta = 1), distinct from both.
                unsafe {
                    A::gemm(
                        coutg,
                        p,
                        kk,
                        (dy_ng.as_ptr(), p as isize, 1),
                        (col.as_ptr(), 1, p as isize),
                        A::one(),
                        (dw_g.as_mut_ptr(), kk as isize, 1),
                    );
                }
            }
            if let Some(dx) = dx.as_deref_mut() {
                let w_g = &d.w[gi * coutg * kk..][..coutg * kk];
                // SAFETY: w_g read as its transpose kk×coutg (strides 1, kk) inside its
                // coutg·kk elements, dy_ng is coutg×p, col is kk×p (row stride p),
                // written whole (beta = 0), distinct from both.
                unsafe {
                    A::gemm(
                        kk,
                        coutg,
                        p,
                        (w_g.as_ptr(), 1, kk as isize),
                        (dy_ng.as_ptr(), p as isize, 1),
                        A::zero(),
                        (col.as_mut_ptr(), p as isize, 1),
                    );
                }
                col2im(&col, g, gi * cing, &mut dx[i * img..][..img]);
            }
        }
    }
}

fn run<A: Real + Gemm>(
    grad: &Tensor,
    input: &Tensor,
    weight: &Tensor,
    g: &Geo,
    mask: ConvMask,
) -> Result<RawGrads<A>> {
    let (cing, coutg) = (g.cin / g.groups, g.cout / g.groups);
    let (kk, p) = (cing * g.kh * g.kw, g.oh * g.ow);
    let img = g.cin * g.h * g.w;
    let d = Data {
        dy: load::<A>(grad)?,
        x: if mask[1] {
            load::<A>(input)?
        } else {
            Vec::new()
        },
        w: if mask[0] {
            load::<A>(weight)?
        } else {
            Vec::new()
        },
    };
    let mut dx = mask[0].then(|| vec![A::zero(); g.n * img]);
    let mut dw = mask[1].then(|| vec![A::zero(); g.cout * kk]);
    if p > 0 && kk > 0 && img > 0 && g.n > 0 && (mask[0] || mask[1]) {
        // Images split across threads (as the forward), each chunk with its own
        // im2col buffer and weight-gradient partial, summed in chunk order.
        let parallel = g.n > 1
            && g.cout * p * kk * coutg.max(1) >= 1 << 16
            && rayon::current_thread_index().is_none();
        let chunks = if parallel {
            rayon::current_num_threads().min(g.n).max(1)
        } else {
            1
        };
        let per = g.n.div_ceil(chunks);
        let dw_len = if mask[1] { g.cout * kk } else { 0 };
        let work = |c: usize, dxc: Option<&mut [A]>| -> Vec<A> {
            let mut part = vec![A::zero(); dw_len];
            let first = c * per;
            images(&d, g, first, per.min(g.n - first), dxc, &mut part);
            part
        };
        let parts: Vec<Vec<A>> = match dx.as_mut() {
            Some(dx) => dx
                .par_chunks_mut(per * img)
                .enumerate()
                .map(|(c, dxc)| work(c, Some(dxc)))
                .collect(),
            None => (0..g.n.div_ceil(per))
                .into_par_iter()
                .map(|c| work(c, None))
                .collect(),
        };
        if let Some(dw) = dw.as_mut() {
            for part in &parts {
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
#[allow(clippy::too_many_arguments)]
pub(crate) fn conv2d_backward(
    grad: &Tensor,
    input: &Tensor,
    weight: &Tensor,
    stride: [usize; 2],
    padding: [usize; 2],
    dilation: [usize; 2],
    groups: usize,
    mask: ConvMask,
) -> Result<ConvGrads> {
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
    let (dx, dw, db) = dispatch_acc!(
        input.dtype(),
        "convolution_backward",
        A,
        run::<A>(&g4, &x4, weight, &geo, mask).and_then(|(dx, dw, db)| {
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
        let (s, p, d) = ([1, 1], [0, 0], [1, 1]);
        let all = [true; 3];
        let (dx, dw, db) = conv2d_backward(&g, &x, &w, s, p, d, 1, all).unwrap();
        let mut dw_sum = vec![0.0; 8 * 4 * 9];
        let mut db_sum = vec![0.0; 8];
        let mut dx_all = Vec::new();
        for n in 0..4 {
            let (xn, gn) = (x.select(0, n).unwrap(), g.select(0, n).unwrap());
            let (a, b, c) = conv2d_backward(&gn, &xn, &w, s, p, d, 1, all).unwrap();
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
