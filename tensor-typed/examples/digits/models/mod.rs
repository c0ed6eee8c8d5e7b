//! The three models of `digits_models_torch.py`, written as typed forward passes; their
//! gradients come from autograd. Shared here: the [`Model`] trait, PyTorch's default
//! initialisation of `Linear`/`Conv2d`/`LayerNorm`, and the optimiser each model uses.

pub mod cnn;
pub mod mlp;
pub mod transformer;

use crate::data::CLASSES;
use crate::rng::Rng;
use tensor_core::Result;
use tensor_typed::prelude::*;
use tensor_typed::Tensor;

/// A batch of images, one row of 64 pixels each (scaled into [0, 1]).
pub type Images = Tensor<f32, Shape![Dyn, 64]>;
/// One row of 10 class scores (logits) per sample.
pub type Scores = Tensor<f32, Shape![Dyn, 10]>;

/// Which model `--model` picks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// 64 → 64 (ReLU) → 10, SGD lr 0.1.
    Mlp,
    /// Two conv/ReLU/max-pool stages and a linear layer, AdamW lr 1e-2.
    Cnn,
    /// One pre-norm transformer block over the 8 rows of an image, AdamW lr 3e-3.
    Transformer,
}

impl Kind {
    /// The name used on the command line and by `digits_models_torch.py`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Mlp => "mlp",
            Kind::Cnn => "cnn",
            Kind::Transformer => "transformer",
        }
    }

    /// The kind named `name` (`mlp`, `cnn`, `transformer`).
    pub fn parse(name: &str) -> Option<Kind> {
        [Kind::Mlp, Kind::Cnn, Kind::Transformer]
            .into_iter()
            .find(|k| k.name() == name)
    }
}

/// A classifier of digits whose parameters (`#[derive(Params)]`) require grad.
pub trait Model: Params + Sized {
    /// Parameters drawn as PyTorch's default initialisation draws them.
    fn init(rng: &mut Rng) -> Result<Self>;
    /// The class scores of each image; records a graph when the parameters require grad.
    fn forward(&self, x: &Images) -> Scores;
    /// The optimiser of `digits_models_torch.py` for this model, with learning rate
    /// `lr` or the script's own.
    fn optimizer(lr: Option<f64>) -> Box<dyn Optimizer>;
}

/// `n` draws from U(-bound, bound) as f32.
fn uniform(rng: &mut Rng, n: usize, bound: f64) -> Vec<f32> {
    (0..n)
        .map(|_| ((rng.uniform() * 2.0 - 1.0) * bound) as f32)
        .collect()
}

/// A parameter of static shape `S` drawn from U(-1/√fan_in, 1/√fan_in): PyTorch's
/// default for the weights (`kaiming_uniform_(a=√5)`) and biases of `Linear` and `Conv2d`.
pub fn kaiming_uniform<S: Shape>(rng: &mut Rng, fan_in: usize) -> Result<Tensor<f32, S>> {
    let dims: Vec<usize> = S::DIMS.iter().map(|d| d.unwrap_or(0)).collect();
    let n = dims.iter().product();
    let bound = 1.0 / (fan_in as f64).sqrt();
    Ok(Tensor::from_vec(uniform(rng, n, bound), &dims)?.requires_grad_(true))
}

/// `torch.nn.Linear(I, O)` with weight shape `W` = `[I, O]` (stored transposed, so
/// that the layer is `x @ w + b` on any batch shape) and bias shape `B` = `[O]`.
#[derive(Params)]
pub struct Linear<W: Shape, B: Shape> {
    /// Weight `[I, O]`.
    pub w: Tensor<f32, W>,
    /// Bias `[O]`.
    pub b: Tensor<f32, B>,
}

/// The static size of dim `i` of `S`.
pub fn dim<S: Shape>(i: usize) -> usize {
    S::DIMS[i].expect("parameters have static shapes")
}

impl<W: Shape, B: Shape> Linear<W, B> {
    /// PyTorch's default initialisation (fan-in `I`): weight first, then bias.
    pub fn init(rng: &mut Rng) -> Result<Self> {
        let fan_in = dim::<W>(0);
        Ok(Linear {
            w: kaiming_uniform(rng, fan_in)?,
            b: kaiming_uniform(rng, fan_in)?,
        })
    }
}

/// The predicted class of each row of `scores`.
pub fn predictions(scores: &Scores) -> Vec<usize> {
    scores
        .argmax::<1>()
        .to_vec()
        .into_iter()
        .map(|c| c as usize)
        .collect()
}

/// Mean cross-entropy of `scores` against `labels` (`F.cross_entropy`), a 0-d tensor.
///
/// # Errors
/// When `labels.len()` is not the batch size of `scores`.
pub fn loss(scores: &Scores, labels: &[usize]) -> Result<Tensor<f32, Shape![]>> {
    debug_assert!(labels.iter().all(|&l| l < CLASSES));
    let targets = Tensor::<i64, Shape![Dyn]>::from_vec(
        labels.iter().map(|&l| l as i64).collect(),
        &[labels.len()],
    )?;
    nn::try_cross_entropy(scores, &targets)
}
