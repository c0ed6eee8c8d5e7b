//! The shape arithmetic behind `view` and `reshape`, on sizes and strides only:
//! PyTorch's `infer_size_impl` (InferSize.h) and `computeStride_impl` (TensorUtils.cpp).

use crate::error::{Error, Result};
use crate::layout::contiguous_strides;

/// Resolves a target `shape` (which may hold one `-1`) for a tensor of `numel` elements,
/// as PyTorch's `infer_size_impl`.
///
/// # Errors
/// - [`Error::MultipleInferred`]: `only one dimension can be inferred`;
/// - [`Error::InvalidShapeDimension`]: a negative size other than -1,
///   `invalid shape dimension -2 at index 0 of shape [-2, 3]`;
/// - [`Error::InferAmbiguous`]: `-1` while the other sizes multiply to 0 and `numel` is 0;
/// - [`Error::ShapeInvalid`]: `shape '[5, 2]' is invalid for input of size 12`.
pub fn infer_size(shape: &[i64], numel: usize) -> Result<Vec<usize>> {
    let mut newsize: Option<usize> = Some(1);
    let mut infer_dim: Option<usize> = None;
    for (index, &size) in shape.iter().enumerate() {
        if size == -1 {
            if infer_dim.is_some() {
                return Err(Error::MultipleInferred);
            }
            infer_dim = Some(index);
        } else if size >= 0 {
            newsize = newsize.and_then(|n| n.checked_mul(size as usize));
        } else {
            return Err(Error::InvalidShapeDimension {
                size,
                index,
                shape: shape.to_vec(),
            });
        }
    }
    let invalid = || Error::ShapeInvalid {
        shape: shape.to_vec(),
        numel,
    };
    // A product past usize::MAX can never equal numel.
    let newsize = newsize.ok_or_else(invalid)?;
    let fits =
        numel == newsize || (infer_dim.is_some() && newsize > 0 && numel.is_multiple_of(newsize));
    if !fits {
        return Err(invalid());
    }
    let mut out: Vec<usize> = shape.iter().map(|&s| s.max(0) as usize).collect();
    if let Some(d) = infer_dim {
        if newsize == 0 {
            return Err(Error::InferAmbiguous {
                shape: shape.to_vec(),
            });
        }
        out[d] = numel / newsize;
    }
    Ok(out)
}

/// Strides that let a tensor of `old_sizes`/`old_strides` be viewed as `new_sizes`
/// without copying, or `None` when some new dim would span two non-contiguous chunks
/// (PyTorch's `computeStride_impl`). Strides are in elements.
///
/// Rules: a 0-d input gives all-1 strides; an empty input keeps its strides when the
/// shape is unchanged, else gets contiguous strides (max(size, 1) rule); otherwise the
/// old dims are split into chunks that are contiguous with each other, and the new dims
/// must tile each chunk exactly. A stride product that would overflow `isize` (only
/// possible with the huge strides a size-1 dim may carry) counts as not viewable.
///
/// # Errors
/// [`Error::InvalidArgument`] when `old_sizes` and `old_strides` differ in length, or
/// when `new_sizes` does not have the element count of `old_sizes`
/// (`shape '[..]' is invalid for input of size N`).
pub fn compute_stride(
    old_sizes: &[usize],
    old_strides: &[isize],
    new_sizes: &[usize],
) -> Result<Option<Vec<isize>>> {
    if old_sizes.len() != old_strides.len() {
        return Err(Error::InvalidArgument {
            op: "view",
            message: format!(
                "mismatch in length of strides and shape ({} vs {})",
                old_strides.len(),
                old_sizes.len()
            ),
        });
    }
    let numel = old_sizes.iter().try_fold(1usize, |n, &s| n.checked_mul(s));
    let new_numel = new_sizes.iter().try_fold(1usize, |n, &s| n.checked_mul(s));
    if numel.is_none() || numel != new_numel || numel.is_some_and(|n| n > isize::MAX as usize) {
        return Err(Error::ShapeInvalid {
            shape: new_sizes.iter().map(|&s| s as i64).collect(),
            numel: numel.unwrap_or(usize::MAX),
        });
    }
    if old_sizes.is_empty() {
        return Ok(Some(vec![1; new_sizes.len()]));
    }
    if numel == Some(0) {
        if old_sizes == new_sizes {
            return Ok(Some(old_strides.to_vec()));
        }
        return Ok(Some(contiguous_strides(new_sizes)));
    }
    // Every size is now ≥ 1 and the product fits in isize, so the size products below
    // cannot overflow; the stride products are checked.
    let mut new_strides = vec![0isize; new_sizes.len()];
    let mut view_d = new_sizes.len() as isize - 1;
    let mut chunk_base = old_strides[old_strides.len() - 1];
    let mut tensor_numel: isize = 1;
    let mut view_numel: isize = 1;
    for td in (0..old_sizes.len()).rev() {
        tensor_numel *= old_sizes[td] as isize;
        let chunk_ends = td == 0
            || (old_sizes[td - 1] != 1
                && Some(old_strides[td - 1]) != tensor_numel.checked_mul(chunk_base));
        if chunk_ends {
            while view_d >= 0 && (view_numel < tensor_numel || new_sizes[view_d as usize] == 1) {
                let Some(stride) = view_numel.checked_mul(chunk_base) else {
                    return Ok(None);
                };
                new_strides[view_d as usize] = stride;
                view_numel *= new_sizes[view_d as usize] as isize;
                view_d -= 1;
            }
            if view_numel != tensor_numel {
                return Ok(None);
            }
            if td > 0 {
                chunk_base = old_strides[td - 1];
                tensor_numel = 1;
                view_numel = 1;
            }
        }
    }
    Ok((view_d == -1).then_some(new_strides))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minus_one_is_inferred() {
        assert_eq!(infer_size(&[-1, 4], 12).unwrap(), vec![3, 4]);
        assert_eq!(infer_size(&[], 1).unwrap(), Vec::<usize>::new());
    }

    #[test]
    fn two_minus_ones_cannot_be_inferred() {
        assert_eq!(
            infer_size(&[-1, -1], 4).unwrap_err().to_string(),
            "only one dimension can be inferred"
        );
    }

    #[test]
    fn minus_two_is_an_invalid_dimension() {
        assert_eq!(
            infer_size(&[-2, 3], 6).unwrap_err().to_string(),
            "invalid shape dimension -2 at index 0 of shape [-2, 3]"
        );
    }

    #[test]
    fn minus_one_with_zero_is_ambiguous() {
        assert_eq!(
            infer_size(&[-1, 0], 0).unwrap_err().to_string(),
            "cannot reshape tensor of 0 elements into shape [-1, 0] because the unspecified dimension size -1 can be any value and is ambiguous"
        );
    }

    #[test]
    fn wrong_count_is_invalid_shape() {
        assert_eq!(
            infer_size(&[5, 2], 12).unwrap_err().to_string(),
            "shape '[5, 2]' is invalid for input of size 12"
        );
        assert!(infer_size(&[-1, 5], 12).is_err());
        assert!(infer_size(&[-1, 0], 12).is_err());
    }

    #[test]
    fn view_of_sliced_2_3_8_as_6_4() {
        // (2,3,8)[:, :, :4]: sizes (2,3,4), strides (24,8,1).
        assert_eq!(
            compute_stride(&[2, 3, 4], &[24, 8, 1], &[6, 4]).unwrap(),
            Some(vec![8, 1])
        );
        assert_eq!(
            compute_stride(&[2, 3, 4], &[24, 8, 1], &[2, 12]).unwrap(),
            None
        );
    }

    #[test]
    fn scalar_view_gets_unit_strides() {
        assert_eq!(compute_stride(&[], &[], &[1, 1]).unwrap(), Some(vec![1, 1]));
    }

    #[test]
    fn empty_view_gets_contiguous_strides() {
        assert_eq!(
            compute_stride(&[2, 0, 3], &[3, 3, 1], &[3, 2, 0]).unwrap(),
            Some(vec![2, 1, 1])
        );
        assert_eq!(
            compute_stride(&[2, 0, 3], &[7, 9, 1], &[2, 0, 3]).unwrap(),
            Some(vec![7, 9, 1])
        );
    }

    #[test]
    fn transposed_cannot_flatten() {
        assert_eq!(compute_stride(&[3, 2], &[1, 3], &[6]).unwrap(), None);
        assert_eq!(
            compute_stride(&[3, 2], &[1, 3], &[3, 1, 2]).unwrap(),
            Some(vec![1, 6, 3])
        );
    }

    #[test]
    fn compute_stride_with_mismatched_lengths_is_an_error() {
        assert!(compute_stride(&[2, 3], &[1], &[6]).is_err());
        assert!(compute_stride(&[2, 3], &[3, 1], &[7]).is_err());
    }

    #[test]
    fn compute_stride_with_huge_size_one_stride_does_not_overflow() {
        let r = compute_stride(&[1, 2], &[isize::MAX, 1], &[2, 1]).unwrap();
        assert_eq!(r, Some(vec![1, 1]));
        assert!(compute_stride(&[2, 1], &[1 << 62, 1], &[1, 2]).is_ok());
    }
}
