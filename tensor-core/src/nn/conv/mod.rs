//! `F.conv2d` (Convolution.cpp: `conv2d`, `_convolution`, `check_shape_forward`): the
//! checks, and the choice of a path. The paths, one file each, import what they share
//! from `geometry.rs` (and the batched im2col of `cols.rs`), never one another:
//! - `small.rs`: small `f32`/`f64` convolutions, one GEMM per batch of images;
//! - `winograd.rs`: `f32` 3×3, stride 1, many channels, by Winograd's `F(2×2, 3×3)`;
//! - `panel.rs`: other `f32` stride-1 convolutions, panels packed from a padded image;
//! - `gemm.rs`: every other float convolution, im2col + GEMM image by image;
//! - `int.rs`: the integer dtypes, a direct loop;
//! - `backward.rs`: the gradients (`convolution_backward`).
//!
//! f32 and f64 lower to im2col + GEMM (the matmul backend's packing kernels), image by image, images split
//! across rayon threads. For a contiguous (NCHW) output each image and group is
//! `out[Cout_g, P] = W_g[Cout_g, K] · col[K, P]` with `K = (c, ki, kj)` and
//! `P = (oy, ox)`; for a channels_last output it is `out[P, Cout_g] = col[P, K] ·
//! W_gᵀ[K, Cout_g]` with `K = (ki, kj, c)`, so that both the im2col reads and the
//! output writes run along memory. A 1×1 kernel with stride 1 and no padding reads the
//! input in place. f16/bf16 compute in f32 (one rounding at the end); integer dtypes
//! use a direct loop with wrapping arithmetic, as PyTorch's `slow_conv2d`.

pub(super) mod backward;
mod cols;
mod gemm;
mod geometry;
mod int;
mod panel;
mod small;
mod winograd;

use std::cell::Cell;

use super::backward::node::node;
use crate::autograd::{self, SavedTensor};
use crate::dispatch_dtype;
use crate::dtype::{promote_types, DType};
use crate::error::{list, Error, Result};
use crate::layout::MemoryFormat;
use crate::tensor::Tensor;
use cols::Kept;
use gemm::{conv_gemm, reads_in_place};
pub(crate) use geometry::ConvParams;
use geometry::{cols_geo, Geo};
use small::{conv_small, Small, SMALL_MACS};

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
    // the node is recorded (`small.rs`).
    let cols = Cell::new(None);
    let params = ConvParams {
        stride,
        padding,
        dilation,
        groups,
    };
    let keep = autograd::needs_grad(&inputs) && weight.requires_grad();
    autograd::apply(
        &inputs,
        || {
            let keep = keep.then_some(&cols);
            conv2d_forward(input, weight, bias, &params, keep)
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
                let (dx, dw, db) =
                    backward::conv2d_backward_cols(g, &s[0], &s[1], &params, mask, cols.as_ref())?;
                let mut grads = vec![dx, dw];
                if n_inputs == 3 {
                    grads.push(db);
                }
                Ok(grads)
            })
        },
    )
}

/// [`conv2d`] without autograd; `cols`: where a small convolution leaves its column
/// matrix (when given).
#[cfg_attr(unoptimized, inline)]
fn conv2d_forward(
    input: &Tensor,
    weight: &Tensor,
    bias: Option<&Tensor>,
    params: &ConvParams,
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
    let out = conv2d_batched(&x, weight, bias, params, cols)?;
    if batched {
        Ok(out)
    } else {
        out.squeeze_dim(0)
    }
}

/// Checks of `_convolution` and `check_shape_forward`; returns the geometry.
#[cfg_attr(unoptimized, inline)]
fn check(x: &Tensor, weight: &Tensor, bias: Option<&Tensor>, params: &ConvParams) -> Result<Geo> {
    let ConvParams {
        stride,
        padding,
        dilation,
        groups,
    } = *params;
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
    if ws[2] == 0 || ws[3] == 0 {
        // The CPU kernel's `slow_conv2d_shape_check`, after the checks above.
        return Err(conv_error(format!(
            "kernel size should be greater than zero, but got kernel_height: {} kernel_width: {}",
            ws[2], ws[3]
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

#[cfg_attr(unoptimized, inline)]
fn conv2d_batched(
    x: &Tensor,
    weight: &Tensor,
    bias: Option<&Tensor>,
    params: &ConvParams,
    cols: Option<&Cell<Option<Kept>>>,
) -> Result<Tensor> {
    let g = check(x, weight, bias, params)?;
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
    crate::layout::checked_numel(&[g.n, g.cout, g.oh, g.ow], "conv2d")?;
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

/// `true` when one image's products are few enough for `small.rs` (one GEMM per
/// batch of images).
#[cfg_attr(unoptimized, inline)]
fn small(g: &Geo) -> bool {
    let kk = (g.cin / g.groups) * g.kh * g.kw;
    g.cout.saturating_mul(g.oh * g.ow).saturating_mul(kk) < SMALL_MACS
}

/// The geometry `small.rs` takes.
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

#[cfg(test)]
mod tests;
