//! Helpers for reduction kernels on top of the iterator's reduction mode
//! (aten/src/ATen/native/ReduceOpsUtils.h `make_dim_mask`, `make_reduction`,
//! `review_reduce_result`).

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::Layout;
use crate::tensor::Tensor;

/// `maybe_wrap_dim(dim, ndim)` with PyTorch's scalar rule (a 0-d tensor accepts -1
/// and 0).
#[cfg_attr(unoptimized, inline)]
fn wrap(dim: i64, ndim: usize) -> Result<usize> {
    let n = ndim.max(1) as i64;
    if dim < -n || dim >= n {
        return Err(Error::DimOutOfRange {
            dim,
            min: -n,
            max: n - 1,
        });
    }
    Ok(if dim < 0 { dim + n } else { dim } as usize)
}

/// `make_dim_mask(dims, ndim)`: which dims are reduced. An empty list reduces all.
///
/// # Errors
/// [`Error::DimOutOfRange`]; [`Error::DuplicateDim`]
/// (`dim 0 appears multiple times in the list of dims`).
#[cfg_attr(unoptimized, inline)]
pub fn make_dim_mask(dims: &[i64], ndim: usize) -> Result<Vec<bool>> {
    if dims.is_empty() {
        return Ok(vec![true; ndim]);
    }
    let mut mask = vec![false; ndim.max(1)];
    for &d in dims {
        let w = wrap(d, ndim)?;
        if mask[w] {
            return Err(Error::DuplicateDim { dim: w });
        }
        mask[w] = true;
    }
    mask.truncate(ndim);
    Ok(mask)
}

/// The sizes of a reduction's result: reduced dims become 1 (`keepdim`) or disappear.
#[cfg_attr(unoptimized, inline)]
pub fn reduced_sizes(sizes: &[usize], mask: &[bool], keepdim: bool) -> Vec<usize> {
    sizes
        .iter()
        .zip(mask)
        .filter_map(|(&s, &m)| match (m, keepdim) {
            (false, _) => Some(s),
            (true, true) => Some(1),
            (true, false) => None,
        })
        .collect()
}

/// `review_reduce_result`: the result viewed with the input's ndim: without
/// `keepdim`, each reduced dim is re-inserted with size 1 and stride 0. This view is
/// the output operand of [`TensorIteratorConfig::reduce_op`](super::TensorIteratorConfig::reduce_op).
#[cfg_attr(unoptimized, inline)]
pub fn reduction_output_view(result: &Tensor, mask: &[bool], keepdim: bool) -> Tensor {
    if keepdim {
        return result.alias();
    }
    let mut sizes = result.sizes().to_vec();
    let mut strides = result.strides().to_vec();
    for (d, &m) in mask.iter().enumerate() {
        if m {
            sizes.insert(d, 1);
            strides.insert(d, 0);
        }
    }
    result.with_layout(Layout::new(sizes, strides, result.storage_offset()))
}

/// `make_reduction`'s allocation: a contiguous result of the reduced sizes in `dtype`,
/// and its [`reduction_output_view`] for the iterator.
///
/// # Errors
/// As [`make_dim_mask`].
#[cfg_attr(unoptimized, inline)]
pub fn make_reduction_output(
    input: &Tensor,
    dims: &[i64],
    keepdim: bool,
    dtype: DType,
) -> Result<(Tensor, Tensor, Vec<bool>)> {
    let mask = make_dim_mask(dims, input.dim())?;
    let result = Tensor::zeros(&reduced_sizes(input.sizes(), &mask, keepdim), dtype)?;
    let view = reduction_output_view(&result, &mask, keepdim);
    Ok((result, view, mask))
}

#[cfg(test)]
mod tests {
    use super::super::{TensorIterator, TensorIteratorConfig};
    use super::*;

    #[test]
    fn reduce_over_dim_1_orders_reduced_dim_first() {
        let x = Tensor::zeros(&[2, 3, 4], DType::F32).unwrap();
        let (result, view, _) = make_reduction_output(&x, &[1], false, DType::F32).unwrap();
        assert_eq!(result.sizes(), &[2, 4]);
        assert_eq!(view.strides(), &[4, 0, 1]);
        let it = TensorIterator::build(TensorIteratorConfig::reduce_op(&view, &x)).unwrap();
        // perm puts the reduced dim (1) first; output strides are 0 there.
        assert_eq!(it.perm(), &[1, 2, 0]);
        assert_eq!(it.shape(), &[3, 4, 2]);
        assert_eq!(it.strides(0), &[0, 4, 16]);
        assert_eq!(it.strides(1), &[16, 4, 48]);
        assert!(it.is_dim_reduced(0));
        assert_eq!(it.num_output_elements(), 8);
    }

    #[test]
    fn duplicate_dims_are_an_error() {
        let e = make_dim_mask(&[0, -2], 2).unwrap_err();
        assert_eq!(
            e.to_string(),
            "dim 0 appears multiple times in the list of dims"
        );
    }
}
