//! The backward pass (PyTorch's `Engine::execute`, single-threaded per call): counts
//! each node's dependencies in the graph reachable from the output, then runs nodes
//! whose every consumer has delivered its gradient, summing gradients that meet at a
//! node, until the leaves' `AccumulateGrad` nodes have run.

use super::edge::gradient_edge;
use super::grad_mode::NoGradGuard;
use super::node::{Edge, GraphNode, InputMeta};
use super::sum_to::is_expandable_to;
use crate::error::{Error, Result};
use crate::tensor::Tensor;
use std::collections::HashMap;
use std::sync::Arc;

#[cfg_attr(unoptimized, inline)]
fn empty(n: usize) -> Vec<Option<Tensor>> {
    (0..n).map(|_| None).collect()
}

#[cfg_attr(unoptimized, inline)]
fn key(n: &Arc<GraphNode>) -> *const GraphNode {
    Arc::as_ptr(n)
}

/// PyTorch's `validate_outputs` for one gradient: sums it to the input's shape when it
/// is broadcast, casts it to the input's dtype.
#[cfg_attr(unoptimized, inline)]
fn validate(g: Tensor, meta: &InputMeta, node: &str, index: usize) -> Result<Tensor> {
    let g = if g.sizes() == meta.sizes.as_slice() {
        g
    } else if is_expandable_to(&meta.sizes, g.sizes()) {
        g.sum_to_size(&meta.sizes)?
    } else {
        return Err(Error::InvalidGradient {
            node: node.to_string(),
            index,
            got: g.sizes().to_vec(),
            expected: meta.sizes.clone(),
        });
    };
    if g.dtype() != meta.dtype {
        return g.to_dtype(meta.dtype);
    }
    Ok(g)
}

/// Counts, for every node reachable from `root`, the edges that lead to it.
#[cfg_attr(unoptimized, inline)]
fn dependencies(root: &Arc<GraphNode>) -> HashMap<*const GraphNode, usize> {
    let mut deps: HashMap<*const GraphNode, usize> = HashMap::new();
    let mut seen = std::collections::HashSet::new();
    seen.insert(key(root));
    let mut stack = vec![root.clone()];
    while let Some(n) = stack.pop() {
        for e in n.next.iter().flatten() {
            *deps.entry(key(&e.node)).or_default() += 1;
            if seen.insert(key(&e.node)) {
                stack.push(e.node.clone());
            }
        }
    }
    deps
}

/// Runs the graph from `root` (its gradient `grad`), freeing saved tensors as nodes
/// run unless `retain_graph`.
#[cfg_attr(unoptimized, inline)]
fn execute(root: Edge, grad: Tensor, retain_graph: bool) -> Result<()> {
    let _guard = NoGradGuard::new();
    let mut deps = dependencies(&root.node);
    let mut buffers: HashMap<*const GraphNode, Vec<Option<Tensor>>> = HashMap::new();
    let mut first = empty(root.node.num_outputs);
    first[root.output_nr] = Some(grad);
    buffers.insert(key(&root.node), first);
    let mut ready = vec![root.node];
    while let Some(n) = ready.pop() {
        let grads = buffers.remove(&key(&n)).unwrap_or_default();
        let outs = if grads.iter().any(Option::is_some) {
            let outs = n.node.apply(&grads)?;
            if outs.len() != n.next.len() {
                return Err(Error::WrongGradientCount {
                    node: n.node.name().to_string(),
                    expected: n.next.len(),
                    got: outs.len(),
                });
            }
            if !retain_graph {
                n.node.release();
            }
            outs
        } else {
            Vec::new()
        };
        let mut outs = outs.into_iter();
        for (i, next) in n.next.iter().enumerate() {
            let g = outs.next().flatten();
            let Some(e) = next else { continue };
            if let Some(g) = g {
                let g = validate(g, &n.inputs[i], n.node.name(), i)?;
                let buf = buffers
                    .entry(key(&e.node))
                    .or_insert_with(|| empty(e.node.num_outputs));
                let slot = &mut buf[e.output_nr];
                *slot = Some(match slot.take() {
                    None => g,
                    Some(acc) => acc.add(&g)?,
                });
            }
            let d = deps.get_mut(&key(&e.node)).expect("counted edge");
            *d -= 1;
            if *d == 0 {
                ready.push(e.node.clone());
            }
        }
    }
    Ok(())
}

impl Tensor {
    /// `Tensor.backward()`: computes the gradient of this one-element tensor (a loss)
    /// with respect to every leaf that requires grad and adds it into their
    /// [`Tensor::grad`]. Frees the graph's saved tensors (see
    /// [`Tensor::backward_opts`] to keep them).
    ///
    /// # Errors
    /// [`Error::ImplicitGradNonScalar`] (`grad can be implicitly created only for
    /// scalar outputs`) unless the tensor has one element; [`Error::NoGradFn`] when it
    /// does not require grad; [`Error::SavedTensorFreed`] on a second backward through
    /// a freed graph; [`Error::SavedTensorModified`] when an in-place op changed a
    /// tensor saved for backward.
    #[cfg_attr(unoptimized, inline)]
    pub fn backward(&self) -> Result<()> {
        self.backward_opts(None, false)
    }

    /// `Tensor.backward(gradient)`: backward from a tensor of any shape with the
    /// gradient `grad_output` of the same sizes (cast to the tensor's dtype).
    ///
    /// # Errors
    /// As [`Tensor::backward`]; [`Error::GradShapeMismatch`] (`Mismatch in shape:
    /// grad_output[0] has a shape of torch.Size([..]) and output[0] has a shape of
    /// torch.Size([..]).`).
    #[cfg_attr(unoptimized, inline)]
    pub fn backward_with(&self, grad_output: &Tensor) -> Result<()> {
        self.backward_opts(Some(grad_output), false)
    }

    /// `Tensor.backward(gradient, retain_graph=retain_graph)`: `grad_output` `None` is
    /// an implicit 1 for a one-element tensor; `retain_graph` keeps the saved tensors
    /// so the graph can be run again.
    ///
    /// # Errors
    /// As [`Tensor::backward`] and [`Tensor::backward_with`].
    #[cfg_attr(unoptimized, inline)]
    pub fn backward_opts(&self, grad_output: Option<&Tensor>, retain_graph: bool) -> Result<()> {
        let grad = match grad_output {
            None => {
                if self.numel() != 1 {
                    return Err(Error::ImplicitGradNonScalar);
                }
                None
            }
            Some(g) => {
                if g.sizes() != self.sizes() {
                    return Err(Error::GradShapeMismatch {
                        grad: g.sizes().to_vec(),
                        output: self.sizes().to_vec(),
                    });
                }
                Some(g.detach())
            }
        };
        let edge = gradient_edge(self).ok_or(Error::NoGradFn)?;
        let grad = match grad {
            Some(g) if g.dtype() == self.dtype() => g,
            Some(g) => g.to_dtype(self.dtype())?,
            None => Tensor::ones(self.sizes(), self.dtype())?,
        };
        execute(edge, grad, retain_graph)
    }
}
