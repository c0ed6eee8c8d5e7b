//! SBP signature deduction: for each op, the SBP each input must have (the inputs are
//! boxed to it) and the SBP of the output, from the logical metadata alone (so every
//! rank deduces the same). OneFlow's `GetSbp` lists the signatures an op accepts; here
//! each op picks the cheapest one for its inputs' SBPs, falling back to broadcast.

use super::infer::{
    broadcast_split_dim, permute_sbp, reduce_split_dim, reshape_split_dim, split_range,
};
use super::sbp::{ReduceOp, Sbp};
use crate::dtype::DType;
use crate::ops::PartialRule;
use crate::ops::{BinaryOp, BinaryPartial};

/// The SBPs an op's inputs are boxed to, and its output's SBP.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    /// One SBP per input, in argument order.
    pub inputs: Vec<Sbp>,
    /// The output's SBP.
    pub output: Sbp,
}

/// The global reductions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReduceKind {
    /// `sum`: a split reduced dim gives `PartialSum`.
    Sum,
    /// `amax`: a split reduced dim gives `PartialMax`.
    Amax,
    /// `amin`: a split reduced dim gives `PartialMin`.
    Amin,
}

impl ReduceKind {
    /// PyTorch's name of the reduction (`sum`, `amax`, `amin`).
    #[cfg_attr(unoptimized, inline)]
    pub fn name(self) -> &'static str {
        match self {
            ReduceKind::Sum => "sum",
            ReduceKind::Amax => "amax",
            ReduceKind::Amin => "amin",
        }
    }

    #[cfg_attr(unoptimized, inline)]
    fn op(self) -> ReduceOp {
        match self {
            ReduceKind::Sum => ReduceOp::Sum,
            ReduceKind::Amax => ReduceOp::Max,
            ReduceKind::Amin => ReduceOp::Min,
        }
    }
}

#[cfg_attr(unoptimized, inline)]
fn all_broadcast(n: usize) -> Signature {
    Signature {
        inputs: vec![Sbp::Broadcast; n],
        output: Sbp::Broadcast,
    }
}

/// Unary: split and broadcast pass through; a partial input stays partial only when the
/// op commutes with its reduction (the op's [`PartialRule`], from its row of the op
/// table): `neg` of a sum is the sum of the negations (integers wrap alike), and for
/// floats `neg` swaps max and min (for integers it does not: `-i64::MIN` wraps, `-1u8`
/// is 255); `relu` is non-decreasing, so it keeps max and min. Otherwise the input is
/// broadcast first. `floating` is the input dtype's kind.
#[cfg_attr(unoptimized, inline)]
pub fn unary_signature(rule: PartialRule, input: Sbp, floating: bool) -> Signature {
    let output = match (rule, input.partial_op()) {
        (_, None) => input,
        (PartialRule::Negates, Some(ReduceOp::Sum)) => Sbp::PartialSum,
        (PartialRule::Negates, Some(ReduceOp::Max)) if floating => Sbp::PartialMin,
        (PartialRule::Negates, Some(ReduceOp::Min)) if floating => Sbp::PartialMax,
        (PartialRule::Monotone, Some(ReduceOp::Max | ReduceOp::Min)) => input,
        _ => return all_broadcast(1),
    };
    Signature {
        inputs: vec![input],
        output,
    }
}

/// Elementwise over inputs of logical `sizes` (broadcast to `out`) with SBPs `sbps`:
/// `partial` is the output's SBP when the op keeps the inputs' partial SBPs (then the
/// inputs stay as they are). Otherwise the first input split along a dim it is not
/// broadcast on fixes the output's split dim `o`; every input that has `o` (not
/// broadcast there) is split along it, the others broadcast. With no such split, all are
/// broadcast.
#[cfg_attr(unoptimized, inline)]
pub fn elementwise_signature(
    sizes: &[&[usize]],
    sbps: &[Sbp],
    out: &[usize],
    partial: Option<Sbp>,
) -> Signature {
    if let Some(p) = partial {
        return Signature {
            inputs: sbps.to_vec(),
            output: p,
        };
    }
    let split = sizes
        .iter()
        .zip(sbps)
        .find_map(|(s, sbp)| broadcast_split_dim(s, out, sbp.split_dim()?));
    let Some(o) = split else {
        return all_broadcast(sbps.len());
    };
    let inputs = sizes
        .iter()
        .map(|s| {
            let off = out.len() - s.len();
            match o.checked_sub(off) {
                Some(d) if s[d] == out[o] && out[o] != 1 => Sbp::Split(d),
                _ => Sbp::Broadcast,
            }
        })
        .collect::<Vec<_>>();
    // A size-1 output dim may stay split where an input already is (shards 1, 0, ...).
    let inputs = inputs
        .into_iter()
        .zip(sbps.iter().zip(sizes))
        .map(|(t, (&have, s))| match have {
            Sbp::Split(d) if broadcast_split_dim(s, out, d) == Some(o) => have,
            _ => t,
        })
        .collect();
    Signature {
        inputs,
        output: Sbp::Split(o),
    }
}

/// The partial SBP a binary op keeps, if any: `P(sum) ± P(sum)`, `P(sum) * B`,
/// `B * P(sum)` (linear in the partial operand; as in exact arithmetic, so a non-finite
/// broadcast operand can give NaN where the logical product is infinite), `maximum` of
/// `P(max)` with `P(max)` or `B`, `minimum` likewise with `P(min)`. (`P(sum) / B`, which
/// OneFlow accepts, is broadcast first: a zero divisor makes the ranks' `0 / 0` NaN.) Each needs the partial operands'
/// dtype to be the result's, so that the per-rank arithmetic is the logical one
/// (integers wrap the same way; nothing is promoted in between).
#[cfg_attr(unoptimized, inline)]
pub fn binary_partial(kind: BinaryOp, a: (Sbp, DType), b: (Sbp, DType), out: DType) -> Option<Sbp> {
    use Sbp::{Broadcast as B, PartialMax as PMax, PartialMin as PMin, PartialSum as PSum};
    let keeps = |s: Sbp, d: DType| s.partial_op().is_none() || d == out;
    if !keeps(a.0, a.1) || !keeps(b.0, b.1) {
        return None;
    }
    match (kind.partial_rule(), a.0, b.0) {
        (BinaryPartial::Sum, PSum, PSum) => Some(PSum),
        (BinaryPartial::Linear, PSum, B) | (BinaryPartial::Linear, B, PSum) => Some(PSum),
        (BinaryPartial::Max, PMax, PMax | B) | (BinaryPartial::Max, B, PMax) => Some(PMax),
        (BinaryPartial::Min, PMin, PMin | B) | (BinaryPartial::Min, B, PMin) => Some(PMin),
        _ => None,
    }
}

/// A reduction over the wrapped `dims` (all dims when empty) of a tensor of logical
/// `sizes` under `sbp` on `parts` ranks:
/// - a split of a kept dim stays a split (moved left past removed dims);
/// - a split of a reduced dim gives the reduction's partial SBP (`sum` → `PartialSum`,
///   `amax` → `PartialMax`, `amin` → `PartialMin`), unless a shard would be empty for
///   `amax`/`amin` (which refuse empty dims): then broadcast first;
/// - broadcast stays broadcast;
/// - the reduction's own partial SBP stays partial (`sum` only when the dtype is kept);
///   any other partial is broadcast first.
#[cfg_attr(unoptimized, inline)]
pub fn reduce_signature(
    kind: ReduceKind,
    sizes: &[usize],
    sbp: Sbp,
    dims: &[usize],
    keepdim: bool,
    parts: usize,
    dtype_kept: bool,
) -> Signature {
    let all: Vec<usize> = (0..sizes.len()).collect();
    let dims = if dims.is_empty() { &all[..] } else { dims };
    let output = match sbp {
        Sbp::Broadcast => Sbp::Broadcast,
        Sbp::Split(d) => match reduce_split_dim(d, dims, keepdim) {
            Some(o) => Sbp::Split(o),
            None if kind != ReduceKind::Sum && has_empty_shard(sizes[d], parts) => {
                return all_broadcast(1)
            }
            None => Sbp::partial(kind.op()),
        },
        p if p.partial_op() == Some(kind.op()) && (kind != ReduceKind::Sum || dtype_kept) => p,
        _ => return all_broadcast(1),
    };
    Signature {
        inputs: vec![sbp],
        output,
    }
}

/// `matmul` of 2-D operands: `S(0)·B → S(0)`, `B·S(1) → S(1)`, `S(1)·S(0) → P(sum)`,
/// `P(sum)·B → P(sum)`, `B·P(sum) → P(sum)`, `B·B → B`; the left operand's SBP chooses
/// first, the other is boxed to match.
#[cfg_attr(unoptimized, inline)]
pub fn matmul_signature(a: Sbp, b: Sbp) -> Signature {
    use Sbp::*;
    let (ia, ib, out) = match (a, b) {
        (Split(0), _) => (Split(0), Broadcast, Split(0)),
        (Split(1), _) => (Split(1), Split(0), PartialSum),
        (_, Split(1)) => (Broadcast, Split(1), Split(1)),
        (_, Split(0)) => (Split(1), Split(0), PartialSum),
        (PartialSum, Broadcast) => (PartialSum, Broadcast, PartialSum),
        (Broadcast, PartialSum) => (Broadcast, PartialSum, PartialSum),
        _ => (Broadcast, Broadcast, Broadcast),
    };
    Signature {
        inputs: vec![ia, ib],
        output: out,
    }
}

/// `expand` from logical `sizes` to `out`: a split of a dim that is kept moves right by
/// the number of new leading dims; a split of a dim expanded from 1 is broadcast first;
/// broadcast and partial SBPs pass through (expand copies elements, which commutes with
/// any elementwise reduction).
#[cfg_attr(unoptimized, inline)]
pub fn expand_signature(sizes: &[usize], sbp: Sbp, out: &[usize]) -> Signature {
    let new_dims = out.len() - sizes.len();
    let output = match sbp {
        Sbp::Split(d) if out[d + new_dims] == sizes[d] => Sbp::Split(d + new_dims),
        Sbp::Split(_) => return all_broadcast(1),
        other => other,
    };
    Signature {
        inputs: vec![sbp],
        output,
    }
}

/// `reshape`/`view` from logical `sizes` to `out`: a split survives when its dim maps
/// one-to-one ([`reshape_split_dim`]); otherwise the input is broadcast first.
#[cfg_attr(unoptimized, inline)]
pub fn reshape_signature(sizes: &[usize], sbp: Sbp, out: &[usize]) -> Signature {
    let output = match sbp {
        Sbp::Split(d) => match reshape_split_dim(sizes, out, d) {
            Some(o) => Sbp::Split(o),
            None => return all_broadcast(1),
        },
        other => other,
    };
    Signature {
        inputs: vec![sbp],
        output,
    }
}

/// `permute(dims)` (wrapped): the split dim follows its data; nothing is boxed.
#[cfg_attr(unoptimized, inline)]
pub fn permute_signature(sbp: Sbp, dims: &[usize]) -> Signature {
    Signature {
        inputs: vec![sbp],
        output: permute_sbp(sbp, dims),
    }
}

/// `true` when some part of a split of `len` over `parts` ranks is empty.
#[cfg_attr(unoptimized, inline)]
pub fn has_empty_shard(len: usize, parts: usize) -> bool {
    split_range(len, parts, parts.saturating_sub(1)).is_ok_and(|r| r.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use Sbp::*;

    #[test]
    fn matmul_signatures_of_split_and_broadcast_pairs() {
        assert_eq!(matmul_signature(Split(0), Broadcast).output, Split(0));
        assert_eq!(matmul_signature(Broadcast, Split(1)).output, Split(1));
        assert_eq!(matmul_signature(Split(1), Split(0)).output, PartialSum);
        assert_eq!(
            matmul_signature(Split(0), Split(0)).inputs,
            vec![Split(0), Broadcast]
        );
        assert_eq!(matmul_signature(PartialMax, Broadcast).output, Broadcast);
    }

    #[test]
    fn sum_over_the_split_dim_is_partial_sum() {
        let s = reduce_signature(ReduceKind::Sum, &[4, 3], Split(0), &[0], false, 2, true);
        assert_eq!(s.output, PartialSum);
        let s = reduce_signature(ReduceKind::Sum, &[4, 3], Split(1), &[0], false, 2, true);
        assert_eq!(s.output, Split(0));
        let s = reduce_signature(ReduceKind::Amax, &[1, 3], Split(0), &[0], false, 2, true);
        assert_eq!(s.inputs, vec![Broadcast]);
        let s = reduce_signature(ReduceKind::Sum, &[4, 3], PartialSum, &[0], false, 2, false);
        assert_eq!(s.inputs, vec![Broadcast]);
    }

    #[test]
    fn broadcasting_binary_splits_only_operands_that_have_the_dim() {
        // [4, 3] S(0) + [3] B: the [3] operand is broadcast along dim 0.
        let s = elementwise_signature(&[&[4, 3], &[3]], &[Split(0), Broadcast], &[4, 3], None);
        assert_eq!(s.inputs, vec![Split(0), Broadcast]);
        assert_eq!(s.output, Split(0));
        // [4, 1] S(1) + [4, 3] B: the split dim is broadcast from 1, so it cannot stay.
        let s = elementwise_signature(&[&[4, 1], &[4, 3]], &[Split(1), Broadcast], &[4, 3], None);
        assert_eq!(s, all_broadcast(2));
        // [4, 3] B + [4, 3] S(1): the right operand's split wins; the left is sliced.
        let s = elementwise_signature(&[&[4, 3], &[4, 3]], &[Broadcast, Split(1)], &[4, 3], None);
        assert_eq!(s.inputs, vec![Split(1), Split(1)]);
    }

    #[test]
    fn binary_partial_rules() {
        let f = DType::F32;
        let div = binary_partial(BinaryOp::Div, (PartialSum, f), (Broadcast, f), f);
        assert_eq!(div, None);
        assert_eq!(
            binary_partial(BinaryOp::Add, (PartialSum, f), (PartialSum, f), f),
            Some(PartialSum)
        );
        assert_eq!(
            binary_partial(BinaryOp::Add, (PartialSum, f), (Broadcast, f), f),
            None
        );
        assert_eq!(
            binary_partial(BinaryOp::Mul, (Broadcast, f), (PartialSum, f), f),
            Some(PartialSum)
        );
        assert_eq!(
            binary_partial(BinaryOp::Mul, (PartialSum, DType::I8), (Broadcast, f), f),
            None
        );
        assert_eq!(
            binary_partial(BinaryOp::Maximum, (PartialMax, f), (Broadcast, f), f),
            Some(PartialMax)
        );
    }

    #[test]
    fn unary_partial_rules() {
        let neg_max = unary_signature(PartialRule::Negates, PartialMax, true);
        assert_eq!(neg_max.output, PartialMin);
        let neg_int_max = unary_signature(PartialRule::Negates, PartialMax, false);
        assert_eq!(neg_int_max.inputs, vec![Broadcast]);
        let neg_int_sum = unary_signature(PartialRule::Negates, PartialSum, false);
        assert_eq!(neg_int_sum.output, PartialSum);
        let exp_sum = unary_signature(PartialRule::Broadcasts, PartialSum, true);
        assert_eq!(exp_sum.inputs, vec![Broadcast]);
        let relu_min = unary_signature(PartialRule::Monotone, PartialMin, false);
        assert_eq!(relu_min.output, PartialMin);
        assert_eq!(
            unary_signature(PartialRule::Broadcasts, Split(2), true).output,
            Split(2)
        );
    }

    #[test]
    fn expand_and_reshape_signatures() {
        assert_eq!(
            expand_signature(&[4, 3, 1, 2], Split(3), &[2, 4, 3, 4, 2]).output,
            Split(4)
        );
        assert_eq!(
            expand_signature(&[4, 3, 1, 2], Split(2), &[2, 4, 3, 4, 2]).inputs,
            vec![Broadcast]
        );
        assert_eq!(
            reshape_signature(&[2, 3, 4], Split(2), &[6, 4]).output,
            Split(1)
        );
        assert_eq!(
            reshape_signature(&[2, 3, 4], Split(1), &[6, 4]).inputs,
            vec![Broadcast]
        );
        assert!(has_empty_shard(3, 4));
        assert!(!has_empty_shard(4, 4));
    }
}
