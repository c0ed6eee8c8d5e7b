//! Where a gradient goes: a tensor's `grad_fn` (regenerated for a view whose storage
//! was written in place since), or a leaf's `AccumulateGrad` node.

use super::accumulate::AccumulateGrad;
use super::meta::{AutogradMeta, ViewInfo};
use super::node::{Edge, GraphNode, InputMeta};
use super::view::{AsStridedBackward, Geometry};
use crate::tensor::Tensor;
use std::sync::atomic::Ordering;
use std::sync::Arc;

impl Tensor {
    /// `Tensor.is_leaf`: `true` unless a recorded op produced the tensor (tensors that
    /// do not require grad are leaves too).
    #[cfg_attr(unoptimized, inline)]
    pub fn is_leaf(&self) -> bool {
        self.grad_fn_edge().is_none()
    }

    /// The name of the node that produced the tensor (`Tensor.grad_fn`'s name, as
    /// `"MulBackward0"`), `None` for a leaf. A view whose base (or another view of it)
    /// was written in place since it was taken reports `"AsStridedBackward0"`, as
    /// PyTorch's regenerated `grad_fn`.
    #[cfg_attr(unoptimized, inline)]
    pub fn grad_fn_name(&self) -> Option<&'static str> {
        self.grad_fn_edge().map(|e| e.node.node.name())
    }

    /// The tensor's `grad_fn`, regenerated first for a stale view.
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn grad_fn_edge(&self) -> Option<Edge> {
        let m = self.autograd_meta()?;
        if let Some(v) = &m.view {
            refresh(self, m, v);
        }
        m.grad_fn()
    }
}

/// Regenerates the `grad_fn` of the view `t` when its storage's version moved since
/// the `grad_fn` was set: [`AsStridedBackward`] onto the base's current history.
#[cfg_attr(unoptimized, inline)]
fn refresh(t: &Tensor, m: &AutogradMeta, v: &ViewInfo) {
    let now = t.storage().version();
    if v.version.swap(now, Ordering::AcqRel) == now {
        return;
    }
    let Some(base_edge) = gradient_edge(&v.base) else {
        return;
    };
    let node = GraphNode {
        node: Box::new(AsStridedBackward {
            base: Geometry::of(&v.base),
            view: Geometry::of(t),
        }),
        next: vec![Some(base_edge)],
        inputs: vec![InputMeta {
            sizes: v.base.sizes().to_vec(),
            dtype: v.base.dtype(),
        }],
        num_outputs: 1,
    };
    m.set_grad_fn(Edge {
        node: Arc::new(node),
        output_nr: 0,
    });
}

/// The edge through which a gradient reaches `t`: its `grad_fn`, or for a leaf that
/// requires grad its `AccumulateGrad` node; `None` when `t` does not require grad.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn gradient_edge(t: &Tensor) -> Option<Edge> {
    if let Some(e) = t.grad_fn_edge() {
        return Some(e);
    }
    let m = t.autograd_meta()?;
    if !m.requires_grad() {
        return None;
    }
    let node = m.accumulator(|| {
        Arc::new(GraphNode {
            node: Box::new(AccumulateGrad::new(m.clone(), t)),
            next: Vec::new(),
            inputs: Vec::new(),
            num_outputs: 1,
        })
    });
    Some(Edge { node, output_nr: 0 })
}

/// The view state of an op's output `out` taken from `input`: the root base (the
/// input's own base when the input is a view) and the storage's current version.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn view_info(input: &Tensor, out: &Tensor) -> ViewInfo {
    let base = match input.autograd_meta().and_then(|m| m.view.as_ref()) {
        Some(v) => v.base.alias(),
        None => input.alias(),
    };
    ViewInfo {
        base,
        version: std::sync::atomic::AtomicU64::new(out.storage().version()),
    }
}
