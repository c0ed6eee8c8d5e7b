//! Dim wrapping: PyTorch's `maybe_wrap_dim` and the duplicate-dim check of dim lists.

use crate::error::{Error, Result};

/// Wraps a possibly negative `dim` into `0..ndim`, as `c10::maybe_wrap_dim` with
/// `wrap_scalar = true`: a 0-d tensor accepts `-1` and `0` (both give 0).
///
/// # Errors
/// [`Error::DimOutOfRange`], e.g. for `wrap_dim(2, 2)`:
/// `Dimension out of range (expected to be in range of [-2, 1], but got 2)`.
///
/// ```
/// assert_eq!(tensor_core::wrap_dim(-1, 3).unwrap(), 2);
/// assert_eq!(tensor_core::wrap_dim(-1, 0).unwrap(), 0);
/// assert!(tensor_core::wrap_dim(2, 2).is_err());
/// ```
pub fn wrap_dim(dim: i64, ndim: usize) -> Result<usize> {
    let n = ndim.max(1) as i64;
    let (min, max) = (-n, n - 1);
    if dim < min || dim > max {
        return Err(Error::DimOutOfRange { dim, min, max });
    }
    Ok(if dim < 0 { dim + n } else { dim } as usize)
}

/// Wraps each dim of `dims` with [`wrap_dim`] and checks that no dim appears twice
/// (PyTorch's `dim_list_to_bitset`, used by reductions and `squeeze(dims)`).
///
/// # Errors
/// [`Error::DimOutOfRange`] for the first dim out of range;
/// [`Error::DuplicateDim`]: `dim 1 appears multiple times in the list of dims`.
pub fn wrap_dims(dims: &[i64], ndim: usize) -> Result<Vec<usize>> {
    let mut out = Vec::with_capacity(dims.len());
    for &d in dims {
        let w = wrap_dim(d, ndim)?;
        if out.contains(&w) {
            return Err(Error::DuplicateDim { dim: w });
        }
        out.push(w);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negative_dims_wrap_from_the_end() {
        assert_eq!(wrap_dim(-1, 3).unwrap(), 2);
        assert_eq!(wrap_dim(-3, 3).unwrap(), 0);
        assert_eq!(wrap_dim(1, 3).unwrap(), 1);
    }

    #[test]
    fn zero_dim_accepts_minus_one_and_zero() {
        assert_eq!(wrap_dim(0, 0).unwrap(), 0);
        assert_eq!(wrap_dim(-1, 0).unwrap(), 0);
        assert_eq!(
            wrap_dim(1, 0).unwrap_err().to_string(),
            "Dimension out of range (expected to be in range of [-1, 0], but got 1)"
        );
    }

    #[test]
    fn dim_2_of_2d_is_out_of_range() {
        assert_eq!(
            wrap_dim(2, 2).unwrap_err().to_string(),
            "Dimension out of range (expected to be in range of [-2, 1], but got 2)"
        );
        assert!(wrap_dim(-3, 2).is_err());
    }

    #[test]
    fn duplicate_dims_after_wrapping_are_an_error() {
        assert_eq!(wrap_dims(&[0, -1], 3).unwrap(), vec![0, 2]);
        assert_eq!(
            wrap_dims(&[1, -2], 3).unwrap_err().to_string(),
            "dim 1 appears multiple times in the list of dims"
        );
    }
}
