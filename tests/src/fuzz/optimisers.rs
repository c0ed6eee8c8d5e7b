//! The optimiser surface: `Sgd` and `AdamW` of tensor-typed with random
//! hyper-parameters (NaN, infinities, negatives, zeros and ordinary values), parameters
//! with and without gradients, gradients that share storage (with the parameter itself
//! or with another parameter's gradient), several steps.

use super::gen::Gen;
use super::runner::Ctx;
use tensor_core::{DType, Tensor};
use tensor_typed::optim::{AdamW, Optimizer, Sgd};

/// Hyper-parameter values: ordinary ones and the hostile ones PyTorch checks or not.
const HYPER: [f64; 12] = [
    0.0,
    0.1,
    0.9,
    0.999,
    1.0,
    -1.0,
    1e-8,
    1e308,
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
    -0.0,
];

/// One case: a few parameters, their gradients, an optimiser, one to three steps.
pub fn run_case(g: &mut Gen, c: &mut Ctx) {
    let dtype = g.pick(&[DType::F32, DType::F64, DType::F16, DType::BF16]);
    let n = g.below(4);
    let mut params: Vec<Tensor> = Vec::new();
    for i in 0..n {
        let sizes = g.small_sizes();
        let k: usize = sizes.iter().product();
        let v: Vec<f64> = (0..k).map(|j| ((i + j) % 7) as f64 - 3.0).collect();
        let Some(p) = c.call(
            || format!("param {sizes:?} {dtype:?}"),
            || {
                Tensor::from_vec(v.clone(), &sizes)?
                    .to_dtype(dtype)?
                    .requires_grad_(true)
            },
        ) else {
            return;
        };
        params.push(p);
    }
    let mut shared: Option<Tensor> = None;
    for (i, p) in params.iter_mut().enumerate() {
        let grad = match g.below(5) {
            0 => None,
            // The parameter's own storage as its gradient.
            1 => Some(p.detach()),
            // One gradient shared by every parameter of its sizes.
            2 => match &shared {
                Some(s) if s.sizes() == p.sizes() => Some(s.alias()),
                _ => {
                    let s = p.detach().mul_scalar(0.5).ok();
                    shared = s.as_ref().map(|s| s.alias());
                    s
                }
            },
            3 => Tensor::full(p.sizes(), g.pick(&HYPER), dtype).ok(),
            _ => Tensor::ones(p.sizes(), dtype).ok(),
        };
        let what = if grad.is_some() { "Some" } else { "None" };
        c.call(
            || format!("param {i}: set_grad({what})"),
            || p.set_grad(grad),
        );
    }
    let mut opt: Box<dyn Optimizer> = if g.chance(0.5) {
        let (lr, m, d, wd) = (
            g.pick(&HYPER),
            g.pick(&HYPER),
            g.pick(&HYPER),
            g.pick(&HYPER),
        );
        let (nesterov, maximize) = (g.chance(0.3), g.chance(0.3));
        c.call(
            || format!("Sgd lr={lr} momentum={m} dampening={d} weight_decay={wd} nesterov={nesterov} maximize={maximize}"),
            || Ok(()),
        );
        Box::new(
            Sgd::new(lr)
                .momentum(m)
                .dampening(d)
                .nesterov(nesterov)
                .weight_decay(wd)
                .maximize(maximize),
        )
    } else {
        let (lr, b1, b2, eps, wd) = (
            g.pick(&HYPER),
            g.pick(&HYPER),
            g.pick(&HYPER),
            g.pick(&HYPER),
            g.pick(&HYPER),
        );
        let (amsgrad, maximize) = (g.chance(0.3), g.chance(0.3));
        c.call(
            || format!("AdamW lr={lr} betas=({b1}, {b2}) eps={eps} weight_decay={wd} amsgrad={amsgrad} maximize={maximize}"),
            || Ok(()),
        );
        Box::new(
            AdamW::new(lr)
                .betas((b1, b2))
                .eps(eps)
                .amsgrad(amsgrad)
                .weight_decay(wd)
                .maximize(maximize),
        )
    };
    for step in 0..1 + g.below(3) {
        if g.chance(0.2) && !params.is_empty() {
            // A parameter replaced by one of other sizes between steps (its state no
            // longer fits: PyTorch's error, never a panic).
            let i = g.below(params.len());
            if let Ok(t) = Tensor::ones(&[params[i].numel() + 1], dtype) {
                if let Ok(t) = t.requires_grad_(true) {
                    let mut t = t;
                    let _ = t.set_grad(Tensor::ones(&[params[i].numel() + 1], dtype).ok());
                    params[i] = t;
                }
            }
        }
        let r = c.call(|| format!("step {step}"), || opt.step(&mut params));
        if r.is_none() {
            break;
        }
        for (i, p) in params.iter().enumerate() {
            c.call(
                || format!("param {i} after step: to_vec_f64"),
                || p.to_vec_f64(),
            );
        }
    }
}
