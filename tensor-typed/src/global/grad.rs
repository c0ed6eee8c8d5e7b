//! Autograd on typed global tensors, and the optimiser step that takes each
//! parameter's gradient in the parameter's SBP.
//!
//! The gradient of a tensor has the dual SBP ([`Dual`]): a `B` parameter used with a
//! split batch gets a `P<Sum>` gradient (each rank's share of the sum over the batch).
//! [`Step::grad`] takes a gradient only in its parameter's SBP, so a data-parallel step
//! that forgets its all-reduce does not compile:
//!
//! ```compile_fail
//! use tensor_typed::global::{Global, Step, B};
//! use tensor_typed::prelude::*;
//! fn step(w: &Global<f32, Shape![4], B>, opt: &mut optim::Sgd) -> tensor_typed::Result<()> {
//!     let g = w.grad()?.expect("after backward"); // Global<f32, Shape![4], P<Sum>>
//!     Step::new().grad(w, &g).apply(opt) // the optimiser step takes a gradient of SBP B, but this gradient is P<Sum>
//! }
//! ```

use super::sbp::{Dual, DynSbp, Sbp, B, S};
use super::tensor::Global;
use crate::optim::Optimizer;
use crate::params::Params;
use crate::shape::Shape;
use crate::typelevel::dim::Ax;
use crate::typelevel::peano::AxisPos;
use tensor_core::{Element, Result, Tensor};

impl<T: Element, Sh: Shape, P: Sbp> Global<T, Sh, P> {
    /// `Tensor.requires_grad_(requires_grad)` on this rank's shard: a leaf whose
    /// gradient [`Global::grad`] collects.
    ///
    /// # Errors
    /// PyTorch's (a non-float dtype, a non-leaf).
    pub fn requires_grad_(self, requires_grad: bool) -> Result<Self> {
        Ok(Global::wrap(self.inner.requires_grad_(requires_grad)?))
    }

    /// Whether the shard requires grad.
    pub fn requires_grad(&self) -> bool {
        self.inner.requires_grad()
    }

    /// `Tensor.detach()`: the same shard, out of the graph.
    ///
    /// # Errors
    /// None in practice.
    pub fn detach(&self) -> Result<Self> {
        Ok(Global::wrap(self.inner.detach()?))
    }

    /// Clears the shard's gradient (`p.grad = None`). Mirrors `Tensor.grad = None`.
    ///
    /// # Errors
    /// None in practice.
    pub fn zero_grad(&self) -> Result<()> {
        self.inner.local().alias().set_grad(None)
    }

    /// The accumulated gradient of this leaf, of the dual SBP (`B` → `P<Sum>`, a split
    /// stays split, `P<Sum>` → `B`); `None` before a backward reached it. Mirrors
    /// `Tensor.grad`.
    ///
    /// # Errors
    /// None for a typed SBP.
    pub fn grad(&self) -> Result<Option<Global<T, Sh, P::Grad>>>
    where
        P: Dual,
    {
        Ok(self.inner.grad()?.map(Global::wrap))
    }
}

impl<T: Element, P: Sbp> Global<T, (), P> {
    /// `Tensor.backward()` of a 0-d global tensor (a loss): the logical gradient 1, in
    /// the dual SBP, through every rank's graph and the collectives of the boxings it
    /// crosses. Every rank calls it (SPMD). `P<Max>` and `P<Min>` losses do not compile.
    ///
    /// # Errors
    /// PyTorch's (nothing requires grad); a collective's.
    pub fn backward<G>(&self) -> Result<()>
    where
        P: Dual,
        P::Grad: super::ops::Is<G>,
    {
        self.inner.backward()
    }
}

/// A gradient SBP that the optimiser step takes for a parameter of SBP `P`: `P` itself.
#[diagnostic::on_unimplemented(
    message = "the optimiser step takes a gradient of SBP {P}, but this gradient is {Self}",
    label = "reduce it to its parameter's SBP first",
    note = "a B parameter's gradient is P<Sum> (each rank's share): `.all_reduce()` makes it B, the all-reduce of data parallelism"
)]
pub trait GradFor<P> {}
impl GradFor<B> for B {}
impl<const D: usize> GradFor<S<D>> for S<D> where Ax<D>: AxisPos {}
impl GradFor<DynSbp> for DynSbp {}

/// One optimiser step over global parameters, each given with its gradient in the
/// parameter's SBP ([`GradFor`]): a `B` parameter's `P<Sum>` gradient must be
/// all-reduced first, a split parameter's split gradient is used as it is (each rank
/// updates its shard). The optimiser keys its state (momentum, moments) by the order of
/// [`Step::grad`] calls: give the parameters in the same order at every step.
#[derive(Default)]
pub struct Step {
    params: Vec<Tensor>,
    /// The first error of setting a gradient, returned by [`Step::apply`].
    error: Option<tensor_core::Error>,
}

impl Step {
    /// An empty step.
    #[cfg_attr(unoptimized, inline)]
    pub fn new() -> Step {
        Step::default()
    }

    /// Adds `param` with its gradient `grad` (set as the shard's gradient for the step;
    /// the parameter's own accumulated gradient is replaced). An error of the runtime
    /// (a parameter that does not require grad) is kept and returned by [`Step::apply`].
    pub fn grad<T: Element, Sh: Shape, P: Sbp, G: Sbp + GradFor<P>>(
        mut self,
        param: &Global<T, Sh, P>,
        grad: &Global<T, Sh, G>,
    ) -> Step {
        let mut p = param.local().alias();
        if let Err(e) = p.set_grad(Some(grad.local().detach())) {
            self.error.get_or_insert(e);
        }
        self.params.push(p);
        self
    }

    /// Runs `opt`'s update on every parameter given, with its given gradient.
    ///
    /// # Errors
    /// The first error of [`Step::grad`]; the optimiser's (invalid hyper-parameters).
    #[cfg_attr(unoptimized, inline)]
    pub fn apply(mut self, opt: &mut dyn Optimizer) -> Result<()> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        opt.step(&mut self)
    }
}

impl Params for Step {
    #[cfg_attr(unoptimized, inline)]
    fn visit<'a>(&'a self, f: &mut dyn FnMut(&'a Tensor)) {
        self.params.iter().for_each(f);
    }

    #[cfg_attr(unoptimized, inline)]
    fn visit_mut(&mut self, f: &mut dyn FnMut(&mut Tensor)) {
        self.params.iter_mut().for_each(f);
    }
}
