//! Memory formats (`torch.memory_format`) and the strides each one gives
//! (c10/core/MemoryFormat.h, ExpandUtils.cpp `infer_dense_strides`).

use crate::error::{Error, Result};
use crate::layout::{contiguous_strides, Layout};

/// How a tensor's dims are ordered in memory (`torch.memory_format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MemoryFormat {
    /// Row-major, `torch.contiguous_format` (NCHW for 4-d).
    Contiguous,
    /// NHWC for 4-d tensors, `torch.channels_last`.
    ChannelsLast,
    /// NDHWC for 5-d tensors, `torch.channels_last_3d`.
    ChannelsLast3d,
    /// Keep the input's layout when dense, else follow its strides
    /// (`torch.preserve_format`).
    Preserve,
}

/// NHWC strides of 4-d `sizes` (`get_channels_last_strides_2d`): `s1 = 1, s3 = C,
/// s2 = C*W, s0 = s2*H`, in elements, from the raw sizes (no max(size, 1)).
/// `None` for other ranks.
pub fn channels_last_strides_2d(sizes: &[usize]) -> Option<Vec<isize>> {
    packed_strides(sizes, &[1, 3, 2, 0])
}

/// NDHWC strides of 5-d `sizes` (`get_channels_last_strides_3d`): dims packed in the
/// order 1, 4, 3, 2, 0 from the raw sizes. `None` for other ranks.
pub fn channels_last_strides_3d(sizes: &[usize]) -> Option<Vec<isize>> {
    packed_strides(sizes, &[1, 4, 3, 2, 0])
}

/// Strides packing the dims of `order` innermost first, multiplying raw sizes.
fn packed_strides(sizes: &[usize], order: &[usize]) -> Option<Vec<isize>> {
    if sizes.len() != order.len() {
        return None;
    }
    let mut strides = vec![0isize; sizes.len()];
    let mut acc: isize = 1;
    for &d in order {
        strides[d] = acc;
        acc = acc.saturating_mul(sizes[d].min(isize::MAX as usize) as isize);
    }
    Some(strides)
}

/// Strides of `at::empty(sizes, memory_format=format)`, in elements.
///
/// # Errors
/// [`Error::InvalidArgument`] for `ChannelsLast` on a rank other than 4
/// (`required rank 4 tensor to use channels_last format`), `ChannelsLast3d` on a rank
/// other than 5, and `Preserve` (which `empty` does not accept).
pub fn strides_for_format(sizes: &[usize], format: MemoryFormat) -> Result<Vec<isize>> {
    let bad = |message: &str| Error::InvalidArgument {
        op: "empty",
        message: message.to_string(),
    };
    match format {
        MemoryFormat::Contiguous => Ok(contiguous_strides(sizes)),
        MemoryFormat::ChannelsLast => channels_last_strides_2d(sizes)
            .ok_or_else(|| bad("required rank 4 tensor to use channels_last format")),
        MemoryFormat::ChannelsLast3d => channels_last_strides_3d(sizes)
            .ok_or_else(|| bad("required rank 5 tensor to use channels_last_3d format")),
        MemoryFormat::Preserve => Err(bad(
            "Unsupported memory format. Supported memory formats are: contiguous_format, channels_last, channels_last_3d",
        )),
    }
}

/// Dense strides that keep the dim order of `strides` (ExpandUtils.cpp
/// `infer_dense_strides`), in elements.
///
/// Dims are ordered innermost first by the comparator TensorIterator uses for its perm
/// (smaller stride first; equal strides: a strictly larger size goes after; any zero
/// stride is ambiguous), with the same insertion sort whose ambiguous comparisons keep
/// scanning left without moving, so later swaps can exchange non-adjacent slots. Then
/// strides are assigned in that order; sizes > 1 multiply into the running stride
/// (saturating at `isize::MAX` for sizes whose product overflows).
///
/// # Errors
/// [`Error::InvalidArgument`] when `sizes` and `strides` differ in length.
pub fn infer_dense_strides(sizes: &[usize], strides: &[isize]) -> Result<Vec<isize>> {
    let ndim = sizes.len();
    if strides.len() != ndim {
        return Err(Error::InvalidArgument {
            op: "infer_dense_strides",
            message: format!(
                "mismatch in length of strides and shape ({} vs {})",
                strides.len(),
                ndim
            ),
        });
    }
    match ndim {
        0 => return Ok(vec![]),
        1 => return Ok(vec![1]),
        _ => {}
    }
    // perm[0] is the innermost dim.
    let mut perm: Vec<usize> = (0..ndim).rev().collect();
    let should_swap = |d0: usize, d1: usize| -> i32 {
        let (s0, s1) = (strides[d0], strides[d1]);
        if s0 == 0 || s1 == 0 {
            return 0;
        }
        if s0 < s1 {
            return -1;
        }
        if s0 > s1 || sizes[d0] > sizes[d1] {
            return 1;
        }
        0
    };
    for i in 1..ndim {
        let mut dim1 = i;
        for dim0 in (0..i).rev() {
            match should_swap(perm[dim0], perm[dim1]) {
                c if c > 0 => {
                    perm.swap(dim0, dim1);
                    dim1 = dim0;
                }
                c if c < 0 => break,
                _ => {}
            }
        }
    }
    let mut out = vec![0isize; ndim];
    let mut cur: isize = 1;
    for &d in &perm {
        out[d] = cur;
        if sizes[d] > 1 {
            cur = cur.saturating_mul(sizes[d].min(isize::MAX as usize) as isize);
        }
    }
    Ok(out)
}

/// Strides of `empty_like(t, memory_format=preserve_format)` and of
/// `clone(preserve_format)`: the same strides when the layout is non-overlapping and
/// dense, else [`infer_dense_strides`].
pub fn preserve_strides(layout: &Layout) -> Vec<isize> {
    if layout.is_non_overlapping_and_dense() {
        layout.strides().to_vec()
    } else {
        // A layout's sizes and strides have the same length.
        infer_dense_strides(layout.sizes(), layout.strides()).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn channels_last_strides_use_raw_sizes() {
        assert_eq!(
            channels_last_strides_2d(&[2, 3, 4, 5]),
            Some(vec![60, 1, 15, 3])
        );
        assert_eq!(
            channels_last_strides_2d(&[2, 0, 4, 5]),
            Some(vec![0, 1, 0, 0])
        );
        assert_eq!(channels_last_strides_2d(&[2, 3, 4]), None);
        assert_eq!(
            channels_last_strides_3d(&[2, 3, 2, 4, 5]),
            Some(vec![120, 1, 60, 15, 3])
        );
    }

    #[test]
    fn infer_dense_strides_keeps_zero_stride_dims_in_place() {
        // PyTorch's own example: (6,5,4,3,2)/(6,0,120,0,1) sorts to perm (4,3,0,1,2).
        assert_eq!(
            infer_dense_strides(&[6, 5, 4, 3, 2], &[6, 0, 120, 0, 1]).unwrap(),
            vec![6, 36, 180, 2, 1]
        );
    }

    #[test]
    fn infer_dense_strides_of_permuted_slice() {
        // permute(2,0,1) of (2,3,8)[:,:,:4]: sizes (4,2,3), strides (1,24,8).
        assert_eq!(
            infer_dense_strides(&[4, 2, 3], &[1, 24, 8]).unwrap(),
            vec![1, 12, 4]
        );
        assert!(infer_dense_strides(&[4, 2, 3], &[1, 24]).is_err());
    }

    #[test]
    fn rank_mismatch_for_channels_last_is_an_error() {
        let e = strides_for_format(&[2, 3], MemoryFormat::ChannelsLast).unwrap_err();
        assert!(e
            .to_string()
            .contains("required rank 4 tensor to use channels_last format"));
    }
}
