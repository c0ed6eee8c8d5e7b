//! Backward of `F.max_pool2d` (each output's gradient added at its window's argmax, as
//! PyTorch's `max_pool2d_with_indices_backward`) and `F.avg_pool2d` (each output's
//! gradient spread evenly over its window, divided by the window's size counting the
//! padding: `count_include_pad=True`, floor mode).

use crate::error::Result;
use crate::kernels::acc::{dispatch_float, Acc, FloatAcc};
use crate::nn::backward::common::{load, store};
use crate::tensor::Tensor;

/// `(planes, h, w)` of an input of `[N, C, H, W]` or `[C, H, W]`.
#[cfg_attr(unoptimized, inline)]
fn planes(input_sizes: &[usize]) -> (usize, usize, usize) {
    let nd = input_sizes.len();
    let (h, w) = (input_sizes[nd - 2], input_sizes[nd - 1]);
    (input_sizes[..nd - 2].iter().product(), h, w)
}

fn max_run<A: Acc>(grad: &Tensor, input_sizes: &[usize], indices: &[usize]) -> Result<Tensor> {
    let g = load::<A>(grad)?;
    let (np, h, w) = planes(input_sizes);
    let plane_out = g.len().checked_div(np).unwrap_or(0);
    let mut dx = vec![A::zero(); np * h * w];
    if plane_out > 0 && h * w > 0 {
        let planes = dx
            .chunks_mut(h * w)
            .zip(g.chunks(plane_out).zip(indices.chunks(plane_out)));
        for (dst, (gs, is)) in planes {
            for (&gv, &i) in gs.iter().zip(is) {
                dst[i] = dst[i] + gv;
            }
        }
    }
    store(dx, input_sizes, grad.dtype())
}

/// The gradient of `F.max_pool2d` with respect to its input (of `input_sizes`), given the
/// gradient `grad` of its output and the argmax of each window (`indices`, from
/// `max_pool2d_indices`, row-major over the
/// output). Contiguous, in `grad`'s dtype.
///
/// # Errors
/// A non-float dtype; allocation errors.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn max_pool2d_backward(
    grad: &Tensor,
    input_sizes: &[usize],
    indices: &[usize],
) -> Result<Tensor> {
    dispatch_float!(
        grad.dtype(),
        "max_pool2d_with_indices_backward",
        T,
        max_run::<<T as FloatAcc>::A>(grad, input_sizes, indices)
    )
}

/// The window of output `o` along one dim: clipped `[start, end)` and the divisor's
/// length (the window inside the padded input).
#[cfg_attr(unoptimized, inline)]
fn window(o: usize, k: usize, s: usize, p: usize, size: usize) -> (usize, usize, usize) {
    let start = (o * s) as isize - p as isize;
    let end = (start + k as isize).min((size + p) as isize);
    let len = (end - start) as usize;
    (
        start.max(0) as usize,
        end.min(size as isize).max(0) as usize,
        len,
    )
}

fn avg_run<A: Acc>(
    grad: &Tensor,
    input_sizes: &[usize],
    k: [usize; 2],
    s: [usize; 2],
    p: [usize; 2],
) -> Result<Tensor> {
    let g = load::<A>(grad)?;
    let (np, h, w) = planes(input_sizes);
    let gs = grad.sizes();
    let (oh, ow) = (gs[gs.len() - 2], gs[gs.len() - 1]);
    let mut dx = vec![A::zero(); np * h * w];
    for q in 0..np {
        let dst = &mut dx[q * h * w..(q + 1) * h * w];
        for oy in 0..oh {
            let (hs, he, hl) = window(oy, k[0], s[0], p[0], h);
            for ox in 0..ow {
                let (ws, we, wl) = window(ox, k[1], s[1], p[1], w);
                let v = g[(q * oh + oy) * ow + ox] / A::c((hl * wl) as f64);
                for y in hs..he {
                    for x in ws..we {
                        dst[y * w + x] = dst[y * w + x] + v;
                    }
                }
            }
        }
    }
    store(dx, input_sizes, grad.dtype())
}

/// The gradient of `F.avg_pool2d(input, kernel_size, stride, padding)` with respect to
/// its input (of `input_sizes`), given the gradient `grad` of its output. Contiguous,
/// in `grad`'s dtype.
///
/// # Errors
/// A non-float dtype; allocation errors.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn avg_pool2d_backward(
    grad: &Tensor,
    input_sizes: &[usize],
    kernel_size: [usize; 2],
    stride: [usize; 2],
    padding: [usize; 2],
) -> Result<Tensor> {
    dispatch_float!(
        grad.dtype(),
        "avg_pool2d_backward_out_frame",
        T,
        avg_run::<<T as FloatAcc>::A>(grad, input_sizes, kernel_size, stride, padding)
    )
}
