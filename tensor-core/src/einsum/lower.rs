//! The contraction: each operand aligned to the equation's dims, then the operands
//! multiplied pairwise from left to right, summing each dim as soon as no later operand
//! has it.
//!
//! Aligning an operand takes the diagonal of each repeated label (a view), adds a dim of
//! size 1 for each label it lacks (a view) and permutes its dims into the aligned order:
//! output dims first, then the dims summed out. Sizes are checked on the way, operand by
//! operand and label by label, in PyTorch's order and with its messages. Nothing is
//! broadcast in memory: a size-1 dim stays 1 until the product.
//!
//! For each dim summed out, `counts` holds how many operands still to be multiplied have
//! it with a size other than 1. When a pair is multiplied, a dim that only these two
//! operands still have is summed inside their product (the inner dim of the matrix
//! product), and a dim that only one of them has is summed out of that one first.

use super::pair::sum_product;
use super::parse::{label_letter, Equation, Subscript};
use crate::error::{Error, Result};
use crate::tensor::Tensor;
use std::collections::VecDeque;

#[cfg_attr(unoptimized, inline)]
fn error(message: String) -> Error {
    Error::Einsum { message }
}

/// `t` with dims `first < second` (of equal size) replaced by their diagonal at
/// `first`: `t.diagonal(0, first, second).movedim(-1, first)`, a view.
#[cfg_attr(unoptimized, inline)]
fn diagonal(t: &Tensor, first: usize, second: usize) -> Result<Tensor> {
    let d = t.diagonal(0, first as i64, second as i64)?;
    let last = d.dim() - 1;
    // movedim(-1, first): the diagonal back at `first`, the other dims in order.
    let order: Vec<i64> = (0..first)
        .chain(std::iter::once(last))
        .chain(first..last)
        .map(|x| x as i64)
        .collect();
    d.permute(&order)
}

/// The operands aligned to the equation's dims, and for each aligned dim the number of
/// operands in which it has a size other than 1.
///
/// # Errors
/// [`Error::Einsum`]: an ellipsis dim or a label whose sizes do not broadcast across
/// the operands, a repeated label over dims of different sizes.
#[cfg_attr(unoptimized, inline)]
pub(super) fn align(eq: &Equation, operands: &[&Tensor]) -> Result<(Vec<Tensor>, Vec<usize>)> {
    let aligned = eq.aligned_dims;
    let mut label_size = [1usize; super::parse::LABELS];
    let mut ell_sizes = vec![1usize; eq.ell_dims];
    let mut counts = vec![0usize; aligned];
    let mut out = Vec::with_capacity(operands.len());
    for (i, (&operand, subscripts)) in operands.iter().zip(&eq.operands).enumerate() {
        let mut op = operand.alias();
        let mut permutation: Vec<Option<usize>> = vec![None; aligned];
        let mut dim = 0usize;
        for &s in subscripts {
            match s {
                Subscript::Ellipsis => {
                    let covered = operand.dim() + 1 - subscripts.len();
                    for j in eq.ell_dims - covered..eq.ell_dims {
                        let size = op.sizes()[dim];
                        if size != 1 {
                            if ell_sizes[j] != 1 && ell_sizes[j] != size {
                                return Err(error(format!(
                                    "einsum(): dimension {dim} covered by ellipsis in operand {i}has size {size} which does not broadcast with previously seen ellipsis with size {} for the respective dimension",
                                    ell_sizes[j]
                                )));
                            }
                            ell_sizes[j] = size;
                            counts[eq.ell_start + j] += 1;
                        }
                        permutation[eq.ell_start + j] = Some(dim);
                        dim += 1;
                    }
                }
                Subscript::Label(l) => {
                    let Some(target) = eq.label_dim[l as usize] else {
                        // Every input label has an aligned dim; kept total for safety.
                        return Err(error(format!(
                            "einsum(): subscript {} has no aligned dim",
                            label_letter(l)
                        )));
                    };
                    match permutation[target] {
                        None => {
                            let size = op.sizes()[dim];
                            if size != 1 {
                                let seen = label_size[l as usize];
                                if seen != 1 && seen != size {
                                    return Err(error(format!(
                                        "einsum(): subscript {} has size {size} for operand {i} which does not broadcast with previously seen size {seen}",
                                        label_letter(l)
                                    )));
                                }
                                label_size[l as usize] = size;
                                counts[target] += 1;
                            }
                            permutation[target] = Some(dim);
                            dim += 1;
                        }
                        Some(previous) => {
                            let (size, before) = (op.sizes()[dim], op.sizes()[previous]);
                            if size != before {
                                return Err(error(format!(
                                    "einsum(): subscript {} is repeated for operand {i} but the sizes don't match, {size} != {before}",
                                    label_letter(l)
                                )));
                            }
                            op = diagonal(&op, previous, dim)?;
                        }
                    }
                }
            }
        }
        let mut order = Vec::with_capacity(aligned);
        for slot in permutation {
            let d = match slot {
                Some(d) => d,
                None => {
                    op = op.unsqueeze(dim as i64)?;
                    dim += 1;
                    dim - 1
                }
            };
            order.push(d as i64);
        }
        out.push(op.permute(&order)?);
    }
    Ok((out, counts))
}

/// Multiplies the aligned operands from left to right and sums the dims not in the
/// output: the einsum's result.
///
/// # Errors
/// The products' (dtype errors of the batched matrix product); an allocation's.
#[cfg_attr(unoptimized, inline)]
pub(super) fn contract(
    eq: &Equation,
    aligned: Vec<Tensor>,
    mut counts: Vec<usize>,
) -> Result<Tensor> {
    let num_ops = aligned.len();
    let mut ops: VecDeque<Tensor> = aligned.into();
    while ops.len() > 1 {
        let (Some(mut a), Some(mut b)) = (ops.pop_front(), ops.pop_front()) else {
            break;
        };
        let mut sum_dims = Vec::new();
        let (mut a_only, mut b_only) = (Vec::new(), Vec::new());
        for (d, count) in counts
            .iter_mut()
            .enumerate()
            .take(eq.aligned_dims)
            .skip(eq.out_dims)
        {
            let (in_a, in_b) = (a.sizes()[d] != 1, b.sizes()[d] != 1);
            if in_a && in_b {
                *count -= 1;
                if *count == 1 {
                    sum_dims.push(d);
                    *count = 0;
                }
            } else if *count == 1 {
                if in_a {
                    a_only.push(d as i64);
                    *count = 0;
                } else if in_b {
                    b_only.push(d as i64);
                    *count = 0;
                }
            }
        }
        if !a_only.is_empty() {
            a = a.sum(&a_only, true)?;
        }
        if !b_only.is_empty() {
            b = b.sum(&b_only, true)?;
        }
        ops.push_front(sum_product(&a, &b, &sum_dims)?);
    }
    let Some(result) = ops.pop_front() else {
        return Err(error(
            "einsum(): must specify the equation string and at least one operand, or at least one operand and its subscripts list".into(),
        ));
    };
    if eq.aligned_dims == eq.out_dims {
        return Ok(result);
    }
    if num_ops > 1 {
        // Every summed dim has size 1 now: drop them.
        let sizes: Vec<i64> = result.sizes()[..eq.out_dims]
            .iter()
            .map(|&s| s as i64)
            .collect();
        result.view(&sizes)
    } else {
        let dims: Vec<i64> = (eq.out_dims..eq.aligned_dims).map(|d| d as i64).collect();
        result.sum(&dims, false)
    }
}
