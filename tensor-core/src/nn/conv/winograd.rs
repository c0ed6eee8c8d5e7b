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
//! on a register tile of 16 tiles in the lanes and `R` output channels in the rows: 16
//! channels in AVX-512 registers ([`kernel_avx512`]) at the AVX-512 level
//! (`cpu::avx512`), else the 6 of `panel.rs`'s tile ([`MR`]) in AVX2 registers or
//! scalars. Per block of 16 tiles the input transforms of every channel go to a panel
//! (`16 × C_in × 16` values, in the L2 cache), then each group of `R` output channels
//! takes its 16 products and turns them into outputs at once. The input's rows are
//! transformed per channel (`d B`) before the blocks, the columns (`Bᵀ ·`) per block.
//!
//! Numerics: the sums run in another order and through the transforms, so results
//! differ from the direct convolution (and PyTorch's) by rounding, about 1e-6 relative
//! to the magnitude of the terms; an input row or column only reaches the outputs the
//! direct convolution would send it to, so a NaN or infinity stays in its own outputs
//! (`inf - inf` inside a transform can turn an infinite output into NaN).

use std::mem::MaybeUninit;

use super::geometry::{gather, run_images, strides4, Geo, Src, MR, NR};
#[cfg(target_arch = "x86_64")]
use crate::cpu::avx512;
use crate::tensor::Tensor;

/// Points of the transformed 4×4 domain.
const XI: usize = 16;
/// Fewest input and output channels per group served: below them the transforms cost
/// more than the multiplies they save.
const MIN_CHANNELS: usize = 16;
/// Output channels per register tile with AVX-512: one 16-lane vector per channel, 16
/// accumulators.
const MR_WIDE: usize = 16;

/// Whether this kernel serves the geometry: a 3×3 kernel, stride 1, dilation 1, at least
/// [`MIN_CHANNELS`] input and output channels per group.
#[cfg_attr(unoptimized, inline)]
pub(super) fn serves(g: &Geo) -> bool {
    (g.kh, g.kw, g.s, g.d) == (3, 3, (1, 1), (1, 1))
        && g.cin / g.groups >= MIN_CHANNELS
        && g.cout / g.groups >= MIN_CHANNELS
}

/// Whether the products run on the AVX-512 register tile ([`kernel_avx512`]).
#[cfg_attr(unoptimized, inline)]
fn wide() -> bool {
    #[cfg(target_arch = "x86_64")]
    return avx512();
    #[cfg(not(target_arch = "x86_64"))]
    return false;
}

/// The transformed weights, laid out for the register tile of `rows` output channels.
struct Packed {
    /// `u[(((gi·T + t)·16 + ξ)·C_in_g + c)·rows + r]` = `U[ξ]` of output channel
    /// `gi·C_out_g + t·rows + r` and input channel `c` (zero past `C_out_g`).
    u: Vec<f32>,
    /// Output channels per register tile ([`MR`] or [`MR_WIDE`]).
    rows: usize,
    /// Register tiles of output channels per group (`T`).
    tiles: usize,
}

impl Packed {
    /// Transforms `w` (`[C_out, C_in_g, 3, 3]` row-major) for register tiles of `rows`
    /// output channels.
    ///
    /// # Errors
    /// [`crate::error::Error::OutOfMemory`].
    #[cfg_attr(unoptimized, inline)]
    fn new(w: &[f32], g: &Geo, rows: usize) -> crate::error::Result<Self> {
        let (cing, coutg) = (g.cin / g.groups, g.cout / g.groups);
        let tiles = coutg.div_ceil(rows);
        let mut u = crate::alloc::try_vec(g.groups * tiles * XI * cing * rows, 0.0)?;
        for co in 0..g.cout {
            let (gi, cg) = (co / coutg, co % coutg);
            let (t, r) = (cg / rows, cg % rows);
            for c in 0..cing {
                let taps = &w[(co * cing + c) * 9..][..9];
                let ut = transform_weight(taps);
                for (xi, &v) in ut.iter().enumerate() {
                    u[(((gi * tiles + t) * XI + xi) * cing + c) * rows + r] = v;
                }
            }
        }
        Ok(Self { u, rows, tiles })
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
    let rows = if wide() { MR_WIDE } else { MR };
    let w = Packed::new(&weight.to_vec::<f32>()?, g, rows)?;
    let bias = bias.map(|b| b.to_vec::<f32>()).transpose()?;
    let buf = x.storage().read();
    let src = Src {
        data: buf.as_slice::<f32>(),
        offset: x.storage_offset(),
        st: strides4(x),
    };
    let rows = Rows::new(g);
    // The transformed rows of one group's channels, the lanes the last block reads
    // past them, one padded input channel, and the panel of one block of tiles.
    let scratch = (g.cin / g.groups)
        .checked_mul(4 * rows.hr * rows.tw)
        .and_then(|v| v.checked_add(NR + rows.hr * rows.row_len()))
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
    let (padded, panel) = rest.split_at_mut(rows.hr * rows.row_len());
    let panel = panel.as_chunks_mut::<NR>().0;
    for gi in 0..g.groups {
        crate::kernels::simd::widest(
            #[inline(always)]
            || transform_rows(src, g, rows, n, gi * cing, h, padded),
        );
        let len = w.tiles * XI * cing * w.rows;
        let u = &w.u[gi * len..][..len];
        let out_g = &mut out[gi * coutg * p..(gi + 1) * coutg * p];
        let bias_g = bias.map(|b| &b[gi * coutg..(gi + 1) * coutg]);
        let scratch = (&*h, &mut *panel);
        if w.rows == MR_WIDE {
            let u = u.as_chunks::<MR_WIDE>().0;
            crate::kernels::simd::widest(
                #[inline(always)]
                || blocks_loop::<true, MR_WIDE>(u, scratch, g, rows, coutg, bias_g, out_g),
            );
        } else {
            let u = u.as_chunks::<MR>().0;
            crate::kernels::simd::with_fma(
                #[inline(always)]
                |fma| match fma {
                    true => blocks_loop::<true, MR>(u, scratch, g, rows, coutg, bias_g, out_g),
                    false => blocks_loop::<false, MR>(u, scratch, g, rows, coutg, bias_g, out_g),
                },
            );
        }
    }
}

/// The row half of the input transform, `d B` for every 4-wide window at an even
/// column of every padded row of one group's channels `c0..`: `h[((c·4 + k)·hr + r)·tw
/// + tx]` is element `k` of `(row r) · B` at window `tx`, with
/// `e[tx] = row[2·tx]`, `o[tx] = row[2·tx + 1]`: `e[tx] - e[tx+1]`, `o[tx] + e[tx+1]`,
/// `e[tx+1] - o[tx]`, `o[tx] - o[tx+1]`. Then the patch rows of tile `(ty, tx)` are
/// rows `2·ty..2·ty + 4`, and a block's lanes read them as plain windows.
#[inline(always)]
fn transform_rows(
    src: &Src<'_, f32>,
    g: &Geo,
    rows: &Rows,
    n: usize,
    c0: usize,
    h: &mut [f32],
    image: &mut [f32],
) {
    let (hr, tw) = (rows.hr, rows.tw);
    let cing = g.cin / g.groups;
    // The lanes the last block reads past the last row: never kept.
    h[cing * 4 * hr * tw..].fill(0.0);
    for c in 0..cing {
        let base = src.offset as isize + n as isize * src.st[0] + (c0 + c) as isize * src.st[1];
        // The padded channel first, then its rows' transforms: a row's loads come long
        // after its stores (a load straddling two recent stores waits for both).
        let rl = rows.row_len();
        image.fill(0.0);
        for r in 0..hr {
            if let Some(y) = r.checked_sub(g.p.0).filter(|&y| y < g.h) {
                let first = (base + y as isize * src.st[2]) as usize;
                let dst = &mut image[r * rl + g.p.1..][..g.w];
                if src.st[3] == 1 {
                    gather(dst, &src.data[first..], 1);
                } else {
                    for (x, v) in dst.iter_mut().enumerate() {
                        *v = src.data[(first as isize + x as isize * src.st[3]) as usize];
                    }
                }
            }
        }
        for r in 0..hr {
            let row = &image[r * rl..][..rl];
            // The four planes of channel `c`, row `r` of each; column pairs `(e, o)`.
            let planes = &mut h[c * 4 * hr * tw..][..4 * hr * tw];
            let (h0, rest) = planes.split_at_mut(hr * tw);
            let (h1, rest) = rest.split_at_mut(hr * tw);
            let (h2, h3) = rest.split_at_mut(hr * tw);
            let (h0, h1) = (&mut h0[r * tw..][..tw], &mut h1[r * tw..][..tw]);
            let (h2, h3) = (&mut h2[r * tw..][..tw], &mut h3[r * tw..][..tw]);
            let pairs = &row.as_chunks::<2>().0[..tw + 1];
            let windows = pairs.iter().zip(&pairs[1..]);
            let dst = h0.iter_mut().zip(h1.iter_mut()).zip(h2.iter_mut()).zip(h3);
            for ((((v0, v1), v2), v3), (&[e0, o0], &[e1, o1])) in dst.zip(windows) {
                *v0 = e0 - e1;
                *v1 = o0 + e1;
                *v2 = e1 - o0;
                *v3 = o0 - o1;
            }
        }
    }
}

/// Block by block of `NR` tiles of one group (compiled for AVX2 and FMA, or AVX-512,
/// when `FMA`): the column half of the input transform of every channel into `panel`
/// (`panel[ξ·C_in_g + c]`, a tile per lane), then per register tile of `R` output
/// channels the 16 products and the output transform.
#[inline(always)]
fn blocks_loop<const FMA: bool, const R: usize>(
    u: &[[f32; R]],
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
    let mut m = [[[0.0f32; NR]; R]; XI];
    for t0 in (0..tiles).step_by(NR) {
        let lanes = Lanes::new(t0, tiles, tw);
        for c in 0..cing {
            for k in 0..4 {
                let plane = &h[(c * 4 + k) * hr * tw..];
                let d = [
                    lanes.read(plane),
                    lanes.read(&plane[tw..]),
                    lanes.read(&plane[2 * tw..]),
                    lanes.read(&plane[3 * tw..]),
                ];
                // Bᵀ over the patch rows.
                let mut v = [[0.0f32; NR]; 4];
                for l in 0..NR {
                    v[0][l] = d[0][l] - d[2][l];
                    v[1][l] = d[1][l] + d[2][l];
                    v[2][l] = d[2][l] - d[1][l];
                    v[3][l] = d[1][l] - d[3][l];
                }
                for (i, v) in v.into_iter().enumerate() {
                    panel[(4 * i + k) * cing + c] = v;
                }
            }
        }
        for (t, u_t) in u.chunks_exact(XI * cing).enumerate() {
            let r0 = t * R;
            for (xi, m) in m.iter_mut().enumerate() {
                let mut acc = [[0.0f32; NR]; R];
                kernel::<FMA, R>(
                    &u_t[xi * cing..][..cing],
                    &panel[xi * cing..][..cing],
                    &mut acc,
                );
                *m = acc;
            }
            for r in 0..R.min(coutg - r0) {
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
fn transform_output<const R: usize>(
    m: &[[[f32; NR]; R]; XI],
    r: usize,
    bias: f32,
) -> [[f32; NR]; 4] {
    #[cfg(target_arch = "x86_64")]
    if R == MR_WIDE && avx512() {
        // SAFETY: the level is AVX-512 (checked just above), so the CPU has AVX-512 F.
        return unsafe { transform_output_avx512(m.as_flattened(), R, r, bias) };
    }
    // Aᵀ over the rows (2×4), then over the columns; lane by lane, in plain loops (an
    // out-of-line `array::from_fn` would run without the caller's vector width).
    let (mut top, mut bot) = ([[0.0f32; NR]; 4], [[0.0f32; NR]; 4]);
    for j in 0..4 {
        let (m0, m1, m2, m3) = (&m[j][r], &m[4 + j][r], &m[8 + j][r], &m[12 + j][r]);
        for l in 0..NR {
            top[j][l] = m0[l] + m1[l] + m2[l];
            bot[j][l] = m1[l] - m2[l] - m3[l];
        }
    }
    let mut y = [[0.0f32; NR]; 4];
    for l in 0..NR {
        y[0][l] = top[0][l] + top[1][l] + top[2][l] + bias;
        y[1][l] = top[1][l] - top[2][l] - top[3][l] + bias;
        y[2][l] = bot[0][l] + bot[1][l] + bot[2][l] + bias;
        y[3][l] = bot[1][l] - bot[2][l] - bot[3][l] + bias;
    }
    y
}

/// `acc[r][j] += Σ_k a[k][r] · b[k][j]`, `k` in order: the register tile of `R` output
/// channels and `NR` tiles.
#[inline(always)]
fn kernel<const FMA: bool, const R: usize>(
    a: &[[f32; R]],
    b: &[[f32; NR]],
    acc: &mut [[f32; NR]; R],
) {
    #[cfg(target_arch = "x86_64")]
    if R == MR_WIDE && avx512() {
        let a = a.as_flattened().as_chunks::<MR_WIDE>().0;
        if let Ok(acc) = <&mut [[f32; NR]; MR_WIDE]>::try_from(&mut acc[..]) {
            // SAFETY: the level is AVX-512 (checked just above), so the CPU has
            // AVX-512 F.
            unsafe { kernel_avx512(a, b, acc) };
            return;
        }
    }
    let mut s = *acc;
    for (av, bv) in a.iter().zip(b) {
        for (row, &x) in s.iter_mut().zip(av) {
            for (v, &y) in row.iter_mut().zip(bv) {
                *v = if FMA { x.mul_add(y, *v) } else { *v + x * y };
            }
        }
    }
    *acc = s;
}

/// [`transform_output`] with AVX-512 (the same additions in the same order, a vector of
/// 16 tiles each): `m[ξ·rows + r]` is row `r` of product `ξ`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
#[cfg_attr(unoptimized, inline)]
fn transform_output_avx512(m: &[[f32; NR]], rows: usize, r: usize, bias: f32) -> [[f32; NR]; 4] {
    use std::arch::x86_64::{__m512, _mm512_add_ps, _mm512_loadu_ps, _mm512_set1_ps};
    use std::arch::x86_64::{_mm512_setzero_ps, _mm512_storeu_ps, _mm512_sub_ps};
    let mut v: [__m512; XI] = [_mm512_setzero_ps(); XI];
    for (xi, v) in v.iter_mut().enumerate() {
        let row = &m[xi * rows + r];
        // SAFETY: `row` is 16 `f32`s, an unaligned 512-bit load.
        *v = unsafe { _mm512_loadu_ps(row.as_ptr()) };
    }
    let (mut top, mut bot) = ([_mm512_setzero_ps(); 4], [_mm512_setzero_ps(); 4]);
    for j in 0..4 {
        top[j] = _mm512_add_ps(_mm512_add_ps(v[j], v[4 + j]), v[8 + j]);
        bot[j] = _mm512_sub_ps(_mm512_sub_ps(v[4 + j], v[8 + j]), v[12 + j]);
    }
    let b = _mm512_set1_ps(bias);
    let y = [
        _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(top[0], top[1]), top[2]), b),
        _mm512_add_ps(_mm512_sub_ps(_mm512_sub_ps(top[1], top[2]), top[3]), b),
        _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(bot[0], bot[1]), bot[2]), b),
        _mm512_add_ps(_mm512_sub_ps(_mm512_sub_ps(bot[1], bot[2]), bot[3]), b),
    ];
    let mut out = [[0.0f32; NR]; 4];
    for (o, y) in out.iter_mut().zip(y) {
        // SAFETY: `o` is 16 `f32`s, an unaligned 512-bit store.
        unsafe { _mm512_storeu_ps(o.as_mut_ptr(), y) };
    }
    out
}

/// [`kernel`] for [`MR_WIDE`] output channels with AVX-512: the 16 rows in 16 vector
/// registers, each step one vector of `b` and a broadcast of each element of `a` (the
/// same fused multiply-adds in the same order, so the same values).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
#[cfg_attr(unoptimized, inline)]
fn kernel_avx512(a: &[[f32; MR_WIDE]], b: &[[f32; NR]], acc: &mut [[f32; NR]; MR_WIDE]) {
    use std::arch::x86_64::{__m512, _mm512_fmadd_ps, _mm512_loadu_ps, _mm512_set1_ps};
    use std::arch::x86_64::{_mm512_setzero_ps, _mm512_storeu_ps};
    let mut s: [__m512; MR_WIDE] = [_mm512_setzero_ps(); MR_WIDE];
    for (v, row) in s.iter_mut().zip(acc.iter()) {
        // SAFETY: `row` is 16 `f32`s, an unaligned 512-bit load.
        *v = unsafe { _mm512_loadu_ps(row.as_ptr()) };
    }
    for (av, bv) in a.iter().zip(b) {
        // SAFETY: `bv` is 16 `f32`s, an unaligned 512-bit load.
        let y = unsafe { _mm512_loadu_ps(bv.as_ptr()) };
        for (v, &x) in s.iter_mut().zip(av) {
            *v = _mm512_fmadd_ps(_mm512_set1_ps(x), y, *v);
        }
    }
    for (v, row) in s.iter().zip(acc.iter_mut()) {
        // SAFETY: `row` is 16 `f32`s, an unaligned 512-bit store.
        unsafe { _mm512_storeu_ps(row.as_mut_ptr(), *v) };
    }
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
                for l in 0..NR {
                    v[l] = (w[l].to_bits() & m[l]) | (v[l] & !m[l]);
                }
            }
        }
        let mut out = [0.0f32; NR];
        for (o, &b) in out.iter_mut().zip(&v) {
            *o = f32::from_bits(b);
        }
        out
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
