//! `Placement`: the ranks a global tensor lives on (OneFlow's `oneflow.placement`).

use crate::error::{Error, Result};
use std::fmt;

/// The ordered, distinct ranks that hold the shards of a global tensor: OneFlow's
/// `oneflow.placement("cpu", ranks=[...])`. The position of a rank in [`Placement::ranks`]
/// is its *parallel index*: shard `i` of a split tensor lives on `ranks()[i]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    ranks: Vec<usize>,
}

impl Placement {
    /// A placement over `ranks` (world ranks, in parallel-index order).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `ranks` is empty or names a rank twice.
    #[cfg_attr(unoptimized, inline)]
    pub fn new(ranks: &[usize]) -> Result<Placement> {
        if ranks.is_empty() {
            return Err(Error::InvalidArgument {
                op: "placement",
                message: "placement: ranks must not be empty".into(),
            });
        }
        // Duplicates, in O(n log n): sorted, a repeated rank sits next to itself.
        let mut sorted = crate::alloc::try_with_capacity(ranks.len())?;
        sorted.extend_from_slice(ranks);
        sorted.sort_unstable();
        if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
            let list = if ranks.len() <= 32 {
                format!("{ranks:?}")
            } else {
                format!("a list of {} ranks", ranks.len())
            };
            return Err(Error::InvalidArgument {
                op: "placement",
                message: format!("placement: rank {} appears more than once in {list}", w[0]),
            });
        }
        drop(sorted);
        let mut own = crate::alloc::try_with_capacity(ranks.len())?;
        own.extend_from_slice(ranks);
        Ok(Placement { ranks: own })
    }

    /// Every rank of a world of `world_size` ranks: `[0, 1, ..., world_size - 1]`.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `world_size` is 0; [`Error::OutOfMemory`] when
    /// the list does not fit in memory.
    #[cfg_attr(unoptimized, inline)]
    pub fn all(world_size: usize) -> Result<Placement> {
        let mut ranks = crate::alloc::try_with_capacity(world_size)?;
        ranks.extend(0..world_size);
        Placement::new(&ranks)
    }

    /// The ranks, in parallel-index order.
    #[cfg_attr(unoptimized, inline)]
    pub fn ranks(&self) -> &[usize] {
        &self.ranks
    }

    /// The number of ranks (the parallel num). Never 0.
    #[cfg_attr(unoptimized, inline)]
    pub fn len(&self) -> usize {
        self.ranks.len()
    }

    /// Always `false`: a placement holds at least one rank.
    #[cfg_attr(unoptimized, inline)]
    pub fn is_empty(&self) -> bool {
        self.ranks.is_empty()
    }

    /// The parallel index of world rank `rank`, or `None` when it is not in the placement.
    #[cfg_attr(unoptimized, inline)]
    pub fn index_of(&self, rank: usize) -> Option<usize> {
        self.ranks.iter().position(|&r| r == rank)
    }

    /// Checks that every rank is below `world_size` and that `rank` belongs to the
    /// placement; returns `rank`'s parallel index.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] naming the placement and the world.
    #[cfg_attr(unoptimized, inline)]
    pub fn check_in_world(&self, rank: usize, world_size: usize) -> Result<usize> {
        if let Some(&r) = self.ranks.iter().find(|&&r| r >= world_size) {
            return Err(Error::InvalidArgument {
                op: "placement",
                message: format!(
                    "{self}: rank {r} is out of range for a world of {world_size} ranks"
                ),
            });
        }
        self.index_of(rank).ok_or_else(|| Error::InvalidArgument {
            op: "placement",
            message: format!("{self}: rank {rank} is not in the placement, so it holds no shard"),
        })
    }
}

impl fmt::Display for Placement {
    /// As OneFlow prints it: `oneflow.placement(type="cpu", ranks=[0, 1])`.
    #[cfg_attr(unoptimized, inline)]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "oneflow.placement(type=\"cpu\", ranks={:?})", self.ranks)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_million_ranks_are_checked_in_n_log_n_and_usize_max_is_an_error() {
        assert_eq!(Placement::all(1_000_000).unwrap().len(), 1_000_000);
        let mut ranks: Vec<usize> = (0..100_000).collect();
        ranks.push(7);
        let e = Placement::new(&ranks).unwrap_err().to_string();
        assert!(
            e.contains("rank 7 appears more than once in a list of 100001 ranks"),
            "{e}"
        );
        assert!(Placement::all(usize::MAX).is_err());
    }

    #[test]
    fn duplicate_rank_is_an_error() {
        assert!(Placement::new(&[0, 1, 0]).is_err());
        assert!(Placement::new(&[]).is_err());
    }

    #[test]
    fn rank_outside_the_world_is_an_error() {
        let p = Placement::new(&[0, 3]).unwrap();
        assert!(p.check_in_world(0, 2).is_err());
        assert_eq!(p.check_in_world(3, 4).unwrap(), 1);
        assert!(p.check_in_world(1, 4).is_err());
    }

    #[test]
    fn displays_as_oneflow() {
        let p = Placement::all(2).unwrap();
        assert_eq!(
            p.to_string(),
            "oneflow.placement(type=\"cpu\", ranks=[0, 1])"
        );
    }
}
