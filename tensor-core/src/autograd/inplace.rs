//! In-place ops under autograd: the leaf check, version bumps, and rebasing the
//! history of a tensor an in-place op changed.

use super::edge::gradient_edge;
use super::grad_mode::{is_grad_enabled, NoGradGuard};
use super::node::{Edge, GraphNode, InputMeta};
use super::record::needs_grad;
use super::view::{CopySlices, Geometry};
use crate::error::{Error, Result};
use crate::tensor::Tensor;
use std::sync::Arc;

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
/// [`Error::LeafInplace`]; [`Error::ViewOfLeafInplace`] for a view of a leaf that
/// requires grad; [`Error::InplaceAutograd`] for a target that does not require grad;
/// those of `out_of_place` and `copy_`.
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
    if let Some(view) = &meta.view {
        return rebase_view(target, &view.base, out_of_place);
    }
    let old = target.clone(crate::layout::MemoryFormat::Preserve)?;
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

/// [`inplace_rebase`] for a view: the new values are computed from a copy of the view
/// (whose history is the base's, through the view), written into the view, and the
/// base's history becomes [`CopySlices`] of its old history and the op's node. The
/// view's own `grad_fn` is regenerated from the base's when next read.
fn rebase_view(
    target: &Tensor,
    base: &Tensor,
    out_of_place: impl FnOnce(&Tensor) -> Result<Tensor>,
) -> Result<()> {
    if base.is_leaf() && base.requires_grad() && is_grad_enabled() {
        return Err(Error::ViewOfLeafInplace);
    }
    let Some(base_meta) = base.autograd_meta() else {
        return Err(Error::InplaceAutograd {
            reason: "the base of the view written keeps no autograd state",
        });
    };
    let old = target.clone(crate::layout::MemoryFormat::Preserve)?;
    let new = out_of_place(&old)?;
    let Some(edge) = new.grad_fn_edge() else {
        return Err(Error::InplaceAutograd {
            reason: "the op recorded no history",
        });
    };
    let node = GraphNode {
        node: Box::new(CopySlices {
            base: Geometry::of(base),
            view: Geometry::of(target),
            result: new.dtype(),
        }),
        next: vec![gradient_edge(base), Some(edge)],
        inputs: vec![
            InputMeta {
                sizes: base.sizes().to_vec(),
                dtype: base.dtype(),
            },
            InputMeta {
                sizes: new.sizes().to_vec(),
                dtype: new.dtype(),
            },
        ],
        num_outputs: 1,
    };
    {
        let _guard = NoGradGuard::new();
        target.copy_(&new)?;
    }
    base_meta.set_grad_fn(Edge {
        node: Arc::new(node),
        output_nr: 0,
    });
    Ok(())
}
