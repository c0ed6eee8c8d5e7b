//! im2col and col2im over a batch of images at once, for the conv paths that run one
//! GEMM per batch of images (small convolutions forward, every backward) instead of one
//! per image.
//!
//! The images are first copied into a zero-padded buffer `[b, C_g, H + 2pH, W + 2pW]`,
//! so that every kernel tap reads inside it: the im2col rows are plain copies (no
//! padding test per element) and col2im plain adds, into a padded gradient whose
//! interior is then the input's gradient. The column matrix is `col[K, b·P]` row-major
//! with `K = (c, ki, kj)` and columns `(image, oy, ox)`, as the per-image layout of
//! `gemm.rs` laid side by side. A recorded small convolution keeps its column matrices
//! ([`Kept`], laid out as [`kept_at`] says) for the backward's weight gradient.

use std::ops::Add;

use super::geometry::{gather, Cols};
use crate::element::Element;

/// Images read in place: storage slice, storage offset, element strides
/// `[n, c, y, x]` (`geometry.rs`'s input reader).
pub(super) type Images<'a, T> = super::geometry::Src<'a, T>;

/// The column matrices a small convolution keeps for its backward: a `Vec` of its
/// dtype's elements (`f32` or `f64`), moved, not copied, into the graph node.
pub(crate) type Kept = Box<dyn std::any::Any + Send + Sync>;

/// Copies images `[n0, n0 + b)`, channels `[c0, c0 + C_g)` of `src` into `pad`
/// (`b` padded images, zero borders). `pad` holds `b · g.padded_len()` elements.
pub(super) fn pad_images<T: Element>(
    src: &Images<'_, T>,
    g: &Cols,
    n0: usize,
    b: usize,
    c0: usize,
    pad: &mut [T],
) {
    let (hp, wp) = g.padded();
    let pad = &mut pad[..b * g.padded_len()];
    for (q, plane) in pad.chunks_exact_mut(hp * wp).enumerate() {
        let (n, c) = (n0 + q / g.cing, c0 + q % g.cing);
        let base = src.offset as isize + n as isize * src.st[0] + c as isize * src.st[1];
        // The zero border: top and bottom rows, then each row's left and right ends.
        plane[..g.p[0] * wp].fill(T::ZERO);
        plane[(g.p[0] + g.h) * wp..].fill(T::ZERO);
        for y in 0..g.h {
            let row = &mut plane[(y + g.p[0]) * wp..][..wp];
            row[..g.p[1]].fill(T::ZERO);
            row[g.p[1] + g.w..].fill(T::ZERO);
        }
        for y in 0..g.h {
            let first = (base + y as isize * src.st[2]) as usize;
            let dst = &mut plane[(y + g.p[0]) * wp + g.p[1]..][..g.w];
            if src.st[3] == 1 {
                gather(dst, &src.data[first..], 1);
            } else {
                for (x, v) in dst.iter_mut().enumerate() {
                    *v = src.data[(first as isize + x as isize * src.st[3]) as usize];
                }
            }
        }
    }
}

/// `dst[t · step] += src[t]` for every `t < src.len()`; unit-step rows in blocks of
/// four as arrays, as [`gather`].
#[inline(always)]
fn scatter_add<T: Copy + Add<Output = T>>(dst: &mut [T], src: &[T], step: usize) {
    if step == 1 {
        let dst = &mut dst[..src.len()];
        let (d4, dr) = dst.as_chunks_mut::<4>();
        let (s4, sr) = src.as_chunks::<4>();
        for (d, s) in d4.iter_mut().zip(s4) {
            *d = [d[0] + s[0], d[1] + s[1], d[2] + s[2], d[3] + s[3]];
        }
        for (v, &x) in dr.iter_mut().zip(sr) {
            *v = *v + x;
        }
    } else {
        for (t, &x) in src.iter().enumerate() {
            dst[t * step] = dst[t * step] + x;
        }
    }
}

/// The column matrix of `b` padded images (`pad`, as [`pad_images`] wrote them):
/// `col[K, b·P]` row-major, `col` holding `K · b · P` elements. (Index loops rather than
/// `chunks_exact(P)`: a chunk count is a division, which per row and image costs as
/// much as the row's copy.)
pub(super) fn im2col<T: Copy>(pad: &[T], g: &Cols, b: usize, col: &mut [T]) {
    let (hp, wp) = g.padded();
    let (p, oh, ow) = (g.positions(), g.oh, g.ow);
    let (ld, plane, row_step) = (b * p, hp * wp, g.s[0] * wp);
    for c in 0..g.cing {
        for ki in 0..g.k[0] {
            for kj in 0..g.k[1] {
                let k = (c * g.k[0] + ki) * g.k[1] + kj;
                let tap = ki * g.d[0] * wp + kj * g.d[1];
                let row = &mut col[k * ld..(k + 1) * ld];
                for j in 0..b {
                    let src = &pad[(j * g.cing + c) * plane + tap..];
                    let dst = &mut row[j * p..(j + 1) * p];
                    for oy in 0..oh {
                        let out = &mut dst[oy * ow..(oy + 1) * ow];
                        gather(out, &src[oy * row_step..], g.s[1]);
                    }
                }
            }
        }
    }
}

/// The reverse of [`im2col`]: adds every entry of `col[K, b·P]` into the padded image
/// position it was read from (`pad`: `b` padded images).
pub(super) fn col2im<T: Copy + Add<Output = T>>(col: &[T], g: &Cols, b: usize, pad: &mut [T]) {
    let (hp, wp) = g.padded();
    let (p, oh, ow) = (g.positions(), g.oh, g.ow);
    let (ld, plane, row_step) = (b * p, hp * wp, g.s[0] * wp);
    for c in 0..g.cing {
        for ki in 0..g.k[0] {
            for kj in 0..g.k[1] {
                let k = (c * g.k[0] + ki) * g.k[1] + kj;
                let tap = ki * g.d[0] * wp + kj * g.d[1];
                let row = &col[k * ld..(k + 1) * ld];
                for j in 0..b {
                    let dst = &mut pad[(j * g.cing + c) * plane + tap..];
                    let src = &row[j * p..(j + 1) * p];
                    for oy in 0..oh {
                        let from = &src[oy * ow..(oy + 1) * ow];
                        scatter_add(&mut dst[oy * row_step..], from, g.s[1]);
                    }
                }
            }
        }
    }
}

/// Copies the interior of `b` padded images (`pad`) into `dst`: images of `C` channels
/// (`dst` row-major `[b, C, H, W]`), this group's channels starting at `c0`.
pub(super) fn unpad_images<T: Copy>(
    pad: &[T],
    g: &Cols,
    b: usize,
    c: usize,
    c0: usize,
    dst: &mut [T],
) {
    let (hp, wp) = g.padded();
    for j in 0..b {
        for ci in 0..g.cing {
            let plane = &pad[(j * g.cing + ci) * hp * wp..][..hp * wp];
            let out = &mut dst[(j * c + c0 + ci) * g.h * g.w..][..g.h * g.w];
            for (y, row) in out.chunks_exact_mut(g.w).enumerate() {
                row.copy_from_slice(&plane[(y + g.p[0]) * wp + g.p[1]..][..g.w]);
            }
        }
    }
}

/// Where the kept column matrix of the batch of `b` images from image `n0`, group
/// `gi` (of `groups`), starts: `kp` = `K · P` elements per image and group.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn kept_at(n0: usize, b: usize, gi: usize, groups: usize, kp: usize) -> usize {
    (n0 * groups + gi * b) * kp
}

#[cfg(test)]
mod tests {
    use super::*;

    /// im2col of padded images against the definition, for strides, dilations and
    /// padding; col2im against its transpose.
    #[test]
    fn im2col_and_col2im_match_the_definition() {
        for &(h, w, k, s, d, p) in &[
            (5, 6, [3, 3], [1, 1], [1, 1], [1, 1]),
            (7, 5, [3, 2], [2, 1], [1, 2], [1, 0]),
            (4, 4, [1, 1], [1, 1], [1, 1], [0, 0]),
            (8, 9, [2, 3], [3, 2], [2, 1], [0, 1]),
        ] {
            let (cin, b) = (3, 2);
            let oh = (h + 2 * p[0] - d[0] * (k[0] - 1) - 1) / s[0] + 1;
            let ow = (w + 2 * p[1] - d[1] * (k[1] - 1) - 1) / s[1] + 1;
            let g = Cols {
                cing: cin,
                h,
                w,
                p,
                k,
                s,
                d,
                oh,
                ow,
            };
            let x: Vec<f64> = (0..b * cin * h * w).map(|i| i as f64 + 1.0).collect();
            let src = Images {
                data: &x,
                offset: 0,
                st: [(cin * h * w) as isize, (h * w) as isize, w as isize, 1],
            };
            let mut pad = vec![0.0; b * g.padded_len()];
            pad_images(&src, &g, 0, b, 0, &mut pad);
            let (kk, pp) = (g.rows(), g.positions());
            let mut col = vec![0.0; kk * b * pp];
            im2col(&pad, &g, b, &mut col);
            let mut dpad = vec![0.0; b * g.padded_len()];
            col2im(&col, &g, b, &mut dpad);
            let mut dx = vec![0.0; x.len()];
            unpad_images(&dpad, &g, b, cin, 0, &mut dx);
            let mut want_dx = vec![0.0; x.len()];
            for c in 0..cin {
                for ki in 0..k[0] {
                    for kj in 0..k[1] {
                        let row = (c * k[0] + ki) * k[1] + kj;
                        for j in 0..b {
                            for oy in 0..oh {
                                for ox in 0..ow {
                                    let iy = (oy * s[0] + ki * d[0]).checked_sub(p[0]);
                                    let ix = (ox * s[1] + kj * d[1]).checked_sub(p[1]);
                                    let at = match (iy, ix) {
                                        (Some(iy), Some(ix)) if iy < h && ix < w => {
                                            Some(((j * cin + c) * h + iy) * w + ix)
                                        }
                                        _ => None,
                                    };
                                    let v = col[row * b * pp + j * pp + oy * ow + ox];
                                    assert_eq!(v, at.map_or(0.0, |a| x[a]));
                                    if let Some(a) = at {
                                        want_dx[a] += v;
                                    }
                                }
                            }
                        }
                    }
                }
            }
            assert_eq!(dx, want_dx);
        }
    }
}
