//! Contiguity predicates of a [`Layout`] and the flags PyTorch caches from them
//! (c10/core/Contiguity.h, TensorImpl `_refresh_contiguous`), plus
//! `suggest_memory_format`.
//!
//! Size-0 and size-1 dims follow PyTorch exactly: `is_contiguous` is true for any tensor
//! with zero elements and skips size-1 dims; the channels-last walks skip size-1 dims but
//! have no zero-element shortcut; the "strides like" heuristics reject any size-0 dim.

use crate::layout::Layout;
use crate::layout::MemoryFormat;
use crate::layout::{channels_last_strides_2d, channels_last_strides_3d};

/// Dim orders (outermost stride last) walked by the channels-last predicates.
const CL_2D_ORDER: [usize; 4] = [1, 3, 2, 0];
const CL_3D_ORDER: [usize; 5] = [1, 4, 3, 2, 0];

/// The contiguity flags PyTorch caches on a tensor (`TensorImpl::_refresh_contiguous`).
///
/// At most one of `is_contiguous`-style flags decides `is_contiguous(format)`;
/// `is_channels_last`/`is_channels_last_3d` are the "strides like" heuristics that
/// `suggest_memory_format` reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContiguityFlags {
    /// Row-major contiguous (`is_contiguous()`).
    pub is_contiguous: bool,
    /// NHWC contiguous, 4-d only (`is_contiguous(memory_format=torch.channels_last)`).
    pub is_channels_last_contiguous: bool,
    /// NDHWC contiguous, 5-d only, and only when not 2-d channels-last contiguous.
    pub is_channels_last_3d_contiguous: bool,
    /// Strides look like NHWC (`is_strides_like_channels_last`).
    pub is_channels_last: bool,
    /// Strides look like NDHWC (`is_strides_like_channels_last_3d`).
    pub is_channels_last_3d: bool,
    /// Every element has its own memory location and there are no gaps.
    pub is_non_overlapping_and_dense: bool,
}

/// Walks `order` (innermost first), skipping size-1 dims, requiring packed strides.
fn packed_in_order(layout: &Layout, order: &[usize]) -> bool {
    let (sizes, strides) = (layout.sizes(), layout.strides());
    let mut expected: isize = 1;
    for &d in order {
        if sizes[d] != 1 {
            if strides[d] != expected {
                return false;
            }
            expected = expected.wrapping_mul(sizes[d] as isize);
        }
    }
    true
}

/// The "strides like channels last" heuristic over `order` (`is_channels_last_strides_2d_s4`
/// and its 3-d twin).
fn strides_like_in_order(layout: &Layout, order: &[usize]) -> bool {
    let (sizes, strides) = (layout.sizes(), layout.strides());
    if strides[1] == 0 {
        return false;
    }
    let mut min: isize = 0;
    for &d in order {
        if sizes[d] == 0 || strides[d] < min {
            return false;
        }
        // N111 or N11W sliced: identical strides are ambiguous; default to NCHW.
        if d == 0 && min == strides[1] {
            return false;
        }
        min = strides[d];
        if sizes[d] > 1 {
            min = min.wrapping_mul(sizes[d] as isize);
        }
    }
    true
}

impl Layout {
    /// Row-major contiguity (`compute_contiguous`): true for zero elements and for 0-d;
    /// size-1 dims are skipped, so their strides are free.
    pub fn is_contiguous(&self) -> bool {
        if self.numel() == 0 {
            return true;
        }
        // `packed_in_order` over the dims from last to first, without building the order.
        let mut expected: isize = 1;
        for (&size, &stride) in self.sizes().iter().zip(self.strides()).rev() {
            if size != 1 {
                if stride != expected {
                    return false;
                }
                expected = expected.wrapping_mul(size as isize);
            }
        }
        true
    }

    /// NHWC contiguity (`compute_channels_last_contiguous_2d`): 4-d only, dims walked in
    /// the order 1, 3, 2, 0 skipping size-1 dims; no zero-element shortcut.
    pub fn is_channels_last_contiguous(&self) -> bool {
        self.ndim() == 4 && packed_in_order(self, &CL_2D_ORDER)
    }

    /// NDHWC contiguity (`compute_channels_last_contiguous_3d`): 5-d only, dims walked in
    /// the order 1, 4, 3, 2, 0. This is the raw predicate; the cached flag in
    /// [`ContiguityFlags`] also requires "not 2-d channels-last contiguous".
    pub fn is_channels_last_3d_contiguous(&self) -> bool {
        self.ndim() == 5 && packed_in_order(self, &CL_3D_ORDER)
    }

    /// `compute_non_overlapping_and_dense`: after sorting dims by stride (dims of size < 2
    /// last), the strides are 1, size, size*size, ... A 1-d layout needs size < 2 or
    /// stride 1; 0-d is true.
    pub fn compute_non_overlapping_and_dense(&self) -> bool {
        let (sizes, strides) = (self.sizes(), self.strides());
        match self.ndim() {
            0 => return true,
            1 => return sizes[0] < 2 || strides[0] == 1,
            _ => {}
        }
        let mut perm: Vec<usize> = (0..self.ndim()).collect();
        perm.sort_by_key(|&d| (sizes[d] < 2, strides[d]));
        let mut required: isize = 1;
        for d in perm {
            if sizes[d] < 2 {
                return true;
            }
            if strides[d] != required {
                return false;
            }
            required = required.wrapping_mul(sizes[d] as isize);
        }
        true
    }

    /// Strides like NHWC (`is_channels_last_strides_2d`): only 4-d layouts can be.
    pub fn is_strides_like_channels_last_2d(&self) -> bool {
        self.ndim() == 4 && strides_like_in_order(self, &CL_2D_ORDER)
    }

    /// Strides like NDHWC (`is_channels_last_strides_3d`): only 5-d layouts can be.
    pub fn is_strides_like_channels_last_3d(&self) -> bool {
        self.ndim() == 5 && strides_like_in_order(self, &CL_3D_ORDER)
    }

    /// The flags PyTorch caches (`_refresh_contiguous`), with its rank-dependent rules:
    /// for 5-d, channels-last-3d contiguity holds only when not channels-last contiguous,
    /// and "like channels last 3d" only when not "like channels last".
    pub fn contiguity_flags(&self) -> ContiguityFlags {
        let is_contiguous = self.is_contiguous();
        match self.ndim() {
            4 => {
                let cl = self.is_channels_last_contiguous();
                ContiguityFlags {
                    is_contiguous,
                    is_channels_last_contiguous: cl,
                    is_channels_last_3d_contiguous: false,
                    is_channels_last: self.is_strides_like_channels_last_2d(),
                    is_channels_last_3d: false,
                    is_non_overlapping_and_dense: is_contiguous
                        || cl
                        || self.compute_non_overlapping_and_dense(),
                }
            }
            5 => {
                let cl = self.is_channels_last_contiguous();
                let cl3 = !cl && self.is_channels_last_3d_contiguous();
                let like_cl = !cl3 && self.is_strides_like_channels_last_2d();
                let like_cl3 = !like_cl && self.is_strides_like_channels_last_3d();
                ContiguityFlags {
                    is_contiguous,
                    is_channels_last_contiguous: cl,
                    is_channels_last_3d_contiguous: cl3,
                    is_channels_last: like_cl,
                    is_channels_last_3d: like_cl3,
                    is_non_overlapping_and_dense: is_contiguous
                        || cl
                        || cl3
                        || self.compute_non_overlapping_and_dense(),
                }
            }
            _ => ContiguityFlags {
                is_contiguous,
                is_channels_last_contiguous: false,
                is_channels_last_3d_contiguous: false,
                is_channels_last: false,
                is_channels_last_3d: false,
                is_non_overlapping_and_dense: is_contiguous
                    || self.compute_non_overlapping_and_dense(),
            },
        }
    }

    /// `is_contiguous(memory_format)`: the cached flag of `format`
    /// (`Preserve` reads the row-major flag, as `TensorImpl::is_contiguous_default`).
    pub fn is_contiguous_format(&self, format: MemoryFormat) -> bool {
        match format {
            MemoryFormat::ChannelsLast => self.is_channels_last_contiguous(),
            MemoryFormat::ChannelsLast3d => self.contiguity_flags().is_channels_last_3d_contiguous,
            MemoryFormat::Contiguous | MemoryFormat::Preserve => self.is_contiguous(),
        }
    }

    /// `is_non_overlapping_and_dense()` (the cached flag).
    pub fn is_non_overlapping_and_dense(&self) -> bool {
        // The flag is true whenever the layout is contiguous: answered without the
        // channels-last tests for the common case.
        self.is_contiguous() || self.contiguity_flags().is_non_overlapping_and_dense
    }

    /// `suggest_memory_format(channels_last_strides_exact_match)` (TensorBase.h):
    /// `ChannelsLast` when the strides look like NHWC (and, with `exact_match`, equal the
    /// NHWC strides of the sizes); else the same test for NDHWC; else `Contiguous`.
    pub fn suggest_memory_format(&self, exact_match: bool) -> MemoryFormat {
        let flags = self.contiguity_flags();
        if flags.is_channels_last {
            if !exact_match
                || channels_last_strides_2d(self.sizes()).as_deref() == Some(self.strides())
            {
                return MemoryFormat::ChannelsLast;
            }
        } else if flags.is_channels_last_3d
            && (!exact_match
                || channels_last_strides_3d(self.sizes()).as_deref() == Some(self.strides()))
        {
            return MemoryFormat::ChannelsLast3d;
        }
        MemoryFormat::Contiguous
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn l(sizes: &[usize], strides: &[isize]) -> Layout {
        Layout::new(sizes.to_vec(), strides.to_vec(), 0)
    }

    #[test]
    fn n111_is_both_contiguous_and_channels_last_contiguous() {
        let x = l(&[4, 1, 1, 1], &[1, 1, 1, 1]);
        assert!(x.is_contiguous());
        assert!(x.is_channels_last_contiguous());
        assert_eq!(x.suggest_memory_format(false), MemoryFormat::Contiguous);
    }

    #[test]
    fn empty_channels_last_strides_are_channels_last_contiguous() {
        let x = l(&[0, 3, 2, 2], &[12, 1, 6, 3]);
        assert!(x.is_contiguous() && x.is_channels_last_contiguous());
        let y = l(&[0, 3, 2, 2], &[12, 4, 2, 1]);
        assert!(y.is_contiguous() && !y.is_channels_last_contiguous());
    }

    #[test]
    fn size_one_dim_stride_is_free() {
        assert!(l(&[2, 1, 3], &[3, 100, 1]).is_contiguous());
    }

    #[test]
    fn nhwc_strides_suggest_channels_last() {
        let x = l(&[2, 3, 4, 5], &[60, 1, 15, 3]);
        assert!(x.is_channels_last_contiguous());
        assert_eq!(x.suggest_memory_format(true), MemoryFormat::ChannelsLast);
    }

    #[test]
    fn channels_last_3d_contiguity_needs_5d() {
        let x = l(&[2, 3, 2, 4, 5], &[120, 1, 60, 15, 3]);
        let f = x.contiguity_flags();
        assert!(f.is_channels_last_3d_contiguous && f.is_channels_last_3d);
        assert!(!f.is_channels_last);
        assert_eq!(x.suggest_memory_format(true), MemoryFormat::ChannelsLast3d);
    }

    #[test]
    fn transposed_is_dense_not_contiguous() {
        let x = l(&[3, 2], &[1, 3]);
        assert!(!x.is_contiguous());
        assert!(x.is_non_overlapping_and_dense());
        assert!(!l(&[3, 2], &[2, 3]).is_non_overlapping_and_dense());
    }

    #[test]
    fn expanded_is_not_dense() {
        assert!(!l(&[4, 3], &[1, 0]).is_non_overlapping_and_dense());
        assert!(l(&[4], &[1]).is_non_overlapping_and_dense());
        assert!(l(&[1], &[7]).is_non_overlapping_and_dense());
    }
}
