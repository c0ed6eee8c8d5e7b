//! [`AdamW`]: Adam with decoupled weight decay, as `torch.optim.AdamW`.

use super::shared::{
    check_non_negative, check_state_sizes, for_each_with_grad, invalid, py_float, Optimizer, Shared,
};
use crate::params::Params;
use tensor_core::optim::{adamw_step_, AdamWStep};
use tensor_core::{DType, MemoryFormat, Result, Tensor};

/// `torch.optim.AdamW`: for each parameter `p` with gradient `g`, at step `t` (counted
/// per parameter from 1; PyTorch's single-tensor algorithm, in the parameter's dtype):
///
/// ```text
/// g = -g                                        if maximize
/// p = p * (1 - lr * weight_decay)               (decoupled weight decay)
/// m = m + (1 - beta1) * (g - m)                 (first moment, lerp)
/// v = beta2 * v + (1 - beta2) * g * g           (second moment)
/// v_max = max(v_max, v)                         if amsgrad (and v_max replaces v below)
/// denom = sqrt(v) / sqrt(1 - beta2^t) + eps
/// p = p - lr / (1 - beta1^t) * m / denom
/// ```
///
/// Defaults as PyTorch: betas (0.9, 0.999), eps 1e-8, weight decay 0.01, no AMSGrad.
#[derive(Debug)]
pub struct AdamW {
    /// `lr`, `weight_decay` (default 0.01), `maximize`.
    shared: Shared,
    betas: (f64, f64),
    eps: f64,
    amsgrad: bool,
    /// Per-parameter state by position (`None` until the parameter's first step).
    state: Vec<Option<State>>,
}

/// One parameter's state (PyTorch's `state[p]`).
#[derive(Debug)]
struct State {
    /// Steps taken (`state["step"]`).
    step: u64,
    /// First moment (`exp_avg`).
    exp_avg: Tensor,
    /// Second moment (`exp_avg_sq`).
    exp_avg_sq: Tensor,
    /// Running maximum of the second moment (`max_exp_avg_sq`, AMSGrad only).
    max_exp_avg_sq: Option<Tensor>,
    /// Scratch for `denom` (kept to avoid allocating each step).
    denom: Tensor,
}

impl AdamW {
    /// AdamW with learning rate `lr` and PyTorch's other defaults.
    #[cfg_attr(unoptimized, inline)]
    pub fn new(lr: f64) -> AdamW {
        AdamW {
            shared: Shared::new(lr, 1e-2),
            betas: (0.9, 0.999),
            eps: 1e-8,
            amsgrad: false,
            state: Vec::new(),
        }
    }

    /// Coefficients of the running averages of the gradient and its square (`betas`,
    /// default (0.9, 0.999); each in `[0, 1)`).
    #[cfg_attr(unoptimized, inline)]
    pub fn betas(mut self, betas: (f64, f64)) -> AdamW {
        self.betas = betas;
        self
    }

    /// Added to the denominator (`eps`, default 1e-8).
    #[cfg_attr(unoptimized, inline)]
    pub fn eps(mut self, eps: f64) -> AdamW {
        self.eps = eps;
        self
    }

    /// The AMSGrad variant (`amsgrad`, default `false`).
    #[cfg_attr(unoptimized, inline)]
    pub fn amsgrad(mut self, amsgrad: bool) -> AdamW {
        self.amsgrad = amsgrad;
        self
    }

    /// PyTorch's constructor checks, with its messages.
    #[cfg_attr(unoptimized, inline)]
    fn validate(&self) -> Result<()> {
        self.shared.check_lr("AdamW", true)?;
        check_non_negative("AdamW", "epsilon value", self.eps)?;
        let (b1, b2) = self.betas;
        if !(0.0..1.0).contains(&b1) {
            return Err(invalid(
                "AdamW",
                format!("Invalid beta parameter at index 0: {}", py_float(b1)),
            ));
        }
        if !(0.0..1.0).contains(&b2) {
            return Err(invalid(
                "AdamW",
                format!("Invalid beta parameter at index 1: {}", py_float(b2)),
            ));
        }
        self.shared.check_weight_decay("AdamW", true)
    }

    /// One update of every parameter of `model` that has a gradient. Mirrors
    /// `AdamW.step()`.
    ///
    /// # Errors
    /// PyTorch's messages for invalid hyper-parameters ("Invalid beta parameter at
    /// index 0: 1"); a parameter whose sizes changed since its state was made.
    #[cfg_attr(unoptimized, inline)]
    pub fn step(&mut self, model: &mut dyn Params) -> Result<()> {
        self.validate()?;
        let AdamW {
            shared:
                Shared {
                    lr,
                    weight_decay,
                    maximize,
                },
            betas: (beta1, beta2),
            eps,
            amsgrad,
            ref mut state,
        } = *self;
        for_each_with_grad(model, |i, p, mut g| {
            if state.len() <= i {
                state.resize_with(i + 1, || None);
            }
            let s = match &mut state[i] {
                Some(s) => {
                    check_state_sizes("AdamW", i, &s.exp_avg, p)?;
                    s
                }
                slot @ None => slot.insert(State {
                    step: 0,
                    exp_avg: zeros_like(p)?,
                    exp_avg_sq: zeros_like(p)?,
                    max_exp_avg_sq: if amsgrad { Some(zeros_like(p)?) } else { None },
                    denom: zeros_like(p)?,
                }),
            };
            s.step += 1;
            let mut all = vec![p, &g, &s.exp_avg, &s.exp_avg_sq];
            all.extend(s.max_exp_avg_sq.as_ref());
            let fusable = matches!(p.dtype(), DType::F32 | DType::F64)
                && all
                    .iter()
                    .all(|t| t.is_contiguous() && t.dtype() == p.dtype());
            if fusable {
                // One pass per parameter (tensor_core::optim), same roundings as below.
                let h = AdamWStep {
                    lr,
                    beta1,
                    beta2,
                    eps,
                    weight_decay,
                    maximize,
                    step: s.step,
                };
                let max = s.max_exp_avg_sq.as_ref();
                return adamw_step_(p, &g, &s.exp_avg, &s.exp_avg_sq, max, &h);
            }
            if maximize {
                g = g.neg()?;
            }
            if weight_decay != 0.0 {
                p.mul_scalar_(1.0 - lr * weight_decay)?;
            }
            // exp_avg.lerp_(g, 1 - beta1): PyTorch's lerp for a weight below 0.5.
            let w = 1.0 - beta1;
            s.exp_avg.mul_scalar_(1.0 - w)?;
            s.exp_avg.add_alpha_(&g, w)?;
            s.exp_avg_sq.mul_scalar_(beta2)?;
            s.exp_avg_sq.addcmul_(&g, &g, (1.0 - beta2).into())?;
            let t = s.step as f64;
            let bias_correction1 = 1.0 - beta1.powf(t);
            let bias_correction2 = 1.0 - beta2.powf(t);
            let step_size = lr / bias_correction1;
            let bias_correction2_sqrt = bias_correction2.sqrt();
            let second = match &s.max_exp_avg_sq {
                Some(m) => {
                    m.maximum_(&s.exp_avg_sq)?;
                    m
                }
                None => &s.exp_avg_sq,
            };
            second.sqrt_out(&s.denom)?;
            s.denom.div_scalar_(bias_correction2_sqrt)?;
            s.denom.add_scalar_(eps)?;
            // p.addcdiv_(exp_avg, denom, value=-step_size)
            s.exp_avg.div_out(&s.denom, &s.denom)?;
            p.add_alpha_(&s.denom, -step_size)
        })
    }
}

/// `torch.zeros_like(p)` with `p`'s layout (`memory_format=torch.preserve_format`).
#[cfg_attr(unoptimized, inline)]
fn zeros_like(p: &Tensor) -> Result<Tensor> {
    let z = p.clone(MemoryFormat::Preserve)?;
    z.fill_(0.0)?;
    Ok(z)
}

shared_hyperparameters!(
    AdamW,
    weight_decay: "Decoupled weight decay (`weight_decay`, default 0.01): each step multiplies the parameter by `1 - lr * weight_decay`."
);
