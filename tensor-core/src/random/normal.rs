//! Standard normal `f32` samples as PyTorch's CPU `normal_` kernel draws them for
//! `torch.randn` (`normal_kernel` in ATen's `cpu/DistributionTemplates.h`).
//!
//! PyTorch takes one of two paths, by the tensor's size:
//!
//! - **16 elements or more** (contiguous `float32`, which `torch.randn` always makes):
//!   every element is first set to a uniform `f32` (one 32-bit draw each, in order).
//!   Each block of 16 is then replaced by 16 normals: for `j` in `0..8`, the uniforms
//!   `u1 = 1 - data[j]` and `u2 = data[j + 8]` give `r = sqrt(-2 ln u1)`,
//!   `theta = 2 pi u2`, `data[j] = r cos theta`, `data[j + 8] = r sin theta`, all in
//!   `f32`. When the size is not a multiple of 16, the last 16 elements are refilled
//!   with 16 fresh uniforms (drawn after all the others) and transformed again, so they
//!   overwrite the tail of the last full block. The transform is the one of PyTorch's
//!   x86 AVX2 build, with the Cephes log and sincos of [`super::avx_mathfun`]; other
//!   builds of PyTorch (ARM, or x86 without AVX2) use the C library's `logf`, `cosf` and
//!   `sinf` there and may differ in the last bits.
//! - **Fewer than 16 elements**: one `f64` Box–Muller pair per two elements
//!   (`at::normal_distribution<double>`): two 64-bit draws give uniforms `u1`, `u2`,
//!   `r = sqrt(-2 log1p(-u2))`, `theta = 2 pi u1`; the element is `r cos theta` and the
//!   next one `r sin theta` (the generator's cached second sample), rounded to `f32`.

use super::avx_mathfun;
use super::mt19937::Mt19937;
use super::uniform;
use crate::kernels::simd::vectorized;

/// The size from which PyTorch fills in blocks of 16.
const BLOCK: usize = 16;

/// Fills `data` (every element overwritten) with standard normal samples drawn from
/// `gen` exactly as `torch.randn` of `data.len()` elements draws them.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn fill_standard_normal(data: &mut [f32], gen: &mut Mt19937) {
    if data.len() >= BLOCK {
        fill_blocks(data, gen);
    } else {
        fill_pairs_f64(data, gen);
    }
}

/// `torch.randn`'s path for 16 or more elements (see the module docs).
#[cfg_attr(unoptimized, inline)]
fn fill_blocks(data: &mut [f32], gen: &mut Mt19937) {
    let n = data.len();
    for x in data.iter_mut() {
        *x = uniform::f32_from_bits(gen.next_u32());
    }
    // Through `vectorized`: the fused multiply-adds are instructions there, not libm
    // calls (the values are the same either way).
    vectorized(
        #[inline(always)]
        || {
            for block in data.chunks_exact_mut(BLOCK) {
                box_muller_block(block);
            }
        },
    );
    if !n.is_multiple_of(BLOCK) {
        let tail = &mut data[n - BLOCK..];
        for x in tail.iter_mut() {
            *x = uniform::f32_from_bits(gen.next_u32());
        }
        box_muller_block(tail);
    }
}

/// Replaces 16 uniforms in `[0, 1)` by 16 normals: element `j` and `j + 8` are the
/// cosine and sine halves of the pair made from uniforms `j` and `j + 8`.
#[inline(always)]
fn box_muller_block(block: &mut [f32]) {
    // 2 * pi (the f64 value, rounded to f32).
    const TWO_PI: f32 = std::f64::consts::TAU as f32;
    let (cos_half, sin_half) = block.split_at_mut(BLOCK / 2);
    for (c, s) in cos_half.iter_mut().zip(sin_half.iter_mut()) {
        let u1 = 1.0 - *c; // (0, 1]: the log is finite.
        let u2 = *s;
        let radius = (-2.0 * avx_mathfun::log(u1)).sqrt();
        let (sin, cos) = avx_mathfun::sincos(TWO_PI * u2);
        *c = scale_shift_f32(radius * cos);
        *s = scale_shift_f32(radius * sin);
    }
}

/// `x * std + mean` for `torch.randn`'s std 1 and mean 0, as the kernel's final fused
/// multiply-add computes it (exact: only a `-0.0` becomes `+0.0`).
#[inline]
fn scale_shift_f32(x: f32) -> f32 {
    x + 0.0
}

/// `torch.randn`'s path for fewer than 16 elements (see the module docs).
#[cfg_attr(unoptimized, inline)]
fn fill_pairs_f64(data: &mut [f32], gen: &mut Mt19937) {
    let mut cached: Option<f64> = None;
    for x in data.iter_mut() {
        let sample = match cached.take() {
            Some(sin_half) => sin_half,
            None => {
                let u1 = uniform::f64_from_bits(gen.next_u64());
                let u2 = uniform::f64_from_bits(gen.next_u64());
                let radius = (-2.0 * (-u2).ln_1p()).sqrt();
                let theta = std::f64::consts::TAU * u1;
                cached = Some(radius * theta.sin());
                radius * theta.cos()
            }
        };
        // `sample * std + mean` with std 1 and mean 0, then the cast to float32.
        *x = (sample + 0.0) as f32;
    }
}
