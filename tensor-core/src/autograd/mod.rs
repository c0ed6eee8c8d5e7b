//! Reverse-mode automatic differentiation with PyTorch's semantics.
//!
//! The graph hangs off the tensors, as PyTorch's `grad_fn`: an op whose inputs require
//! grad gives its output an `Edge` to a reference-counted graph node
//! holding the op's backward function (a [`Node`]) and edges to its inputs' producers.
//! A leaf that requires grad ([`Tensor::requires_grad_`](crate::tensor::Tensor::requires_grad_))
//! is reached through its `AccumulateGrad` node. [`Tensor::backward`](crate::tensor::Tensor::backward)
//! walks the graph from the output in dependency order (the `engine` module) and accumulates
//! into the leaves' [`Tensor::grad`](crate::tensor::Tensor::grad). There is no global tape: two
//! threads build and run independent graphs at the same time; grad mode
//! ([`no_grad`], [`NoGradGuard`]) is per thread.
//!
//! Version counters live in the storage ([`crate::storage::Storage::version`]): every in-place
//! or `_out` write bumps it, and a [`SavedTensor`] checks it when backward unpacks it.
//!
//! # How an op records its node
//!
//! Write the forward as usual, then wrap it in [`apply`]: when no input requires grad
//! (or grad mode is off) it only runs the forward (one `Option` check per input);
//! otherwise it runs the forward with grad mode off and records a node made by the
//! closure, which gets the output (to save it) and must return the gradients of the
//! inputs in their order. Backward formulas use ordinary tensor ops (grad mode is off
//! in backward), return gradients of a broadcast shape or another dtype freely (the
//! engine sums them to each input's shape and casts), and `None` for inputs that need
//! no gradient.
//!
//! ```
//! use tensor_core::autograd::{apply, Node, SavedTensor};
//! use tensor_core::{Result, Tensor};
//!
//! /// d(x * y)/dx = y: saves `y` (checked against in-place changes when unpacked).
//! struct MulByBackward { y: SavedTensor }
//! impl Node for MulByBackward {
//!     fn name(&self) -> &'static str { "MulBackward0" }
//!     fn apply(&self, grads: &[Option<Tensor>]) -> Result<Vec<Option<Tensor>>> {
//!         let g = grads[0].as_ref().expect("the engine passes a gradient");
//!         Ok(vec![Some(g.mul(&self.y.unpack()?)?), None])
//!     }
//!     fn release(&self) { self.y.release() }
//! }
//! fn mul_by(x: &Tensor, y: &Tensor) -> Result<Tensor> {
//!     // `y` takes no gradient here (None above), so only `x` is an input that may.
//!     apply(&[x, y], || x.mul(y), |_out| MulByBackward { y: SavedTensor::input(y) })
//! }
//! # let x = Tensor::ones(&[2], tensor_core::DType::F64)?.requires_grad_(true)?;
//! # let y = Tensor::full(&[2], 3.0, tensor_core::DType::F64)?;
//! # mul_by(&x, &y)?.sum(&[], false)?.backward()?;
//! # assert_eq!(x.grad().unwrap().to_vec::<f64>()?, vec![3.0, 3.0]);
//! # Ok::<(), tensor_core::Error>(())
//! ```
//!
//! Ops with several outputs use [`apply_multi`]; view ops use [`apply_view`] (an
//! in-place op on a view that requires grad is then refused, not silently wrong).

mod accumulate;
mod edge;
pub(crate) mod engine;
mod formulas;
mod grad_mode;
mod inplace;
mod meta;
mod node;
mod record;
mod sum_to;
mod view;

pub(crate) use formulas::*;
pub use grad_mode::{is_grad_enabled, no_grad, set_grad_enabled, NoGradGuard};
pub(crate) use inplace::{check_out, check_writable, inplace_rebase, wrote};
pub(crate) use meta::AutogradMeta;
pub use node::{Node, SavedTensor};
pub use record::{apply, apply_multi, apply_view, needs_grad};
pub(crate) use view::{AsStridedBackward, Geometry};

#[cfg(test)]
mod tests;
