//! GPT-2 as typed model code, written once for every config: the parameters as structs
//! generic over the typed config (named as Hugging Face's `GPT2LMHeadModel` names them,
//! so [`Weights::load_params`] loads them strictly), and the forward pass as `impl<C:
//! Config>` blocks with no bound but the config. Every dim is named: the config's static
//! ones (`dims!` blocks in `config.rs`) and the run-time `Batch` and `Tok` (also there) (the positions
//! of one pass), so activations are `[Batch, Tok, Embd]` and per-head ones `[Batch,
//! Heads, Tok, HeadDim]`. The heads are split with `unflatten` and merged with
//! `flatten_into`, which the config's item bounds (`Embd` is `Heads · HeadDim`) make
//! valid in generic code.
//!
//! The KV cache keeps, per layer, keys transposed `[batch, heads, head_dim, n_positions]`
//! and values `[batch, heads, n_positions, head_dim]`, allocated once (zeroed memory, so
//! untouched until written); each step writes its positions with `copy_` into a
//! `narrow_dyn` view and attends over the first `len` positions, a view whose seq dim is
//! `Dyn`: no copy of the cache per step. Rows of the position table and the causal mask
//! are parts of `Positions` (`narrow_dyn` keeps a dim's name), renamed to `Dyn` where they
//! meet this pass's `Tok` positions.

use crate::config::{size, Batch, Config, Ids, Tok};
use std::path::Path;
use tensor_core::Result;
use tensor_typed::io::Weights;
use tensor_typed::prelude::*;

/// Causal self-attention's projections: `c_attn` (q, k, v in one `[Embd, 3 Embd]`)
/// and `c_proj`.
#[derive(Params)]
pub struct Attention<C: Config> {
    /// `[Embd, Qkv]`, Hugging Face's `Conv1D` (`[in, out]`).
    pub c_attn: nn::Conv1D<C::Embd, C::Qkv>,
    /// `[Embd, Embd]`.
    pub c_proj: nn::Conv1D<C::Embd, C::Embd>,
}

/// One transformer block (`transformer.h.N`): pre-norm attention and MLP with residuals.
#[derive(Params)]
pub struct Block<C: Config> {
    /// Before the attention.
    pub ln_1: nn::LayerNorm<C::Embd>,
    /// The attention.
    pub attn: Attention<C>,
    /// Before the MLP.
    pub ln_2: nn::LayerNorm<C::Embd>,
    /// The MLP.
    /// The MLP `Embd` → `Inner` → `Embd` (`gelu_tanh` between).
    pub mlp: nn::Mlp<C::Embd, C::Inner>,
}

/// GPT-2 with its language-model head tied to the token embedding (`GPT2LMHeadModel`:
/// logits = `ln_f(h) @ wte.T`). Its parameters are named as `transformer.*` in the
/// checkpoint.
#[derive(Params)]
pub struct Gpt2<C: Config> {
    /// Token embedding `[Vocab, Embd]`, also the unembedding.
    pub wte: nn::Embedding<C::Vocab, C::Embd>,
    /// Position embedding `[Positions, Embd]`.
    pub wpe: nn::Embedding<C::Positions, C::Embd>,
    /// The blocks, `n_layer` of them.
    pub h: Vec<Block<C>>,
    /// The final layer norm.
    pub ln_f: nn::LayerNorm<C::Embd>,
    /// `true` above the diagonal: the positions a query may not attend to.
    #[params(skip)]
    pub future: Tensor<bool, Shape![C::Positions, C::Positions]>,
}

/// One layer's cache.
#[allow(clippy::type_complexity)]
pub struct LayerCache<C: Config> {
    /// Keys, transposed: `[batch, Heads, HeadDim, positions]`, room for `Positions`
    /// positions (a run-time dim: each step writes and reads a run-time part of it).
    pub k_t: Tensor<f32, Shape![Dyn, C::Heads, C::HeadDim, Dyn]>,
    /// Values: `[batch, Heads, positions, HeadDim]`, as `k_t`.
    pub v: Tensor<f32, Shape![Dyn, C::Heads, Dyn, C::HeadDim]>,
}

/// The keys and values of every layer for the first `len` positions.
pub struct KvCache<C: Config> {
    /// One per block.
    pub layers: Vec<LayerCache<C>>,
    /// Positions written so far.
    pub len: usize,
}

impl<C: Config> KvCache<C> {
    /// An empty cache for `batch` sequences of up to `n_positions` tokens.
    ///
    /// # Errors
    /// Out of memory.
    pub fn new(batch: usize) -> Result<KvCache<C>> {
        let (h, d, n) = (
            size::<C::Heads>(),
            size::<C::HeadDim>(),
            size::<C::Positions>(),
        );
        let layers = (0..C::N_LAYER)
            .map(|_| {
                Ok(LayerCache {
                    k_t: Tensor::zeros_with(&[batch, h, d, n])?,
                    v: Tensor::zeros_with(&[batch, h, n, d])?,
                })
            })
            .collect::<Result<_>>()?;
        Ok(KvCache { layers, len: 0 })
    }
}

/// A `Conv1D` of zeros of the right shape.
fn conv1d<I: tensor_typed::Dim, O: tensor_typed::Dim>() -> Result<nn::Conv1D<I, O>> {
    Ok(nn::Conv1D {
        weight: Tensor::zeros_with(&[size::<I>(), size::<O>()])?,
        bias: Some(Tensor::zeros_with(&[size::<O>()])?),
    })
}

impl<C: Config> Gpt2<C> {
    /// The model with zero weights of the config's shapes (zeroed memory: free until
    /// written), to load into.
    ///
    /// # Errors
    /// Out of memory.
    pub fn zeros() -> Result<Gpt2<C>> {
        let (v, p, e) = (
            size::<C::Vocab>(),
            size::<C::Positions>(),
            size::<C::Embd>(),
        );
        let h = (0..C::N_LAYER)
            .map(|_| {
                Ok(Block {
                    ln_1: nn::LayerNorm::with_size(size::<C::Embd>())?,
                    attn: Attention {
                        c_attn: conv1d()?,
                        c_proj: conv1d()?,
                    },
                    ln_2: nn::LayerNorm::with_size(size::<C::Embd>())?,
                    mlp: nn::Mlp {
                        c_fc: conv1d()?,
                        c_proj: conv1d()?,
                    },
                })
            })
            .collect::<Result<_>>()?;
        let lower = Tensor::<f32, Shape![C::Positions, C::Positions]>::ones_with(&[p, p])?;
        let future = lower.tril::<0>().eq(&Tensor::<f32, Shape![]>::zeros());
        Ok(Gpt2 {
            wte: nn::Embedding {
                weight: Tensor::zeros_with(&[v, e])?,
            },
            wpe: nn::Embedding {
                weight: Tensor::zeros_with(&[p, e])?,
            },
            h,
            ln_f: nn::LayerNorm::with_size(size::<C::Embd>())?,
            future,
        })
    }

    /// Loads `dir/model.safetensors` (a `GPT2LMHeadModel`'s `save_pretrained`, tensors
    /// under `transformer.`), strictly: a tensor missing, unused or of another shape is
    /// an error naming it. A stored `lm_head.weight` (the tied head, when a checkpoint
    /// keeps it) is allowed to stay unused.
    ///
    /// # Errors
    /// As [`Weights::load_params`].
    pub fn load(dir: &Path) -> Result<Gpt2<C>> {
        let st = Weights::open(dir.join("model.safetensors"))?;
        let mut model = Gpt2::zeros()?;
        st.load_params_except(&mut model, "transformer", &["lm_head.weight"])?;
        Ok(model)
    }
}

/// Activations `[batch, seq, Embd]`.
pub type Hidden<C> = Tensor<f32, Shape![Batch, Tok, <C as Config>::Embd]>;
/// Per-head activations `[batch, Heads, seq, HeadDim]`.
pub type PerHead<C> = Tensor<f32, Shape![Batch, <C as Config>::Heads, Tok, <C as Config>::HeadDim]>;
/// The causal mask `[Positions, Positions]`.
pub type Future<C> = Tensor<bool, Shape![<C as Config>::Positions, <C as Config>::Positions]>;

impl<C: Config> Attention<C> {
    /// Causal self-attention of `h` (normalised) at positions `past..past + seq`; with a
    /// cache, the keys and values of earlier positions come from it and this step's are
    /// written into it.
    fn forward(
        &self,
        h: &Hidden<C>,
        cache: Option<&mut LayerCache<C>>,
        past: usize,
        future: &Future<C>,
    ) -> Hidden<C> {
        // [Batch, Tok, Qkv] viewed as [Batch, Tok, 3, Heads, HeadDim], then
        // [3, Batch, Heads, Tok, HeadDim]: the config says Qkv is 3 · Embd and Embd is
        // Heads · HeadDim.
        let qkv = self
            .c_attn
            .forward(h)
            .unflatten::<2, D<3>, C::Embd>()
            .unflatten::<3, C::Heads, C::HeadDim>()
            .permute::<Axes![2, 0, 3, 1, 4]>();
        let (q, k, v): (PerHead<C>, PerHead<C>, PerHead<C>) =
            (qkv.select::<0>(0), qkv.select::<0>(1), qkv.select::<0>(2));
        let t = h.dims()[1];
        let (keys_t, values) = match cache {
            Some(c) => {
                c.k_t
                    .narrow_dyn::<-1>(past, t)
                    .copy_(&k.transpose::<-2, -1>());
                c.v.narrow_dyn::<2>(past, t).copy_(&v);
                (
                    c.k_t.narrow_dyn::<-1>(0, past + t),
                    c.v.narrow_dyn::<2>(0, past + t),
                )
            }
            // The cache's views have run-time batch and positions: the step's own keys
            // and values are renamed to match.
            None => (k.transpose::<-2, -1>().rename(), v.rename()),
        };
        let scale = 1.0 / (size::<C::HeadDim>() as f64).sqrt();
        let scores = q.matmul(&keys_t).mul_scalar(scale); // [Batch, Heads, Tok, Dyn]
        let scores = if t > 1 {
            // Rows `past..past + t` and the first `past + t` columns: parts of
            // `Positions`, stated to be this pass's queries and keys.
            let mask = future
                .narrow_dyn::<0>(past, t)
                .narrow_dyn::<1>(0, past + t)
                .rename::<Shape![Dyn, Dyn]>();
            scores.masked_fill(&mask, f32::NEG_INFINITY)
        } else {
            scores // one query at the end: it may attend to every position
        };
        let a: PerHead<C> = scores.softmax::<-1>().matmul(&values);
        // [Batch, Tok, Heads, HeadDim] merged into [Batch, Tok, Embd] (a copy).
        let merged: Hidden<C> = a.merge_heads();
        self.c_proj.forward(&merged)
    }
}

impl<C: Config> Block<C> {
    /// `x + attn(ln_1(x))`, then `+ mlp(ln_2(.))`.
    fn forward(
        &self,
        x: &Hidden<C>,
        cache: Option<&mut LayerCache<C>>,
        past: usize,
        future: &Future<C>,
    ) -> Hidden<C> {
        let a = self
            .attn
            .forward(&self.ln_1.forward(x), cache, past, future);
        a.add_(x); // the residual, in place in the fresh output
        let m = self
            .mlp
            .forward(&self.ln_2.forward(&a), nn::Activation::GeluTanh);
        m.add_(&a);
        m
    }
}

impl<C: Config> Gpt2<C> {
    /// The final hidden states `ln_f(h)` `[batch, seq, Embd]` of `ids` at positions
    /// `cache.len..` (0 without a cache), writing the cache.
    pub fn hidden(&self, ids: &Ids, mut cache: Option<&mut KvCache<C>>) -> Hidden<C> {
        let past = cache.as_ref().map_or(0, |c| c.len);
        let t = ids.dims()[1];
        let x = self.wte.forward(ids); // [Batch, Tok, Embd]
                                       // Rows `past..past + t` of the position table: a part of `Positions`, added
                                       // as this pass's `Tok` positions.
        let wpe = self.wpe.weight.narrow_dyn::<0>(past, t);
        x.add_(&wpe.rename::<Shape![Dyn, C::Embd]>());
        let mut x = x;
        for (i, block) in self.h.iter().enumerate() {
            let layer = cache.as_deref_mut().map(|c| &mut c.layers[i]);
            x = block.forward(&x, layer, past, &self.future);
        }
        if let Some(c) = cache {
            c.len = past + t;
        }
        self.ln_f.forward(&x)
    }

    /// Logits `[batch, seq, Vocab]` of hidden states (the tied head: `h @ wte.T`).
    pub fn logits(&self, h: &Hidden<C>) -> Tensor<f32, Shape![Batch, Tok, C::Vocab]> {
        h.matmul(&self.wte.weight.t())
    }

    /// Logits of every position of `ids`, without a cache. Mirrors
    /// `GPT2LMHeadModel(ids).logits`.
    pub fn forward(&self, ids: &Ids) -> Tensor<f32, Shape![Batch, Tok, C::Vocab]> {
        self.logits(&self.hidden(ids, None))
    }

    /// Logits `[batch, Vocab]` of the last position of `ids`, with or without a cache
    /// (with one, `ids` are the positions after `cache.len`).
    pub fn next_logits(
        &self,
        ids: &Ids,
        cache: Option<&mut KvCache<C>>,
    ) -> Tensor<f32, Shape![Batch, C::Vocab]> {
        let h = self.hidden(ids, cache);
        let t = h.dims()[1];
        // The last position, as a pass of one position.
        let last = h
            .narrow_dyn::<1>(t - 1, 1)
            .rename::<Shape![Batch, Tok, C::Embd]>();
        self.logits(&last).select::<1>(0)
    }
}

impl<C: Config> crate::generate::Model for Gpt2<C> {
    type Cache = KvCache<C>;
    fn n_positions(&self) -> usize {
        size::<C::Positions>()
    }
    /// The cache holds the whole context (`n_positions`), whatever `capacity` asks.
    fn new_cache(&self, batch: usize, _capacity: usize) -> Result<Self::Cache> {
        KvCache::new(batch)
    }
    fn next_logits(&self, ids: &Ids, cache: Option<&mut Self::Cache>) -> Result<Vec<f32>> {
        Ok(Gpt2::next_logits(self, ids, cache).to_vec())
    }
    fn forward_numel(&self, ids: &Ids) -> Result<usize> {
        Ok(Gpt2::forward(self, ids).dims().iter().product())
    }
    fn next_greedy(&self, ids: &Ids, cache: Option<&mut Self::Cache>) -> Result<Vec<i64>> {
        Ok(Gpt2::next_logits(self, ids, cache).argmax::<-1>().to_vec())
    }
}
