//! `Mlp` of `digits_models_torch.py`: linear 64 → 64, ReLU, linear 64 → 10; SGD lr 0.1.

use super::{Images, Linear, Model, Scores};
use crate::rng::Rng;
use tensor_core::Result;
use tensor_typed::prelude::*;

/// Two linear layers with a ReLU between them.
#[derive(Params)]
pub struct Mlp {
    /// `torch.nn.Linear(64, 64)`.
    pub l1: Linear<Shape![64, 64], Shape![64]>,
    /// `torch.nn.Linear(64, 10)`.
    pub l2: Linear<Shape![64, 10], Shape![10]>,
}

impl Model for Mlp {
    fn init(rng: &mut Rng) -> Result<Mlp> {
        Ok(Mlp {
            l1: Linear::init(rng)?,
            l2: Linear::init(rng)?,
        })
    }

    fn forward(&self, x: &Images) -> Scores {
        let h = x.matmul(&self.l1.w).add(&self.l1.b).relu(); // [Dyn, 64]
        h.matmul(&self.l2.w).add(&self.l2.b)
    }

    fn optimizer(lr: Option<f64>) -> Box<dyn Optimizer> {
        Box::new(optim::Sgd::new(lr.unwrap_or(0.1)))
    }
}
