//! The `f32` stride-1 convolution with a contiguous (NCHW) output: a GEMM that packs
//! its column panels straight from a zero-padded copy of each image, with no im2col
//! matrix.
//!
//! With stride 1 the input pixel under kernel tap `(ki, kj)` of output pixel `(oy, ox)`
//! is `(oy + ki·dH, ox + kj·dW)` of the padded image (`Hp × Wp`, zero borders): element
//! `off[k] + q` with `q = oy·Wp + ox` and `off[k] = c·Hp·Wp + ki·dH·Wp + kj·dW` for tap
//! `k = (c, ki, kj)`. So row `k` of the im2col matrix is the padded image shifted by
//! `off[k]`, and a run of `NR` output pixels is one contiguous window of it (two,
//! blended, when the run crosses a row end). Per image and group the product is
//! `out[C_out_g, P] = W_g[C_out_g, K] · col[K, P]`: for each run of `NR` pixels and
//! each block of at most `KC` taps, the run's rows are copied into a panel (`KC × NR`,
//! in the L1 cache) and multiplied by every weight tile, `tiles[t][k][MR]` (the `MR`
//! output channels `t·MR..` of tap `k`, zero past `C_out_g`, packed once per call).
//! Each `MR × NR` output tile is accumulated in registers over `k` in order, starting
//! from the bias, with fused multiply-adds from the AVX2 level up (`MR = 6`, `NR = 16`:
//! twelve 8-lane accumulators, an AVX2 SGEMM kernel's shape); partial sums wait in a
//! small buffer between blocks.

use std::mem::MaybeUninit;

use super::cols::pad_images;
use super::geometry::{cols_geo, kernel, run_images, strides4, Geo, Src, MR, NR};
use crate::tensor::Tensor;

/// Most taps per block of the reduction (blocks are equal, so 576 taps run as two of
/// 288): a block's panel (`≤ KC × NR` values, 18 KiB for 288) and weight tile stay in
/// the L1 cache while the tiles run (256 gave 12.5 ms on conv2d_3x3, 512 12.3 ms).
const KC: usize = 512;

/// Whether this kernel serves the geometry: stride 1 and a non-empty reduction.
#[cfg_attr(unoptimized, inline)]
pub(super) fn serves(g: &Geo) -> bool {
    g.s == (1, 1) && g.cin / g.groups * g.kh * g.kw > 0
}

/// The packed weights of every group and the tap offsets into a padded image.
pub(super) struct Packed {
    tiles: Vec<[f32; MR]>,
    tiles_per_group: usize,
    /// `off[k]` for `k = (c, ki, kj)` over one group's channels.
    off: Vec<usize>,
    /// Padded height and width.
    hp: usize,
    wp: usize,
}

impl Packed {
    /// Packs `w` (`[C_out, K]` row-major, `K = C_in_g·kH·kW`) group by group.
    ///
    /// # Errors
    /// [`crate::error::Error::OutOfMemory`].
    #[cfg_attr(unoptimized, inline)]
    pub(super) fn new(w: &[f32], g: &Geo) -> crate::error::Result<Self> {
        let cing = g.cin / g.groups;
        let k = cing * g.kh * g.kw;
        let coutg = g.cout / g.groups;
        let tiles_per_group = coutg.div_ceil(MR);
        let mut tiles = crate::alloc::try_vec(g.groups * tiles_per_group * k, [0.0; MR])?;
        for gi in 0..g.groups {
            for co in 0..coutg {
                let (t, r) = (co / MR, co % MR);
                let row = &w[(gi * coutg + co) * k..(gi * coutg + co + 1) * k];
                let tile = &mut tiles[(gi * tiles_per_group + t) * k..][..k];
                for (slot, &v) in tile.iter_mut().zip(row) {
                    slot[r] = v;
                }
            }
        }
        let (hp, wp) = (g.h + 2 * g.p.0, g.w + 2 * g.p.1);
        // The offsets stay below the padded image's length, checked here once.
        let overflow = || crate::error::Error::NumelOverflow { op: "conv2d" };
        cing.checked_mul(hp)
            .and_then(|v| v.checked_mul(wp))
            .and_then(|v| v.checked_add(NR))
            .ok_or_else(overflow)?;
        let mut off = crate::alloc::try_with_capacity(k)?;
        for c in 0..cing {
            for ki in 0..g.kh {
                for kj in 0..g.kw {
                    off.push(c * hp * wp + ki * g.d.0 * wp + kj * g.d.1);
                }
            }
        }
        Ok(Self {
            tiles,
            tiles_per_group,
            off,
            hp,
            wp,
        })
    }

    /// Length of the scratch one image needs: one group's padded channels, and room
    /// for the last run of `NR` pixels to read past the last one.
    ///
    /// # Errors
    /// [`crate::error::Error::NumelOverflow`] when that passes `usize`.
    #[cfg_attr(unoptimized, inline)]
    pub(super) fn scratch_len(&self, g: &Geo) -> crate::error::Result<usize> {
        (g.cin / g.groups)
            .checked_mul(self.hp)
            .and_then(|v| v.checked_mul(self.wp))
            .and_then(|v| v.checked_add(NR + self.extra()))
            .ok_or(crate::error::Error::NumelOverflow { op: "conv2d" })
    }

    /// Scratch past the padded image: a panel of `KC` rows and one group's partial
    /// sums (`MR × NR` per weight tile).
    #[cfg_attr(unoptimized, inline)]
    fn extra(&self) -> usize {
        KC * NR + self.tiles_per_group * MR * NR
    }
}

/// The `f32` stride-1 convolution with a contiguous output (see the module's docs);
/// `g` is the checked geometry, `weight` `[C_out, C_in_g, kH, kW]`, `bias` `[C_out]`.
///
/// # Errors
/// [`crate::error::Error::OutOfMemory`], [`crate::error::Error::NumelOverflow`].
#[cfg_attr(unoptimized, inline)]
pub(super) fn conv2d_f32(
    x: &Tensor,
    weight: &Tensor,
    bias: Option<&Tensor>,
    g: &Geo,
) -> crate::error::Result<Tensor> {
    let w = Packed::new(&weight.to_vec::<f32>()?, g)?;
    let bias = bias.map(|b| b.to_vec::<f32>()).transpose()?;
    let buf = x.storage().read();
    let src = Src {
        data: buf.as_slice::<f32>(),
        offset: x.storage_offset(),
        st: strides4(x),
    };
    let image = |n: usize, out: &mut [MaybeUninit<f32>], img: &mut [f32]| {
        image(&src, g, n, &w, bias.as_deref(), img, out);
    };
    let k = g.cin / g.groups * g.kh * g.kw;
    // SAFETY: `panel::image` writes every slot of the image's block (each group's
    // C_out_g rows of oh·ow pixels, tile by tile).
    unsafe { run_images(g, false, w.scratch_len(g)?, k, image) }
}

/// One image `n`: fills `out` (its `C_out · P` block, NCHW) with the convolution plus
/// `bias`; `img` is scratch of at least [`Packed::scratch_len`] values.
#[cfg_attr(unoptimized, inline)]
pub(super) fn image(
    src: &Src<'_, f32>,
    g: &Geo,
    n: usize,
    w: &Packed,
    bias: Option<&[f32]>,
    img: &mut [f32],
    out: &mut [MaybeUninit<f32>],
) {
    let (cing, coutg) = (g.cin / g.groups, g.cout / g.groups);
    let (hp, wp) = (w.hp, w.wp);
    let p = g.oh * g.ow;
    let k = w.off.len();
    let (img, rest) = img.split_at_mut(img.len() - w.extra());
    let (panel, accs) = rest.split_at_mut(KC * NR);
    let (panel, accs) = (panel.as_chunks_mut::<NR>().0, accs.as_chunks_mut::<NR>().0);
    // Past the padded channels: read by the last run of pixels, never kept.
    img[cing * hp * wp..].fill(0.0);
    let cols = cols_geo(g);
    for gi in 0..g.groups {
        pad_images(src, &cols, n, 1, gi * cing, img);
        let tiles = &w.tiles[gi * w.tiles_per_group * k..][..w.tiles_per_group * k];
        let out_g = &mut out[gi * coutg * p..(gi + 1) * coutg * p];
        let bias_g = bias.map(|b| &b[gi * coutg..(gi + 1) * coutg]);
        let scratch = (&*img, &mut *panel, &mut *accs);
        crate::kernels::simd::with_fma(
            #[inline(always)]
            |fma| match fma {
                true => tiles_loop::<true>(tiles, w, scratch, g, coutg, bias_g, out_g),
                false => tiles_loop::<false>(tiles, w, scratch, g, coutg, bias_g, out_g),
            },
        );
    }
}

/// The padded image, a panel of `KC` rows, the partial sums of every weight tile.
type Scratch<'a> = (&'a [f32], &'a mut [[f32; NR]], &'a mut [[f32; NR]]);

/// Run by run of `NR` pixels `q`, every weight tile: `out[co, (oy, ox)] = bias[co] +
/// Σ_k W[co, k]·img[off[k] + q]` for the `q = oy·Wp + ox` with `ox < ow`. The
/// reduction runs in blocks of at most `KC` taps: each block's rows of the run are
/// copied into `panel`, and every tile's sums wait in `accs` between blocks.
#[inline(always)]
fn tiles_loop<const FMA: bool>(
    tiles: &[[f32; MR]],
    w: &Packed,
    (img, panel, accs): Scratch<'_>,
    g: &Geo,
    coutg: usize,
    bias: Option<&[f32]>,
    out: &mut [MaybeUninit<f32>],
) {
    let k = w.off.len();
    let p = g.oh * g.ow;
    let kc = k.div_ceil(k.div_ceil(KC));
    for p0 in (0..p).step_by(NR) {
        let cols = NR.min(p - p0);
        let run = Run::new(p0, cols, g, w.wp);
        for k0 in (0..k).step_by(kc) {
            let kl = kc.min(k - k0);
            let panel = &mut panel[..kl];
            for (row, &o) in panel.iter_mut().zip(&w.off[k0..k0 + kl]) {
                run.gather(img, o, row);
            }
            let last = k0 + kl == k;
            for (t, tile) in tiles.chunks_exact(k).enumerate() {
                let r0 = t * MR;
                let rows = MR.min(coutg - r0);
                let sums = &mut accs[t * MR..(t + 1) * MR];
                let mut acc = [[0.0f32; NR]; MR];
                if k0 > 0 {
                    acc.copy_from_slice(sums);
                } else if let Some(b) = bias {
                    for (r, a) in acc.iter_mut().enumerate().take(rows) {
                        *a = [b[r0 + r]; NR];
                    }
                }
                kernel::<FMA>(&tile[k0..k0 + kl], panel, &mut acc);
                if !last {
                    sums.copy_from_slice(&acc);
                    continue;
                }
                for (r, a) in acc.iter().enumerate().take(rows) {
                    let dst = &mut out[(r0 + r) * p + p0..][..cols];
                    for (slot, &v) in dst.iter_mut().zip(a) {
                        slot.write(v);
                    }
                }
            }
        }
    }
}

/// Where a run of `NR` output pixels `p0..` lies in a padded image: pixel `p0 + j` is
/// element `q[j]` (plus a tap's offset), `q = oy·Wp + ox`. Lanes past the last pixel
/// continue the last one's row (read, never kept).
struct Run {
    q: [usize; NR],
    /// Lanes `..split` are consecutive from `q[0]`; when `two`, lanes `split..` are
    /// consecutive from `q[split]` (the run crosses one row end).
    split: usize,
    two: bool,
}

impl Run {
    #[cfg_attr(unoptimized, inline)]
    fn new(p0: usize, cols: usize, g: &Geo, wp: usize) -> Self {
        let mut q = [0; NR];
        for (j, v) in q.iter_mut().enumerate() {
            *v = if j < cols {
                let px = p0 + j;
                px / g.ow * wp + px % g.ow
            } else {
                // cols ≥ 1: continue after the last pixel.
                (p0 + cols - 1) / g.ow * wp + (p0 + cols - 1) % g.ow + (j + 1 - cols)
            };
        }
        let split = (1..NR).find(|&j| q[j] != q[0] + j).unwrap_or(NR);
        let two = (split..NR).all(|j| q[j] == q[split] + (j - split));
        Self { q, split, two }
    }

    /// `row[j] = img[o + q[j]]`: one copy for a run inside one row, two blended for a
    /// run that crosses a row end, lane by lane otherwise (images narrower than a run).
    #[inline(always)]
    fn gather(&self, img: &[f32], o: usize, row: &mut [f32; NR]) {
        // The windows below end at most at `o + q[NR - 1] + 1`, inside the scratch:
        // its NR values of slack follow the last pixel's taps.
        if self.split == NR {
            if let Some(v) = img[o + self.q[0]..].first_chunk::<NR>() {
                *row = *v;
            }
        } else if self.two {
            let a = img[o + self.q[0]..].first_chunk::<NR>();
            let b = img[o + self.q[self.split] - self.split..].first_chunk::<NR>();
            if let (Some(a), Some(b)) = (a, b) {
                for (j, v) in row.iter_mut().enumerate() {
                    *v = if j < self.split { a[j] } else { b[j] };
                }
            }
        } else {
            for (v, &qj) in row.iter_mut().zip(&self.q) {
                *v = img[o + qj];
            }
        }
    }
}
