//! A Llama-family model as typed model code, written once for every config: the
//! parameters as structs generic over the typed config, named as transformers'
//! `LlamaForCausalLM` names them (`model.layers.N.self_attn.q_proj.weight`, ...), so
//! [`Weights::load_params_converting`] loads them strictly; and the forward pass as
//! `impl<C: Config>` blocks with no bound but the config. Activations are `[Batch, Tok,
//! Hidden]`; the attention ([`nn::GqaAttention`]) splits them into heads through the
//! config's item bounds (`QWidth` is `Heads · HeadDim`, `Heads` is `KvHeads · Rep`).
//!
//! The KV cache holds, per layer, keys (after RoPE) and values `[batch, KvHeads,
//! capacity, HeadDim]`, allocated once for the prompt and the new tokens; each step
//! writes its positions into a `narrow` view and attends over the positions so far.

use crate::config::{size, Batch, Config, Ids, Tok};
use std::path::Path;
use tensor_core::Result;
use tensor_typed::io::Weights;
use tensor_typed::prelude::*;

/// One decoder layer (`model.layers.N`, transformers' `LlamaDecoderLayer`): pre-norm
/// attention and MLP with residuals.
#[derive(Params)]
pub struct DecoderLayer<C: Config> {
    /// Grouped-query self-attention with RoPE.
    pub self_attn: nn::GqaAttention<C>,
    /// The SwiGLU MLP `Hidden` → `Inner` → `Hidden`.
    pub mlp: nn::SwiGlu<C::Hidden, C::Inner>,
    /// Before the attention.
    pub input_layernorm: nn::RmsNorm<C::Hidden>,
    /// Before the MLP.
    pub post_attention_layernorm: nn::RmsNorm<C::Hidden>,
}

/// The decoder (`model.*`, transformers' `LlamaModel`).
#[derive(Params)]
pub struct LlamaModel<C: Config> {
    /// Token embedding `[Vocab, Hidden]`.
    pub embed_tokens: nn::Embedding<C::Vocab, C::Hidden>,
    /// The layers, `num_hidden_layers` of them.
    pub layers: Vec<DecoderLayer<C>>,
    /// The final norm.
    pub norm: nn::RmsNorm<C::Hidden>,
}

/// A Llama-family causal language model (`LlamaForCausalLM`): the decoder, then the
/// logits `lm_head(norm(h))`, where the lm_head is the token embedding when the config
/// ties them (`tie_word_embeddings`; then no `lm_head.weight` is stored).
#[derive(Params)]
pub struct Llama<C: Config> {
    /// The decoder.
    pub model: LlamaModel<C>,
    /// `[Vocab, Hidden]`, absent when tied.
    pub lm_head: Option<nn::Linear<C::Hidden, C::Vocab>>,
    /// RoPE's frequencies (`rotary_emb`, computed from the config, not stored).
    #[params(skip)]
    pub rotary: nn::Rotary<C::HeadDim>,
}

/// The keys and values of every layer.
pub struct KvCache<C: Config> {
    /// One per layer.
    pub layers: Vec<nn::GqaCache<C>>,
}

impl<C: Config> KvCache<C> {
    /// An empty cache for `batch` sequences of up to `capacity` positions.
    ///
    /// # Errors
    /// Out of memory.
    pub fn new(batch: usize, capacity: usize) -> Result<KvCache<C>> {
        let layers = (0..C::N_LAYER)
            .map(|_| nn::GqaCache::new(batch, capacity))
            .collect::<Result<_>>()?;
        Ok(KvCache { layers })
    }

    /// Positions written so far.
    pub fn len(&self) -> usize {
        self.layers.first().map_or(0, |l| l.len)
    }
}

/// Activations `[batch, seq, Hidden]`.
pub type Hidden<C> = Tensor<f32, Shape![Batch, Tok, <C as nn::GqaDims>::Hidden]>;
/// Logits `[batch, seq, Vocab]`.
pub type Logits<C> = Tensor<f32, Shape![Batch, Tok, <C as Config>::Vocab]>;

impl<C: Config> Llama<C> {
    /// The model with zero weights of the config's shapes (zeroed memory: free until
    /// written), to load into.
    ///
    /// # Errors
    /// Out of memory; RoPE parameters [`nn::Rotary::new`] rejects.
    pub fn zeros() -> Result<Llama<C>> {
        let (v, e) = (size::<C::Vocab>(), size::<C::Hidden>());
        let layers = (0..C::N_LAYER)
            .map(|_| {
                Ok(DecoderLayer {
                    self_attn: nn::GqaAttention::zeros(false)?,
                    mlp: nn::SwiGlu::zeros_with(e, size::<C::Inner>(), false)?,
                    input_layernorm: nn::RmsNorm::with_size(e, C::RMS_NORM_EPS)?,
                    post_attention_layernorm: nn::RmsNorm::with_size(e, C::RMS_NORM_EPS)?,
                })
            })
            .collect::<Result<_>>()?;
        let lm_head = if C::TIE_WORD_EMBEDDINGS {
            None
        } else {
            Some(nn::Linear {
                weight: Tensor::zeros_with(&[v, e])?,
                bias: None,
            })
        };
        Ok(Llama {
            model: LlamaModel {
                embed_tokens: nn::Embedding {
                    weight: Tensor::zeros_with(&[v, e])?,
                },
                layers,
                norm: nn::RmsNorm::with_size(e, C::RMS_NORM_EPS)?,
            },
            lm_head,
            rotary: nn::Rotary::new(size::<C::HeadDim>(), C::ROPE_THETA, C::ROPE_SCALING)?,
        })
    }

    /// Loads `dir/model.safetensors` (a `LlamaForCausalLM`'s `save_pretrained`),
    /// strictly: a tensor missing, unused or of another shape is an error naming it.
    /// Weights of any float dtype load, converted to `f32` (a `bfloat16` checkpoint).
    /// A tied model's stored `lm_head.weight` (some checkpoints keep it) may stay
    /// unused.
    ///
    /// # Errors
    /// As [`Weights::load_params_converting`]: the messages name the file's dtype.
    pub fn load(dir: &Path) -> Result<Llama<C>> {
        let st = Weights::open(dir.join("model.safetensors"))?;
        let mut model = Llama::zeros()?;
        let unused: &[&str] = if C::TIE_WORD_EMBEDDINGS {
            &["lm_head.weight"]
        } else {
            &[]
        };
        st.load_params_converting(&mut model, "", unused)?;
        Ok(model)
    }
}

impl<C: Config> DecoderLayer<C> {
    /// `h = x + attn(input_layernorm(x))`, then `h + mlp(post_attention_layernorm(h))`:
    /// `LlamaDecoderLayer.forward`.
    fn forward(
        &self,
        x: &Hidden<C>,
        angles: &nn::RopeAngles<Tok, C::HeadDim>,
        cache: Option<&mut nn::GqaCache<C>>,
    ) -> Result<Hidden<C>> {
        let normed = self.input_layernorm.try_forward(x)?;
        let h = self.self_attn.try_forward(&normed, angles, cache)?;
        h.try_add_(x)?; // the residual, in place in the fresh output
        let m = self
            .mlp
            .try_forward(&self.post_attention_layernorm.try_forward(&h)?)?;
        m.try_add_(&h)?;
        Ok(m)
    }
}

impl<C: Config> Llama<C> {
    /// The final hidden states `norm(h)` `[batch, seq, Hidden]` of `ids` at positions
    /// `cache.len()..` (0 without a cache), writing the cache.
    ///
    /// # Errors
    /// A cache without room for `ids`; an id outside the vocabulary (PyTorch's
    /// `index out of range in self`); out of memory.
    pub fn hidden(&self, ids: &Ids, mut cache: Option<&mut KvCache<C>>) -> Result<Hidden<C>> {
        let past = cache.as_ref().map_or(0, |c| c.len());
        let angles = self.rotary.angles::<Tok>(past, ids.dims()[1])?;
        let mut x = self.model.embed_tokens.try_forward(ids)?;
        for (i, layer) in self.model.layers.iter().enumerate() {
            let layer_cache = cache.as_deref_mut().map(|c| &mut c.layers[i]);
            x = layer.forward(&x, &angles, layer_cache)?;
        }
        self.model.norm.try_forward(&x)
    }

    /// Logits `[batch, seq, Vocab]` of hidden states: `lm_head(h)`, or `h @
    /// embed_tokens.T` when tied.
    ///
    /// # Errors
    /// Out of memory.
    pub fn logits(&self, h: &Hidden<C>) -> Result<Logits<C>> {
        match &self.lm_head {
            Some(head) => head.try_forward(h),
            None => h.try_matmul(&self.model.embed_tokens.weight.t()),
        }
    }

    /// Logits of every position of `ids`, without a cache. Mirrors
    /// `LlamaForCausalLM(ids).logits`.
    ///
    /// # Errors
    /// As [`Self::hidden`].
    pub fn forward(&self, ids: &Ids) -> Result<Logits<C>> {
        self.logits(&self.hidden(ids, None)?)
    }

    /// Logits `[batch, Vocab]` of the last position of `ids`, with or without a cache
    /// (with one, `ids` are the positions after `cache.len()`).
    ///
    /// # Errors
    /// As [`Self::hidden`].
    pub fn next_logits(
        &self,
        ids: &Ids,
        cache: Option<&mut KvCache<C>>,
    ) -> Result<Tensor<f32, Shape![Batch, C::Vocab]>> {
        let h = self.hidden(ids, cache)?;
        let t = h.dims()[1];
        // The last position, as a pass of one position.
        let last = h
            .try_narrow_dyn::<1>(t - 1, 1)?
            .try_rename::<Shape![Batch, Tok, C::Hidden]>()?;
        self.logits(&last)?.try_select::<1>(0)
    }
}

impl<C: Config> crate::generate::Model for Llama<C> {
    type Cache = KvCache<C>;
    fn n_positions(&self) -> usize {
        C::MAX_POSITIONS
    }
    fn new_cache(&self, batch: usize, capacity: usize) -> Result<Self::Cache> {
        KvCache::new(batch, capacity)
    }
    fn next_logits(&self, ids: &Ids, cache: Option<&mut Self::Cache>) -> Result<Vec<f32>> {
        Llama::next_logits(self, ids, cache)?.try_to_vec()
    }
    fn forward_numel(&self, ids: &Ids) -> Result<usize> {
        Ok(Llama::forward(self, ids)?.numel())
    }
    fn next_greedy(&self, ids: &Ids, cache: Option<&mut Self::Cache>) -> Result<Vec<i64>> {
        Llama::next_logits(self, ids, cache)?
            .try_argmax::<-1>()?
            .try_to_vec()
    }
}
