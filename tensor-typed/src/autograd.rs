//! Autograd on typed tensors: `requires_grad_`, `backward` (0-d tensors only, checked by
//! the compiler), typed gradients, `detach`, and the `no_grad` scope.
//!
//! Every method calls the runtime's autograd (`tensor_core::autograd`), which follows
//! PyTorch's semantics; the types add two checks PyTorch makes at run time:
//! [`Tensor::backward`] exists only on a 0-d tensor (a scalar loss), and the gradient of
//! a `Tensor<T, S>` ([`Tensor::grad`], [`Tensor::backward_with`]) is a `Tensor<T, S>`.

use crate::shape::Shape;
use crate::tensor::Tensor;
use tensor_core::half::{bf16, f16};
use tensor_core::{Element, Result};
use tensor_macros::plain_form;

pub use tensor_core::{is_grad_enabled, no_grad, NoGradGuard};

/// An element type whose tensors may require gradients: the floating types (PyTorch
/// refuses the others at run time: "only Tensors of floating point and complex dtype can
/// require gradients").
#[diagnostic::on_unimplemented(
    message = "only Tensors of floating point and complex dtype can require gradients",
    label = "a `Tensor<{Self}, _>` cannot require gradients",
    note = "cast to a floating type first, e.g. `.cast::<f32>()`"
)]
pub trait GradElement: Element {}
#[diagnostic::do_not_recommend]
impl GradElement for f32 {}
#[diagnostic::do_not_recommend]
impl GradElement for f64 {}
#[diagnostic::do_not_recommend]
impl GradElement for f16 {}
#[diagnostic::do_not_recommend]
impl GradElement for bf16 {}

/// A shape `backward()` accepts without a gradient: the 0-d shape `()` (`Shape![]`),
/// the shape of a scalar loss such as `sum_all()` or `mean_all()`.
#[diagnostic::on_unimplemented(
    message = "backward() needs a 0-d tensor (a scalar loss); this tensor has shape {Self}",
    label = "`backward()` called on a tensor of shape {Self}",
    note = "reduce the output to a scalar first (e.g. `.sum_all()` or `.mean_all()`), or pass the output's gradient with `backward_with(&grad)`"
)]
pub trait ZeroDim: Shape {}
#[diagnostic::do_not_recommend]
impl ZeroDim for () {}

impl<T: Element, S: Shape> Tensor<T, S> {
    /// `Tensor.requires_grad_(requires_grad)`: marks this leaf so that
    /// [`backward`](Tensor::backward) computes its gradient, and returns it.
    ///
    /// Integer and bool tensors cannot require gradients (a compile error here).
    ///
    /// # Errors
    /// `RequiresGradNonLeaf` when turning it off on a non-leaf.
    #[plain_form]
    pub fn try_requires_grad_(self, requires_grad: bool) -> Result<Self>
    where
        T: GradElement,
    {
        Ok(wrap!(self.inner.requires_grad_(requires_grad)?))
    }

    /// `Tensor.requires_grad`: `true` for a leaf marked by
    /// [`requires_grad_`](Tensor::requires_grad_) and for every result of an op recorded
    /// from one.
    pub fn requires_grad(&self) -> bool {
        self.inner.requires_grad()
    }

    /// `Tensor.is_leaf`: `true` unless a recorded op produced the tensor.
    pub fn is_leaf(&self) -> bool {
        self.inner.is_leaf()
    }

    /// The name of the node that produced the tensor (`Tensor.grad_fn`, e.g.
    /// `"MmBackward0"`), `None` for a leaf.
    pub fn grad_fn_name(&self) -> Option<&'static str> {
        self.inner.grad_fn_name()
    }

    /// `Tensor.grad`: the gradient accumulated into this leaf by `backward`, of the
    /// tensor's own type (a handle to the stored gradient). `None` before any backward,
    /// after [`zero_grad`](Tensor::zero_grad), and for non-leaves.
    pub fn grad(&self) -> Option<Self> {
        self.inner.grad().map(|g| wrap!(g))
    }

    /// Sets `Tensor.grad` (`t.grad = g`; `None` clears it as `zero_grad` does).
    ///
    /// # Errors
    /// `AssignedGrad` ("assigned grad has data of a different size") when a `Dyn` dim
    /// of `grad` differs from the tensor's.
    pub fn set_grad(&mut self, grad: Option<Self>) -> Result<()> {
        self.inner.set_grad(grad.map(|g| g.inner))
    }

    /// Clears the gradient (`t.grad = None`, what PyTorch's `zero_grad()` does by
    /// default).
    ///
    /// # Panics
    /// Never: clearing a gradient checks nothing (only a gradient that is set is
    /// checked against the tensor, in [`set_grad`](Tensor::set_grad)).
    #[track_caller]
    pub fn zero_grad(&mut self) {
        self.inner
            .set_grad(None)
            .expect("clearing a gradient cannot fail");
    }

    /// `Tensor.detach()`: the same data (shared storage and version counter) without
    /// history, a leaf that does not require grad.
    pub fn detach(&self) -> Self {
        wrap!(self.inner.detach())
    }

    /// `Tensor.backward()` of a scalar loss: computes the gradients of every leaf that
    /// requires grad and accumulates them into their [`grad`](Tensor::grad); the graph
    /// is freed (use [`backward_opts`](Tensor::backward_opts) to keep it).
    ///
    /// Exists only for 0-d tensors; on any other shape it is a compile error naming the
    /// shape (PyTorch: "grad can be implicitly created only for scalar outputs").
    ///
    /// # Errors
    /// PyTorch's: the tensor does not require grad ("element 0 of tensors does not
    /// require grad and does not have a grad_fn"), a saved tensor was modified in place,
    /// or the graph was already freed ("Trying to backward through the graph a second
    /// time").
    pub fn backward(&self) -> Result<()>
    where
        S: ZeroDim,
    {
        self.inner.backward()
    }

    /// `Tensor.backward(gradient)`: backward from an output of any shape, given the
    /// gradient of the loss with respect to it (of exactly the output's type).
    ///
    /// # Errors
    /// As [`backward`](Tensor::backward), and a `Dyn` dim of `grad_output` that differs
    /// from the output's (PyTorch's "Mismatch in shape").
    pub fn backward_with(&self, grad_output: &Self) -> Result<()> {
        self.inner.backward_with(&grad_output.inner)
    }

    /// `Tensor.backward(gradient, retain_graph)`: `grad_output` `None` is allowed for a
    /// 0-d output only (checked at run time, as PyTorch); `retain_graph` keeps the graph
    /// for another backward.
    ///
    /// # Errors
    /// As [`backward_with`](Tensor::backward_with), and PyTorch's "grad can be
    /// implicitly created only for scalar outputs".
    pub fn backward_opts(&self, grad_output: Option<&Self>, retain_graph: bool) -> Result<()> {
        self.inner
            .backward_opts(grad_output.map(|g| &g.inner), retain_graph)
    }
}
