//! The graph node every model op records: a PyTorch name, the tensors saved for
//! backward (version-checked when unpacked, freed after a backward that does not retain
//! the graph), and the backward computation as a closure over the op's arguments.

use crate::autograd::{Node, SavedTensor};
use crate::error::Result;
use crate::tensor::Tensor;

/// The gradients of an op's inputs, one per input (`None`: no gradient).
pub(crate) type Grads = Vec<Option<Tensor>>;

/// A node whose backward is `f(grad_output, saved)`.
pub(crate) struct FnNode<F> {
    name: &'static str,
    saved: Vec<SavedTensor>,
    inputs: usize,
    f: F,
}

/// A node named `name` (PyTorch's `grad_fn` name) for an op of `inputs` differentiable
/// inputs, saving `saved` and computing the inputs' gradients with `f`.
pub(crate) fn node<F>(name: &'static str, saved: Vec<SavedTensor>, inputs: usize, f: F) -> FnNode<F>
where
    F: Fn(&Tensor, &[Tensor]) -> Result<Grads> + Send + Sync,
{
    FnNode {
        name,
        saved,
        inputs,
        f,
    }
}

impl<F> Node for FnNode<F>
where
    F: Fn(&Tensor, &[Tensor]) -> Result<Grads> + Send + Sync,
{
    fn name(&self) -> &'static str {
        self.name
    }

    fn apply(&self, grads: &[Option<Tensor>]) -> Result<Grads> {
        let Some(g) = grads.first().and_then(Option::as_ref) else {
            return Ok((0..self.inputs).map(|_| None).collect());
        };
        let saved = self
            .saved
            .iter()
            .map(SavedTensor::unpack)
            .collect::<Result<Vec<_>>>()?;
        (self.f)(g, &saved)
    }

    fn release(&self) {
        for s in &self.saved {
            s.release();
        }
    }
}
