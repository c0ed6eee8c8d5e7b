//! `Cnn` of `digits_models_torch.py`: an image `[1, 8, 8]`; conv 1 → 8 (3x3, padding 1),
//! ReLU, max-pool 2; conv 8 → 16 (3x3, padding 1), ReLU, max-pool 2; flatten 16·2·2 = 64;
//! linear 64 → 10. AdamW lr 1e-2.
//!
//! Every dim after the batch is computed by the compiler from the static kernel, stride
//! and padding: a wrong channel count or a flatten to the wrong width does not compile.

use super::{dim, kaiming_uniform, Images, Linear, Model, Scores};
use crate::rng::Rng;
use tensor_core::Result;
use tensor_typed::prelude::*;
use tensor_typed::Tensor;

/// `torch.nn.Conv2d(I, O, K)` with weight shape `W` = `[O, I, K, K]` and bias shape
/// `B` = `[O]`.
#[derive(Params)]
pub struct Conv2d<W: Shape, B: Shape> {
    /// Weight `[O, I, K, K]`.
    pub w: Tensor<f32, W>,
    /// Bias `[O]`.
    pub b: Tensor<f32, B>,
}

impl<W: Shape, B: Shape> Conv2d<W, B> {
    /// PyTorch's default initialisation, fan-in `I·K·K`: weight first, then bias.
    pub fn init(rng: &mut Rng) -> Result<Self> {
        let fan_in = dim::<W>(1) * dim::<W>(2) * dim::<W>(3);
        Ok(Conv2d {
            w: kaiming_uniform(rng, fan_in)?,
            b: kaiming_uniform(rng, fan_in)?,
        })
    }
}

/// Two conv stages and a linear classifier.
#[derive(Params)]
pub struct Cnn {
    /// Conv 1 → 8, 3x3.
    pub c1: Conv2d<Shape![8, 1, 3, 3], Shape![8]>,
    /// Conv 8 → 16, 3x3.
    pub c2: Conv2d<Shape![16, 8, 3, 3], Shape![16]>,
    /// Linear 64 → 10.
    pub fc: Linear<Shape![64, 10], Shape![10]>,
}

impl Model for Cnn {
    fn init(rng: &mut Rng) -> Result<Cnn> {
        Ok(Cnn {
            c1: Conv2d::init(rng)?,
            c2: Conv2d::init(rng)?,
            fc: Linear::init(rng)?,
        })
    }

    fn forward(&self, x: &Images) -> Scores {
        let x = layout!(x, "b (c h w) -> b c h w", c = 1, h = 8); // [Dyn, 1, 8, 8]
        let x = x
            .conv2d::<1, 1, 1, 1>(&self.c1.w, Some(&self.c1.b)) // [Dyn, 8, 8, 8]
            .relu()
            .max_pool2d::<2, 2, 0>(); // [Dyn, 8, 4, 4]
        let x = x
            .conv2d::<1, 1, 1, 1>(&self.c2.w, Some(&self.c2.b)) // [Dyn, 16, 4, 4]
            .relu()
            .max_pool2d::<2, 2, 0>(); // [Dyn, 16, 2, 2]
        let x: Tensor<f32, Shape![Dyn, 64]> = layout!(x, "b c h w -> b (c h w)");
        x.matmul(&self.fc.w).add(&self.fc.b)
    }

    fn optimizer(lr: Option<f64>) -> Box<dyn Optimizer> {
        Box::new(optim::AdamW::new(lr.unwrap_or(1e-2)))
    }
}
