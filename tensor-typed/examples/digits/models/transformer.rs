//! `Transformer` of `digits_models_torch.py`: the 8 rows of an image are 8 tokens of 8
//! pixels; linear 8 → 32 plus a learned position embedding `[8, 32]`; one pre-norm
//! block (LayerNorm, 4-head self-attention with head dim 8, residual; LayerNorm, MLP
//! 32 → 64 GELU(tanh) → 32, residual); final LayerNorm; mean over tokens; linear
//! 32 → 10. AdamW lr 3e-3.
//!
//! The heads are split and merged with `layout!`; every dim but the batch is static, so
//! a head count that does not divide the width, or a residual of the wrong width, does
//! not compile.

use super::{LayerNorm, Linear, Model, Scores};
use crate::models::Images;
use crate::rng::Rng;
use tensor_core::Result;
use tensor_typed::prelude::*;
use tensor_typed::Tensor;

/// Model width.
const D: usize = 32;
/// Tokens per image (its rows).
const TOKENS: usize = 8;
/// Attention heads (head dim `D / HEADS` = 8).
const HEADS: usize = 4;
/// LayerNorm's epsilon (PyTorch's default).
const EPS: f64 = 1e-5;

/// Token activations `[batch, tokens, width]`.
type Tokens = Tensor<f32, Shape![Dyn, 8, 32]>;

/// One pre-norm transformer block between an embedding and a linear head.
#[derive(Params)]
pub struct Transformer {
    /// Token embedding, linear 8 → 32.
    pub embed: Linear<Shape![8, 32], Shape![32]>,
    /// Learned position embedding `[8, 32]`, `randn * 0.02`.
    pub pos: Tensor<f32, Shape![8, 32]>,
    /// LayerNorm before attention.
    pub ln1: LayerNorm<Shape![32]>,
    /// Queries, keys and values in one linear 32 → 96.
    pub qkv: Linear<Shape![32, 96], Shape![96]>,
    /// Attention output projection 32 → 32.
    pub proj: Linear<Shape![32, 32], Shape![32]>,
    /// LayerNorm before the MLP.
    pub ln2: LayerNorm<Shape![32]>,
    /// MLP up-projection 32 → 64.
    pub fc1: Linear<Shape![32, 64], Shape![64]>,
    /// MLP down-projection 64 → 32.
    pub fc2: Linear<Shape![64, 32], Shape![32]>,
    /// Final LayerNorm.
    pub lnf: LayerNorm<Shape![32]>,
    /// Classifier 32 → 10.
    pub head: Linear<Shape![32, 10], Shape![10]>,
}

impl Transformer {
    /// Multi-head self-attention of the normalised tokens `a` (before the projection).
    fn attention(&self, a: &Tokens) -> Tokens {
        // [Dyn, 8, 96], split into q, k, v: [Dyn, 4, 8, 8] (batch, head, token, head dim).
        let qkv = a.matmul(&self.qkv.w).add(&self.qkv.b);
        let q = qkv.narrow::<-1, 0, 32>();
        let k = qkv.narrow::<-1, 32, 32>();
        let v = qkv.narrow::<-1, 64, 32>();
        let q = layout!(q, "b s (h d) -> b h s d", h = 4);
        let k = layout!(k, "b s (h d) -> b h s d", h = 4);
        let v = layout!(v, "b s (h d) -> b h s d", h = 4);
        let scale = 1.0 / ((D / HEADS) as f64).sqrt();
        let att = q
            .matmul(&k.transpose::<-2, -1>())
            .mul_scalar(scale)
            .softmax::<-1>(); // [Dyn, 4, 8, 8] (token × token)
        let o = att.matmul(&v); // [Dyn, 4, 8, 8]
        layout!(o, "b h s d -> b s (h d)")
    }
}

impl Model for Transformer {
    fn init(rng: &mut Rng) -> Result<Transformer> {
        let embed = Linear::init(rng)?;
        let pos =
            Tensor::from_vec(rng.normals(TOKENS * D, 0.02), &[TOKENS, D])?.requires_grad_(true);
        Ok(Transformer {
            embed,
            pos,
            ln1: LayerNorm::init()?,
            qkv: Linear::init(rng)?,
            proj: Linear::init(rng)?,
            ln2: LayerNorm::init()?,
            fc1: Linear::init(rng)?,
            fc2: Linear::init(rng)?,
            lnf: LayerNorm::init()?,
            head: Linear::init(rng)?,
        })
    }

    fn forward(&self, x: &Images) -> Scores {
        let x = layout!(x, "b (s p) -> b s p", s = 8); // [Dyn, 8, 8]: rows as tokens
        let h: Tokens = x.matmul(&self.embed.w).add(&self.embed.b).add(&self.pos);
        let a = nn::layer_norm(&h, &self.ln1.w, &self.ln1.b, EPS);
        let att = self.attention(&a);
        let h = h.add(&att.matmul(&self.proj.w).add(&self.proj.b));
        let m = nn::layer_norm(&h, &self.ln2.w, &self.ln2.b, EPS);
        let m = m.matmul(&self.fc1.w).add(&self.fc1.b).gelu_tanh(); // [Dyn, 8, 64]
        let h = h.add(&m.matmul(&self.fc2.w).add(&self.fc2.b));
        let f = nn::layer_norm(&h, &self.lnf.w, &self.lnf.b, EPS).mean::<Axes![1]>(); // [Dyn, 32]
        f.matmul(&self.head.w).add(&self.head.b)
    }

    fn optimizer(lr: Option<f64>) -> Box<dyn Optimizer> {
        Box::new(optim::AdamW::new(lr.unwrap_or(3e-3)))
    }
}
