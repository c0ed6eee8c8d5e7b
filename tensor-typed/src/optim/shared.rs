//! What the optimisers share: the [`Optimizer`] trait, the hyper-parameters every one
//! has (`Shared`: lr, weight decay, maximize) with their setters and checks, and the
//! walk over the parameters that have a gradient.

/// The setters and the [`Optimizer`] impl of the hyper-parameters every optimiser shares
/// (its `shared: Shared` field): `weight_decay` (documented per optimiser, since SGD's is
/// an L2 penalty and AdamW's is decoupled) and `maximize`.
macro_rules! shared_hyperparameters {
    ($ty:ident, weight_decay: $weight_decay_doc:literal) => {
        impl $ty {
            #[doc = $weight_decay_doc]
            #[cfg_attr(unoptimized, inline)]
            pub fn weight_decay(mut self, weight_decay: f64) -> $ty {
                self.shared.weight_decay = weight_decay;
                self
            }

            /// Maximise the objective instead of minimising it (`maximize`, default
            /// `false`).
            #[cfg_attr(unoptimized, inline)]
            pub fn maximize(mut self, maximize: bool) -> $ty {
                self.shared.maximize = maximize;
                self
            }
        }

        impl Optimizer for $ty {
            #[cfg_attr(unoptimized, inline)]
            fn step(&mut self, model: &mut dyn Params) -> Result<()> {
                $ty::step(self, model)
            }
            #[cfg_attr(unoptimized, inline)]
            fn lr(&self) -> f64 {
                self.shared.lr
            }
            #[cfg_attr(unoptimized, inline)]
            fn set_lr(&mut self, lr: f64) {
                self.shared.lr = lr;
            }
        }
    };
}

use crate::params::Params;
use tensor_core::{Error, Result};

/// What every optimiser offers: one update step and its learning rate (for schedules).
pub trait Optimizer {
    /// Updates every parameter of `model` that has a gradient, in place and outside
    /// the graph. Mirrors `Optimizer.step()`.
    ///
    /// # Errors
    /// An invalid hyper-parameter (PyTorch's message, e.g. "Invalid learning rate:
    /// -0.1"), or a parameter whose size changed since the previous step.
    fn step(&mut self, model: &mut dyn Params) -> Result<()>;

    /// The learning rate.
    fn lr(&self) -> f64;

    /// Sets the learning rate (what a scheduler does to `param_group["lr"]`).
    fn set_lr(&mut self, lr: f64);
}

/// The hyper-parameters every optimiser has, with PyTorch's checks of them.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Shared {
    /// Learning rate (`lr`).
    pub(crate) lr: f64,
    /// Weight decay (`weight_decay`; what it does is the optimiser's own).
    pub(crate) weight_decay: f64,
    /// Ascend instead of descend (`maximize`).
    pub(crate) maximize: bool,
}

impl Shared {
    /// `lr` and `weight_decay` as given, no `maximize`.
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn new(lr: f64, weight_decay: f64) -> Shared {
        Shared {
            lr,
            weight_decay,
            maximize: false,
        }
    }

    /// PyTorch's "Invalid learning rate: {lr}".
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn check_lr(&self, op: &'static str) -> Result<()> {
        check_non_negative(op, "learning rate", self.lr)
    }

    /// PyTorch's "Invalid weight_decay value: {weight_decay}".
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn check_weight_decay(&self, op: &'static str) -> Result<()> {
        check_non_negative(op, "weight_decay value", self.weight_decay)
    }
}

/// PyTorch's `if not 0.0 <= x: raise ValueError(f"Invalid {what}: {x}")` (NaN fails).
#[cfg_attr(unoptimized, inline)]
pub(crate) fn check_non_negative(op: &'static str, what: &str, x: f64) -> Result<()> {
    if x.is_nan() || x < 0.0 {
        return Err(invalid(op, format!("Invalid {what}: {x}")));
    }
    Ok(())
}

/// PyTorch's `ValueError` for a hyper-parameter, as an `InvalidArgument`.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn invalid(op: &'static str, message: String) -> Error {
    Error::InvalidArgument { op, message }
}

/// Runs `f` on every parameter of `model` that has a gradient, with its position in
/// the visit order and its gradient, under `no_grad`; stops at the first error.
pub(crate) fn for_each_with_grad(
    model: &dyn Params,
    mut f: impl FnMut(usize, &tensor_core::Tensor, tensor_core::Tensor) -> Result<()>,
) -> Result<()> {
    let _guard = tensor_core::NoGradGuard::new();
    let mut index = 0;
    let mut result = Ok(());
    model.visit(&mut |p| {
        let i = index;
        index += 1;
        if result.is_err() {
            return;
        }
        if let Some(g) = p.grad() {
            result = f(i, p, g);
        }
    });
    result
}

/// The error when a parameter's sizes differ from those its state was made for.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn check_state_sizes(
    op: &'static str,
    index: usize,
    state: &tensor_core::Tensor,
    p: &tensor_core::Tensor,
) -> Result<()> {
    if state.sizes() != p.sizes() {
        return Err(invalid(
            op,
            format!(
                "parameter {index} has sizes {:?} but its optimiser state has sizes {:?}: step the same model each time",
                p.sizes(),
                state.sizes()
            ),
        ));
    }
    Ok(())
}
