//! `F.max_pool2d` and `F.avg_pool2d` (Pooling.cpp, DilatedMaxPool2d.cpp,
//! AveragePool2d.cpp, Pool.h) with PyTorch's defaults: dilation 1, `ceil_mode=False`,
//! `count_include_pad=True`.
//!
//! Input `[N, C, H, W]` or `[C, H, W]`, any strides. A 4-d output is laid out in the
//! input's suggested memory format (channels_last stays channels_last), a 3-d output is
//! contiguous. The kernels walk the output in storage order and split it across threads
//! by planes (contiguous) or by output rows (channels_last).

pub(super) mod backward;

use std::cell::Cell;
use std::hint::select_unpredictable;
use std::mem::MaybeUninit;

use super::backward::node::node;
use crate::autograd;
use crate::dispatch_dtype;
use crate::dtype::DType;
use crate::element::Element;
use crate::error::{list, Error, Result};
use crate::layout::MemoryFormat;
use crate::layout::{strides_for_format, wrap_dim};
use crate::parallel::GRAIN_SIZE;
use crate::parallel::{chunks_for, for_chunks_mut};
use crate::shape_ops::slices::fresh_output;
use crate::tensor::Tensor;

/// The geometry of one pooling call, validated.
#[derive(Clone, Copy, Debug)]
struct Pool {
    /// Batch, planes, input height and width.
    n: usize,
    c: usize,
    h: usize,
    w: usize,
    /// Kernel, stride, padding: (height, width).
    k: (usize, usize),
    s: (usize, usize),
    p: (usize, usize),
    /// Output height and width.
    oh: usize,
    ow: usize,
    /// Input strides (batch stride 0 for a 3-d input) and storage offset.
    st: [isize; 4],
    offset: usize,
}

#[cfg_attr(unoptimized, inline)]
fn pool_error(op: &'static str, message: String) -> Error {
    Error::InvalidArgument { op, message }
}

/// `pooling_output_shape` (dilation 1, floor mode): checks stride and padding.
#[cfg_attr(unoptimized, inline)]
fn output_size(op: &'static str, input: usize, k: usize, pad: usize, stride: usize) -> Result<i64> {
    if stride == 0 {
        return Err(pool_error(op, "stride should not be zero".into()));
    }
    // In i128: no sum of these usize values can overflow it.
    let (input, k, pad, stride) = (input as i128, k as i128, pad as i128, stride as i128);
    if pad > ((k - 1) + 1) / 2 {
        return Err(pool_error(
            op,
            format!(
                "pad should be at most half of effective kernel size, but got pad={pad}, kernel_size={k} and dilation=1"
            ),
        ));
    }
    // `div_rtn`: floor division.
    let size = (input + 2 * pad - (k - 1) - 1).div_euclid(stride) + 1;
    Ok(size.clamp(i64::MIN as i128, i64::MAX as i128) as i64)
}

/// `pool2d_shape_check` (dilation 1), after the output sizes are known.
#[cfg_attr(unoptimized, inline)]
fn shape_check(
    op: &'static str,
    input: &Tensor,
    k: [usize; 2],
    p: [usize; 2],
    (oh, ow): (i64, i64),
    format: MemoryFormat,
) -> Result<()> {
    if k[0] == 0 || k[1] == 0 {
        return Err(pool_error(
            op,
            format!(
                "kernel size should be greater than zero, but got kH: {} kW: {}",
                k[0], k[1]
            ),
        ));
    }
    let s = input.sizes();
    let ndim = s.len();
    let valid_dims = ndim >= 3 && s[1] != 0 && s[2] != 0;
    let ok = if format == MemoryFormat::ChannelsLast {
        ndim == 4 && valid_dims && s[3] != 0
    } else {
        (ndim == 3 && s[0] != 0 && valid_dims) || (ndim == 4 && valid_dims && s[3] != 0)
    };
    if !ok {
        let message = if format == MemoryFormat::ChannelsLast {
            format!("Expected 4D (batch mode) tensor expected for input with channels_last layout with optional 0 dim batch size for input, but got: {}", list(s))
        } else {
            format!("Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got:{}", list(s))
        };
        return Err(pool_error(op, message));
    }
    if k[1] / 2 < p[1] || k[0] / 2 < p[0] {
        return Err(pool_error(
            op,
            format!(
                "pad should be smaller than or equal to half of kernel size, but got padW = {}, padH = {}, kW = {}, kH = {}",
                p[1], p[0], k[1], k[0]
            ),
        ));
    }
    if oh < 1 || ow < 1 {
        let (c, h, w) = (s[ndim - 3], s[ndim - 2], s[ndim - 1]);
        return Err(pool_error(
            op,
            format!(
                "Given input size: ({c}x{h}x{w}). Calculated output size: ({c}x{oh}x{ow}). Output size is too small"
            ),
        ));
    }
    Ok(())
}

/// The validated geometry and the output memory format.
#[cfg_attr(unoptimized, inline)]
fn geometry(
    op: &'static str,
    input: &Tensor,
    k: [usize; 2],
    s: [usize; 2],
    p: [usize; 2],
) -> Result<(Pool, MemoryFormat)> {
    let ndim = input.dim();
    let format = input.suggest_memory_format(false);
    if op == "max_pool2d" {
        let message = match format {
            MemoryFormat::ChannelsLast if ndim != 4 => {
                "non-empty 4D (batch mode) tensor expected for input with channels_last layout"
            }
            MemoryFormat::Contiguous if ndim != 3 && ndim != 4 => {
                "non-empty 3D or 4D (batch mode) tensor expected for input"
            }
            MemoryFormat::ChannelsLast | MemoryFormat::Contiguous => "",
            _ => "Unsupport memory format. Supports only ChannelsLast, Contiguous",
        };
        if !message.is_empty() {
            return Err(pool_error(op, message.into()));
        }
    } else if ndim == 0 {
        return Err(pool_error(
            op,
            "Dimension specified as -3 but tensor has no dimensions".into(),
        ));
    } else {
        // avg_pool2d reads `input.size(-3)` before any check.
        wrap_dim(-3, ndim)?;
    }
    let sz = input.sizes();
    let (h, w) = (sz[ndim - 2], sz[ndim - 1]);
    let oh = output_size(op, h, k[0], p[0], s[0])?;
    let ow = output_size(op, w, k[1], p[1], s[1])?;
    shape_check(op, input, k, p, (oh, ow), format)?;
    let st = input.strides();
    let (n, st4) = if ndim == 4 {
        (sz[0], [st[0], st[1], st[2], st[3]])
    } else {
        (1, [0, st[0], st[1], st[2]])
    };
    let pool = Pool {
        n,
        c: sz[ndim - 3],
        h,
        w,
        k: (k[0], k[1]),
        s: (s[0], s[1]),
        p: (p[0], p[1]),
        oh: oh as usize,
        ow: ow as usize,
        st: st4,
        offset: input.storage_offset(),
    };
    let format = if ndim == 4 {
        format
    } else {
        MemoryFormat::Contiguous
    };
    Ok((pool, format))
}

/// The window of output position `o` along one dim: `[start, end)` clipped to the
/// input, and the unclipped length inside the padded input (avg's divisor).
#[inline(always)]
fn window(o: usize, k: usize, s: usize, p: usize, size: usize) -> (usize, usize, usize) {
    let start = (o * s) as isize - p as isize;
    let end = (start + k as isize).min((size + p) as isize);
    let len = (end - start) as usize;
    (
        start.max(0) as usize,
        (end.min(size as isize)).max(0) as usize,
        len,
    )
}

/// Runs `reduce(base_offset, h_range, w_range, divisor) -> T` for every output element,
/// writing the output in storage order (`cl`: NHWC, else NCHW), split across threads.
fn run<T: Element, R>(g: &Pool, cl: bool, out: &mut [MaybeUninit<T>], reduce: R)
where
    R: Fn(usize, (usize, usize), (usize, usize), usize) -> T + Sync,
{
    let (oh, ow, c) = (g.oh, g.ow, g.c);
    let at = |n: usize, ch: usize, y: usize, x: usize| -> T {
        let (hs, he, hl) = window(y, g.k.0, g.s.0, g.p.0, g.h);
        let (ws, we, wl) = window(x, g.k.1, g.s.1, g.p.1, g.w);
        let base = (g.offset as isize + n as isize * g.st[0] + ch as isize * g.st[1]) as usize;
        reduce(base, (hs, he), (ws, we), hl * wl)
    };
    let total = out.len();
    if total == 0 {
        return;
    }
    if cl {
        // Rows of (ow * c) elements, one per (n, y).
        let row = ow * c;
        let rows = g.n * oh;
        let per = rows.div_ceil(chunks_for(total, GRAIN_SIZE)).max(1);
        for_chunks_mut(out, per * row, |start, chunk| {
            for (j, dst) in chunk.chunks_mut(row).enumerate() {
                let r = start / row + j;
                let (n, y) = (r / oh, r % oh);
                for (i, slot) in dst.iter_mut().enumerate() {
                    slot.write(at(n, i % c, y, i / c));
                }
            }
        });
    } else {
        let plane = oh * ow;
        let planes = g.n * c;
        let per = planes.div_ceil(chunks_for(total, GRAIN_SIZE)).max(1);
        for_chunks_mut(out, per * plane, |start, chunk| {
            for (j, dst) in chunk.chunks_mut(plane).enumerate() {
                let q = start / plane + j;
                let (n, ch) = (q / c, q % c);
                for (i, slot) in dst.iter_mut().enumerate() {
                    slot.write(at(n, ch, i / ow, i % ow));
                }
            }
        });
    }
}

/// Allocates the output of `g` in `format` and fills it with `reduce`.
fn pooled<T: Element, R>(
    input: &Tensor,
    g: &Pool,
    format: MemoryFormat,
    reduce: R,
) -> Result<Tensor>
where
    R: Fn(&[T], usize, (usize, usize), (usize, usize), usize) -> T + Sync,
{
    let sizes: Vec<usize> = if input.dim() == 4 {
        vec![g.n, g.c, g.oh, g.ow]
    } else {
        vec![g.c, g.oh, g.ow]
    };
    let strides = strides_for_format(&sizes, format)?;
    let cl = format == MemoryFormat::ChannelsLast;
    let buf = input.storage().read();
    let src = buf.as_slice::<T>();
    // SAFETY: `run` writes every element of the dense output: each chunk row (NHWC) or
    // plane (NCHW) is written slot by slot.
    unsafe {
        fresh_output::<T>(&sizes, &strides, |out| {
            run(g, cl, out, |base, hr, wr, div| {
                reduce(src, base, hr, wr, div)
            });
            Ok(())
        })
    }
}

/// PyTorch's `val > max || isnan(val)`: NaN propagates (`v != v` only for NaN).
#[inline(always)]
#[allow(clippy::eq_op)]
fn replaces_max<T: Element>(v: T, m: T) -> bool {
    // `|`, not `||`: both comparisons at once, no branch between them.
    (v > m) | (v != v)
}

/// `F.max_pool2d(input, kernel_size, stride, padding)`: the maximum of each window
/// (NaN wins, as in PyTorch), with dilation 1 and floor mode. `input` is `[N, C, H, W]`
/// or `[C, H, W]` of any dtype but bool; the output is
/// `[N, C, (H + 2p - k) / s + 1, (W + 2p - k) / s + 1]` in the input's suggested memory
/// format (a 3-d output is contiguous).
///
/// # Errors
/// PyTorch's, in its order: `non-empty 3D or 4D (batch mode) tensor expected for input`;
/// `stride should not be zero`; `pad should be at most half of effective kernel size,
/// but got pad=2, kernel_size=3 and dilation=1`; `kernel size should be greater than
/// zero, but got kH: 0 kW: 2`; `Expected 3D or 4D (batch mode) tensor with optional 0
/// dim batch size for input, but got:[2, 0, 6, 6]`; `Given input size: (3x6x6).
/// Calculated output size: (3x0x0). Output size is too small`; `"max_pool2d" not
/// implemented for 'Bool'`; [`Error::OutOfMemory`].
#[cfg_attr(unoptimized, inline)]
pub fn max_pool2d(
    input: &Tensor,
    kernel_size: [usize; 2],
    stride: [usize; 2],
    padding: [usize; 2],
) -> Result<Tensor> {
    // The argmax of each window, found by the forward pass itself when a node is
    // recorded (the input is not kept).
    let indices = Cell::new(None);
    let record = autograd::needs_grad(&[input]);
    autograd::apply(
        &[input],
        || {
            let (out, idx) = max_pool2d_forward(input, kernel_size, stride, padding, record)?;
            indices.set(idx);
            Ok(out)
        },
        |_| {
            let sizes = input.sizes().to_vec();
            let indices = indices.take();
            node("MaxPool2DWithIndicesBackward0", vec![], 1, move |g, _| {
                let idx = indices.as_deref().ok_or_else(|| Error::InvalidArgument {
                    op: "max_pool2d",
                    message: "the window indices were not recorded".into(),
                })?;
                Ok(vec![Some(backward::max_pool2d_backward(g, &sizes, idx)?)])
            })
        },
    )
}

/// The max-pool output and, when `want_indices`, the argmax of each window (as
/// [`max_pool2d_indices`]).
#[cfg_attr(unoptimized, inline)]
fn max_pool2d_forward(
    input: &Tensor,
    kernel_size: [usize; 2],
    stride: [usize; 2],
    padding: [usize; 2],
    want_indices: bool,
) -> Result<(Tensor, Option<Vec<usize>>)> {
    let (g, format) = geometry("max_pool2d", input, kernel_size, stride, padding)?;
    if input.dtype() == DType::Bool {
        return Err(Error::UnsupportedDType {
            message: "\"max_pool2d\" not implemented for 'Bool'".into(),
        });
    }
    if want_indices && format == MemoryFormat::Contiguous {
        // The output is row-major: values and indices in one pass over the windows.
        return dispatch_dtype!(input.dtype(), T, max_pool2d_fused::<T>(input, &g));
    }
    let (sh, sw) = (g.st[2], g.st[3]);
    let out = dispatch_dtype!(input.dtype(), T, {
        pooled::<T, _>(input, &g, format, |src, base, (hs, he), (ws, we), _| {
            let mut m = src[(base as isize + hs as isize * sh + ws as isize * sw) as usize];
            for y in hs..he {
                let row = base as isize + y as isize * sh;
                for x in ws..we {
                    let v = src[(row + x as isize * sw) as usize];
                    if replaces_max(v, m) {
                        m = v;
                    }
                }
            }
            m
        })
    })?;
    let idx = if want_indices {
        Some(max_pool2d_indices(input, kernel_size, stride, padding)?)
    } else {
        None
    };
    Ok((out, idx))
}

/// The maximum and argmax of every window of `g` over `src` (the input's storage), in
/// row-major output order: `idx[k]` is the flat index `y·W + x` of window `k`'s maximum
/// in its plane (the first maximum; NaN wins) and, unless `vals` is empty, `vals[k]` the
/// value there. `idx` (and a non-empty `vals`) hold one slot per output element.
fn max_windows<T: Element>(src: &[T], g: &Pool, vals: &mut [MaybeUninit<T>], idx: &mut [usize]) {
    let (sh, sw) = (g.st[2], g.st[3]);
    let plane = g.oh * g.ow;
    if plane == 0 {
        return;
    }
    let keep = !vals.is_empty();
    // The common 2×2 window, stride 2, no padding, over rows of unit stride: every
    // window lies inside the input.
    let two = g.k == (2, 2) && g.s == (2, 2) && g.p == (0, 0) && sw == 1;
    let cols: Vec<(usize, usize)> = (0..g.ow)
        .map(|ox| {
            let (ws, we, _) = window(ox, g.k.1, g.s.1, g.p.1, g.w);
            (ws, we)
        })
        .collect();
    for (q, ids) in idx.chunks_mut(plane).enumerate() {
        let (n, c) = (q / g.c, q % g.c);
        let base = g.offset as isize + n as isize * g.st[0] + c as isize * g.st[1];
        for oy in 0..g.oh {
            let row_ids = &mut ids[oy * g.ow..(oy + 1) * g.ow];
            let at = q * plane + oy * g.ow;
            if two {
                let r0 = (base + (2 * oy) as isize * sh) as usize;
                let r1 = (base + (2 * oy + 1) as isize * sh) as usize;
                let (top, bottom) = (&src[r0..r0 + 2 * g.ow], &src[r1..r1 + 2 * g.ow]);
                let y0 = 2 * oy * g.w;
                for (ox, id) in row_ids.iter_mut().enumerate() {
                    let x = 2 * ox;
                    // `select_unpredictable`: the index becomes a cmov, not a branch
                    // that random data mispredicts half the time (on the SSE2 baseline
                    // the float select still compiles to a branch).
                    let (mut m, mut best) = (top[x], y0 + x);
                    for (v, at) in [
                        (top[x + 1], y0 + x + 1),
                        (bottom[x], y0 + g.w + x),
                        (bottom[x + 1], y0 + g.w + x + 1),
                    ] {
                        let take = replaces_max(v, m);
                        m = select_unpredictable(take, v, m);
                        best = select_unpredictable(take, at, best);
                    }
                    *id = best;
                    if keep {
                        vals[at + ox].write(m);
                    }
                }
                continue;
            }
            let (hs, he, _) = window(oy, g.k.0, g.s.0, g.p.0, g.h);
            for (ox, (id, &(ws, we))) in row_ids.iter_mut().zip(&cols).enumerate() {
                let mut best = hs * g.w + ws;
                let mut m = src[(base + hs as isize * sh + ws as isize * sw) as usize];
                for y in hs..he {
                    let row = base + y as isize * sh;
                    for x in ws..we {
                        let v = src[(row + x as isize * sw) as usize];
                        if replaces_max(v, m) {
                            m = v;
                            best = y * g.w + x;
                        }
                    }
                }
                *id = best;
                if keep {
                    vals[at + ox].write(m);
                }
            }
        }
    }
}

/// A contiguous max-pool output and the argmax of each window, in one pass.
fn max_pool2d_fused<T: Element>(input: &Tensor, g: &Pool) -> Result<(Tensor, Option<Vec<usize>>)> {
    let sizes: Vec<usize> = if input.dim() == 4 {
        vec![g.n, g.c, g.oh, g.ow]
    } else {
        vec![g.c, g.oh, g.ow]
    };
    let strides = strides_for_format(&sizes, MemoryFormat::Contiguous)?;
    let mut idx = crate::alloc::try_vec(g.n * g.c * g.oh * g.ow, 0usize)?;
    let buf = input.storage().read();
    let src = buf.as_slice::<T>();
    // SAFETY: `max_windows` writes one value per output element in row-major order,
    // which for the contiguous output is storage order: every slot is written.
    let out = unsafe {
        fresh_output::<T>(&sizes, &strides, |out| {
            max_windows(src, g, out, &mut idx);
            Ok(())
        })
    }?;
    Ok((out, Some(idx)))
}

/// `F.avg_pool2d(input, kernel_size, stride, padding)`: the mean of each window with
/// `count_include_pad=True` (the divisor counts the padding inside the window), dilation
/// 1, floor mode. Float dtypes and int64 (whose mean truncates toward zero, as in
/// PyTorch); shapes and layout as [`max_pool2d`].
///
/// # Errors
/// As [`max_pool2d`], except that a tensor of fewer than 3 dims fails on its size at
/// dim -3 ([`Error::DimOutOfRange`]: `Dimension out of range (expected to be in range of
/// [-2, 1], but got -3)`), and the dtypes refused are the integer types but int64 and
/// bool: `"avg_pool2d" not implemented for 'Int'`.
#[cfg_attr(unoptimized, inline)]
pub fn avg_pool2d(
    input: &Tensor,
    kernel_size: [usize; 2],
    stride: [usize; 2],
    padding: [usize; 2],
) -> Result<Tensor> {
    autograd::apply(
        &[input],
        || avg_pool2d_forward(input, kernel_size, stride, padding),
        |_| {
            let sizes = input.sizes().to_vec();
            node("AvgPool2DBackward0", vec![], 1, move |g, _| {
                Ok(vec![Some(backward::avg_pool2d_backward(
                    g,
                    &sizes,
                    kernel_size,
                    stride,
                    padding,
                )?)])
            })
        },
    )
}

#[cfg_attr(unoptimized, inline)]
fn avg_pool2d_forward(
    input: &Tensor,
    kernel_size: [usize; 2],
    stride: [usize; 2],
    padding: [usize; 2],
) -> Result<Tensor> {
    let (g, format) = geometry("avg_pool2d", input, kernel_size, stride, padding)?;
    let dtype = input.dtype();
    if !(dtype.is_floating() || dtype == DType::I64) {
        return Err(Error::UnsupportedDType {
            message: format!(
                "\"avg_pool2d\" not implemented for '{}'",
                dtype.scalar_type_name()
            ),
        });
    }
    let (sh, sw) = (g.st[2], g.st[3]);
    if dtype == DType::I64 {
        return pooled::<i64, _>(input, &g, format, |src, base, (hs, he), (ws, we), div| {
            let mut sum = 0i64;
            for y in hs..he {
                let row = base as isize + y as isize * sh;
                for x in ws..we {
                    sum = sum.wrapping_add(src[(row + x as isize * sw) as usize]);
                }
            }
            sum / div as i64
        });
    }
    dispatch_dtype!(dtype, T, {
        pooled::<T, _>(input, &g, format, |src, base, (hs, he), (ws, we), div| {
            let mut sum = 0f64;
            for y in hs..he {
                let row = base as isize + y as isize * sh;
                for x in ws..we {
                    sum += src[(row + x as isize * sw) as usize].to_f64();
                }
            }
            T::from_f64(sum / div as f64)
        })
    })
}

/// The argmax of each window of `F.max_pool2d(input, kernel_size, stride, padding)`, as
/// PyTorch's `max_pool2d_with_indices` returns it: for each output element (row-major,
/// `[N, C, oh, ow]` or `[C, oh, ow]`), the flat index `y·W + x` of the window's maximum
/// within its input plane (the first maximum; NaN wins).
///
/// # Errors
/// As [`max_pool2d`].
#[cfg_attr(unoptimized, inline)]
pub(crate) fn max_pool2d_indices(
    input: &Tensor,
    kernel_size: [usize; 2],
    stride: [usize; 2],
    padding: [usize; 2],
) -> Result<Vec<usize>> {
    let (g, _) = geometry("max_pool2d", input, kernel_size, stride, padding)?;
    if input.dtype() == DType::Bool {
        return Err(Error::UnsupportedDType {
            message: "\"max_pool2d\" not implemented for 'Bool'".into(),
        });
    }
    let mut out = crate::alloc::try_vec(g.n * g.c * g.oh * g.ow, 0usize)?;
    let buf = input.storage().read();
    dispatch_dtype!(input.dtype(), T, {
        max_windows::<T>(buf.as_slice::<T>(), &g, &mut [], &mut out)
    });
    Ok(out)
}

#[cfg(test)]
mod tests;
