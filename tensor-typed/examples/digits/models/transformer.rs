//! `Transformer` of `digits_models_torch.py`: the 8 rows of an image are 8 tokens of 8
//! pixels; linear 8 → 32 plus a learned position embedding `[8, 32]`; one pre-norm
//! block (LayerNorm, 4-head self-attention with head dim 8, residual; LayerNorm, MLP
//! 32 → 64 GELU(tanh) → 32, residual); final LayerNorm; mean over tokens; linear
//! 32 → 10. AdamW lr 3e-3.
//!
//! Every dim but the batch is a static named dim (`dims!`); the layers are the shared,
//! generic ones of `tensor_typed::nn` (`LayerNorm`, `split_heads`, the attention core,
//! `merge_heads`): a head count that does not divide the width, a residual of the wrong
//! width, or tokens mixed up with pixels or head dims (all 8) does not compile.

use super::{Linear, Model, Scores};
use crate::models::Images;
use crate::rng::Rng;
use tensor_core::Result;
use tensor_typed::prelude::*;
use tensor_typed::Tensor;

dims! {
    /// Tokens per image (its rows).
    pub Token = 8;
    /// Pixels per token (a row's pixels).
    pub Pixel = 8;
    /// Model width.
    pub Width = 32;
    /// Attention heads.
    pub Heads = 4;
    /// The width of one head (8, as `Token` and `Pixel`).
    pub HeadDim = Width / Heads;
    /// Queries, keys and values side by side.
    pub Qkv = 3 * Width;
    /// The MLP's hidden width.
    pub Hidden = 2 * Width;
    /// The classifier's outputs, one per digit.
    pub Class = 10;
}

/// Token activations `[batch, tokens, width]`.
type Tokens = Tensor<f32, Shape![Dyn, Token, Width]>;
/// Per-head activations `[batch, heads, tokens, head dim]`.
type PerHead = Tensor<f32, Shape![Dyn, Heads, Token, HeadDim]>;

/// One pre-norm transformer block between an embedding and a linear head.
#[derive(Params)]
pub struct Transformer {
    /// Token embedding, linear 8 → 32.
    pub embed: Linear<Shape![Pixel, Width], Shape![Width]>,
    /// Learned position embedding `[8, 32]`, `randn * 0.02`.
    pub pos: Tensor<f32, Shape![Token, Width]>,
    /// LayerNorm before attention.
    pub ln1: nn::LayerNorm<Width>,
    /// Queries, keys and values in one linear 32 → 96.
    pub qkv: Linear<Shape![Width, Qkv], Shape![Qkv]>,
    /// Attention output projection 32 → 32.
    pub proj: Linear<Shape![Width, Width], Shape![Width]>,
    /// LayerNorm before the MLP.
    pub ln2: nn::LayerNorm<Width>,
    /// MLP up-projection 32 → 64.
    pub fc1: Linear<Shape![Width, Hidden], Shape![Hidden]>,
    /// MLP down-projection 64 → 32.
    pub fc2: Linear<Shape![Hidden, Width], Shape![Width]>,
    /// Final LayerNorm.
    pub lnf: nn::LayerNorm<Width>,
    /// Classifier 32 → 10.
    pub head: Linear<Shape![Width, Class], Shape![Class]>,
}

impl Transformer {
    /// Multi-head self-attention of the normalised tokens `a` (before the projection).
    fn attention(&self, a: &Tokens) -> Tokens {
        // [Dyn, Token, Qkv], split into q, k, v: [Dyn, Heads, Token, HeadDim].
        let qkv = a.matmul(&self.qkv.w).add(&self.qkv.b);
        let q: PerHead = qkv.narrow::<-1, 0, 32>().split_heads();
        let k: PerHead = qkv.narrow::<-1, 32, 32>().split_heads();
        let v: PerHead = qkv.narrow::<-1, 64, 32>().split_heads();
        let o = nn::scaled_dot_product_attention(&q, &k, &v, None); // [Dyn, Heads, Token, HeadDim]
        o.merge_heads() // [Dyn, Token, Width]
    }
}

/// A LayerNorm of the width, PyTorch's initial values, its parameters requiring grad.
fn layer_norm() -> Result<nn::LayerNorm<Width>> {
    let mut ln = nn::LayerNorm::new()?;
    ln.requires_grad_(true)?;
    Ok(ln)
}

impl Model for Transformer {
    fn init(rng: &mut Rng) -> Result<Transformer> {
        let embed = Linear::init(rng)?;
        let pos = Tensor::from_vec(
            rng.normals(Token::SIZE * Width::SIZE, 0.02),
            &[Token::SIZE, Width::SIZE],
        )?
        .requires_grad_(true);
        Ok(Transformer {
            embed,
            pos,
            ln1: layer_norm()?,
            qkv: Linear::init(rng)?,
            proj: Linear::init(rng)?,
            ln2: layer_norm()?,
            fc1: Linear::init(rng)?,
            fc2: Linear::init(rng)?,
            lnf: layer_norm()?,
            head: Linear::init(rng)?,
        })
    }

    fn forward(&self, x: &Images) -> Scores {
        let x = layout!(x, "b (s p) -> b s p", s = Token, p = Pixel); // rows as tokens
        let h: Tokens = x.matmul(&self.embed.w).add(&self.embed.b).add(&self.pos);
        let a = self.ln1.forward(&h);
        let att = self.attention(&a);
        let h = h.add(&att.matmul(&self.proj.w).add(&self.proj.b));
        let m = self.ln2.forward(&h);
        let m = m.matmul(&self.fc1.w).add(&self.fc1.b).gelu_tanh(); // [Dyn, Token, Hidden]
        let h = h.add(&m.matmul(&self.fc2.w).add(&self.fc2.b));
        let f = self.lnf.forward(&h).mean::<Axes![1]>(); // [Dyn, Width]
                                                         // [Dyn, Class], the scores every model returns ([Dyn, 10]).
        f.matmul(&self.head.w).add(&self.head.b).rename()
    }

    fn optimizer(lr: Option<f64>) -> Box<dyn Optimizer> {
        Box::new(optim::AdamW::new(lr.unwrap_or(3e-3)))
    }
}
