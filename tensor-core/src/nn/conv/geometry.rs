//! What the conv paths share, so that each path imports this file and none imports
//! another: the checked geometry of a call ([`Geo`]) and of one group's column matrix
//! ([`Cols`]), the input read in place ([`Src`]) and the input coordinate under a
//! kernel tap ([`in_coord`]), the strided row copy ([`gather`]), the `f32`/`f64` GEMM
//! ([`Gemm`]), the output split into images across threads ([`run_images`]), the
//! `MR × NR` register tile of the `f32` paths ([`kernel`]: `panel.rs`; `winograd.rs`
//! takes its sizes), and a call's stride, padding, dilation and groups
//! ([`ConvParams`]), which the forward and the backward both take.

use std::mem::MaybeUninit;

use crate::alloc::try_vec;
use crate::element::Element;
use crate::error::Result;
use crate::layout::strides_for_format;
use crate::layout::MemoryFormat;
use crate::matmul::packed::gemm_raw;
use crate::matmul::row_split;
use crate::shape_ops::slices::fresh_output;
use crate::tensor::Tensor;
use rayon::prelude::*;

/// The hyper-parameters of a 2-d convolution, as the fields of PyTorch's `ConvParams`
/// (aten/src/ATen/native/Convolution.cpp) that a CPU `conv2d` reads. Each pair is
/// `[height, width]`, in elements of the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ConvParams {
    /// How far the kernel moves between two output positions (elements; `F.conv2d`'s
    /// `stride`). Must not be 0.
    pub(crate) stride: [usize; 2],
    /// Zeros added on each side of the input, so `2 * padding` in all (elements;
    /// `padding`).
    pub(crate) padding: [usize; 2],
    /// The distance between two neighbouring taps of the kernel (elements; 1 for a
    /// dense kernel; `dilation`). Must not be 0.
    pub(crate) dilation: [usize; 2],
    /// How many groups the channels are split into: each output channel sees
    /// `C_in / groups` input channels (`groups`). Must not be 0.
    pub(crate) groups: usize,
}

impl Default for ConvParams {
    /// PyTorch's defaults: stride 1, padding 0, dilation 1, one group.
    #[cfg_attr(unoptimized, inline)]
    fn default() -> Self {
        ConvParams {
            stride: [1, 1],
            padding: [0, 0],
            dilation: [1, 1],
            groups: 1,
        }
    }
}

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

/// The geometry the column matrix needs: one group's channels, padded image, kernel,
/// stride, dilation, output.
#[derive(Clone, Copy, Debug)]
pub(super) struct Cols {
    /// Channels of one group.
    pub cing: usize,
    /// Input height and width (unpadded), and padding.
    pub h: usize,
    pub w: usize,
    pub p: [usize; 2],
    /// Kernel, stride, dilation.
    pub k: [usize; 2],
    pub s: [usize; 2],
    pub d: [usize; 2],
    /// Output height and width.
    pub oh: usize,
    pub ow: usize,
}

impl Cols {
    /// Padded height and width.
    #[cfg_attr(unoptimized, inline)]
    pub fn padded(&self) -> (usize, usize) {
        (self.h + 2 * self.p[0], self.w + 2 * self.p[1])
    }

    /// Elements of one padded image (all of the group's channels).
    #[cfg_attr(unoptimized, inline)]
    pub fn padded_len(&self) -> usize {
        let (hp, wp) = self.padded();
        self.cing * hp * wp
    }

    /// Rows of the column matrix: `C_g · kH · kW`.
    #[cfg_attr(unoptimized, inline)]
    pub fn rows(&self) -> usize {
        self.cing * self.k[0] * self.k[1]
    }

    /// Output positions of one image.
    #[cfg_attr(unoptimized, inline)]
    pub fn positions(&self) -> usize {
        self.oh * self.ow
    }

    /// Images per GEMM for `cout_g` output channels: as many as keep every GEMM of a
    /// batch (`[C_out_g, K]·[K, b·P]`, `[K, C_out_g]·[C_out_g, b·P]`, `[C_out_g,
    /// b·P]·[b·P, K]`) small (`m·k + k·n` of 2^15: a product of tens of microseconds,
    /// which threads would cost more than they save; the batches themselves are spread
    /// over the threads), at least one; the `n` images are cut into batches of equal
    /// size.
    #[cfg_attr(unoptimized, inline)]
    pub fn batch(&self, cout_g: usize, n: usize) -> usize {
        let (kk, p) = (self.rows(), self.positions());
        let room = (1usize << 15)
            .saturating_sub(1)
            .saturating_sub(cout_g.saturating_mul(kk));
        let most = (room / (kk + cout_g).saturating_mul(p).max(1)).clamp(1, n.max(1));
        let batches = n.max(1).div_ceil(most);
        n.max(1).div_ceil(batches)
    }
}

/// One group's image geometry as `cols.rs` takes it.
#[cfg_attr(unoptimized, inline)]
pub(super) fn cols_geo(g: &Geo) -> Cols {
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

/// `f32`/`f64` GEMM: the packing kernels of the matmul backend
/// ([`crate::matmul::packed`]).
pub(super) trait Gemm: Element {
    /// `C ← A·B + beta·C` with element strides (row stride, column stride), `beta` 0 or
    /// 1.
    ///
    /// # Safety
    /// Every element of A (m×k), B (k×n) and C (m×n) under the strides is in bounds, the
    /// strides are positive; C's elements do not alias each other or A and B; C needs
    /// to be initialised only when `beta` is not zero.
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
    ($t:ty) => {
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
                // The kernels split a large product (one image of a batch of 1, or
                // images run one after another) along rows and columns over rayon's
                // pool; inside a parallel region (images already spread over the
                // threads) `row_split` answers 1 and the product stays on its thread.
                let threads = row_split(m, k, n) > 1;
                // SAFETY: the caller's contract is the kernel's; `beta` is 0 (C not
                // read) or 1 (C accumulated).
                unsafe { gemm_raw((m, k, n), a, b, c, beta != 0.0, threads) }
            }
        }
    };
}
gemm_impl!(f32);
gemm_impl!(f64);

/// The input read in place: storage slice, storage offset, strides `[n, c, h, w]`.
pub(super) struct Src<'a, T> {
    pub(super) data: &'a [T],
    pub(super) offset: usize,
    pub(super) st: [isize; 4],
}

impl<T: Copy> Src<'_, T> {
    /// The storage index of element `(n, c, y, x)`.
    #[inline(always)]
    pub(super) fn index(&self, n: usize, c: usize, y: usize, x: usize) -> usize {
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

/// `dst[t] = src[t · step]` for every `t < dst.len()`; unit-step rows in blocks of
/// four as arrays (one vector move each: a slice copy of a length known only at run
/// time would call `memcpy` for every short row).
#[inline(always)]
pub(super) fn gather<T: Copy>(dst: &mut [T], src: &[T], step: usize) {
    if step == 1 {
        let src = &src[..dst.len()];
        let (d4, dr) = dst.as_chunks_mut::<4>();
        let (s4, sr) = src.as_chunks::<4>();
        for (d, s) in d4.iter_mut().zip(s4) {
            *d = *s;
        }
        for (v, &x) in dr.iter_mut().zip(sr) {
            *v = x;
        }
    } else {
        for (t, v) in dst.iter_mut().enumerate() {
            *v = src[t * step];
        }
    }
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

/// Output channels per register tile.
pub(super) const MR: usize = 6;
/// Output pixels per register tile.
pub(super) const NR: usize = 16;

/// `acc[r][j] += Σ_k a[k][r] · b[k][j]`, `k` in order.
#[inline(always)]
pub(super) fn kernel<const FMA: bool>(a: &[[f32; MR]], b: &[[f32; NR]], acc: &mut [[f32; NR]; MR]) {
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
