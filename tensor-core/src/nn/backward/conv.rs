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

/// im2col of image `n`, channels `[c0, c0 + C_in_g)`: `col[K, P]` row-major.
fn im2col<A: Real>(x: &[A], g: &Geo, n: usize, c0: usize, col: &mut [A]) {
    let (cing, p) = (g.cin / g.groups, g.oh * g.ow);
    for c in 0..cing {
        let plane = &x[((n * g.cin) + c0 + c) * g.h * g.w..][..g.h * g.w];
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

/// col2im of image `n`, channels `[c0, c0 + C_in_g)`: adds `col[K, P]` into `dx`.
fn col2im<A: Real>(col: &[A], g: &Geo, n: usize, c0: usize, dx: &mut [A]) {
    let (cing, p) = (g.cin / g.groups, g.oh * g.ow);
    for c in 0..cing {
        let plane = &mut dx[((n * g.cin) + c0 + c) * g.h * g.w..][..g.h * g.w];
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

fn run<A: Real + Gemm>(
    grad: &Tensor,
    input: &Tensor,
    weight: &Tensor,
    g: &Geo,
    mask: ConvMask,
) -> Result<RawGrads<A>> {
    let dy = load::<A>(grad)?;
    let (cing, coutg) = (g.cin / g.groups, g.cout / g.groups);
    let (kk, p) = (cing * g.kh * g.kw, g.oh * g.ow);
    let x = if mask[1] {
        load::<A>(input)?
    } else {
        Vec::new()
    };
    let w = if mask[0] {
        load::<A>(weight)?
    } else {
        Vec::new()
    };
    let mut dx = mask[0].then(|| vec![A::zero(); g.n * g.cin * g.h * g.w]);
    let mut dw = mask[1].then(|| vec![A::zero(); g.cout * kk]);
    let mut col = vec![A::zero(); kk * p];
    if p > 0 && kk > 0 {
        for n in 0..g.n {
            for gi in 0..g.groups {
                let dy_ng = &dy[(n * g.cout + gi * coutg) * p..][..coutg * p];
                if let Some(dw) = dw.as_mut() {
                    im2col(&x, g, n, gi * cing, &mut col);
                    let dw_g = &mut dw[gi * coutg * kk..][..coutg * kk];
                    // SAFETY: dy_ng is coutg×p (row stride p), col read as its transpose
                    // p×kk (strides 1, p) inside its kk·p elements, dw_g is coutg×kk
                    // (row stride kk), initialised (beta = 1), distinct from both.
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
                if let Some(dx) = dx.as_mut() {
                    let w_g = &w[gi * coutg * kk..][..coutg * kk];
                    // SAFETY: w_g read as its transpose kk×coutg (strides 1, kk) inside
                    // its coutg·kk elements, dy_ng is coutg×p, col is kk×p (row stride
                    // p), written whole (beta = 0), distinct from both.
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
                    col2im(&col, g, n, gi * cing, dx);
                }
            }
        }
    }
    let db = mask[2].then(|| {
        let mut db = vec![A::zero(); g.cout];
        for n in 0..g.n {
            for (c, b) in db.iter_mut().enumerate() {
                let s = dy[(n * g.cout + c) * p..][..p]
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
