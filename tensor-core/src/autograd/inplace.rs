//! In-place ops under autograd: the leaf check, version bumps, and rebasing the
//! history of a tensor an in-place op changed.

use super::grad_mode::{is_grad_enabled, NoGradGuard};
use super::record::needs_grad;
use crate::error::{Error, Result};
use crate::Tensor;

/// Checks that `t` may be written in place (PyTorch's `check_inplace`): not a leaf
/// that requires grad while grad mode is on.
///
/// # Errors
/// [`Error::LeafInplace`].
#[inline]
pub(crate) fn check_writable(t: &Tensor) -> Result<()> {
    if let Some(m) = t.autograd_meta() {
        if m.grad_fn().is_none() && m.requires_grad() && is_grad_enabled() {
            return Err(Error::LeafInplace);
        }
    }
    Ok(())
}

/// Records one in-place write into `t`'s storage (bumps the version counter).
#[inline]
pub(crate) fn wrote(t: &Tensor) {
    t.storage().bump_version();
}

/// Checks an `_out` op: `out` may be written, and no input requires grad while grad
/// mode is on (PyTorch's `functions with out=... arguments don't support automatic
/// differentiation`).
///
/// # Errors
/// [`Error::LeafInplace`]; [`Error::OutRequiresGrad`].
#[cfg_attr(unoptimized, inline)]
pub(crate) fn check_out(op: &'static str, inputs: &[&Tensor], out: &Tensor) -> Result<()> {
    check_writable(out)?;
    if needs_grad(inputs) || (out.requires_grad() && is_grad_enabled()) {
        return Err(Error::OutRequiresGrad { op });
    }
    Ok(())
}

/// Runs an in-place op on `target` whose operands require grad (grad mode on) the way
/// PyTorch rebases history: the new value is computed out of place from a copy of the
/// old one by `out_of_place` (recording its node), written into `target`, and becomes
/// `target`'s history. Tensors saved from the old value see the version bump.
///
/// # Errors
/// [`Error::LeafInplace`]; [`Error::InplaceAutograd`] for a target that does not
/// require grad or is a view of one that does; those of `out_of_place` and `copy_`.
pub(crate) fn inplace_rebase(
    target: &Tensor,
    out_of_place: impl FnOnce(&Tensor) -> Result<Tensor>,
) -> Result<()> {
    check_writable(target)?;
    let Some(meta) = target.autograd_meta().filter(|m| m.requires_grad()) else {
        return Err(Error::InplaceAutograd {
            reason: "the tensor written does not require grad but an operand does",
        });
    };
    if meta.is_view {
        return Err(Error::InplaceAutograd {
            reason: "the tensor written is a view of a tensor that requires grad",
        });
    }
    let old = target.clone(crate::MemoryFormat::Preserve)?;
    let new = out_of_place(&old)?;
    let Some(edge) = new.grad_fn_edge() else {
        return Err(Error::InplaceAutograd {
            reason: "the op recorded no history",
        });
    };
    {
        let _guard = NoGradGuard::new();
        target.copy_(&new)?;
    }
    meta.set_grad_fn(edge);
    Ok(())
}
