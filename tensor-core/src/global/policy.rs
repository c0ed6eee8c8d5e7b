//! Implicit boxing, allowed or refused: an op whose inputs' SBPs do not fit its
//! signature boxes them first (OneFlow's behaviour, the default), unless the caller runs
//! it inside [`without_implicit_boxing`], where that boxing is an error raised before any
//! communication. Typed global code (tensor-typed's `Global`) runs every op so: its
//! types promise that no op communicates unless the program says so.

use super::global_tensor::GlobalTensor;
use super::sbp::Sbp;
use crate::error::{Error, Result};
use std::cell::Cell;

thread_local! {
    /// Whether this thread refuses implicit boxing (each in-process rank is a thread).
    static REFUSED: Cell<bool> = const { Cell::new(false) };
}

/// Restores the previous setting when dropped (also on unwinding).
struct Restore(bool);

impl Drop for Restore {
    #[cfg_attr(unoptimized, inline)]
    fn drop(&mut self) {
        REFUSED.with(|r| r.set(self.0));
    }
}

/// Runs `f` with implicit boxing refused on this thread: a global op whose inputs would
/// have to be boxed to its signature returns an [`Error::InvalidArgument`] naming the op
/// and both SBPs instead (`matmul: an input is oneflow.sbp.split(dim=0) but the op's
/// signature takes oneflow.sbp.broadcast; implicit boxing is refused: box it with
/// to_sbp`). Explicit boxing (`GlobalTensor::to_sbp`) and the collectives an op needs
/// for itself (the batch count of `cross_entropy`) are unaffected.
pub fn without_implicit_boxing<R>(f: impl FnOnce() -> R) -> R {
    let _restore = Restore(REFUSED.with(|r| r.replace(true)));
    f()
}

impl GlobalTensor {
    /// This tensor boxed to `sbp` for the op `op`: the boxing, or, when this thread
    /// refuses implicit boxing and the SBPs differ, the error naming both.
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn boxed(&self, op: &'static str, sbp: Sbp) -> Result<GlobalTensor> {
        if self.sbp() != sbp && REFUSED.with(Cell::get) {
            return Err(Error::InvalidArgument {
                op,
                message: format!(
                    "{op}: an input is {} but the op's signature takes {sbp}; implicit boxing is refused: box it with to_sbp",
                    self.sbp()
                ),
            });
        }
        self.to_sbp(sbp)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dtype::DType;
    use crate::global::{run_ranks, Placement};
    use crate::tensor::Tensor;

    #[test]
    fn refused_boxing_names_the_op_and_both_sbps_and_the_setting_is_restored() {
        let out = run_ranks(2, |comm| {
            let p = Placement::all(2)?;
            let t = Tensor::zeros(&[4, 3], DType::F32)?;
            let x = GlobalTensor::from_logical(&comm, &t, &p, Sbp::Split(0))?;
            let e = without_implicit_boxing(|| x.boxed("matmul", Sbp::Broadcast))
                .unwrap_err()
                .to_string();
            let same = without_implicit_boxing(|| x.boxed("matmul", Sbp::Split(0)))?;
            let after = x.boxed("matmul", Sbp::Broadcast)?;
            Ok((e, same.sbp(), after.sbp()))
        })
        .unwrap();
        for (e, same, after) in out {
            assert!(e.contains("matmul: an input is oneflow.sbp.split(dim=0) but the op's signature takes oneflow.sbp.broadcast"), "{e}");
            assert_eq!((same, after), (Sbp::Split(0), Sbp::Broadcast));
        }
    }
}
