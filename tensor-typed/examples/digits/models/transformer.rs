//! `Transformer` of `digits_models_torch.py`: the 8 rows of an image are 8 tokens of 8
//! pixels; linear 8 → 32 plus a learned position embedding `[8, 32]`; one pre-norm
//! block (LayerNorm, 4-head self-attention with head dim 8, residual; LayerNorm, MLP
//! 32 → 64 GELU(tanh) → 32, residual); final LayerNorm; mean over tokens; linear
//! 32 → 10. AdamW lr 3e-3.
//!
//! The model is written once over its dims (`Dims`, a config trait whose item bounds
//! state the products it splits), from the shared, generic layers of `tensor_typed::nn`
//! (`LayerNorm`, `split_heads`, the attention core, `merge_heads`); `Digits` gives it the
//! sizes above, each a static named dim (`dims!`): a head count that does not divide the
//! width, a residual of the wrong width, or tokens mixed up with pixels or head dims (all
//! 8) does not compile.

use super::{Linear, Model, Scores};
use crate::models::Images;
use crate::rng::Rng;
use tensor_core::Result;
use tensor_typed::bounds::{Dim, DimMul, ProductOf};
use tensor_typed::prelude::*;
use tensor_typed::typelevel::dim::SizeOf;
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

/// The transformer's dims, one type per size. The item bounds state the products the
/// forward pass splits and merges, so the model is written once over any `Dims`: an image
/// is `Token · Pixel` pixels (64), `Width` is `Heads · HeadDim`, `Qkv` is `3 · Width`, and
/// the classes are the 10 scores every model returns.
pub trait Dims: 'static {
    /// Tokens per image.
    type Token: Dim + DimMul<Self::Pixel, Output: SizeOf<Unnamed = D<64>>>;
    /// Pixels per token.
    type Pixel: Dim;
    /// Model width.
    type Width: Dim + ProductOf<Self::Heads, Self::HeadDim>;
    /// Attention heads.
    type Heads: Dim;
    /// The width of one head.
    type HeadDim: Dim;
    /// Queries, keys and values side by side.
    type Qkv: Dim + ProductOf<D<3>, Self::Width>;
    /// The MLP's hidden width.
    type Hidden: Dim;
    /// The classifier's outputs.
    type Class: Dim + SizeOf<Unnamed = D<10>>;
}

/// The sizes of `digits_models_torch.py`'s transformer, named by `dims!` above.
pub struct Digits;
impl Dims for Digits {
    type Token = Token;
    type Pixel = Pixel;
    type Width = Width;
    type Heads = Heads;
    type HeadDim = HeadDim;
    type Qkv = Qkv;
    type Hidden = Hidden;
    type Class = Class;
}

/// Token activations `[batch, tokens, width]`.
type Tokens<C> = Tensor<f32, Shape![Dyn, <C as Dims>::Token, <C as Dims>::Width]>;
/// Per-head activations `[batch, heads, tokens, head dim]`.
type PerHead<C> = Tensor<
    f32,
    Shape![
        Dyn,
        <C as Dims>::Heads,
        <C as Dims>::Token,
        <C as Dims>::HeadDim
    ],
>;

/// A linear layer `I` → `O`: weight `[I, O]`, bias `[O]`.
type Layer<I, O> = Linear<(I, O), (O,)>;

/// One pre-norm transformer block between an embedding and a linear head, over the dims
/// `C`.
#[derive(Params)]
pub struct Transformer<C: Dims = Digits> {
    /// Token embedding, linear 8 → 32.
    pub embed: Layer<C::Pixel, C::Width>,
    /// Learned position embedding `[8, 32]`, `randn * 0.02`.
    pub pos: Tensor<f32, Shape![C::Token, C::Width]>,
    /// LayerNorm before attention.
    pub ln1: nn::LayerNorm<C::Width>,
    /// Queries, keys and values in one linear 32 → 96.
    pub qkv: Layer<C::Width, C::Qkv>,
    /// Attention output projection 32 → 32.
    pub proj: Layer<C::Width, C::Width>,
    /// LayerNorm before the MLP.
    pub ln2: nn::LayerNorm<C::Width>,
    /// MLP up-projection 32 → 64.
    pub fc1: Layer<C::Width, C::Hidden>,
    /// MLP down-projection 64 → 32.
    pub fc2: Layer<C::Hidden, C::Width>,
    /// Final LayerNorm.
    pub lnf: nn::LayerNorm<C::Width>,
    /// Classifier 32 → 10.
    pub head: Layer<C::Width, C::Class>,
}

impl<C: Dims> Transformer<C> {
    /// Multi-head self-attention of the normalised tokens `a` (before the projection).
    fn attention(&self, a: &Tokens<C>) -> Tokens<C> {
        // [Dyn, Token, Qkv] as [Dyn, Token, 3, Width], then q, k, v split into heads:
        // [Dyn, Heads, Token, HeadDim].
        let qkv = a
            .matmul(&self.qkv.w)
            .add(&self.qkv.b)
            .unflatten::<2, D<3>, C::Width>();
        let q: PerHead<C> = qkv.select::<2>(0).split_heads();
        let k: PerHead<C> = qkv.select::<2>(1).split_heads();
        let v: PerHead<C> = qkv.select::<2>(2).split_heads();
        let o = nn::scaled_dot_product_attention(&q, &k, &v, None); // [Dyn, Heads, Token, HeadDim]
        o.merge_heads() // [Dyn, Token, Width]
    }
}

/// The static size of a dim.
fn size<X: Dim>() -> usize {
    X::STATIC.expect("the transformer's dims are static")
}

/// A LayerNorm of width `W`, PyTorch's initial values, its parameters requiring grad.
fn layer_norm<W: Dim>() -> Result<nn::LayerNorm<W>> {
    let mut ln = nn::LayerNorm::new()?;
    ln.requires_grad_(true)?;
    Ok(ln)
}

impl<C: Dims> Model for Transformer<C> {
    fn init(rng: &mut Rng) -> Result<Transformer<C>> {
        let embed = Linear::init(rng)?;
        let (token, width) = (size::<C::Token>(), size::<C::Width>());
        let pos = Tensor::from_vec(rng.normals(token * width, 0.02), &[token, width])?
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
        // Rows as tokens: the 64 pixels are `Token · Pixel` (a product of two names is
        // a dim of its own, of size 64), then viewed as the two.
        let x = x
            .rename::<Shape![Dyn, C::Token * C::Pixel]>()
            .unflatten::<1, C::Token, C::Pixel>();
        let h: Tokens<C> = x.matmul(&self.embed.w).add(&self.embed.b).add(&self.pos);
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
