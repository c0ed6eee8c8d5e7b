//! Broadcasting and expanding shapes (ExpandUtils.cpp): PyTorch's `infer_size` and
//! `inferExpandGeometry`, on sizes and strides only.

use crate::error::{Error, Result};

/// The broadcast shape of `a` and `b` (`torch.broadcast_shapes(a, b)`, ATen `infer_size`).
///
/// Shapes are aligned from the right; a missing dim counts as 1. At each dim the sizes
/// must be equal or one of them 1; the result is the other size, so `1` against `0`
/// gives `0`.
///
/// # Errors
/// [`Error::Broadcast`], whose `dim` indexes the broadcast (output) shape:
/// `The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1`.
///
/// ```
/// use tensor_core::broadcast_shapes;
/// assert_eq!(broadcast_shapes(&[4, 1], &[3]).unwrap(), vec![4, 3]);
/// assert_eq!(broadcast_shapes(&[1], &[0]).unwrap(), vec![0]);
/// ```
pub fn broadcast_shapes(a: &[usize], b: &[usize]) -> Result<Vec<usize>> {
    let ndim = a.len().max(b.len());
    let mut out = vec![0; ndim];
    for i in (0..ndim).rev() {
        let offset = ndim - 1 - i;
        let size_a = if offset < a.len() {
            a[a.len() - 1 - offset]
        } else {
            1
        };
        let size_b = if offset < b.len() {
            b[b.len() - 1 - offset]
        } else {
            1
        };
        if size_a != size_b && size_a != 1 && size_b != 1 {
            return Err(Error::Broadcast {
                a: size_a,
                b: size_b,
                dim: i,
            });
        }
        out[i] = if size_a == 1 { size_b } else { size_a };
    }
    Ok(out)
}

/// Sizes and strides (in elements) of `expand(target)` over a tensor of `sizes`/`strides`
/// (PyTorch's `inferExpandGeometry`). `target` is aligned to the right; new leading dims
/// and expanded size-1 dims get stride 0; `-1` keeps an existing size.
///
/// A 0-d input takes `target` as is with all strides 0, without checking `-1`; any
/// negative size left in the result fails as PyTorch's `as_strided` does.
///
/// # Errors
/// - [`Error::InvalidArgument`]: `sizes` and `strides` of different lengths;
/// - [`Error::ExpandLeadingNegative`]: `-1` at a new leading dim,
///   `The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension 0`;
/// - [`Error::ExpandMismatch`]: a target differing from an existing size other than 1,
///   `The expanded size of the tensor (5) must match the existing size (4) at
///   non-singleton dimension 1.  Target sizes: [2, 5].  Tensor sizes: [3, 4]`;
/// - [`Error::NumelOverflow`]: a negative size in the result (`-2`, or `-1` on a 0-d
///   input) or sizes whose product overflows: `numel: integer multiplication overflow`.
///   One deliberate difference: when another size is 0 (target `[-2, 0]`), PyTorch's
///   product check passes and it returns a tensor of size -2; sizes are unsigned here,
///   so that target is the same error.
///
/// A `target` with fewer dims than `sizes` is [`Error::InvalidArgument`] (`the number of
/// sizes provided (1) must be greater or equal to the number of dimensions in the tensor
/// (2)`); `Tensor::expand` reports it with PyTorch's full `expand(...)` message first.
pub fn infer_expand_geometry(
    sizes: &[usize],
    strides: &[isize],
    target: &[i64],
) -> Result<(Vec<usize>, Vec<isize>)> {
    if sizes.len() != strides.len() {
        return Err(Error::InvalidArgument {
            op: "expand",
            message: format!(
                "mismatch in length of strides and shape ({} vs {})",
                strides.len(),
                sizes.len()
            ),
        });
    }
    if target.len() < sizes.len() {
        return Err(Error::InvalidArgument {
            op: "expand",
            message: format!(
                "the number of sizes provided ({}) must be greater or equal to the number of dimensions in the tensor ({})",
                target.len(),
                sizes.len()
            ),
        });
    }
    let ndim = target.len();
    let tensor_dim = sizes.len();
    let mut out_sizes = vec![0i64; ndim];
    let mut out_strides = vec![0isize; ndim];
    if tensor_dim == 0 {
        out_sizes.copy_from_slice(target);
    } else {
        for i in (0..ndim).rev() {
            let offset = ndim - 1 - i;
            let dim = tensor_dim as isize - 1 - offset as isize;
            let (mut size, mut stride) = if dim >= 0 {
                (sizes[dim as usize] as i64, strides[dim as usize])
            } else {
                // A new size-1 dim's stride takes no part in any offset: saturate.
                (
                    1,
                    (out_sizes[i + 1].max(0) as isize).saturating_mul(out_strides[i + 1]),
                )
            };
            let mut target_size = target[i];
            if target_size == -1 {
                if dim < 0 {
                    return Err(Error::ExpandLeadingNegative {
                        size: target_size,
                        dim: i,
                    });
                }
                target_size = size;
            }
            if size != target_size {
                if size != 1 {
                    return Err(Error::ExpandMismatch {
                        target: target_size,
                        existing: size as usize,
                        dim: i,
                        target_sizes: target.to_vec(),
                        sizes: sizes.to_vec(),
                    });
                }
                size = target_size;
                stride = 0;
            }
            out_sizes[i] = size;
            out_strides[i] = stride;
        }
    }
    if out_sizes.iter().any(|&s| s < 0) {
        return Err(Error::NumelOverflow { op: "expand" });
    }
    let out_sizes: Vec<usize> = out_sizes.into_iter().map(|s| s as usize).collect();
    crate::layout::checked_numel(&out_sizes, "expand")?;
    Ok((out_sizes, out_strides))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expand_minus_two_beside_a_zero_dim_is_the_overflow_error() {
        // PyTorch returns sizes [-2, 0] here (its product check sees 0); unsigned sizes
        // cannot hold -2, so this is the error PyTorch gives for [-2, 3].
        let err = infer_expand_geometry(&[1, 0], &[0, 1], &[-2, 0]).unwrap_err();
        assert!(err
            .to_string()
            .contains("numel: integer multiplication overflow"));
        let err = infer_expand_geometry(&[1, 3], &[3, 1], &[-2, 3]).unwrap_err();
        assert!(err
            .to_string()
            .contains("numel: integer multiplication overflow"));
    }

    #[test]
    fn missing_leading_dims_count_as_one() {
        assert_eq!(
            broadcast_shapes(&[2, 1, 4], &[3, 1]).unwrap(),
            vec![2, 3, 4]
        );
        assert_eq!(broadcast_shapes(&[], &[2, 3]).unwrap(), vec![2, 3]);
    }

    #[test]
    fn one_against_zero_gives_zero() {
        assert_eq!(broadcast_shapes(&[1, 3], &[0, 1]).unwrap(), vec![0, 3]);
    }

    #[test]
    fn mismatch_names_the_output_dim() {
        let e = broadcast_shapes(&[2, 3], &[5, 2, 4]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 2"
        );
    }

    #[test]
    fn expand_new_leading_dims_get_zero_strides() {
        let (sz, st) =
            infer_expand_geometry(&[4, 1, 3, 5], &[15, 15, 5, 1], &[2, 1, 4, 4, 3, 5]).unwrap();
        assert_eq!(sz, vec![2, 1, 4, 4, 3, 5]);
        assert_eq!(st, vec![0, 60, 15, 0, 5, 1]);
    }

    #[test]
    fn expand_minus_one_keeps_size() {
        let (sz, st) =
            infer_expand_geometry(&[4, 3, 1, 2], &[6, 2, 2, 1], &[-1, -1, 5, -1]).unwrap();
        assert_eq!(sz, vec![4, 3, 5, 2]);
        assert_eq!(st, vec![6, 2, 0, 1]);
    }

    #[test]
    fn expand_minus_one_at_new_leading_dim_is_an_error() {
        let e = infer_expand_geometry(&[3], &[1], &[-1, 3]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension 0"
        );
    }

    #[test]
    fn expand_mismatch_message_has_two_spaces() {
        let e = infer_expand_geometry(&[3, 4], &[4, 1], &[2, 5]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "The expanded size of the tensor (5) must match the existing size (4) at non-singleton dimension 1.  Target sizes: [2, 5].  Tensor sizes: [3, 4]"
        );
    }

    #[test]
    fn expand_zero_dim_with_minus_one_overflows() {
        let e = infer_expand_geometry(&[], &[], &[-1]).unwrap_err();
        assert!(e
            .to_string()
            .contains("numel: integer multiplication overflow"));
        let (sz, st) = infer_expand_geometry(&[], &[], &[2, 3]).unwrap();
        assert_eq!((sz, st), (vec![2, 3], vec![0, 0]));
    }

    #[test]
    fn expand_geometry_with_mismatched_lengths_is_an_error() {
        assert!(infer_expand_geometry(&[2, 3], &[1], &[2, 3]).is_err());
        assert!(infer_expand_geometry(&[2, 3], &[3, 1], &[3]).is_err());
    }

    #[test]
    fn expand_new_dim_over_huge_stride_saturates() {
        let (_, st) = infer_expand_geometry(&[1], &[isize::MAX], &[1, 1, 1]).unwrap();
        assert_eq!(st, vec![isize::MAX, isize::MAX, isize::MAX]);
    }
}
