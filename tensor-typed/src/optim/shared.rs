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

    /// PyTorch's "Invalid learning rate: {lr}": with `nan_fails` as Adam/AdamW's
    /// `not 0.0 <= lr`, else as SGD's `lr < 0.0`.
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn check_lr(&self, op: &'static str, nan_fails: bool) -> Result<()> {
        check(op, "learning rate", self.lr, nan_fails)
    }

    /// PyTorch's "Invalid weight_decay value: {weight_decay}" (NaN as in
    /// [`Shared::check_lr`]).
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn check_weight_decay(&self, op: &'static str, nan_fails: bool) -> Result<()> {
        check(op, "weight_decay value", self.weight_decay, nan_fails)
    }
}

/// [`check_non_negative`] when `nan_fails`, else [`check_not_negative`].
#[cfg_attr(unoptimized, inline)]
fn check(op: &'static str, what: &str, x: f64, nan_fails: bool) -> Result<()> {
    if nan_fails {
        check_non_negative(op, what, x)
    } else {
        check_not_negative(op, what, x)
    }
}

/// PyTorch's `if not 0.0 <= x: raise ValueError(f"Invalid {what}: {x}")` (Adam, AdamW:
/// NaN fails).
#[cfg_attr(unoptimized, inline)]
pub(crate) fn check_non_negative(op: &'static str, what: &str, x: f64) -> Result<()> {
    if x.is_nan() || x < 0.0 {
        return Err(invalid(op, format!("Invalid {what}: {}", py_float(x))));
    }
    Ok(())
}

/// PyTorch's `if x < 0.0: raise ValueError(f"Invalid {what}: {x}")` (SGD: NaN passes,
/// as in `torch.optim.SGD`).
#[cfg_attr(unoptimized, inline)]
pub(crate) fn check_not_negative(op: &'static str, what: &str, x: f64) -> Result<()> {
    if x < 0.0 {
        return Err(invalid(op, format!("Invalid {what}: {}", py_float(x))));
    }
    Ok(())
}

/// `x` as Python's `repr(float)` prints it, as PyTorch's messages show a float
/// hyper-parameter: `1.0`, `-0.1`, `1e+308`, `1e-05`, `nan`, `inf`.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn py_float(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "-inf" }.into();
    }
    // Rust's `{:?}` is the shortest round-trip form with Python's switch to exponent
    // notation (below 1e-4, from 1e16); Python writes the exponent with a sign and at
    // least two digits.
    let text = format!("{x:?}");
    match text.split_once('e') {
        Some((mantissa, exp)) => {
            let (sign, digits) = match exp.strip_prefix('-') {
                Some(d) => ('-', d),
                None => ('+', exp),
            };
            format!("{mantissa}e{sign}{digits:0>2}")
        }
        None => text,
    }
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
