//! The two optimisers of `digits_models_torch.py`, with PyTorch's update rules
//! (`torch.optim.SGD` without momentum, `torch.optim.AdamW` with betas (0.9, 0.999),
//! eps 1e-8, weight decay 0.01), applied in place outside the graph.

use tensor_core::{no_grad, Result, Tensor};

/// An optimiser over a fixed list of parameters.
pub enum Optimizer {
    /// Plain SGD: `p -= lr * g`.
    Sgd {
        /// Learning rate.
        lr: f64,
    },
    /// AdamW (decoupled weight decay).
    AdamW {
        /// Learning rate.
        lr: f64,
        /// Steps taken so far.
        t: i32,
        /// First and second moment per parameter, made on the first step.
        state: Vec<(Tensor, Tensor)>,
    },
}

const BETA1: f64 = 0.9;
const BETA2: f64 = 0.999;
const EPS: f64 = 1e-8;
const WEIGHT_DECAY: f64 = 0.01;

impl Optimizer {
    /// `torch.optim.SGD(params, lr)`.
    pub fn sgd(lr: f64) -> Optimizer {
        Optimizer::Sgd { lr }
    }

    /// `torch.optim.AdamW(params, lr)` with the default betas, eps and weight decay.
    pub fn adamw(lr: f64) -> Optimizer {
        Optimizer::AdamW {
            lr,
            t: 0,
            state: Vec::new(),
        }
    }

    /// The same optimiser with learning rate `lr` (the `--lr` flag).
    pub fn with_lr(mut self, new_lr: f64) -> Optimizer {
        match &mut self {
            Optimizer::Sgd { lr } | Optimizer::AdamW { lr, .. } => *lr = new_lr,
        }
        self
    }

    /// One update of every parameter that has a gradient, then clears the gradients
    /// (`opt.step(); opt.zero_grad()`).
    ///
    /// # Errors
    /// A tensor-core error (a bug: shapes and dtypes are fixed).
    pub fn step(&mut self, params: &mut [Tensor]) -> Result<()> {
        no_grad(|| match self {
            Optimizer::Sgd { lr } => {
                for p in params.iter() {
                    if let Some(g) = p.grad() {
                        p.sub_(&g.mul_scalar(*lr)?)?;
                    }
                }
                Ok(())
            }
            Optimizer::AdamW { lr, t, state } => {
                if state.is_empty() {
                    for p in params.iter() {
                        state.push((
                            Tensor::zeros(p.sizes(), p.dtype())?,
                            Tensor::zeros(p.sizes(), p.dtype())?,
                        ));
                    }
                }
                *t += 1;
                let c1 = 1.0 - BETA1.powi(*t);
                let c2 = 1.0 - BETA2.powi(*t);
                for (p, (m, v)) in params.iter().zip(state.iter()) {
                    let Some(g) = p.grad() else { continue };
                    p.mul_scalar_(1.0 - *lr * WEIGHT_DECAY)?;
                    m.mul_scalar_(BETA1)?;
                    m.add_(&g.mul_scalar(1.0 - BETA1)?)?;
                    v.mul_scalar_(BETA2)?;
                    v.addcmul_(&g, &g, (1.0 - BETA2).into())?;
                    let denom = v.sqrt()?.div_scalar(c2.sqrt())?.add_scalar(EPS)?;
                    p.sub_(&m.div(&denom)?.mul_scalar(*lr / c1)?)?;
                }
                Ok(())
            }
        })?;
        for p in params.iter_mut() {
            p.set_grad(None)?;
        }
        Ok(())
    }
}
