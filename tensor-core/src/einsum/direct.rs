//! A contraction that is one matrix product as written: two operands `[P.., i, k]` and
//! `[P.., k, j]` (either pair of last dims in either order, the batch labels `P` the same
//! in both or written in one operand only) into `[P.., i, j]`, which `matmul` computes
//! with at most a transposed view of each operand (`"bhsd,bhtd->bhst"`, `"bsh,hd->bsd"`).
//!
//! The general lowering (`lower.rs`, `pair.rs`) reaches the same matrix product through
//! unsqueezes, permutes and reshapes; for small operands, and under autograd where each
//! view records a node, those cost more than the product. The result is the same tensor:
//! the same sizes, contiguous strides, dtype and values (one product over the same inner
//! dim), with `matmul`'s gradient.

use super::parse::{Equation, Subscript};
use crate::dtype::DType;
use crate::error::Result;
use crate::tensor::Tensor;

/// The einsum as `a.matmul(b)` (with transposed views where the summed label is not
/// already inner), or `None` when the equation is not of that form: other than two
/// operands, an ellipsis, a repeated label, a label summed out of one operand, other
/// dtypes than one floating-point dtype, a dim of size 0 or 1, or sizes that `matmul`
/// would broadcast or reject (the general lowering gives PyTorch's result or message).
#[cfg_attr(unoptimized, inline)]
pub(super) fn as_matmul(eq: &Equation, operands: &[&Tensor]) -> Option<Result<Tensor>> {
    let [a, b] = operands else {
        return None;
    };
    let float = matches!(
        a.dtype(),
        DType::F32 | DType::F64 | DType::F16 | DType::BF16
    );
    if eq.ell_dims != 0 || a.dtype() != b.dtype() || !float {
        return None;
    }
    let labels = |k: usize| -> Option<Vec<u8>> {
        eq.operands[k]
            .iter()
            .map(|s| match s {
                Subscript::Label(l) => Some(*l),
                Subscript::Ellipsis => None,
            })
            .collect()
    };
    let (la, lb) = (labels(0)?, labels(1)?);
    if la.len() < 2 || lb.len() < 2 || repeats(&la) || repeats(&lb) {
        return None;
    }
    // A dim of size 0 or 1 takes the general lowering, whose strides for it are
    // PyTorch's.
    if a.sizes().iter().chain(b.sizes()).any(|&s| s < 2) {
        return None;
    }
    let out_dim = |l: u8| eq.label_dim[l as usize].filter(|&d| d < eq.out_dims);
    let (pa, ra) = la.split_at(la.len() - 2);
    let (pb, rb) = lb.split_at(lb.len() - 2);
    // The summed label: in the last two of both, not in the output.
    let k = *ra
        .iter()
        .find(|l| rb.contains(l) && out_dim(**l).is_none())?;
    let i = if ra[0] == k { ra[1] } else { ra[0] };
    let j = if rb[0] == k { rb[1] } else { rb[0] };
    let batch = match (pa.is_empty(), pb.is_empty()) {
        (_, true) => pa,
        (true, false) => pb,
        (false, false) if pa == pb => pa,
        _ => return None,
    };
    // The output is exactly `[P.., i, j]`.
    let want: Vec<u8> = batch.iter().copied().chain([i, j]).collect();
    if eq.out_dims != want.len()
        || want.iter().enumerate().any(|(d, &l)| out_dim(l) != Some(d))
        || lb.contains(&i)
        || la.contains(&j)
    {
        return None;
    }
    // Sizes as written: the summed label and each batch label in both operands equal.
    let size = |t: &Tensor, ls: &[u8], l: u8| ls.iter().position(|&x| x == l).map(|d| t.sizes()[d]);
    if size(a, &la, k) != size(b, &lb, k) {
        return None;
    }
    if !pa.is_empty() && !pb.is_empty() && a.sizes()[..pa.len()] != b.sizes()[..pb.len()] {
        return None;
    }
    let product = || -> Result<Tensor> {
        let a = if ra[1] == k {
            a.alias()
        } else {
            a.transpose(-2, -1)?
        };
        let b = if rb[0] == k {
            b.alias()
        } else {
            b.transpose(-2, -1)?
        };
        a.matmul(&b)
    };
    Some(product())
}

/// Whether a label is written twice.
#[cfg_attr(unoptimized, inline)]
fn repeats(labels: &[u8]) -> bool {
    labels
        .iter()
        .enumerate()
        .any(|(n, l)| labels[..n].contains(l))
}
