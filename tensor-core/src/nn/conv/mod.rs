//! `F.conv2d` (Convolution.cpp: `conv2d`, `_convolution`, `check_shape_forward`).
//!
//! f32 and f64 lower to im2col + GEMM (`matrixmultiply`), image by image, images split
//! across rayon threads. For a contiguous (NCHW) output each image and group is
//! `out[Cout_g, P] = W_g[Cout_g, K] · col[K, P]` with `K = (c, ki, kj)` and
//! `P = (oy, ox)`; for a channels_last output it is `out[P, Cout_g] = col[P, K] ·
//! W_gᵀ[K, Cout_g]` with `K = (ki, kj, c)`, so that both the im2col reads and the
//! output writes run along memory. A 1×1 kernel with stride 1 and no padding reads the
//! input in place. f16/bf16 compute in f32 (one rounding at the end); integer dtypes
//! use a direct loop with wrapping arithmetic, as PyTorch's `slow_conv2d`.

use std::cell::Cell;
use std::mem::MaybeUninit;

pub(super) mod backward;
mod cols;
mod int;
mod panel;
mod small;
mod winograd;

use super::backward::node::node;
use crate::alloc::try_vec;
use crate::autograd::{self, SavedTensor};
use crate::error::{list, Error, Result};
use crate::layout::strides_for_format;
use crate::matmul::{row_split, ROW_BLOCK};
use crate::shape_ops::slices::fresh_output;
use crate::{dispatch_dtype, promote_types, DType, Element, MemoryFormat, Tensor};
use cols::{gather, Cols};
use rayon::prelude::*;
use small::{conv_small, Kept, Small, SMALL_MACS};

/// The validated geometry of one call (input batchified to 4-d).
#[derive(Clone, Copy, Debug)]
pub(super) struct Geo {
    pub(super) n: usize,
    pub(super) cin: usize,
    pub(super) h: usize,
    pub(super) w: usize,
    pub(super) cout: usize,
    pub(super) kh: usize,
    pub(super) kw: usize,
    pub(super) s: (usize, usize),
    pub(super) p: (usize, usize),
    pub(super) d: (usize, usize),
    pub(super) oh: usize,
    pub(super) ow: usize,
    pub(super) groups: usize,
}

#[cfg_attr(unoptimized, inline)]
fn conv_error(message: String) -> Error {
    Error::InvalidArgument {
        op: "conv2d",
        message,
    }
}

/// `F.conv2d(input, weight, bias, stride, padding, dilation, groups)`: 2-d convolution
/// (cross-correlation, as PyTorch's).
///
/// - `input`: `[N, C_in, H, W]`, or `[C_in, H, W]` unbatched (then the output has no
///   batch dim either); any strides;
/// - `weight`: `[C_out, C_in / groups, kH, kW]`; `bias`: `[C_out]`, same dtype;
/// - output: `[N, C_out, (H + 2·pH - dH·(kH - 1) - 1) / sH + 1, (W ...) / sW + 1]`,
///   channels_last when the input or the weight suggests channels_last, else
///   contiguous (PyTorch's CPU rule).
///
/// Float dtypes and the integer dtypes (wrapping arithmetic), not bool. An input with a
/// zero batch or zero channels gives an empty output, as PyTorch's `Empty` backend.
///
/// # Errors
/// PyTorch's, in its order: `Input type (float) and bias type (double) should be the
/// same`; `Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of
/// size: [5, 5]`; `weight should have at least three dimensions`; `non-positive groups
/// is not supported`; `expected stride to be a single integer value or a list of 1
/// values to match the convolution dimensions, but got stride=[1, 1]` (a weight that is
/// not 4-d); `non-positive stride is not supported`; `non-positive dilation is not
/// supported`; `Given groups=4, expected weight to be at least 4 at dimension 0, ...`;
/// `... expected weight to be divisible by 4 at dimension 0, ...`; `Given groups=1,
/// weight of size [6, 3, 3, 3], expected input[2, 4, 5, 5] to have 3 channels, but got
/// 4 channels instead`; `Given weight of size [6, 4, 3, 3], expected bias to be
/// 1-dimensional with 6 elements, but got bias of size [5] instead`; `Calculated padded
/// input size per channel: (5 x 5). Kernel size: (6 x 3). Kernel size can't be greater
/// than actual input size`; `Only zero batch or zero channel inputs are supported, but
/// got input shape: [..]`; `Input type (torch.FloatTensor) and weight type
/// (torch.DoubleTensor) should be the same or input should be a MKLDNN tensor and weight
/// is a dense tensor`; `"slow_conv2d_cpu" not implemented for 'Bool'`;
/// [`Error::NumelOverflow`]; [`Error::OutOfMemory`].
#[cfg_attr(unoptimized, inline)]
pub fn conv2d(
    input: &Tensor,
    weight: &Tensor,
    bias: Option<&Tensor>,
    stride: [usize; 2],
    padding: [usize; 2],
    dilation: [usize; 2],
    groups: usize,
) -> Result<Tensor> {
    let mut inputs = vec![input, weight];
    inputs.extend(bias);
    let n_inputs = inputs.len();
    // The column matrix of a small convolution, kept for the weight's gradient when
    // the node is recorded (`conv_small.rs`).
    let cols = Cell::new(None);
    let keep = autograd::needs_grad(&inputs) && weight.requires_grad();
    autograd::apply(
        &inputs,
        || {
            let keep = keep.then_some(&cols);
            conv2d_forward(input, weight, bias, stride, padding, dilation, groups, keep)
        },
        |_| {
            let mask = [
                input.requires_grad(),
                weight.requires_grad(),
                bias.is_some_and(Tensor::requires_grad),
            ];
            let saved = vec![SavedTensor::input(input), SavedTensor::input(weight)];
            let cols = cols.take();
            node("ConvolutionBackward0", saved, n_inputs, move |g, s| {
                let (dx, dw, db) = backward::conv2d_backward_cols(
                    g,
                    &s[0],
                    &s[1],
                    [stride, padding, dilation],
                    groups,
                    mask,
                    cols.as_ref(),
                )?;
                let mut grads = vec![dx, dw];
                if n_inputs == 3 {
                    grads.push(db);
                }
                Ok(grads)
            })
        },
    )
}

/// `cols`: where a small convolution leaves its column matrix (when given).
#[allow(clippy::too_many_arguments)]
#[cfg_attr(unoptimized, inline)]
fn conv2d_forward(
    input: &Tensor,
    weight: &Tensor,
    bias: Option<&Tensor>,
    stride: [usize; 2],
    padding: [usize; 2],
    dilation: [usize; 2],
    groups: usize,
    cols: Option<&Cell<Option<Kept>>>,
) -> Result<Tensor> {
    if let Some(b) = bias {
        if b.dtype() != input.dtype() {
            return Err(conv_error(format!(
                "Input type ({}) and bias type ({}) should be the same",
                input.dtype().type_meta_name(),
                b.dtype().type_meta_name()
            )));
        }
    }
    let batched = match input.dim() {
        4 => true,
        3 => false,
        _ => {
            return Err(conv_error(format!(
            "Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: {}",
            list(input.sizes())
        )))
        }
    };
    let x = if batched {
        input.alias()
    } else {
        input.unsqueeze(0)?
    };
    let out = conv2d_batched(&x, weight, bias, stride, padding, dilation, groups, cols)?;
    if batched {
        Ok(out)
    } else {
        out.squeeze_dim(0)
    }
}

/// Checks of `_convolution` and `check_shape_forward`; returns the geometry.
#[cfg_attr(unoptimized, inline)]
fn check(
    x: &Tensor,
    weight: &Tensor,
    bias: Option<&Tensor>,
    stride: [usize; 2],
    padding: [usize; 2],
    dilation: [usize; 2],
    groups: usize,
) -> Result<Geo> {
    let k = weight.dim();
    if k < 3 {
        return Err(conv_error(
            "weight should have at least three dimensions".into(),
        ));
    }
    if groups == 0 {
        return Err(conv_error("non-positive groups is not supported".into()));
    }
    if k != 4 {
        return Err(conv_error(format!(
            "expected stride to be a single integer value or a list of {} values to match the convolution dimensions, but got stride={}",
            k - 2,
            list(&stride)
        )));
    }
    if stride.contains(&0) {
        return Err(conv_error("non-positive stride is not supported".into()));
    }
    if dilation.contains(&0) {
        return Err(conv_error("non-positive dilation is not supported".into()));
    }
    let ws = weight.sizes();
    if ws[0] < groups {
        return Err(conv_error(format!(
            "Given groups={groups}, expected weight to be at least {groups} at dimension 0, but got weight of size {} instead",
            list(ws)
        )));
    }
    if !ws[0].is_multiple_of(groups) {
        return Err(conv_error(format!(
            "Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, but got weight of size [{}] instead",
            list(ws)
        )));
    }
    let overflow = || Error::NumelOverflow { op: "conv2d" };
    let xs = x.sizes();
    let cin_expected = ws[1].checked_mul(groups).ok_or_else(overflow)?;
    if xs[1] != cin_expected {
        return Err(conv_error(format!(
            "Given groups={groups}, weight of size {}, expected input{} to have {cin_expected} channels, but got {} channels instead",
            list(ws),
            list(xs),
            xs[1]
        )));
    }
    if let Some(b) = bias {
        if b.dim() != 1 || b.sizes()[0] != ws[0] {
            return Err(conv_error(format!(
                "Given weight of size {}, expected bias to be 1-dimensional with {} elements, but got bias of size {} instead",
                list(ws),
                ws[0],
                list(b.sizes())
            )));
        }
    }
    let mut padded = [0usize; 2];
    let mut eff = [0usize; 2];
    for i in 0..2 {
        padded[i] = padding[i]
            .checked_mul(2)
            .and_then(|p| p.checked_add(xs[2 + i]))
            .ok_or_else(overflow)?;
        // dilation · (k - 1) + 1; a kernel of size 0 has effective size 1 - dilation,
        // which is never larger than the input.
        eff[i] = match ws[2 + i] {
            0 => 0,
            kk => dilation[i]
                .checked_mul(kk - 1)
                .and_then(|e| e.checked_add(1))
                .ok_or_else(overflow)?,
        };
    }
    if padded[0] < eff[0] || padded[1] < eff[1] {
        return Err(conv_error(format!(
            "Calculated padded input size per channel: ({} x {}). Kernel size: ({} x {}). Kernel size can't be greater than actual input size",
            padded[0], padded[1], eff[0], eff[1]
        )));
    }
    let out_size = |i: usize| -> usize {
        // With a kernel of size 0 the effective size is 1 - dilation (≤ 0).
        let span = if ws[2 + i] == 0 {
            padded[i].saturating_add(dilation[i] - 1)
        } else {
            padded[i] - eff[i]
        };
        span / stride[i] + 1
    };
    Ok(Geo {
        n: xs[0],
        cin: xs[1],
        h: xs[2],
        w: xs[3],
        cout: ws[0],
        kh: ws[2],
        kw: ws[3],
        s: (stride[0], stride[1]),
        p: (padding[0], padding[1]),
        d: (dilation[0], dilation[1]),
        oh: out_size(0),
        ow: out_size(1),
        groups,
    })
}

#[allow(clippy::too_many_arguments)]
#[cfg_attr(unoptimized, inline)]
fn conv2d_batched(
    x: &Tensor,
    weight: &Tensor,
    bias: Option<&Tensor>,
    stride: [usize; 2],
    padding: [usize; 2],
    dilation: [usize; 2],
    groups: usize,
    cols: Option<&Cell<Option<Kept>>>,
) -> Result<Tensor> {
    let g = check(x, weight, bias, stride, padding, dilation, groups)?;
    if g.n == 0 || g.cin == 0 {
        // PyTorch's `Empty` backend: `input * weight` viewed to the output size (zero
        // channels when the input has none).
        let c = if g.cin == 0 { 0 } else { g.cout };
        return Tensor::empty(
            &[g.n, c, g.oh, g.ow],
            promote_types(x.dtype(), weight.dtype()),
        );
    }
    if x.numel() == 0 {
        return Err(conv_error(format!(
            "Only zero batch or zero channel inputs are supported, but got input shape: {}",
            list(x.sizes())
        )));
    }
    if x.dtype() != weight.dtype() {
        return Err(conv_error(format!(
            "Input type ({}) and weight type ({}) should be the same or input should be a MKLDNN tensor and weight is a dense tensor",
            x.dtype().legacy_type_name(),
            weight.dtype().legacy_type_name()
        )));
    }
    let cl = x.suggest_memory_format(false) == MemoryFormat::ChannelsLast
        || weight.suggest_memory_format(false) == MemoryFormat::ChannelsLast;
    crate::checked_numel(&[g.n, g.cout, g.oh, g.ow], "conv2d")?;
    match x.dtype() {
        DType::Bool => Err(Error::UnsupportedDType {
            message: "\"slow_conv2d_cpu\" not implemented for 'Bool'".into(),
        }),
        DType::F32 if !cl && small(&g) => conv_small::<f32>(x, weight, bias, &small_geo(&g), cols),
        DType::F64 if !cl && small(&g) => conv_small::<f64>(x, weight, bias, &small_geo(&g), cols),
        DType::F32 if !cl && winograd::serves(&g) => winograd::conv2d_f32(x, weight, bias, &g),
        DType::F32 if !cl && !reads_in_place(x, &g) && panel::serves(&g) => {
            panel::conv2d_f32(x, weight, bias, &g)
        }
        DType::F32 => conv_gemm::<f32>(x, weight, bias, &g, cl),
        DType::F64 => conv_gemm::<f64>(x, weight, bias, &g, cl),
        DType::F16 | DType::BF16 => {
            let f = DType::F32;
            let b = bias.map(|b| b.to_dtype(f)).transpose()?;
            let (xf, wf) = (x.to_dtype(f)?, weight.to_dtype(f)?);
            conv_gemm::<f32>(&xf, &wf, b.as_ref(), &g, cl)?.to_dtype(x.dtype())
        }
        other => dispatch_dtype!(other, T, int::conv_direct::<T>(x, weight, bias, &g, cl)),
    }
}

/// `true` when one image's products are few enough for `conv_small.rs` (one GEMM per
/// batch of images).
#[cfg_attr(unoptimized, inline)]
fn small(g: &Geo) -> bool {
    let kk = (g.cin / g.groups) * g.kh * g.kw;
    g.cout.saturating_mul(g.oh * g.ow).saturating_mul(kk) < SMALL_MACS
}

/// One group's image geometry as `conv_cols.rs` takes it.
#[cfg_attr(unoptimized, inline)]
fn cols_geo(g: &Geo) -> Cols {
    Cols {
        cing: g.cin / g.groups,
        h: g.h,
        w: g.w,
        p: [g.p.0, g.p.1],
        k: [g.kh, g.kw],
        s: [g.s.0, g.s.1],
        d: [g.d.0, g.d.1],
        oh: g.oh,
        ow: g.ow,
    }
}

/// The geometry `conv_small.rs` takes.
#[cfg_attr(unoptimized, inline)]
fn small_geo(g: &Geo) -> Small {
    Small {
        n: g.n,
        cin: g.cin,
        cout: g.cout,
        groups: g.groups,
        cols: cols_geo(g),
    }
}

/// `f32`/`f64` GEMM from `matrixmultiply`.
pub(super) trait Gemm: Element {
    /// `C ← A·B + beta·C` with element strides.
    ///
    /// # Safety
    /// As `matrixmultiply::sgemm`: every element of A (m×k), B (k×n) and C (m×n) under
    /// the strides is in bounds; C's elements do not alias each other or A and B; C
    /// needs to be initialised only when `beta` is not zero.
    #[allow(clippy::too_many_arguments)]
    unsafe fn gemm(
        m: usize,
        k: usize,
        n: usize,
        a: (*const Self, isize, isize),
        b: (*const Self, isize, isize),
        beta: Self,
        c: (*mut Self, isize, isize),
    );
}

macro_rules! gemm_impl {
    ($t:ty, $f:path) => {
        impl Gemm for $t {
            #[cfg_attr(unoptimized, inline)]
            unsafe fn gemm(
                m: usize,
                k: usize,
                n: usize,
                a: (*const $t, isize, isize),
                b: (*const $t, isize, isize),
                beta: $t,
                c: (*mut $t, isize, isize),
            ) {
                // matrixmultiply is built without its own threads: a large product (one
                // image of a batch of 1, or images run one after another) is split by
                // rows of C into blocks on rayon's pool; inside a parallel region (images
                // already spread over the threads) `chunks_for` answers 1.
                let blocks = m.div_ceil(ROW_BLOCK);
                let chunks = row_split(m, k, n);
                if chunks <= 1 {
                    // SAFETY: the caller's contract is the GEMM's.
                    return unsafe {
                        $f(
                            m, k, n, 1.0, a.0, a.1, a.2, b.0, b.1, b.2, beta, c.0, c.1, c.2,
                        )
                    };
                }
                // Addresses cross threads as integers (raw pointers are not Send).
                let (pa, pb, pc) = (a.0 as usize, b.0 as usize, c.0 as usize);
                crate::parallel::for_ranges(blocks, chunks, |first, last| {
                    let (r0, r1) = (first * ROW_BLOCK, m.min(last * ROW_BLOCK));
                    // SAFETY: rows r0..r1 of A and C are a sub-block of the caller's
                    // in-bounds matrices (offsets r0·row stride stay inside them); the
                    // blocks' C rows are disjoint, so no two threads write one element;
                    // B is only read.
                    unsafe {
                        let a0 = (pa as *const $t).offset(r0 as isize * a.1);
                        let c0 = (pc as *mut $t).offset(r0 as isize * c.1);
                        let b0 = pb as *const $t;
                        $f(
                            r1 - r0,
                            k,
                            n,
                            1.0,
                            a0,
                            a.1,
                            a.2,
                            b0,
                            b.1,
                            b.2,
                            beta,
                            c0,
                            c.1,
                            c.2,
                        )
                    }
                });
            }
        }
    };
}
gemm_impl!(f32, matrixmultiply::sgemm);
gemm_impl!(f64, matrixmultiply::dgemm);

/// The input read in place: storage slice, storage offset, strides `[n, c, h, w]`.
pub(super) struct Src<'a, T> {
    pub(super) data: &'a [T],
    pub(super) offset: usize,
    pub(super) st: [isize; 4],
}

impl<T: Copy> Src<'_, T> {
    /// The storage index of element `(n, c, y, x)`.
    #[inline(always)]
    fn index(&self, n: usize, c: usize, y: usize, x: usize) -> usize {
        let o = self.offset as isize
            + n as isize * self.st[0]
            + c as isize * self.st[1]
            + y as isize * self.st[2]
            + x as isize * self.st[3];
        o as usize
    }

    #[inline(always)]
    pub(super) fn at(&self, n: usize, c: usize, y: usize, x: usize) -> T {
        self.data[self.index(n, c, y, x)]
    }
}

/// The input row `iy = oy·s - p + ki·d` of output row `oy`, or `None` in the padding.
#[inline(always)]
pub(super) fn in_coord(
    o: usize,
    k: usize,
    s: usize,
    p: usize,
    d: usize,
    size: usize,
) -> Option<usize> {
    (o * s + k * d).checked_sub(p).filter(|&i| i < size)
}

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
fn valid_range(k: usize, s: usize, p: usize, d: usize, size: usize, out: usize) -> (usize, usize) {
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
fn conv_gemm<T: Gemm>(
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
fn reads_in_place(x: &Tensor, g: &Geo) -> bool {
    let st = strides4(x);
    g.kh == 1
        && g.kw == 1
        && g.s == (1, 1)
        && g.p == (0, 0)
        && (g.h == 1 || st[2] == g.w as isize * st[3])
}

/// The strides of a 4-d tensor.
#[cfg_attr(unoptimized, inline)]
pub(super) fn strides4(x: &Tensor) -> [isize; 4] {
    let xs = x.strides();
    [xs[0], xs[1], xs[2], xs[3]]
}

/// Allocates the output `[N, C_out, oh, ow]` (channels_last if `cl`) and runs
/// `image(n, block, scratch)` for every image `n`: `block` is its `C_out·P` slots,
/// `scratch` a buffer of `scratch_len` elements of its thread's own. Images are split
/// across threads when there are several and the work (`k` multiply-adds per output
/// element) is large enough.
///
/// # Safety
/// `image` must write every slot of its block.
pub(super) unsafe fn run_images<T: Element>(
    g: &Geo,
    cl: bool,
    scratch_len: usize,
    k: usize,
    image: impl Fn(usize, &mut [MaybeUninit<T>], &mut [T]) + Sync,
) -> Result<Tensor> {
    let sizes = [g.n, g.cout, g.oh, g.ow];
    let format = if cl {
        MemoryFormat::ChannelsLast
    } else {
        MemoryFormat::Contiguous
    };
    let strides = strides_for_format(&sizes, format)?;
    let block = g.cout * g.oh * g.ow;
    let threads = rayon::current_num_threads().min(g.n).max(1);
    let parallel = g.n > 1 && block * k >= 1 << 16 && rayon::current_thread_index().is_none();
    let mut scratch = try_vec(if parallel { threads } else { 1 } * scratch_len, T::ZERO)?;
    // SAFETY: the N image blocks of C_out·P slots tile the dense output, and the
    // caller's `image` writes every slot of each.
    unsafe {
        fresh_output::<T>(&sizes, &strides, |out| {
            if parallel {
                // Large work (at least 2^16 multiply-adds an image): independent image
                // runs, one per thread with its own scratch, as rayon's parallel chunks.
                let per = g.n.div_ceil(threads);
                out.par_chunks_mut(per * block)
                    .zip(scratch.par_chunks_mut(scratch_len))
                    .enumerate()
                    .for_each(|(t, (chunk, s))| {
                        for (j, img) in chunk.chunks_mut(block).enumerate() {
                            image(t * per + j, img, s);
                        }
                    });
            } else {
                for (nn, img) in out.chunks_mut(block).enumerate() {
                    image(nn, img, &mut scratch);
                }
            }
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests;
