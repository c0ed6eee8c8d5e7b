//! The model: a pre-norm transformer block (GPT-2's, shrunk to d_model 64) and a
//! GPT-2-sized token embedding → unembedding path around it, as typed model code.
//!
//! The block is written once over its dims (`BlockDims`, `Block<C>`), from the shared,
//! generic layers of `tensor_typed::nn`; `Sizes` names the recorded block's dims
//! (`dims!`): parameters have static shapes (`[Model, Hidden]`) and every activation is
//! `[Batch, Seq, ..]` (only the batch is known at run time). A
//! transposed weight, a head split that does not divide, a mask of the wrong size, a
//! layer norm over the wrong dims, or `q @ k` without the transpose (`HeadDim` vs `Seq`,
//! both 16) does not compile.

use tensor_core::Result;
use tensor_typed::bounds::{Dim, ProductOf};
use tensor_typed::io::Weights;
use tensor_typed::prelude::*;

dims! {
    /// Sequences in a batch (known at run time).
    pub Batch;
    /// Token positions (the causal mask is `[Seq, Seq]`).
    pub Seq = 16;
    /// The block's width.
    pub Model = 64;
    /// Attention heads.
    pub Heads = 4;
    /// The width of one head: 16, as `Seq` (so `q @ k` without the transpose would have
    /// matching sizes; the names keep it from compiling).
    pub HeadDim = Model / Heads;
    /// The MLP's hidden width (GPT-2's 4x).
    pub Hidden = 4 * Model;
    /// GPT-2's vocabulary.
    pub Vocab = 50257;
    /// GPT-2 (small)'s width.
    pub Embd = 768;
    /// GPT-2's context (rows of the position embedding).
    pub Ctx = 1024;
}

/// A batch of sequences of width 64: the block's input and output.
pub type Acts = Tensor<f32, Shape![Batch, Seq, Model]>;
/// Token ids, `[batch, 16]`.
pub type Ids = Tensor<i64, Shape![Batch, Seq]>;
/// Next-token logits over GPT-2's vocabulary.
pub type Logits = Tensor<f32, Shape![Batch, Seq, Vocab]>;

/// A linear layer `x @ w + b` with `w` stored `[in, out]`.
pub struct Linear<W, B> {
    /// Weight `[in, out]`.
    pub w: W,
    /// Bias `[out]`.
    pub b: B,
}

/// A linear layer `I` → `O`: weight `[I, O]`, bias `[O]`.
type Layer<I, O> = Linear<Tensor<f32, (I, O)>, Tensor<f32, (O,)>>;
/// The block's activations `[Batch, Seq, Model]` over the dims `C`.
type ActsOf<C> = Tensor<
    f32,
    (
        <C as BlockDims>::Batch,
        <C as BlockDims>::Seq,
        <C as BlockDims>::Model,
    ),
>;
/// Per-head activations `[Batch, Heads, Seq, HeadDim]` over the dims `C`.
type PerHeadOf<C> = Tensor<
    f32,
    (
        <C as BlockDims>::Batch,
        <C as BlockDims>::Heads,
        <C as BlockDims>::Seq,
        <C as BlockDims>::HeadDim,
    ),
>;

/// The block's dims, one type per size: the block is written once over any `BlockDims`;
/// the item bound states the product it splits (`Model` is `Heads · HeadDim`).
pub trait BlockDims: 'static {
    /// Sequences in a batch.
    type Batch: Dim;
    /// Token positions.
    type Seq: Dim;
    /// The block's width.
    type Model: Dim + ProductOf<Self::Heads, Self::HeadDim>;
    /// Attention heads.
    type Heads: Dim;
    /// The width of one head.
    type HeadDim: Dim;
    /// The MLP's hidden width.
    type Hidden: Dim;
}

/// The recorded block's sizes, named by `dims!` above.
pub struct Sizes;
impl BlockDims for Sizes {
    type Batch = Batch;
    type Seq = Seq;
    type Model = Model;
    type Heads = Heads;
    type HeadDim = HeadDim;
    type Hidden = Hidden;
}

/// The block's parameters (names as in the recorded safetensors file), over the dims `C`.
pub struct Block<C: BlockDims = Sizes> {
    ln1: nn::LayerNorm<C::Model>,
    q: Layer<C::Model, C::Model>,
    k: Layer<C::Model, C::Model>,
    v: Layer<C::Model, C::Model>,
    o: Layer<C::Model, C::Model>,
    ln2: nn::LayerNorm<C::Model>,
    /// MLP up-projection 64 → 256 (GPT-2's 4x).
    up: Layer<C::Model, C::Hidden>,
    /// MLP down-projection 256 → 64.
    down: Layer<C::Hidden, C::Model>,
    /// `true` above the diagonal: the future positions a query may not attend to.
    future: Tensor<bool, Shape![C::Seq, C::Seq]>,
}

/// `true` strictly above the diagonal (`torch.ones(n, n).tril(0) == 0`) for a static
/// `S` of size `n`.
fn causal_mask<S: Dim>() -> Result<Tensor<bool, Shape![S, S]>> {
    let n = S::STATIC.expect("the block's positions are static");
    let lower = Tensor::<f32, Shape![S, S]>::ones_with(&[n, n])?.tril::<0>();
    Ok(lower.eq(&Tensor::<f32, Shape![]>::zeros()))
}

impl<C: BlockDims> Block<C> {
    /// Loads the block from `st`: `ln1.weight`, `attn.wq`, `attn.bq`, ..., `mlp.b2`. Every
    /// load checks the dtype and the static shape against the file's header.
    pub fn load(st: &Weights) -> Result<Block<C>> {
        let ln = |name: &str| -> Result<nn::LayerNorm<C::Model>> {
            Ok(nn::LayerNorm {
                weight: st.load(&format!("{name}.weight"))?,
                bias: st.load(&format!("{name}.bias"))?,
            })
        };
        let attn = |p: &str| -> Result<Layer<C::Model, C::Model>> {
            Ok(Linear {
                w: st.load(&format!("attn.w{p}"))?,
                b: st.load(&format!("attn.b{p}"))?,
            })
        };
        Ok(Block {
            ln1: ln("ln1")?,
            q: attn("q")?,
            k: attn("k")?,
            v: attn("v")?,
            o: attn("o")?,
            ln2: ln("ln2")?,
            up: Linear {
                w: st.load("mlp.w1")?,
                b: st.load("mlp.b1")?,
            },
            down: Linear {
                w: st.load("mlp.w2")?,
                b: st.load("mlp.b2")?,
            },
            future: causal_mask::<C::Seq>()?,
        })
    }

    /// Causal multi-head self-attention of `h` (already normalised), before the output
    /// projection's residual: 4 heads of 16, scores scaled by `1/sqrt(16)`, with the
    /// shared layers of `tensor_typed::nn` (`split_heads`, the attention core,
    /// `merge_heads`).
    fn attention(&self, h: &ActsOf<C>) -> ActsOf<C> {
        let heads = |l: &Layer<C::Model, C::Model>| -> PerHeadOf<C> {
            let t: ActsOf<C> = &h.matmul(&l.w) + &l.b;
            t.split_heads()
        };
        let (q, k, v) = (heads(&self.q), heads(&self.k), heads(&self.v));
        // Inside: `q.matmul(&k.transpose::<-2, -1>())`, [Batch, Heads, Seq, Seq];
        // `q.matmul(&k)` (no transpose) does not compile, although `Seq` and `HeadDim`
        // are both 16.
        let a: PerHeadOf<C> = nn::scaled_dot_product_attention(&q, &k, &v, Some(&self.future));
        let merged: ActsOf<C> = a.merge_heads();
        &merged.matmul(&self.o.w) + &self.o.b
    }

    /// The block: `x + attn(ln1(x))`, then `+ mlp(ln2(.))` with a GELU MLP 64 → 256 → 64.
    /// Mirrors `block` in `record.py`.
    pub fn forward(&self, x: &ActsOf<C>) -> ActsOf<C> {
        let h = self.ln1.forward(x);
        let x = x + &self.attention(&h);
        let h = self.ln2.forward(&x);
        let up = (&h.matmul(&self.up.w) + &self.up.b).gelu(); // [Batch, Seq, Hidden]
        let m = &up.matmul(&self.down.w) + &self.down.b;
        &x + &m
    }
}

/// GPT-2 (small)'s token and position embeddings with a projection to the block's width
/// and back, and the tied unembedding (logits = h @ wteᵀ, as GPT-2).
pub struct Gpt2Io {
    /// Token embedding `[50257, 768]` (also the unembedding).
    wte: Tensor<f32, Shape![Vocab, Embd]>,
    /// Position embedding `[1024, 768]` (GPT-2's context); the first 16 rows are used.
    wpe: Tensor<f32, Shape![Ctx, Embd]>,
    /// 768 → 64, into the block.
    proj_in: Tensor<f32, Shape![Embd, Model]>,
    /// The final layer norm (GPT-2's `ln_f`), on the block's width.
    ln_f: nn::LayerNorm<Model>,
    /// 64 → 768, back to the embedding width.
    proj_out: Tensor<f32, Shape![Model, Embd]>,
}

impl Gpt2Io {
    /// Seeded N(0, 0.02²) weights (GPT-2's initialisation), made at run time instead of
    /// shipping a 150 MB file; the projections are scaled by `1/sqrt(fan_in)`.
    pub fn seeded(seed: u64) -> Gpt2Io {
        Gpt2Io {
            wte: Tensor::randn(seed).mul_scalar(0.02),
            wpe: Tensor::randn(seed + 1).mul_scalar(0.02),
            proj_in: Tensor::randn(seed + 2).mul_scalar(1.0 / (Embd::SIZE as f64).sqrt()),
            ln_f: nn::LayerNorm {
                weight: Tensor::ones(),
                bias: Tensor::zeros(),
            },
            proj_out: Tensor::randn(seed + 3).mul_scalar(1.0 / (Model::SIZE as f64).sqrt()),
        }
    }

    /// ids `[b, 16]` → embeddings `[b, 16, 768]` → `[b, 16, 64]` → `block` → `ln_f` →
    /// `[b, 16, 768]` → logits `[b, 16, 50257]`.
    pub fn forward(&self, ids: &Ids, block: &Block<Sizes>) -> Logits {
        let tokens = nn::embedding(ids, &self.wte); // [Batch, Seq, Embd]
        let positions = self.wpe.narrow::<0, 0, 16>(); // [16, Embd]: 16 unifies with Seq
        let e = &tokens + &positions;
        let x: Acts = e.matmul(&self.proj_in);
        let y = block.forward(&x);
        let y = self.ln_f.forward(&y);
        let h = y.matmul(&self.proj_out); // [Batch, Seq, Embd]
        h.matmul(&self.wte.t())
    }
}
