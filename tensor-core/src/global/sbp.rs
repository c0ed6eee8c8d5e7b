//! `Sbp`: how a logical tensor maps to the shards on its ranks (OneFlow's
//! `oneflow.sbp`): split, broadcast or partial.

use crate::error::{Error, Result};
use std::fmt;

/// The elementwise reduction that turns the shards of a partial tensor into the logical
/// tensor, and the one the reducing collectives (all-reduce, reduce-scatter) apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReduceOp {
    /// Elementwise sum, in rank order (`Tensor::add`: integers wrap, bool is `or`).
    Sum,
    /// Elementwise maximum (`Tensor::maximum`: NaN propagates).
    Max,
    /// Elementwise minimum (`Tensor::minimum`: NaN propagates).
    Min,
}

/// The SBP of a global tensor on a one-dimensional placement (OneFlow's
/// `oneflow.sbp.split(dim)`, `broadcast`, `partial_sum`; `partial_max` / `partial_min`
/// as OneFlow's internal partial kinds).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sbp {
    /// Shards are cut along this dim with the balanced rule (the first `len % ranks`
    /// ranks hold one more); concatenated in parallel-index order they are the logical
    /// tensor.
    Split(usize),
    /// Every rank holds the whole logical tensor.
    Broadcast,
    /// Every shard has the logical shape; their elementwise sum is the logical tensor.
    PartialSum,
    /// Every shard has the logical shape; their elementwise maximum is the logical tensor.
    PartialMax,
    /// Every shard has the logical shape; their elementwise minimum is the logical tensor.
    PartialMin,
}

impl Sbp {
    /// The partial SBP reduced by `op`.
    #[cfg_attr(unoptimized, inline)]
    pub const fn partial(op: ReduceOp) -> Sbp {
        match op {
            ReduceOp::Sum => Sbp::PartialSum,
            ReduceOp::Max => Sbp::PartialMax,
            ReduceOp::Min => Sbp::PartialMin,
        }
    }

    /// The reduction of a partial SBP, `None` for split and broadcast.
    #[cfg_attr(unoptimized, inline)]
    pub fn partial_op(self) -> Option<ReduceOp> {
        match self {
            Sbp::PartialSum => Some(ReduceOp::Sum),
            Sbp::PartialMax => Some(ReduceOp::Max),
            Sbp::PartialMin => Some(ReduceOp::Min),
            Sbp::Split(_) | Sbp::Broadcast => None,
        }
    }

    /// The split dim, `None` unless `Split`.
    #[cfg_attr(unoptimized, inline)]
    pub fn split_dim(self) -> Option<usize> {
        match self {
            Sbp::Split(d) => Some(d),
            _ => None,
        }
    }

    /// Checks this SBP against a logical tensor of `ndim` dims: a split dim must be in
    /// `[0, ndim)` (a 0-d tensor cannot be split).
    ///
    /// # Errors
    /// [`Error::DimOutOfRange`] (`Dimension out of range (expected to be in range of
    /// [-2, 1], but got 2)`) for a split dim past the last dim, and an
    /// [`Error::InvalidArgument`] for a split of a 0-d tensor.
    #[cfg_attr(unoptimized, inline)]
    pub fn check(self, ndim: usize) -> Result<()> {
        if let Sbp::Split(d) = self {
            if ndim == 0 {
                return Err(Error::InvalidArgument {
                    op: "sbp",
                    message: format!("{self}: a 0-d tensor cannot be split"),
                });
            }
            if d >= ndim {
                let (min, max) = (-(ndim as i64), ndim as i64 - 1);
                return Err(match i64::try_from(d) {
                    Ok(dim) => Error::DimOutOfRange { dim, min, max },
                    // Past i64: the same message with the dim as given.
                    Err(_) => Error::InvalidArgument {
                        op: "sbp",
                        message: format!(
                            "Dimension out of range (expected to be in range of [{min}, {max}], but got {d})"
                        ),
                    },
                });
            }
        }
        Ok(())
    }
}

impl fmt::Display for Sbp {
    /// As OneFlow prints it: `oneflow.sbp.split(dim=0)`, `oneflow.sbp.broadcast`,
    /// `oneflow.sbp.partial_sum`.
    #[cfg_attr(unoptimized, inline)]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sbp::Split(d) => write!(f, "oneflow.sbp.split(dim={d})"),
            Sbp::Broadcast => write!(f, "oneflow.sbp.broadcast"),
            Sbp::PartialSum => write!(f, "oneflow.sbp.partial_sum"),
            Sbp::PartialMax => write!(f, "oneflow.sbp.partial_max"),
            Sbp::PartialMin => write!(f, "oneflow.sbp.partial_min"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_dim_out_of_range_is_dim_out_of_range() {
        let e = Sbp::Split(usize::MAX).check(2).unwrap_err().to_string();
        assert!(e.contains("[-2, 1], but got 18446744073709551615"), "{e}");
        let e = Sbp::Split(2).check(2).unwrap_err();
        assert!(e
            .to_string()
            .contains("Dimension out of range (expected to be in range of [-2, 1], but got 2)"));
        assert!(Sbp::Split(0).check(0).is_err());
        assert!(Sbp::Broadcast.check(0).is_ok());
        assert!(Sbp::Split(1).check(2).is_ok());
    }

    #[test]
    fn partial_round_trips_its_op() {
        for op in [ReduceOp::Sum, ReduceOp::Max, ReduceOp::Min] {
            assert_eq!(Sbp::partial(op).partial_op(), Some(op));
        }
        assert_eq!(Sbp::Split(1).partial_op(), None);
    }
}
