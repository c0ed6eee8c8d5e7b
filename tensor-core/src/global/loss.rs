//! The loss of data parallelism on global tensors: `cross_entropy` of split(0) scores
//! is each rank's sum over its rows divided by the global count, a `PartialSum` 0-d
//! tensor whose shards add up to the mean over the whole batch, however the rows are
//! split (an uneven split weighs each shard by its size).

use super::global_tensor::GlobalTensor;
use super::sbp::Sbp;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::nn::IGNORE_INDEX;
use crate::nn::{cross_entropy, Reduction};
use crate::scalar::Scalar;
use crate::tensor::Tensor;

impl GlobalTensor {
    /// `F.cross_entropy(self, target)` (mean over the targets that are not -100) of
    /// `[N, C]` scores and `[N]` class indices. Scores split along dim 0: the target is
    /// split alike, each rank sums its rows' losses and divides by the global count of
    /// targets (one all-reduce of the count), so the output is `PartialSum`, and its
    /// gradient is exactly the single-process one shard by shard. Any other SBP: both
    /// are broadcast first, and the output is broadcast.
    ///
    /// # Errors
    /// Different placements; [`Error::InvalidArgument`] unless the scores are 2-D and
    /// the target 1-D with the same batch size (PyTorch's `Expected input batch_size
    /// (4) to match target batch_size (3).`); the local op's (target dtype, a target out
    /// of bounds); a collective's.
    #[cfg_attr(unoptimized, inline)]
    pub fn cross_entropy(&self, target: &GlobalTensor) -> Result<GlobalTensor> {
        self.check_same_placement(target, "cross_entropy")?;
        let bad = |message: String| Error::InvalidArgument {
            op: "cross_entropy",
            message,
        };
        if self.dim() != 2 || target.dim() != 1 {
            return Err(bad(format!(
                "global cross_entropy takes [N, C] scores and [N] class indices, got {:?} and {:?}",
                self.sizes(),
                target.sizes()
            )));
        }
        if self.sizes()[0] != target.sizes()[0] {
            return Err(bad(format!(
                "Expected input batch_size ({}) to match target batch_size ({}).",
                self.sizes()[0],
                target.sizes()[0]
            )));
        }
        if self.sbp() != Sbp::Split(0) {
            let (x, t) = (
                self.boxed("cross_entropy", Sbp::Broadcast)?,
                target.boxed("cross_entropy", Sbp::Broadcast)?,
            );
            let local = cross_entropy(x.local(), t.local(), Reduction::Mean)?;
            return self.with_local(local, &[], Sbp::Broadcast);
        }
        let t = target.boxed("cross_entropy", Sbp::Split(0))?;
        let sum = cross_entropy(self.local(), t.local(), Reduction::Sum)?;
        let counted = t
            .local()
            .to_vec_f64()?
            .into_iter()
            .filter(|&v| v != IGNORE_INDEX as f64)
            .count();
        let count = Tensor::scalar_of(Scalar::Float(counted as f64), DType::F64);
        let total = self
            .with_local(count, &[], Sbp::PartialSum)?
            .to_logical()?
            .item::<f64>()?;
        let inv = Tensor::scalar_of(Scalar::Float(1.0 / total), self.dtype());
        self.with_local(sum.mul(&inv)?, &[], Sbp::PartialSum)
    }
}
