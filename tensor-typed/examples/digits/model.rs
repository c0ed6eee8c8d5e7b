//! The model: an MLP 64 → 64 (ReLU) → 10 with softmax cross-entropy, its hand-written
//! backward pass and the SGD update, on typed tensors.
//!
//! Parameters have static shapes; the batch dim is `Dyn` (the last batch of an epoch is
//! smaller). Each shape in the forward and backward pass is checked by the compiler: a
//! transposed weight or a sum over the wrong axis does not compile.

use crate::data::{CLASSES, PIXELS};
use crate::rng::Rng;
use tensor_core::Result;
use tensor_typed::prelude::*;
use tensor_typed::Tensor;

/// Hidden units.
pub const HIDDEN: usize = 64;

/// A batch of images, one row of 64 pixels each.
pub type Images = Tensor<f32, Shape![Dyn, 64]>;
/// Hidden activations of a batch.
pub type Hidden = Tensor<f32, Shape![Dyn, 64]>;
/// One row of 10 scores (or probabilities, or one-hot labels) per sample.
pub type Scores = Tensor<f32, Shape![Dyn, 10]>;

/// Weights `[in, out]` (a layer is `x @ w + b`) and biases `[out]`.
pub struct Mlp {
    /// First layer weights.
    pub w1: Tensor<f32, Shape![64, 64]>,
    /// First layer bias.
    pub b1: Tensor<f32, Shape![64]>,
    /// Second layer weights.
    pub w2: Tensor<f32, Shape![64, 10]>,
    /// Second layer bias.
    pub b2: Tensor<f32, Shape![10]>,
    /// A 0-d zero, made once: the ReLU threshold and the masked-out gradient.
    zero: Tensor<f32, Shape![]>,
}

/// What one training step measured on its batch, before the update.
pub struct Step {
    /// Mean cross-entropy of the batch.
    pub loss: f64,
    /// Samples whose highest score is their label.
    pub correct: usize,
}

/// `[labels.len(), 10]` one-hot rows.
fn one_hot(labels: &[usize]) -> Result<Scores> {
    let mut v = vec![0.0f32; labels.len() * CLASSES];
    for (row, &l) in labels.iter().enumerate() {
        v[row * CLASSES + l] = 1.0;
    }
    Scores::from_vec(v, &[labels.len(), CLASSES])
}

/// How many of `scores`' row-wise argmaxes equal `labels`.
fn count_correct(scores: &Scores, labels: &[usize]) -> usize {
    let predicted = scores.argmax::<1>().to_vec();
    predicted
        .iter()
        .zip(labels)
        .filter(|(&p, &l)| p as usize == l)
        .count()
}

impl Mlp {
    /// Weights `randn * 0.1`, biases zero, as `digits_torch.py` initialises them.
    pub fn init(rng: &mut Rng) -> Result<Mlp> {
        Ok(Mlp {
            w1: Tensor::from_vec(rng.normals(PIXELS * HIDDEN, 0.1), &[PIXELS, HIDDEN])?,
            b1: Tensor::zeros(),
            w2: Tensor::from_vec(rng.normals(HIDDEN * CLASSES, 0.1), &[HIDDEN, CLASSES])?,
            b2: Tensor::zeros(),
            zero: Tensor::zeros(),
        })
    }

    /// The hidden pre-activations `x W1 + b1` and the scores `relu(·) W2 + b2`.
    fn forward(&self, x: &Images) -> (Hidden, Scores) {
        let h_pre = x.matmul(&self.w1).add(&self.b1);
        let scores = h_pre.relu().matmul(&self.w2).add(&self.b2);
        (h_pre, scores)
    }

    /// The predicted class of each row of `x`.
    pub fn predict(&self, x: &Images) -> Vec<usize> {
        let (_, scores) = self.forward(x);
        scores
            .argmax::<1>()
            .to_vec()
            .into_iter()
            .map(|c| c as usize)
            .collect()
    }

    /// One SGD step with learning rate `lr` on the batch `x` with `labels`.
    ///
    /// With `B = labels.len()`, `p = softmax(scores)` and `y` the one-hot labels, the
    /// gradient of the mean loss with respect to the scores is `g = (p - y) / B`, and
    /// `dW2 = hᵀ g`, `db2 = Σ_rows g`, `dh = (g W2ᵀ) ⊙ [h_pre > 0]`, `dW1 = xᵀ dh`,
    /// `db1 = Σ_rows dh`. Every gradient is linear in `g`, so `g` is scaled by `-lr` up
    /// front and each update is one in-place add.
    ///
    /// # Errors
    /// When `labels.len()` is not the batch size of `x`.
    pub fn step(&mut self, x: &Images, labels: &[usize], lr: f32) -> Result<Step> {
        let (h_pre, scores) = self.forward(x);
        let h = h_pre.relu();
        // Softmax cross-entropy, shifted by each row's maximum for stability.
        let shifted = scores.sub(&scores.amax_keepdim::<Axes![1]>());
        let e = shifted.exp();
        let s = e.sum_keepdim::<Axes![1]>();
        let y = one_hot(labels)?;
        let picked = shifted.try_mul(&y)?.sum_keepdim::<Axes![1]>();
        let loss = s.log().sub(&picked).mean_all().item()? as f64;
        let correct = count_correct(&scores, labels);

        // Backward, pre-scaled by -lr: g = -lr (p - y) / B.
        let g: Scores = e.div(&s).sub(&y).mul_scalar(-lr / labels.len() as f32);
        let dw2 = h.t().matmul(&g);
        let db2 = g.sum::<Axes![0]>();
        let dh: Hidden = g.matmul(&self.w2.t());
        let dh = h_pre.gt(&self.zero).where_(&dh, &self.zero);
        let dw1 = x.t().matmul(&dh);
        let db1 = dh.sum::<Axes![0]>();

        self.w1.add_(&dw1);
        self.b1.add_(&db1);
        self.w2.add_(&dw2);
        self.b2.add_(&db2);
        Ok(Step { loss, correct })
    }
}
