//! The `f32` 3×3, stride-1, dilation-1 convolution with many channels and a contiguous
//! (NCHW) output, by Winograd's minimal filtering `F(2×2, 3×3)` (Lavin & Gray, "Fast
//! Algorithms for Convolutional Neural Networks", 2016): 16 multiplies for each 2×2
//! block of outputs and input channel, where the direct convolution takes 36.
//!
//! The output is cut into *tiles* of 2×2 pixels; tile `(ty, tx)` reads the 4×4 patch
//! `d` of the zero-padded image at `(2·ty, 2·tx)`. With the transforms
//!
//! ```text
//!        ⎡1  0 -1  0⎤          ⎡ 1    0    0 ⎤          ⎡1  1  1  0⎤
//! Bᵀ  =  ⎢0  1  1  0⎥    G  =  ⎢1/2  1/2  1/2⎥    Aᵀ  =  ⎣0  1 -1 -1⎦
//!        ⎢0 -1  1  0⎥          ⎢1/2 -1/2  1/2⎥
//!        ⎣0  1  0 -1⎦          ⎣ 0    0    1 ⎦
//! ```
//!
//! the tile's outputs are `Y = Aᵀ [Σ_c U_c ⊙ V_c] A` with `U_c = G w_c Gᵀ` (4×4, per
//! output and input channel; computed once per call, in `f64`, then rounded) and
//! `V_c = Bᵀ d_c B`. For each of the 16 points `ξ` of the 4×4 domain the channel sum
//! is a matrix product `M_ξ[C_out, tiles] = U_ξ[C_out, C_in] · V_ξ[C_in, tiles]`, run
//! with the 6×16 register tile of `panel.rs` ([`super::geometry::kernel`]): 16 tiles in the lanes, 6
//! output channels in the rows. Per block of 16 tiles the input transforms of every
//! channel go to a panel (`16 × C_in × 16` values, in the L2 cache), then each group of
//! 6 output channels takes its 16 products and turns them into outputs at once.
//!
//! Numerics: the sums run in another order and through the transforms, so results
//! differ from the direct convolution (and PyTorch's) by rounding, about 1e-6 relative
//! to the magnitude of the terms; an input row or column only reaches the outputs the
//! direct convolution would send it to, so a NaN or infinity stays in its own outputs
//! (`inf - inf` inside a transform can turn an infinite output into NaN).

use std::mem::MaybeUninit;

use super::geometry::{gather, kernel, run_images, strides4, Geo, Src, MR, NR};
use crate::tensor::Tensor;

/// Points of the transformed 4×4 domain.
const XI: usize = 16;
/// Fewest input and output channels per group served: below them the transforms cost
/// more than the multiplies they save.
const MIN_CHANNELS: usize = 16;

/// Whether this kernel serves the geometry: a 3×3 kernel, stride 1, dilation 1, at least
/// [`MIN_CHANNELS`] input and output channels per group.
#[cfg_attr(unoptimized, inline)]
pub(super) fn serves(g: &Geo) -> bool {
    (g.kh, g.kw, g.s, g.d) == (3, 3, (1, 1), (1, 1))
        && g.cin / g.groups >= MIN_CHANNELS
        && g.cout / g.groups >= MIN_CHANNELS
}

/// The transformed weights, laid out for the register tile.
struct Packed {
    /// `u[((gi·T + t)·16 + ξ)·C_in_g + c][r]` = `U[ξ]` of output channel
    /// `gi·C_out_g + t·MR + r` and input channel `c` (zero past `C_out_g`).
    u: Vec<[f32; MR]>,
    /// Register tiles of output channels per group (`T`).
    tiles: usize,
}

impl Packed {
    /// Transforms `w` (`[C_out, C_in_g, 3, 3]` row-major).
    ///
    /// # Errors
    /// [`crate::error::Error::OutOfMemory`].
    #[cfg_attr(unoptimized, inline)]
    fn new(w: &[f32], g: &Geo) -> crate::error::Result<Self> {
        let (cing, coutg) = (g.cin / g.groups, g.cout / g.groups);
        let tiles = coutg.div_ceil(MR);
        let mut u = crate::alloc::try_vec(g.groups * tiles * XI * cing, [0.0; MR])?;
        for co in 0..g.cout {
            let (gi, cg) = (co / coutg, co % coutg);
            let (t, r) = (cg / MR, cg % MR);
            for c in 0..cing {
                let taps = &w[(co * cing + c) * 9..][..9];
                let ut = transform_weight(taps);
                for (xi, &v) in ut.iter().enumerate() {
                    u[((gi * tiles + t) * XI + xi) * cing + c][r] = v;
                }
            }
        }
        Ok(Self { u, tiles })
    }
}

/// `G w Gᵀ` of one 3×3 filter (row-major), in `f64`, rounded once.
#[cfg_attr(unoptimized, inline)]
fn transform_weight(w: &[f32]) -> [f32; XI] {
    let g = |v: [f64; 3]| {
        [
            v[0],
            (v[0] + v[1] + v[2]) / 2.0,
            (v[0] - v[1] + v[2]) / 2.0,
            v[2],
        ]
    };
    let at = |i: usize, j: usize| f64::from(w[i * 3 + j]);
    // Columns first (G w: 4×3), then rows ((G w) Gᵀ: 4×4).
    let cols: [[f64; 4]; 3] = std::array::from_fn(|j| g([at(0, j), at(1, j), at(2, j)]));
    let mut out = [0.0; XI];
    for i in 0..4 {
        let row = g([cols[0][i], cols[1][i], cols[2][i]]);
        for (j, v) in row.into_iter().enumerate() {
            out[i * 4 + j] = v as f32;
        }
    }
    out
}

/// The convolution (see the module's docs); `g` is the checked geometry, `weight`
/// `[C_out, C_in_g, 3, 3]`, `bias` `[C_out]`.
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
    let rows = Rows::new(g);
    // The transformed rows of one group's channels, the lanes the last block reads
    // past them, one padded input row, and the panel of one block of tiles.
    let scratch = (g.cin / g.groups)
        .checked_mul(4 * rows.hr * rows.tw)
        .and_then(|v| v.checked_add(NR + rows.row_len()))
        .and_then(|v| v.checked_add(XI * g.cin / g.groups * NR))
        .ok_or(crate::error::Error::NumelOverflow { op: "conv2d" })?;
    let image = |n: usize, out: &mut [MaybeUninit<f32>], scratch: &mut [f32]| {
        image(&src, g, &rows, n, &w, bias.as_deref(), scratch, out);
    };
    // SAFETY: `image` writes every slot of the image's block: each output pixel lies in
    // one tile of one block, and each output channel in one row of one register tile.
    unsafe { run_images(g, false, scratch, g.cin / g.groups * 9, image) }
}

/// The tile grid and the transformed rows' geometry.
struct Rows {
    /// Tile rows and columns (`⌈oh/2⌉`, `⌈ow/2⌉`).
    th: usize,
    tw: usize,
    /// Padded input rows the tiles read (`2·th + 2`, one past the padding when `oh`
    /// is odd: that row is zero).
    hr: usize,
}

impl Rows {
    #[cfg_attr(unoptimized, inline)]
    fn new(g: &Geo) -> Self {
        let (th, tw) = (g.oh.div_ceil(2), g.ow.div_ceil(2));
        Self {
            th,
            tw,
            hr: 2 * th + 2,
        }
    }

    /// One padded input row as the tiles read it (`2·tw + 2`, zero past the padding).
    #[cfg_attr(unoptimized, inline)]
    fn row_len(&self) -> usize {
        2 * self.tw + 2
    }
}

/// One image `n`: fills `out` (its `C_out · P` block, NCHW) with the convolution plus
/// `bias`; `scratch` as [`conv2d_f32`] sizes it.
#[allow(clippy::too_many_arguments)]
#[cfg_attr(unoptimized, inline)]
fn image(
    src: &Src<'_, f32>,
    g: &Geo,
    rows: &Rows,
    n: usize,
    w: &Packed,
    bias: Option<&[f32]>,
    scratch: &mut [f32],
    out: &mut [MaybeUninit<f32>],
) {
    let (cing, coutg) = (g.cin / g.groups, g.cout / g.groups);
    let p = g.oh * g.ow;
    let (h, rest) = scratch.split_at_mut(cing * 4 * rows.hr * rows.tw + NR);
    let (row, panel) = rest.split_at_mut(rows.row_len());
    let panel = panel.as_chunks_mut::<NR>().0;
    for gi in 0..g.groups {
        transform_rows(src, g, rows, n, gi * cing, h, row);
        let u = &w.u[gi * w.tiles * XI * cing..][..w.tiles * XI * cing];
        let out_g = &mut out[gi * coutg * p..(gi + 1) * coutg * p];
        let bias_g = bias.map(|b| &b[gi * coutg..(gi + 1) * coutg]);
        let scratch = (&*h, &mut *panel);
        crate::kernels::simd::with_fma(
            #[inline(always)]
            |fma| match fma {
                true => blocks_loop::<true>(u, scratch, g, rows, coutg, bias_g, out_g),
                false => blocks_loop::<false>(u, scratch, g, rows, coutg, bias_g, out_g),
            },
        );
    }
}

/// The row half of the input transform, `d B` for every 4-wide window at an even
/// column of every padded row of one group's channels `c0..`: `h[((c·4 + k)·hr + r)·tw
/// + tx]` is element `k` of `(row r) · B` at window `tx`, with
/// `e[tx] = row[2·tx]`, `o[tx] = row[2·tx + 1]`: `e[tx] - e[tx+1]`, `o[tx] + e[tx+1]`,
/// `e[tx+1] - o[tx]`, `o[tx] - o[tx+1]`. Then the patch rows of tile `(ty, tx)` are
/// rows `2·ty..2·ty + 4`, and a block's lanes read them as plain windows.
#[cfg_attr(unoptimized, inline)]
fn transform_rows(
    src: &Src<'_, f32>,
    g: &Geo,
    rows: &Rows,
    n: usize,
    c0: usize,
    h: &mut [f32],
    row: &mut [f32],
) {
    let (hr, tw) = (rows.hr, rows.tw);
    let cing = g.cin / g.groups;
    // The lanes the last block reads past the last row: never kept.
    h[cing * 4 * hr * tw..].fill(0.0);
    for c in 0..cing {
        let base = src.offset as isize + n as isize * src.st[0] + (c0 + c) as isize * src.st[1];
        for r in 0..hr {
            row.fill(0.0);
            if let Some(y) = r.checked_sub(g.p.0).filter(|&y| y < g.h) {
                let first = (base + y as isize * src.st[2]) as usize;
                let dst = &mut row[g.p.1..][..g.w];
                if src.st[3] == 1 {
                    gather(dst, &src.data[first..], 1);
                } else {
                    for (x, v) in dst.iter_mut().enumerate() {
                        *v = src.data[(first as isize + x as isize * src.st[3]) as usize];
                    }
                }
            }
            let at = |k: usize| (c * 4 + k) * hr * tw + r * tw;
            for tx in 0..tw {
                let (e0, o0, e1, o1) = (
                    row[2 * tx],
                    row[2 * tx + 1],
                    row[2 * tx + 2],
                    row[2 * tx + 3],
                );
                h[at(0) + tx] = e0 - e1;
                h[at(1) + tx] = o0 + e1;
                h[at(2) + tx] = e1 - o0;
                h[at(3) + tx] = o0 - o1;
            }
        }
    }
}

/// Block by block of `NR` tiles of one group (compiled for AVX2 and FMA when `FMA`): the column half of the input transform
/// of every channel into `panel` (`panel[ξ·C_in_g + c]`, a tile per lane), then per
/// register tile of output channels the 16 products and the output transform.
#[inline(always)]
fn blocks_loop<const FMA: bool>(
    u: &[[f32; MR]],
    (h, panel): (&[f32], &mut [[f32; NR]]),
    g: &Geo,
    rows: &Rows,
    coutg: usize,
    bias: Option<&[f32]>,
    out: &mut [MaybeUninit<f32>],
) {
    let cing = panel.len() / XI;
    let (hr, tw) = (rows.hr, rows.tw);
    let tiles = rows.th * tw;
    let mut m = [[[0.0f32; NR]; MR]; XI];
    for t0 in (0..tiles).step_by(NR) {
        let lanes = Lanes::new(t0, tiles, tw);
        for c in 0..cing {
            for k in 0..4 {
                let plane = &h[(c * 4 + k) * hr * tw..];
                let d: [[f32; NR]; 4] = std::array::from_fn(|i| lanes.read(&plane[i * tw..]));
                // Bᵀ over the patch rows.
                let op = |f: fn(f32, f32) -> f32, x: &[f32; NR], y: &[f32; NR]| -> [f32; NR] {
                    std::array::from_fn(|l| f(x[l], y[l]))
                };
                panel[k * cing + c] = op(|x, y| x - y, &d[0], &d[2]);
                panel[(4 + k) * cing + c] = op(|x, y| x + y, &d[1], &d[2]);
                panel[(8 + k) * cing + c] = op(|x, y| x - y, &d[2], &d[1]);
                panel[(12 + k) * cing + c] = op(|x, y| x - y, &d[1], &d[3]);
            }
        }
        for (t, u_t) in u.chunks_exact(XI * cing).enumerate() {
            let r0 = t * MR;
            for (xi, m) in m.iter_mut().enumerate() {
                let mut acc = [[0.0f32; NR]; MR];
                kernel::<FMA>(
                    &u_t[xi * cing..][..cing],
                    &panel[xi * cing..][..cing],
                    &mut acc,
                );
                *m = acc;
            }
            for r in 0..MR.min(coutg - r0) {
                let b = bias.map_or(0.0, |b| b[r0 + r]);
                let y = transform_output(&m, r, b);
                let dst = &mut out[(r0 + r) * g.oh * g.ow..][..g.oh * g.ow];
                lanes.store(dst, &y, g.oh, g.ow);
            }
        }
    }
}

/// `Aᵀ M A + bias` of row `r` of the products, each lane a tile: `y[i·2 + j]` is the
/// output at `(2·ty + i, 2·tx + j)`.
#[inline(always)]
fn transform_output(m: &[[[f32; NR]; MR]; XI], r: usize, bias: f32) -> [[f32; NR]; 4] {
    let mm = |i: usize, j: usize| &m[i * 4 + j][r];
    // Aᵀ over the rows (2×4), then over the columns; lane by lane.
    let sum3 = |a: &[f32; NR], b: &[f32; NR], c: &[f32; NR]| -> [f32; NR] {
        std::array::from_fn(|l| a[l] + b[l] + c[l])
    };
    let dif3 = |a: &[f32; NR], b: &[f32; NR], c: &[f32; NR]| -> [f32; NR] {
        std::array::from_fn(|l| a[l] - b[l] - c[l])
    };
    let top: [[f32; NR]; 4] = std::array::from_fn(|j| sum3(mm(0, j), mm(1, j), mm(2, j)));
    let bot: [[f32; NR]; 4] = std::array::from_fn(|j| dif3(mm(1, j), mm(2, j), mm(3, j)));
    let b = [bias; NR];
    let fin = |v: [f32; NR]| -> [f32; NR] { std::array::from_fn(|l| v[l] + b[l]) };
    [
        fin(sum3(&top[0], &top[1], &top[2])),
        fin(dif3(&top[1], &top[2], &top[3])),
        fin(sum3(&bot[0], &bot[1], &bot[2])),
        fin(dif3(&bot[1], &bot[2], &bot[3])),
    ]
}

/// A block's tiles `t0..t0 + count`, a tile per lane. In the transformed rows (see
/// [`transform_rows`]) lane `l`'s patch row `i`, element `k`, is at `i·tw + q[l]` of
/// plane `(c, k)`, `q = 2·ty·tw + tx = t + ty·tw`: consecutive along a tile row, so
/// a run of lanes `l0..` in one tile row reads the window `q[l0] - l0 + l`, blended
/// where the block changes rows. Lanes past the last tile continue its window (read,
/// never kept).
struct Lanes {
    /// Tiles in the block (1 to `NR`).
    count: usize,
    /// Each lane's tile `(ty, tx)`.
    at: [(usize, usize); NR],
    /// Each run's window start, and its lanes (all bits set from its first lane on).
    start: [usize; NR],
    mask: [[u32; NR]; NR],
    runs: usize,
}

impl Lanes {
    #[cfg_attr(unoptimized, inline)]
    fn new(t0: usize, tiles: usize, tw: usize) -> Self {
        let count = NR.min(tiles - t0);
        let at: [(usize, usize); NR] = std::array::from_fn(|l| {
            let t = t0 + l.min(count - 1);
            (t / tw, t % tw)
        });
        let (mut mask, mut start, mut runs) = ([[0; NR]; NR], [0; NR], 0);
        for l in 0..count {
            if l == 0 || at[l].0 != at[l - 1].0 {
                let q = (t0 + l) + at[l].0 * tw;
                start[runs] = q - l;
                mask[runs] = std::array::from_fn(|j| if j >= l { u32::MAX } else { 0 });
                runs += 1;
            }
        }
        Self {
            count,
            at,
            start,
            mask,
            runs,
        }
    }

    /// Every lane's value of one patch row in one plane of transformed rows (`plane`
    /// starts at the patch row).
    #[inline(always)]
    fn read(&self, plane: &[f32]) -> [f32; NR] {
        let mut v = [0u32; NR];
        for r in 0..self.runs {
            if let Some(w) = plane[self.start[r]..].first_chunk::<NR>() {
                // A bitwise blend: the lanes from the run's first on take the window.
                let m = &self.mask[r];
                v = std::array::from_fn(|l| (w[l].to_bits() & m[l]) | (v[l] & !m[l]));
            }
        }
        v.map(f32::from_bits)
    }

    /// Writes each lane's 2×2 outputs inside the `oh × ow` plane `dst`.
    #[inline(always)]
    fn store(&self, dst: &mut [MaybeUninit<f32>], y: &[[f32; NR]; 4], oh: usize, ow: usize) {
        for (l, &(ty, tx)) in self.at.iter().enumerate().take(self.count) {
            let (oy, ox) = (2 * ty, 2 * tx);
            let o = oy * ow + ox;
            dst[o].write(y[0][l]);
            let right = ox + 1 < ow;
            if right {
                dst[o + 1].write(y[1][l]);
            }
            if oy + 1 < oh {
                dst[o + ow].write(y[2][l]);
                if right {
                    dst[o + ow + 1].write(y[3][l]);
                }
            }
        }
    }
}
