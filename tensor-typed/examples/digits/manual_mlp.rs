//! The MLP's hand-written backward pass, which the example used before autograd; kept
//! to check autograd's gradients against it (`tests.rs`).
//!
//! Every shape in the backward pass is checked by the compiler: a transposed weight or
//! a sum over the wrong axis does not compile.

use crate::data::CLASSES;
use crate::models::{mlp::Mlp, Images, Scores};
use tensor_core::Result;
use tensor_typed::prelude::*;
use tensor_typed::Tensor;

/// The gradients of the mean cross-entropy with respect to `w1`, `b1`, `w2`, `b2`.
pub struct Grads {
    /// `[64, 64]`.
    pub w1: Tensor<f32, Shape![64, 64]>,
    /// `[64]`.
    pub b1: Tensor<f32, Shape![64]>,
    /// `[64, 10]`.
    pub w2: Tensor<f32, Shape![64, 10]>,
    /// `[10]`.
    pub b2: Tensor<f32, Shape![10]>,
}

/// `[labels.len(), 10]` one-hot rows.
fn one_hot(labels: &[usize]) -> Result<Scores> {
    let mut v = vec![0.0f32; labels.len() * CLASSES];
    for (row, &l) in labels.iter().enumerate() {
        v[row * CLASSES + l] = 1.0;
    }
    Scores::from_vec(v, &[labels.len(), CLASSES])
}

/// The gradients of `mlp`'s mean loss on `x` with `labels`, by hand.
///
/// With `B = labels.len()`, `p = softmax(scores)` and `y` the one-hot labels, the
/// gradient of the mean loss with respect to the scores is `g = (p - y) / B`, and
/// `dW2 = hᵀ g`, `db2 = Σ_rows g`, `dh = (g W2ᵀ) ⊙ [h_pre > 0]`, `dW1 = xᵀ dh`,
/// `db1 = Σ_rows dh`.
pub fn gradients(mlp: &Mlp, x: &Images, labels: &[usize]) -> Result<Grads> {
    no_grad(|| {
        let (w1, b1) = (mlp.l1.w.detach(), mlp.l1.b.detach());
        let (w2, b2) = (mlp.l2.w.detach(), mlp.l2.b.detach());
        let zero: Tensor<f32, Shape![]> = Tensor::zeros();
        let h_pre = x.matmul(&w1).add(&b1);
        let h = h_pre.relu();
        let scores = h.matmul(&w2).add(&b2);
        // Softmax, shifted by each row's maximum for stability.
        let e = scores.sub(&scores.amax_keepdim::<Axes![1]>()).exp();
        let p = e.div(&e.sum_keepdim::<Axes![1]>());
        let g: Scores = p
            .try_sub(&one_hot(labels)?)?
            .div_scalar(labels.len() as f32);
        let dh = g.matmul(&w2.t());
        let dh = h_pre.gt(&zero).where_(&dh, &zero);
        Ok(Grads {
            w1: x.t().matmul(&dh),
            b1: dh.sum::<Axes![0]>(),
            w2: h.t().matmul(&g),
            b2: g.sum::<Axes![0]>(),
        })
    })
}
