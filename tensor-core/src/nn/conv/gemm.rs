//! The general path of `conv2d` for `f32`/`f64` (and `f16`/`bf16` through `f32`):
//! im2col + GEMM image by image, images split across threads (the layouts are in
//! `mod.rs`'s docs). It serves every geometry and memory format the other paths do not.

use std::mem::MaybeUninit;

use super::geometry::{gather, in_coord, run_images, strides4, Gemm, Geo, Src};
use crate::alloc::try_vec;
use crate::element::Element;
use crate::error::Result;
use crate::tensor::Tensor;

/// im2col for a contiguous output: `col[K, P]` row-major, `K = (c, ki, kj)` over the
/// group's channels.
fn im2col_nchw<T: Element>(src: &Src<'_, T>, g: &Geo, n: usize, c0: usize, col: &mut [T]) {
    let (cing, p) = (g.cin / g.groups, g.oh * g.ow);
    for c in 0..cing {
        for ki in 0..g.kh {
            for kj in 0..g.kw {
                let row = ((c * g.kh + ki) * g.kw + kj) * p;
                im2col_row(src, g, n, c0 + c, ki, kj, &mut col[row..row + p]);
            }
        }
    }
}

/// One row of the im2col matrix: for every output pixel `(oy, ox)` (row-major, `dst`
/// holds `oh·ow` values), the input value of channel `c` under kernel tap `(ki, kj)`,
/// or zero in the padding.
fn im2col_row<T: Element>(
    src: &Src<'_, T>,
    g: &Geo,
    n: usize,
    c: usize,
    ki: usize,
    kj: usize,
    dst: &mut [T],
) {
    // The output columns whose input column is inside the image.
    let (lo, hi) = valid_range(kj, g.s.1, g.p.1, g.d.1, g.w, g.ow);
    for oy in 0..g.oh {
        let out = &mut dst[oy * g.ow..(oy + 1) * g.ow];
        match in_coord(oy, ki, g.s.0, g.p.0, g.d.0, g.h) {
            None => out.fill(T::ZERO),
            Some(iy) => {
                out[..lo].fill(T::ZERO);
                out[hi..].fill(T::ZERO);
                if lo < hi {
                    // Input column of output column `lo`, then every s.1-th.
                    let ix0 = lo * g.s.1 + kj * g.d.1 - g.p.1;
                    let first = src.index(n, c, iy, ix0);
                    let span = &mut out[lo..hi];
                    if src.st[3] == 1 && g.s.1 == 1 {
                        gather(span, &src.data[first..], 1);
                    } else {
                        let step = g.s.1 as isize * src.st[3];
                        for (k, v) in span.iter_mut().enumerate() {
                            *v = src.data[(first as isize + k as isize * step) as usize];
                        }
                    }
                }
            }
        }
    }
}

/// The output columns `[lo, hi)` of kernel column `k` whose input column
/// `o·s + k·d - p` lies in `[0, size)` (the others read the zero padding): exactly the
/// `o < out` for which [`in_coord`] is `Some`.
#[cfg_attr(unoptimized, inline)]
pub(super) fn valid_range(
    k: usize,
    s: usize,
    p: usize,
    d: usize,
    size: usize,
    out: usize,
) -> (usize, usize) {
    let kd = k * d;
    let lo = if kd >= p { 0 } else { (p - kd).div_ceil(s) };
    let hi = if size + p > kd {
        (size + p - kd).div_ceil(s).min(out)
    } else {
        0
    };
    (lo.min(hi), hi)
}

/// im2col for a channels_last output: `col[P, K]` row-major, `K = (ki, kj, c)`.
fn im2col_nhwc<T: Element>(src: &Src<'_, T>, g: &Geo, n: usize, c0: usize, col: &mut [T]) {
    let cing = g.cin / g.groups;
    let kk = g.kh * g.kw * cing;
    for oy in 0..g.oh {
        for ox in 0..g.ow {
            let row = &mut col[(oy * g.ow + ox) * kk..(oy * g.ow + ox + 1) * kk];
            for ki in 0..g.kh {
                let iy = in_coord(oy, ki, g.s.0, g.p.0, g.d.0, g.h);
                for kj in 0..g.kw {
                    let dst = &mut row[(ki * g.kw + kj) * cing..(ki * g.kw + kj + 1) * cing];
                    let ix = in_coord(ox, kj, g.s.1, g.p.1, g.d.1, g.w);
                    match (iy, ix) {
                        (Some(iy), Some(ix)) => {
                            for (c, v) in dst.iter_mut().enumerate() {
                                *v = src.at(n, c0 + c, iy, ix);
                            }
                        }
                        _ => dst.fill(T::ZERO),
                    }
                }
            }
        }
    }
}

/// im2col + GEMM for `f32`/`f64`; output `[N, C_out, oh, ow]`, channels_last if `cl`.
pub(super) fn conv_gemm<T: Gemm>(
    x: &Tensor,
    weight: &Tensor,
    bias: Option<&Tensor>,
    g: &Geo,
    cl: bool,
) -> Result<Tensor> {
    let (cing, coutg) = (g.cin / g.groups, g.cout / g.groups);
    let kk = cing * g.kh * g.kw;
    let p = g.oh * g.ow;
    // Packed weights `[C_out, K]`, K in the order of the im2col that will meet them.
    let wlog = weight.to_vec::<T>()?; // [C_out, C_in_g, kH, kW] row-major
    let wpack = if cl {
        let mut v = try_vec(wlog.len(), T::ZERO)?;
        for co in 0..g.cout {
            for c in 0..cing {
                for t in 0..g.kh * g.kw {
                    v[co * kk + t * cing + c] = wlog[(co * cing + c) * g.kh * g.kw + t];
                }
            }
        }
        v
    } else {
        wlog
    };
    let bias = bias.map(|b| b.to_vec::<T>()).transpose()?;
    let direct = reads_in_place(x, g);
    let st = strides4(x);
    let buf = x.storage().read();
    let src = Src {
        data: buf.as_slice::<T>(),
        offset: x.storage_offset(),
        st,
    };
    // One image: `out` is its output block (C_out·P slots), `col` an im2col buffer.
    let image = |n: usize, out: &mut [MaybeUninit<T>], col: &mut [T]| {
        let beta = match &bias {
            Some(b) => {
                for (i, slot) in out.iter_mut().enumerate() {
                    slot.write(b[if cl { i % g.cout } else { i / p }]);
                }
                T::ONE
            }
            None => T::ZERO,
        };
        if kk == 0 {
            if beta == T::ZERO {
                out.iter_mut().for_each(|s| {
                    s.write(T::ZERO);
                });
            }
            return;
        }
        let c = out.as_mut_ptr().cast::<T>();
        for gi in 0..g.groups {
            let (c0, w0) = (gi * cing, gi * coutg * kk);
            let cols_op: (*const T, [isize; 2]) = if direct {
                let base =
                    (src.offset as isize + n as isize * st[0] + c0 as isize * st[1]) as usize;
                // SAFETY-relevant bounds: every (c, p) read is an element of `x`.
                (src.data[base..].as_ptr(), [st[1], st[3]])
            } else if cl {
                im2col_nhwc(&src, g, n, c0, col);
                (col.as_ptr(), [kk as isize, 1])
            } else {
                im2col_nchw(&src, g, n, c0, col);
                (col.as_ptr(), [p as isize, 1])
            };
            let w = wpack[w0..].as_ptr();
            // SAFETY: A/B stay in `wpack` (rows w0.., coutg·kk), the im2col buffer
            // (kk·p) or, for `direct`, `x`'s own elements (c < cing, p < h·w); C is this
            // image's C_out·P block (written at beta 0, initialised above at beta 1),
            // distinct under its strides (cols < P or < C_out); nothing aliases C (the
            // output is a fresh storage).
            unsafe {
                if cl {
                    // out[P, Cout_g] = col[P, K] · W_gᵀ[K, Cout_g]
                    // col[P, K]: row stride first (st[3], st[1] when read in place).
                    let a = if direct {
                        (cols_op.0, cols_op.1[1], cols_op.1[0])
                    } else {
                        (cols_op.0, cols_op.1[0], cols_op.1[1])
                    };
                    T::gemm(
                        p,
                        kk,
                        coutg,
                        a,
                        (w, 1, kk as isize),
                        beta,
                        (c.add(gi * coutg), g.cout as isize, 1),
                    );
                } else {
                    // out[Cout_g, P] = W_g[Cout_g, K] · col[K, P]
                    let b = (cols_op.0, cols_op.1[0], cols_op.1[1]);
                    T::gemm(
                        coutg,
                        kk,
                        p,
                        (w, kk as isize, 1),
                        b,
                        beta,
                        (c.add(gi * coutg * p), p as isize, 1),
                    );
                }
            }
        }
    };
    // One im2col buffer per thread (a 1-element stand-in when none is needed).
    let col_len = if direct || kk == 0 { 1 } else { kk * p };
    // SAFETY: every image block is fully written: with a bias by the prefill loop, else
    // by the GEMMs (beta 0), whose C matrices over the groups cover the block (or by the
    // zero fill when K = 0).
    unsafe { run_images(g, cl, col_len, kk, image) }
}

/// Whether the input is its own im2col matrix: a 1×1 kernel, stride 1, no padding, over
/// rows laid end to end (`K = c`, `P = y·w + x` with stride `st[3]`).
#[cfg_attr(unoptimized, inline)]
pub(super) fn reads_in_place(x: &Tensor, g: &Geo) -> bool {
    let st = strides4(x);
    g.kh == 1
        && g.kw == 1
        && g.s == (1, 1)
        && g.p == (0, 0)
        && (g.h == 1 || st[2] == g.w as isize * st[3])
}
