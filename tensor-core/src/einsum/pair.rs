//! The product of two aligned operands summed over some dims, as one batched matrix
//! product (`sumproduct_pair` in PyTorch's einsum).
//!
//! Both operands have the same number of dims; at each dim an operand either has the
//! dim's size or 1 (it broadcasts there). Every dim falls in one group:
//!
//! - `lro`: in both operands and kept: the batch of the product;
//! - `lo`, `ro`: in the left (right) operand only and kept: the rows (columns);
//! - summed: in both and summed out: the inner dim of the product.
//!
//! The left operand is permuted to `lro, lo, summed` and reshaped to a
//! `[lro, lo, summed]` batch of matrices, the right one to `[lro, summed, ro]`; the
//! product `[lro, lo, ro]` is viewed with a 1 at each summed dim and permuted back to
//! the operands' order. When every right-only dim precedes every left-only dim, the two
//! operands swap sides first, so that the product comes out in the output's order (as
//! PyTorch does; its dtype errors then name the right operand's dtype first). Broadcasting is never materialised: a dim of size 1 in one
//! operand is in the other's group and stays 1 in the reshape.

use crate::error::{Error, Result};
use crate::tensor::Tensor;

/// `(left * right).sum(sum_dims, keepdim = true)`, computed as above; `left * right`
/// (broadcasting and promoting dtypes) when `sum_dims` is empty.
///
/// # Errors
/// The product's (after the swap above): [`Error::UnsupportedDType`] for a bool left operand (`"bmm" not
/// implemented for 'Bool'`), [`Error::InvalidArgument`] for operands of different dtypes
/// (`expected scalar type Float but found Double`); [`Error::NumelOverflow`] should a
/// product of sizes overflow; an allocation's.
#[cfg_attr(unoptimized, inline)]
pub(super) fn sum_product(left: &Tensor, right: &Tensor, sum_dims: &[usize]) -> Result<Tensor> {
    if sum_dims.is_empty() {
        return left.mul(right);
    }
    let dims = left.dim();
    let mut left = left.alias();
    let mut right = right.alias();
    let (mut lro, mut lo, mut ro) = (Vec::new(), Vec::new(), Vec::new());
    let (mut lro_size, mut lo_size, mut ro_size, mut sum_size) = (1i64, 1i64, 1i64, 1i64);
    // Each product is over one operand's sizes, which a tensor keeps within range (its
    // sizes' product fits even when it has no elements); checked all the same.
    let times = |acc: &mut i64, size: usize| -> Result<()> {
        *acc = i64::try_from(size)
            .ok()
            .and_then(|s| acc.checked_mul(s))
            .ok_or(Error::NumelOverflow { op: "einsum" })?;
        Ok(())
    };
    for d in 0..dims {
        let (size_l, size_r) = (left.sizes()[d], right.sizes()[d]);
        let (in_l, in_r) = (size_l != 1, size_r != 1);
        if sum_dims.contains(&d) {
            if in_l && in_r {
                times(&mut sum_size, size_l)?;
            } else if in_l {
                left = left.sum(&[d as i64], true)?;
            } else if in_r {
                right = right.sum(&[d as i64], true)?;
            }
        } else if in_l && in_r {
            lro.push(d);
            times(&mut lro_size, size_l)?;
        } else if in_l {
            lo.push(d);
            times(&mut lo_size, size_l)?;
        } else {
            ro.push(d);
            times(&mut ro_size, size_r)?;
        }
    }
    // When every right-only dim comes before every left-only dim, the operands swap
    // sides, so that the product's rows and columns are already in the output's order.
    if let (Some(&last_ro), Some(&first_lo)) = (ro.last(), lo.first()) {
        if last_ro < first_lo {
            std::mem::swap(&mut left, &mut right);
            std::mem::swap(&mut lo, &mut ro);
            std::mem::swap(&mut lo_size, &mut ro_size);
        }
    }
    let as_i64 = |v: &[usize]| v.iter().map(|&d| d as i64).collect::<Vec<i64>>();
    let left_perm = as_i64(&[&lro[..], &lo, sum_dims, &ro].concat());
    let right_perm = as_i64(&[&lro[..], sum_dims, &ro, &lo].concat());
    let product_order = [&lro[..], &lo, sum_dims, &ro].concat();
    let mut product_sizes: Vec<i64> = Vec::with_capacity(dims);
    product_sizes.extend(lro.iter().map(|&d| left.sizes()[d] as i64));
    product_sizes.extend(lo.iter().map(|&d| left.sizes()[d] as i64));
    product_sizes.extend(sum_dims.iter().map(|_| 1));
    product_sizes.extend(ro.iter().map(|&d| right.sizes()[d] as i64));
    // The inverse of `product_order`: where each of the operands' dims is in the product.
    let mut back = vec![0i64; dims];
    for (position, &d) in product_order.iter().enumerate() {
        back[d] = position as i64;
    }

    let left = left
        .permute(&left_perm)?
        .reshape(&[lro_size, lo_size, sum_size])?;
    let right = right
        .permute(&right_perm)?
        .reshape(&[lro_size, sum_size, ro_size])?;
    bmm(&left, &right)?.view(&product_sizes)?.permute(&back)
}

/// `torch.bmm` of two `[b, n, m]`, `[b, m, p]` batches of the same dtype, with bmm's
/// dtype errors (checked in its order: a bool left operand, then differing dtypes).
#[cfg_attr(unoptimized, inline)]
fn bmm(left: &Tensor, right: &Tensor) -> Result<Tensor> {
    if left.dtype() == crate::dtype::DType::Bool {
        return Err(Error::UnsupportedDType {
            message: "\"bmm\" not implemented for 'Bool'".into(),
        });
    }
    if left.dtype() != right.dtype() {
        return Err(Error::InvalidArgument {
            op: "bmm",
            message: format!(
                "expected scalar type {} but found {}",
                left.dtype().scalar_type_name(),
                right.dtype().scalar_type_name()
            ),
        });
    }
    left.matmul(right)
}
