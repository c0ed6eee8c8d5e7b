//! [`Params`]: a model's trainable tensors, in a fixed order (PyTorch's
//! `Module.parameters()`), for optimisers and `zero_grad`.
//!
//! `#[derive(Params)]` on a struct with named fields visits, in declaration order,
//! every field whose type implements `Params`: a typed [`Tensor`], a nested model, and
//! `Vec`s, arrays, `Option`s and `Box`es of those. Other fields (sizes, flags) are
//! skipped; `#[params(skip)]` skips a field that would be visited.

use crate::tensor::Tensor;
use tensor_core::{Element, Result};

/// The trainable tensors of a model, visited in a fixed order (the order optimisers key
/// their state by). Usually derived: `#[derive(Params)]`.
pub trait Params {
    /// Calls `f` on every parameter (the runtime tensor; a handle sharing storage and
    /// autograd state with the field).
    fn visit<'a>(&'a self, f: &mut dyn FnMut(&'a tensor_core::Tensor));

    /// Calls `f` on every parameter, mutably (to set its gradient or `requires_grad`).
    fn visit_mut(&mut self, f: &mut dyn FnMut(&mut tensor_core::Tensor));

    /// The parameters in visit order. Mirrors `Module.parameters()`.
    fn params(&self) -> Vec<&tensor_core::Tensor> {
        let mut v = Vec::new();
        self.visit(&mut |t| v.push(t));
        v
    }

    /// Clears every parameter's gradient (`p.grad = None`). Mirrors
    /// `Module.zero_grad()` (whose default is `set_to_none=True`).
    fn zero_grad(&mut self) {
        self.visit_mut(&mut |t| {
            t.set_grad(None).expect("clearing a gradient cannot fail");
        });
    }

    /// Sets `requires_grad` on every floating-point parameter (others are skipped).
    /// Mirrors `Module.requires_grad_(requires_grad)`.
    ///
    /// # Errors
    /// `RequiresGradNonLeaf` when turning it off on a parameter that is not a leaf.
    fn requires_grad_(&mut self, requires_grad: bool) -> Result<()> {
        let mut result = Ok(());
        self.visit_mut(&mut |t| {
            if result.is_ok() && t.dtype().is_floating() {
                result = t.set_requires_grad(requires_grad);
            }
        });
        result
    }

    /// The number of elements of all parameters, as
    /// `sum(p.numel() for p in model.parameters())`.
    fn num_params(&self) -> usize {
        let mut n = 0;
        self.visit(&mut |t| n += t.numel());
        n
    }
}

impl<T: Element, S: crate::shape::Shape> Params for Tensor<T, S> {
    fn visit<'a>(&'a self, f: &mut dyn FnMut(&'a tensor_core::Tensor)) {
        f(&self.inner)
    }
    fn visit_mut(&mut self, f: &mut dyn FnMut(&mut tensor_core::Tensor)) {
        f(&mut self.inner)
    }
}

impl Params for tensor_core::Tensor {
    #[cfg_attr(unoptimized, inline)]
    fn visit<'a>(&'a self, f: &mut dyn FnMut(&'a tensor_core::Tensor)) {
        f(self)
    }
    #[cfg_attr(unoptimized, inline)]
    fn visit_mut(&mut self, f: &mut dyn FnMut(&mut tensor_core::Tensor)) {
        f(self)
    }
}

impl<P: Params> Params for Vec<P> {
    fn visit<'a>(&'a self, f: &mut dyn FnMut(&'a tensor_core::Tensor)) {
        self.iter().for_each(|p| p.visit(f))
    }
    fn visit_mut(&mut self, f: &mut dyn FnMut(&mut tensor_core::Tensor)) {
        self.iter_mut().for_each(|p| p.visit_mut(f))
    }
}

impl<P: Params, const N: usize> Params for [P; N] {
    fn visit<'a>(&'a self, f: &mut dyn FnMut(&'a tensor_core::Tensor)) {
        self.iter().for_each(|p| p.visit(f))
    }
    fn visit_mut(&mut self, f: &mut dyn FnMut(&mut tensor_core::Tensor)) {
        self.iter_mut().for_each(|p| p.visit_mut(f))
    }
}

impl<P: Params> Params for Option<P> {
    fn visit<'a>(&'a self, f: &mut dyn FnMut(&'a tensor_core::Tensor)) {
        if let Some(p) = self {
            p.visit(f)
        }
    }
    fn visit_mut(&mut self, f: &mut dyn FnMut(&mut tensor_core::Tensor)) {
        if let Some(p) = self {
            p.visit_mut(f)
        }
    }
}

impl<P: Params + ?Sized> Params for Box<P> {
    fn visit<'a>(&'a self, f: &mut dyn FnMut(&'a tensor_core::Tensor)) {
        (**self).visit(f)
    }
    fn visit_mut(&mut self, f: &mut dyn FnMut(&mut tensor_core::Tensor)) {
        (**self).visit_mut(f)
    }
}

/// `#[derive(Params)]` support: visits a field through [`Params`] when its type
/// implements it and skips it otherwise (autoref specialisation on a concrete type;
/// a field whose type is a generic parameter gets a `Params` bound instead).
#[doc(hidden)]
pub mod __derive {
    use super::Params;
    pub use tensor_core::Tensor as DynTensor;

    /// A field, borrowed.
    pub struct Probe<'a, T: ?Sized>(pub &'a T);
    /// A field, borrowed mutably.
    pub struct ProbeMut<'a, T: ?Sized>(pub &'a mut T);

    /// Chosen when the field's type implements [`Params`].
    pub trait ViaParams<'a> {
        /// Visits the field's parameters.
        fn __visit(&self, f: &mut dyn FnMut(&'a tensor_core::Tensor));
    }
    impl<'a, T: Params + ?Sized> ViaParams<'a> for Probe<'a, T> {
        fn __visit(&self, f: &mut dyn FnMut(&'a tensor_core::Tensor)) {
            self.0.visit(f)
        }
    }
    /// Chosen otherwise (one autoref further): nothing to visit.
    pub trait ViaNothing<'a> {
        /// Does nothing.
        fn __visit(&self, _f: &mut dyn FnMut(&'a tensor_core::Tensor)) {}
    }
    impl<'a, T: ?Sized> ViaNothing<'a> for &Probe<'a, T> {}

    /// Chosen when the field's type implements [`Params`].
    pub trait ViaParamsMut {
        /// Visits the field's parameters mutably.
        fn __visit_mut(&mut self, f: &mut dyn FnMut(&mut tensor_core::Tensor));
    }
    impl<T: Params + ?Sized> ViaParamsMut for ProbeMut<'_, T> {
        fn __visit_mut(&mut self, f: &mut dyn FnMut(&mut tensor_core::Tensor)) {
            self.0.visit_mut(f)
        }
    }
    /// Chosen otherwise: nothing to visit.
    pub trait ViaNothingMut {
        /// Does nothing.
        fn __visit_mut(&mut self, _f: &mut dyn FnMut(&mut tensor_core::Tensor)) {}
    }
    impl<T: ?Sized> ViaNothingMut for &mut ProbeMut<'_, T> {}
}
