//! Boxing: re-distributing a global tensor from one SBP to another with the collective
//! each pair needs (OneFlow's boxing). Which collective runs depends only on the logical
//! metadata, so every rank picks the same one.

use super::chain;
use super::collective::{shard, Group};
use super::infer::split_range;
use super::sbp::{ReduceOp, Sbp};
use crate::dtype::DType;
use crate::error::Result;
use crate::scalar::Scalar;
use crate::tensor::Tensor;

/// The collective that takes `from` to `to` (for docs, logs and tests).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoxingKind {
    /// Same SBP: nothing moves.
    Identity,
    /// S → B.
    AllGather,
    /// P → B.
    AllReduce,
    /// B → S, B → P, S → P: each rank cuts or pads what it has.
    Local,
    /// P → S.
    ReduceScatter,
    /// S(i) → S(j).
    AllToAll,
    /// P(op) → P(other op): all-reduce, then keep the result on the first rank.
    AllReduceThenLocal,
}

/// The boxing from `from` to `to`.
#[cfg_attr(unoptimized, inline)]
pub fn boxing_kind(from: Sbp, to: Sbp) -> BoxingKind {
    use Sbp::*;
    match (from, to) {
        _ if from == to => BoxingKind::Identity,
        (Split(_), Broadcast) => BoxingKind::AllGather,
        (Split(_), Split(_)) => BoxingKind::AllToAll,
        (Split(_), _) | (Broadcast, _) => BoxingKind::Local,
        (_, Broadcast) => BoxingKind::AllReduce,
        (_, Split(_)) => BoxingKind::ReduceScatter,
        _ => BoxingKind::AllReduceThenLocal,
    }
}

/// This rank's shard `local` of a global tensor of logical `sizes` under `from`,
/// re-distributed to `to` (checked by the caller) among the ranks of `g`.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn boxing(
    g: &Group<'_>,
    local: &Tensor,
    sizes: &[usize],
    from: Sbp,
    to: Sbp,
) -> Result<Tensor> {
    let (parts, index) = (g.ranks.len(), g.index);
    match (boxing_kind(from, to), from, to) {
        (BoxingKind::Identity, ..) => Ok(local.alias()),
        (BoxingKind::AllGather, Sbp::Split(d), _) => g.all_gather(local, d, sizes),
        (BoxingKind::AllToAll, Sbp::Split(i), Sbp::Split(j)) => g.all_to_all(local, i, j, sizes),
        (BoxingKind::Local, Sbp::Broadcast, _) => local_from_broadcast(local, to, parts, index),
        (BoxingKind::Local, Sbp::Split(d), partial) => {
            // S → P: the shard at its place in a tensor of the logical sizes, the
            // reduction's identity everywhere else.
            let op = partial.partial_op().unwrap_or(ReduceOp::Sum);
            let out = Tensor::full(sizes, identity(op, local.dtype()), local.dtype())?;
            let r = split_range(sizes[d], parts, index)?;
            out.narrow(d as i64, r.start as i64, r.len())?
                .copy_(local)?;
            Ok(out)
        }
        (BoxingKind::AllReduce, p, _) => {
            chain::all_reduce(g, local, p.partial_op().unwrap_or(ReduceOp::Sum))
        }
        (BoxingKind::ReduceScatter, p, Sbp::Split(d)) => {
            g.reduce_scatter(local, p.partial_op().unwrap_or(ReduceOp::Sum), d)
        }
        (_, p, _) => {
            let whole = chain::all_reduce(g, local, p.partial_op().unwrap_or(ReduceOp::Sum))?;
            local_from_broadcast(&whole, to, parts, index)
        }
    }
}

/// The identity element of `op` for `dtype`: 0 for sum, the lowest value for max
/// (`-inf`, `i64::MIN`, `false`), the highest for min.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn identity(op: ReduceOp, dtype: DType) -> Scalar {
    let high = match op {
        ReduceOp::Sum => return Scalar::Int(0),
        ReduceOp::Max => false,
        ReduceOp::Min => true,
    };
    let int = |lo: i64, hi: i64| Scalar::Int(if high { hi } else { lo });
    match dtype {
        DType::Bool => Scalar::Bool(high),
        DType::U8 => int(0, u8::MAX.into()),
        DType::I8 => int(i8::MIN.into(), i8::MAX.into()),
        DType::I16 => int(i16::MIN.into(), i16::MAX.into()),
        DType::I32 => int(i32::MIN.into(), i32::MAX.into()),
        DType::I64 => int(i64::MIN, i64::MAX),
        _ => Scalar::Float(if high {
            f64::INFINITY
        } else {
            f64::NEG_INFINITY
        }),
    }
}

/// This rank's shard of a whole tensor `t` under `sbp` (B → `sbp` without
/// communication): a slice, the whole, or `t` on index 0 and the identity elsewhere.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn local_from_broadcast(
    t: &Tensor,
    sbp: Sbp,
    parts: usize,
    index: usize,
) -> Result<Tensor> {
    match sbp {
        Sbp::Broadcast => Ok(t.alias()),
        Sbp::Split(d) => shard(t, d, parts, index)?.contiguous(),
        partial => {
            let op = partial.partial_op().unwrap_or(ReduceOp::Sum);
            if index == 0 {
                Ok(t.alias())
            } else {
                Tensor::full(t.sizes(), identity(op, t.dtype()), t.dtype())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_pair_picks_its_collective() {
        use Sbp::*;
        assert_eq!(boxing_kind(Split(0), Broadcast), BoxingKind::AllGather);
        assert_eq!(boxing_kind(PartialSum, Broadcast), BoxingKind::AllReduce);
        assert_eq!(boxing_kind(Broadcast, Split(1)), BoxingKind::Local);
        assert_eq!(boxing_kind(PartialMax, Split(1)), BoxingKind::ReduceScatter);
        assert_eq!(boxing_kind(Split(0), Split(1)), BoxingKind::AllToAll);
        assert_eq!(boxing_kind(Split(1), Split(1)), BoxingKind::Identity);
        assert_eq!(
            boxing_kind(PartialSum, PartialMax),
            BoxingKind::AllReduceThenLocal
        );
        assert_eq!(boxing_kind(Split(0), PartialSum), BoxingKind::Local);
    }
}
