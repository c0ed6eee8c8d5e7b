//! Logical ↔ physical shape inference: which part of the logical tensor each rank holds,
//! and how an op's logical arguments become each rank's physical ones (OneFlow's
//! `InferLogicalTensorDesc` / `InferPhysicalTensorDesc` and the kernels that re-derive
//! their attributes from the physical shapes, as `expand`'s does).

use super::sbp::Sbp;
use crate::error::{Error, Result};
use crate::layout::infer_expand_geometry;
use std::ops::Range;

/// The balanced split of `len` into `parts` (OneFlow's `BalancedSplitter`): part `index`
/// holds `len / parts` elements, plus one for the first `len % parts` parts. The ranges
/// are consecutive and cover `0..len`.
///
/// # Errors
/// [`Error::InvalidArgument`] when `parts` is 0 or `index >= parts`.
#[cfg_attr(unoptimized, inline)]
pub fn split_range(len: usize, parts: usize, index: usize) -> Result<Range<usize>> {
    if parts == 0 || index >= parts {
        return Err(Error::InvalidArgument {
            op: "split",
            message: format!("split: part {index} of {parts} does not exist"),
        });
    }
    let (base, extra) = (len / parts, len % parts);
    let start = index * base + index.min(extra);
    let size = base + usize::from(index < extra);
    Ok(start..start + size)
}

/// The physical (local) sizes of part `index` of `parts` of a logical tensor of
/// `logical` sizes under `sbp`: the split dim shrinks to its balanced share; broadcast
/// and partial shards have the logical sizes.
///
/// # Errors
/// Those of [`Sbp::check`] and [`split_range`].
#[cfg_attr(unoptimized, inline)]
pub fn physical_shape(
    logical: &[usize],
    sbp: Sbp,
    parts: usize,
    index: usize,
) -> Result<Vec<usize>> {
    sbp.check(logical.len())?;
    let mut sizes = logical.to_vec();
    if let Sbp::Split(d) = sbp {
        sizes[d] = split_range(logical[d], parts, index)?.len();
    } else {
        split_range(0, parts, index)?;
    }
    Ok(sizes)
}

/// The logical sizes of a tensor whose parts, in parallel-index order, have the sizes
/// `physical` under `sbp`: the split dim is the sum of the parts', the other dims are
/// every part's. Checks that the parts follow the balanced rule.
///
/// # Errors
/// [`Error::InvalidArgument`] when there is no part, the parts' ranks or sizes disagree,
/// or a split does not follow the balanced rule; those of [`Sbp::check`].
#[cfg_attr(unoptimized, inline)]
pub fn logical_shape(physical: &[Vec<usize>], sbp: Sbp) -> Result<Vec<usize>> {
    let first = physical.first().ok_or_else(|| Error::InvalidArgument {
        op: "logical_shape",
        message: "logical_shape: no physical shape given".into(),
    })?;
    sbp.check(first.len())?;
    let mut logical = first.clone();
    if let Sbp::Split(d) = sbp {
        logical[d] = physical
            .iter()
            .map(|s| s.get(d).copied().unwrap_or(0))
            .sum();
    }
    for (i, p) in physical.iter().enumerate() {
        let expected = physical_shape(&logical, sbp, physical.len(), i)?;
        if *p != expected {
            return Err(Error::InvalidArgument {
                op: "logical_shape",
                message: format!(
                    "logical_shape: rank {i} holds a shard of sizes {p:?} but {sbp} of a logical tensor of sizes {logical:?} over {} ranks gives it {expected:?}",
                    physical.len()
                ),
            });
        }
    }
    Ok(logical)
}

/// Everything `expand` needs on one rank, inferred from the logical call (as in
/// OneFlow: its `expand_op.cpp` infers the logical output; its kernel
/// rewrites `expand_size` from the physical input).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExpandInference {
    /// The output's SBP: the input's, with a split dim moved right by the number of new
    /// leading dims.
    pub sbp: Sbp,
    /// The logical output sizes.
    pub logical_sizes: Vec<usize>,
    /// The logical output strides over the logical input's strides (0 on expanded and
    /// new dims).
    pub logical_strides: Vec<isize>,
    /// This rank's input sizes.
    pub physical_input_sizes: Vec<usize>,
    /// The `expand_size` this rank passes to its local expand: the logical one with the
    /// split dim replaced by this rank's share.
    pub physical_expand_size: Vec<i64>,
    /// This rank's output sizes.
    pub physical_sizes: Vec<usize>,
    /// This rank's output strides over its input's `physical_strides`.
    pub physical_strides: Vec<isize>,
}

/// Infers `expand(expand_size)` of a logical tensor (`logical_sizes`, `logical_strides`)
/// whose part `index` of `parts`, under `sbp`, has strides `physical_strides`.
///
/// `sbp` must be one of expand's signatures: broadcast, partial, or a split of a dim that
/// `expand_size` keeps (a dim being expanded from 1 must be broadcast first; the global
/// op does that boxing).
///
/// # Errors
/// Those of [`crate::layout::infer_expand_geometry`] (PyTorch's messages) on the logical
/// call; [`Error::InvalidArgument`] when `sbp` splits a dim that is expanded, or the
/// strides' lengths do not match the sizes.
#[cfg_attr(unoptimized, inline)]
pub fn infer_expand(
    logical_sizes: &[usize],
    logical_strides: &[isize],
    physical_strides: &[isize],
    sbp: Sbp,
    parts: usize,
    index: usize,
    expand_size: &[i64],
) -> Result<ExpandInference> {
    let (out_sizes, out_strides) =
        infer_expand_geometry(logical_sizes, logical_strides, expand_size)?;
    let physical_input_sizes = physical_shape(logical_sizes, sbp, parts, index)?;
    let new_dims = expand_size.len() - logical_sizes.len();
    let mut physical_expand_size = expand_size.to_vec();
    let out_sbp = match sbp {
        Sbp::Split(d) => {
            if out_sizes[d + new_dims] != logical_sizes[d] {
                return Err(Error::InvalidArgument {
                    op: "expand",
                    message: format!(
                        "expand: {sbp} splits dim {d}, which expands from {} to {}; broadcast it first",
                        logical_sizes[d],
                        out_sizes[d + new_dims]
                    ),
                });
            }
            physical_expand_size[d + new_dims] = physical_input_sizes[d] as i64;
            Sbp::Split(d + new_dims)
        }
        other => other,
    };
    let (physical_sizes, physical_strides) = infer_expand_geometry(
        &physical_input_sizes,
        physical_strides,
        &physical_expand_size,
    )?;
    Ok(ExpandInference {
        sbp: out_sbp,
        logical_sizes: out_sizes,
        logical_strides: out_strides,
        physical_input_sizes,
        physical_expand_size,
        physical_sizes,
        physical_strides,
    })
}

/// Where the split dim `d` of a tensor of sizes `input` lands when it is reshaped to
/// `output` (same element count), if the split survives: the output dim `o` with
/// `output[o] == input[d]` and the same number of elements before it
/// (`prod(input[..d]) == prod(output[..o])`). Then every rank's shard reshapes on its own,
/// with `o` as its share. `None` when the split dim is merged or cut (the op then
/// broadcasts first).
#[cfg_attr(unoptimized, inline)]
pub fn reshape_split_dim(input: &[usize], output: &[usize], d: usize) -> Option<usize> {
    let size = *input.get(d)?;
    let before: u128 = input[..d].iter().map(|&s| s as u128).product();
    let mut acc: u128 = 1;
    for (o, &s) in output.iter().enumerate() {
        if acc == before && s == size {
            return Some(o);
        }
        acc = acc.saturating_mul(s as u128);
    }
    None
}

/// The SBP of `permute(dims)` of a tensor under `sbp`: a split of dim `d` becomes a split
/// of the output dim that reads `d` (`dims[o] == d`); others are unchanged. `dims` must
/// be a valid, wrapped permutation.
#[cfg_attr(unoptimized, inline)]
pub fn permute_sbp(sbp: Sbp, dims: &[usize]) -> Sbp {
    match sbp {
        Sbp::Split(d) => dims.iter().position(|&x| x == d).map_or(sbp, Sbp::Split),
        other => other,
    }
}

/// Where the kept dim `d` lands after a reduction over `reduced` dims (wrapped):
/// `Some(d)` with `keepdim`, else `d` minus the reduced dims before it; `None` when `d`
/// itself is reduced.
#[cfg_attr(unoptimized, inline)]
pub fn reduce_split_dim(d: usize, reduced: &[usize], keepdim: bool) -> Option<usize> {
    if reduced.contains(&d) {
        return None;
    }
    if keepdim {
        return Some(d);
    }
    Some(d - reduced.iter().filter(|&&r| r < d).count())
}

/// Where the split dim `d` of an operand of sizes `input` lands in the broadcast shape
/// `output` (right-aligned), when the operand is not broadcast along it:
/// `Some(d + output.len() - input.len())` if the sizes there agree, `None` if the
/// operand's size 1 is broadcast to more.
#[cfg_attr(unoptimized, inline)]
pub fn broadcast_split_dim(input: &[usize], output: &[usize], d: usize) -> Option<usize> {
    let o = d + output.len().checked_sub(input.len())?;
    (input.get(d)? == output.get(o)?).then_some(o)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn balanced_split_gives_the_first_ranks_one_more() {
        let r: Vec<_> = (0..4).map(|i| split_range(10, 4, i).unwrap()).collect();
        assert_eq!(r, vec![0..3, 3..6, 6..8, 8..10]);
        assert_eq!(split_range(2, 4, 3).unwrap(), 2..2);
        assert!(split_range(2, 0, 0).is_err());
        assert!(split_range(2, 2, 2).is_err());
    }

    #[test]
    fn seed_example_expand_under_split3_on_two_ranks() {
        let inf = infer_expand(
            &[4, 3, 1, 2],
            &[6, 2, 2, 1],
            &[3, 1, 1, 1],
            Sbp::Split(3),
            2,
            0,
            &[2, 4, 3, 4, 2],
        )
        .unwrap();
        assert_eq!(inf.logical_sizes, vec![2, 4, 3, 4, 2]);
        assert_eq!(inf.logical_strides, vec![0, 6, 2, 0, 1]);
        assert_eq!(inf.physical_input_sizes, vec![4, 3, 1, 1]);
        assert_eq!(inf.physical_expand_size, vec![2, 4, 3, 4, 1]);
        assert_eq!(inf.physical_sizes, vec![2, 4, 3, 4, 1]);
        assert_eq!(inf.physical_strides, vec![0, 3, 1, 0, 1]);
        assert_eq!(inf.sbp, Sbp::Split(4));
    }

    #[test]
    fn expand_of_a_split_dim_being_expanded_is_an_error() {
        let e = infer_expand(&[4, 1], &[1, 1], &[1, 1], Sbp::Split(1), 2, 0, &[4, 3]);
        assert!(e.is_err());
    }

    #[test]
    fn logical_shape_sums_the_split_dim_and_checks_balance() {
        let l = logical_shape(&[vec![2, 3], vec![2, 3], vec![1, 3]], Sbp::Split(0)).unwrap();
        assert_eq!(l, vec![5, 3]);
        assert!(logical_shape(&[vec![1, 3], vec![2, 3]], Sbp::Split(0)).is_err());
        assert!(logical_shape(&[vec![2, 3], vec![2, 4]], Sbp::Broadcast).is_err());
    }

    #[test]
    fn reshape_keeps_a_split_dim_with_the_same_outer_product() {
        assert_eq!(reshape_split_dim(&[2, 3, 4], &[6, 4], 2), Some(1));
        assert_eq!(reshape_split_dim(&[2, 3, 4], &[2, 12], 0), Some(0));
        assert_eq!(reshape_split_dim(&[2, 3, 4], &[6, 4], 1), None);
        assert_eq!(reshape_split_dim(&[6, 4], &[2, 3, 4], 0), None);
        assert_eq!(reshape_split_dim(&[6, 4], &[6, 1, 4], 1), Some(2));
    }

    #[test]
    fn permute_moves_the_split_dim() {
        assert_eq!(permute_sbp(Sbp::Split(0), &[2, 0, 1]), Sbp::Split(1));
        assert_eq!(permute_sbp(Sbp::Broadcast, &[1, 0]), Sbp::Broadcast);
    }

    #[test]
    fn reduce_and_broadcast_split_dims() {
        assert_eq!(reduce_split_dim(2, &[0], false), Some(1));
        assert_eq!(reduce_split_dim(2, &[0], true), Some(2));
        assert_eq!(reduce_split_dim(0, &[0], true), None);
        assert_eq!(broadcast_split_dim(&[3, 1], &[2, 3, 4], 0), Some(1));
        assert_eq!(broadcast_split_dim(&[3, 1], &[2, 3, 4], 1), None);
    }
}
