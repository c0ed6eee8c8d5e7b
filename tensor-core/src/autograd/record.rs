//! Recording a node: [`apply`] and friends, the only way ops enter the graph.

use super::edge::{gradient_edge, view_info};
use super::grad_mode::{is_grad_enabled, NoGradGuard};
use super::meta::AutogradMeta;
use super::node::{Edge, GraphNode, InputMeta, Node};
use crate::error::Result;
use crate::tensor::Tensor;
use std::sync::Arc;

/// `true` when grad mode is on and some input requires grad: an op must record its
/// node. Costs one `Option` check per input when no input ever met autograd.
#[inline]
pub fn needs_grad(inputs: &[&Tensor]) -> bool {
    inputs.iter().any(|t| t.autograd_meta().is_some())
        && inputs.iter().any(|t| t.requires_grad())
        && is_grad_enabled()
}

#[cfg_attr(unoptimized, inline)]
fn attach(inputs: &[&Tensor], outputs: &mut [Tensor], node: Box<dyn Node>, is_view: bool) {
    let graph_node = Arc::new(GraphNode {
        node,
        next: inputs.iter().map(|t| gradient_edge(t)).collect(),
        inputs: inputs
            .iter()
            .map(|t| InputMeta {
                sizes: t.sizes().to_vec(),
                dtype: t.dtype(),
            })
            .collect(),
        num_outputs: outputs.len(),
    });
    for (i, out) in outputs.iter_mut().enumerate() {
        let edge = Edge {
            node: graph_node.clone(),
            output_nr: i,
        };
        let view = is_view.then(|| view_info(inputs[0], out));
        out.set_autograd_meta(Some(Arc::new(AutogradMeta::non_leaf(edge, view))));
    }
}

fn apply_impl<N: Node + 'static>(
    inputs: &[&Tensor],
    forward: impl FnOnce() -> Result<Tensor>,
    make_node: impl FnOnce(&Tensor) -> N,
    is_view: bool,
) -> Result<Tensor> {
    if !needs_grad(inputs) {
        return forward();
    }
    let out = {
        let _guard = NoGradGuard::new();
        forward()?
    };
    if !out.dtype().is_floating() {
        // Integer and bool results never require grad (PyTorch's
        // `isDifferentiableType`).
        return Ok(out.alias_detached());
    }
    let mut out = [out.alias_detached()];
    let node = make_node(&out[0]);
    attach(inputs, &mut out, Box::new(node), is_view);
    let [out] = out;
    Ok(out)
}

/// Runs `forward` and, when [`needs_grad`]`(inputs)`, records the node `make_node`
/// builds (given the output, to save it) as the output's `grad_fn`, with one edge per
/// input in order. The node's `apply` returns one gradient per input. `forward` runs
/// with grad mode off when recording, so the ops inside it record nothing.
///
/// # Errors
/// Those of `forward`.
pub fn apply<N: Node + 'static>(
    inputs: &[&Tensor],
    forward: impl FnOnce() -> Result<Tensor>,
    make_node: impl FnOnce(&Tensor) -> N,
) -> Result<Tensor> {
    apply_impl(inputs, forward, make_node, false)
}

/// [`apply`] for a view op (the output shares the input's storage): the output is
/// marked as a view, so in-place ops on it while it requires grad are refused.
///
/// # Errors
/// Those of `forward`.
pub fn apply_view<N: Node + 'static>(
    inputs: &[&Tensor],
    forward: impl FnOnce() -> Result<Tensor>,
    make_node: impl FnOnce(&Tensor) -> N,
) -> Result<Tensor> {
    apply_impl(inputs, forward, make_node, true)
}

/// [`apply`] for an op with several outputs: the node gets one gradient per output
/// (`None` for outputs no gradient reached).
///
/// # Errors
/// Those of `forward`.
pub fn apply_multi<N: Node + 'static>(
    inputs: &[&Tensor],
    forward: impl FnOnce() -> Result<Vec<Tensor>>,
    make_node: impl FnOnce(&[Tensor]) -> N,
) -> Result<Vec<Tensor>> {
    if !needs_grad(inputs) {
        return forward();
    }
    let outs = {
        let _guard = NoGradGuard::new();
        forward()?
    };
    let mut outs: Vec<Tensor> = outs.iter().map(Tensor::alias_detached).collect();
    let node = make_node(&outs);
    attach(inputs, &mut outs, Box::new(node), false);
    Ok(outs)
}
