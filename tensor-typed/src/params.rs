//! [`Params`]: a model's trainable tensors, in a fixed order (PyTorch's
//! `Module.parameters()`), for optimisers and `zero_grad`.
//!
//! `#[derive(Params)]` on a struct with named fields visits, in declaration order,
//! every field whose type implements `Params`: a typed [`Tensor`], a nested model, and
//! `Vec`s, arrays, `Option`s and `Box`es of those. Other fields (sizes, flags) are
//! skipped; `#[params(skip)]` skips a field that would be visited.
//!
//! [`Params::visit_named`] gives each parameter its name as PyTorch's
//! `Module.named_parameters()` does: field names joined by `.`, elements of a `Vec` or
//! an array by their index (`h.0.attn.c_attn.weight`). Loading a model by these names,
//! strictly, is [`Weights::load_params`](crate::io::Weights::load_params).

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

    /// Calls `f` on every parameter with its name under `prefix` (`""` for none), in
    /// visit order. Mirrors `Module.named_parameters(prefix)`: a derived impl names a
    /// field by its identifier (a tuple field by its index) and joins names with `.`;
    /// `Vec`s and arrays name their elements `0`, `1`, ...; `Option` and `Box` add
    /// nothing. The default (for a hand-written impl) names the parameters by their
    /// position in visit order.
    fn visit_named<'a>(&'a self, prefix: &str, f: &mut dyn FnMut(&str, &'a tensor_core::Tensor)) {
        let mut i = 0;
        self.visit(&mut |t| {
            f(&join(prefix, &i.to_string()), t);
            i += 1;
        });
    }

    /// [`visit_named`](Params::visit_named), mutably (to replace a parameter by a loaded
    /// tensor).
    fn visit_named_mut(&mut self, prefix: &str, f: &mut dyn FnMut(&str, &mut tensor_core::Tensor)) {
        let mut i = 0;
        self.visit_mut(&mut |t| {
            f(&join(prefix, &i.to_string()), t);
            i += 1;
        });
    }

    /// The parameters with their names, in visit order. Mirrors
    /// `Module.named_parameters()`.
    fn named_params(&self) -> Vec<(String, &tensor_core::Tensor)> {
        let mut v = Vec::new();
        self.visit_named("", &mut |name, t| v.push((name.to_string(), t)));
        v
    }

    /// The parameters in visit order. Mirrors `Module.parameters()`.
    fn params(&self) -> Vec<&tensor_core::Tensor> {
        let mut v = Vec::new();
        self.visit(&mut |t| v.push(t));
        v
    }

    /// Clears every parameter's gradient (`p.grad = None`). Mirrors
    /// `Module.zero_grad()` (whose default is `set_to_none=True`).
    ///
    /// # Panics
    /// Never: clearing a gradient checks nothing.
    #[track_caller]
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

/// `prefix.name`, or `name` when `prefix` is empty (how parameter names are joined).
#[cfg_attr(unoptimized, inline)]
pub fn join(prefix: &str, name: &str) -> String {
    if prefix.is_empty() {
        name.to_string()
    } else {
        format!("{prefix}.{name}")
    }
}

impl<T: Element, S: crate::shape::Shape> Params for Tensor<T, S> {
    fn visit<'a>(&'a self, f: &mut dyn FnMut(&'a tensor_core::Tensor)) {
        f(&self.inner)
    }
    fn visit_mut(&mut self, f: &mut dyn FnMut(&mut tensor_core::Tensor)) {
        f(&mut self.inner)
    }
    fn visit_named<'a>(&'a self, prefix: &str, f: &mut dyn FnMut(&str, &'a tensor_core::Tensor)) {
        f(prefix, &self.inner)
    }
    fn visit_named_mut(&mut self, prefix: &str, f: &mut dyn FnMut(&str, &mut tensor_core::Tensor)) {
        f(prefix, &mut self.inner)
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
    #[cfg_attr(unoptimized, inline)]
    fn visit_named<'a>(&'a self, prefix: &str, f: &mut dyn FnMut(&str, &'a tensor_core::Tensor)) {
        f(prefix, self)
    }
    #[cfg_attr(unoptimized, inline)]
    fn visit_named_mut(&mut self, prefix: &str, f: &mut dyn FnMut(&str, &mut tensor_core::Tensor)) {
        f(prefix, self)
    }
}

impl<P: Params> Params for Vec<P> {
    fn visit<'a>(&'a self, f: &mut dyn FnMut(&'a tensor_core::Tensor)) {
        self.iter().for_each(|p| p.visit(f))
    }
    fn visit_mut(&mut self, f: &mut dyn FnMut(&mut tensor_core::Tensor)) {
        self.iter_mut().for_each(|p| p.visit_mut(f))
    }
    fn visit_named<'a>(&'a self, prefix: &str, f: &mut dyn FnMut(&str, &'a tensor_core::Tensor)) {
        for (i, p) in self.iter().enumerate() {
            p.visit_named(&join(prefix, &i.to_string()), f)
        }
    }
    fn visit_named_mut(&mut self, prefix: &str, f: &mut dyn FnMut(&str, &mut tensor_core::Tensor)) {
        for (i, p) in self.iter_mut().enumerate() {
            p.visit_named_mut(&join(prefix, &i.to_string()), f)
        }
    }
}

impl<P: Params, const N: usize> Params for [P; N] {
    fn visit<'a>(&'a self, f: &mut dyn FnMut(&'a tensor_core::Tensor)) {
        self.iter().for_each(|p| p.visit(f))
    }
    fn visit_mut(&mut self, f: &mut dyn FnMut(&mut tensor_core::Tensor)) {
        self.iter_mut().for_each(|p| p.visit_mut(f))
    }
    fn visit_named<'a>(&'a self, prefix: &str, f: &mut dyn FnMut(&str, &'a tensor_core::Tensor)) {
        for (i, p) in self.iter().enumerate() {
            p.visit_named(&join(prefix, &i.to_string()), f)
        }
    }
    fn visit_named_mut(&mut self, prefix: &str, f: &mut dyn FnMut(&str, &mut tensor_core::Tensor)) {
        for (i, p) in self.iter_mut().enumerate() {
            p.visit_named_mut(&join(prefix, &i.to_string()), f)
        }
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
    fn visit_named<'a>(&'a self, prefix: &str, f: &mut dyn FnMut(&str, &'a tensor_core::Tensor)) {
        if let Some(p) = self {
            p.visit_named(prefix, f)
        }
    }
    fn visit_named_mut(&mut self, prefix: &str, f: &mut dyn FnMut(&str, &mut tensor_core::Tensor)) {
        if let Some(p) = self {
            p.visit_named_mut(prefix, f)
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
    fn visit_named<'a>(&'a self, prefix: &str, f: &mut dyn FnMut(&str, &'a tensor_core::Tensor)) {
        (**self).visit_named(prefix, f)
    }
    fn visit_named_mut(&mut self, prefix: &str, f: &mut dyn FnMut(&str, &mut tensor_core::Tensor)) {
        (**self).visit_named_mut(prefix, f)
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
        /// Visits the field's parameters with their names.
        fn __visit_named(&self, prefix: &str, f: &mut dyn FnMut(&str, &'a tensor_core::Tensor));
    }
    impl<'a, T: Params + ?Sized> ViaParams<'a> for Probe<'a, T> {
        fn __visit(&self, f: &mut dyn FnMut(&'a tensor_core::Tensor)) {
            self.0.visit(f)
        }
        fn __visit_named(&self, prefix: &str, f: &mut dyn FnMut(&str, &'a tensor_core::Tensor)) {
            self.0.visit_named(prefix, f)
        }
    }
    /// Chosen otherwise (one autoref further): nothing to visit.
    pub trait ViaNothing<'a> {
        /// Does nothing.
        fn __visit(&self, _f: &mut dyn FnMut(&'a tensor_core::Tensor)) {}
        /// Does nothing.
        fn __visit_named(&self, _prefix: &str, _f: &mut dyn FnMut(&str, &'a tensor_core::Tensor)) {}
    }
    impl<'a, T: ?Sized> ViaNothing<'a> for &Probe<'a, T> {}

    /// Chosen when the field's type implements [`Params`].
    pub trait ViaParamsMut {
        /// Visits the field's parameters mutably.
        fn __visit_mut(&mut self, f: &mut dyn FnMut(&mut tensor_core::Tensor));
        /// Visits the field's parameters mutably with their names.
        fn __visit_named_mut(
            &mut self,
            prefix: &str,
            f: &mut dyn FnMut(&str, &mut tensor_core::Tensor),
        );
    }
    impl<T: Params + ?Sized> ViaParamsMut for ProbeMut<'_, T> {
        fn __visit_mut(&mut self, f: &mut dyn FnMut(&mut tensor_core::Tensor)) {
            self.0.visit_mut(f)
        }
        fn __visit_named_mut(
            &mut self,
            prefix: &str,
            f: &mut dyn FnMut(&str, &mut tensor_core::Tensor),
        ) {
            self.0.visit_named_mut(prefix, f)
        }
    }
    /// Chosen otherwise: nothing to visit.
    pub trait ViaNothingMut {
        /// Does nothing.
        fn __visit_mut(&mut self, _f: &mut dyn FnMut(&mut tensor_core::Tensor)) {}
        /// Does nothing.
        fn __visit_named_mut(
            &mut self,
            _prefix: &str,
            _f: &mut dyn FnMut(&str, &mut tensor_core::Tensor),
        ) {
        }
    }
    impl<T: ?Sized> ViaNothingMut for &mut ProbeMut<'_, T> {}
}
