//! [`Sgd`]: stochastic gradient descent with momentum, dampening, Nesterov momentum and
//! L2 weight decay, as `torch.optim.SGD`.

use super::shared::{
    check_not_negative, check_state_sizes, for_each_with_grad, invalid, Optimizer, Shared,
};
use crate::params::Params;
use tensor_core::{MemoryFormat, Result, Tensor};

/// `torch.optim.SGD`: for each parameter `p` with gradient `g` (PyTorch's
/// single-tensor algorithm, step by step in the parameter's dtype):
///
/// ```text
/// g = -g                          if maximize
/// g = g + weight_decay * p        if weight_decay != 0
/// if momentum != 0:
///     buf = g (a copy)            on the first step
///     buf = momentum * buf + (1 - dampening) * g   afterwards
///     g = g + momentum * buf      if nesterov, else g = buf
/// p = p - lr * g
/// ```
///
/// Defaults as PyTorch: momentum 0, dampening 0, no Nesterov, weight decay 0.
#[derive(Debug)]
pub struct Sgd {
    /// `lr`, `weight_decay` (default 0), `maximize`.
    shared: Shared,
    momentum: f64,
    dampening: f64,
    nesterov: bool,
    /// Momentum buffers by parameter position (`None` until the parameter's first step).
    buffers: Vec<Option<Tensor>>,
}

impl Sgd {
    /// SGD with learning rate `lr` (PyTorch's `lr`; must be ≥ 0, checked by `step`).
    #[cfg_attr(unoptimized, inline)]
    pub fn new(lr: f64) -> Sgd {
        Sgd {
            shared: Shared::new(lr, 0.0),
            momentum: 0.0,
            dampening: 0.0,
            nesterov: false,
            buffers: Vec::new(),
        }
    }

    /// Momentum factor (`momentum`, default 0).
    #[cfg_attr(unoptimized, inline)]
    pub fn momentum(mut self, momentum: f64) -> Sgd {
        self.momentum = momentum;
        self
    }

    /// Dampening of the momentum (`dampening`, default 0).
    #[cfg_attr(unoptimized, inline)]
    pub fn dampening(mut self, dampening: f64) -> Sgd {
        self.dampening = dampening;
        self
    }

    /// Nesterov momentum (`nesterov`, default `false`; needs momentum > 0 and zero
    /// dampening).
    #[cfg_attr(unoptimized, inline)]
    pub fn nesterov(mut self, nesterov: bool) -> Sgd {
        self.nesterov = nesterov;
        self
    }

    /// PyTorch's constructor checks, with its messages.
    #[cfg_attr(unoptimized, inline)]
    fn validate(&self) -> Result<()> {
        // `torch.optim.SGD` checks `x < 0.0`: a NaN passes.
        self.shared.check_lr("SGD", false)?;
        check_not_negative("SGD", "momentum value", self.momentum)?;
        self.shared.check_weight_decay("SGD", false)?;
        if self.nesterov && (self.momentum <= 0.0 || self.dampening != 0.0) {
            return Err(invalid(
                "SGD",
                "Nesterov momentum requires a momentum and zero dampening".to_string(),
            ));
        }
        Ok(())
    }

    /// One update of every parameter of `model` that has a gradient. Mirrors
    /// `SGD.step()`.
    ///
    /// # Errors
    /// PyTorch's messages for invalid hyper-parameters ("Invalid learning rate: -1");
    /// a parameter whose sizes changed since its momentum buffer was made.
    #[cfg_attr(unoptimized, inline)]
    pub fn step(&mut self, model: &mut dyn Params) -> Result<()> {
        self.validate()?;
        let Sgd {
            shared:
                Shared {
                    lr,
                    weight_decay,
                    maximize,
                },
            momentum,
            dampening,
            nesterov,
            ref mut buffers,
        } = *self;
        for_each_with_grad(model, |i, p, mut g| {
            if maximize {
                g = g.neg()?;
            }
            if weight_decay != 0.0 {
                g = g.add_alpha(p, weight_decay)?;
            }
            if momentum != 0.0 {
                if buffers.len() <= i {
                    buffers.resize_with(i + 1, || None);
                }
                let buf = match &buffers[i] {
                    None => {
                        let b = g.clone(MemoryFormat::Preserve)?;
                        buffers[i] = Some(b.alias());
                        b
                    }
                    Some(b) => {
                        check_state_sizes("SGD", i, b, p)?;
                        b.mul_scalar_(momentum)?;
                        b.add_alpha_(&g, 1.0 - dampening)?;
                        b.alias()
                    }
                };
                g = if nesterov {
                    g.add_alpha(&buf, momentum)?
                } else {
                    buf
                };
            }
            p.add_alpha_(&g, -lr)
        })
    }
}

shared_hyperparameters!(
    Sgd,
    weight_decay: "L2 penalty added to the gradient (`weight_decay`, default 0)."
);
