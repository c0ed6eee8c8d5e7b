//! Grouped-query attention (GQA), as transformers' `LlamaAttention`: [`GqaAttention`]
//! with its projections, [`GqaCache`] (the keys and values of earlier positions) and
//! [`causal_mask`] with a cache offset.
//!
//! `Heads` query heads share `KvHeads` key/value heads, `Rep = Heads / KvHeads` queries
//! per key. transformers repeats the keys and values `Rep` times (`repeat_kv`, a copy)
//! and attends `[b, heads, s, d]` against `[b, heads, t, d]`; here the queries are
//! viewed grouped, `[b, kv, rep, s, d]`, against keys and values `[b, kv, 1, t, d]`,
//! whose `1` the batched matmul broadcasts over `rep` (a stride-0 dim read in place:
//! nothing is repeated in memory).

use super::linear::Linear;
use super::rotary::RopeAngles;
use super::swiglu::linear_zeros;
use crate::shape::split::ProductOf;
use crate::tensor::Tensor;
use crate::typelevel::dim::{Dim, Dyn};
use tensor_core::{Error, Result};

/// The dims of a grouped-query attention, named once (a model's config implements it);
/// the item bounds state the splits the attention makes: `Heads = KvHeads · Rep`, the
/// queries' width `QWidth = Heads · HeadDim`, the keys' and values' `KvWidth = KvHeads ·
/// HeadDim`.
pub trait GqaDims: 'static {
    /// `hidden_size`.
    type Hidden: Dim;
    /// `num_attention_heads`.
    type Heads: Dim + ProductOf<Self::KvHeads, Self::Rep>;
    /// `num_key_value_heads`.
    type KvHeads: Dim;
    /// `num_attention_heads / num_key_value_heads` (`num_key_value_groups`).
    type Rep: Dim;
    /// `head_dim`.
    type HeadDim: Dim;
    /// `num_attention_heads * head_dim`: `q_proj`'s output.
    type QWidth: Dim + ProductOf<Self::Heads, Self::HeadDim>;
    /// `num_key_value_heads * head_dim`: `k_proj`'s and `v_proj`'s output.
    type KvWidth: Dim + ProductOf<Self::KvHeads, Self::HeadDim>;
}

/// The size of a static dim of a [`GqaDims`] (`None` for a run-time one).
fn size<X: Dim>(what: &str) -> Result<usize> {
    X::STATIC.ok_or_else(|| Error::InvalidArgument {
        op: "GqaAttention",
        message: format!("{what} is known only at run time: the attention's dims are static"),
    })
}

/// Grouped-query self-attention over `[B, T, Hidden]`: `q_proj`, `k_proj`, `v_proj`
/// (`torch.nn.Linear`, with biases when the config's `attention_bias`), RoPE on queries
/// and keys, causal attention scaled by `1/sqrt(head_dim)`, then `o_proj`. Mirrors
/// transformers' `LlamaAttention` (whose parameter names it keeps).
#[derive(tensor_macros::Params)]
pub struct GqaAttention<G: GqaDims> {
    /// `[QWidth, Hidden]`.
    pub q_proj: Linear<G::Hidden, G::QWidth>,
    /// `[KvWidth, Hidden]`.
    pub k_proj: Linear<G::Hidden, G::KvWidth>,
    /// `[KvWidth, Hidden]`.
    pub v_proj: Linear<G::Hidden, G::KvWidth>,
    /// `[Hidden, QWidth]`.
    pub o_proj: Linear<G::QWidth, G::Hidden>,
}

/// Keys or values of a cache: `[batch, KvHeads, capacity, HeadDim]`.
pub type CacheTensor<G> = Tensor<f32, (Dyn, <G as GqaDims>::KvHeads, Dyn, <G as GqaDims>::HeadDim)>;

/// Activations `[B, T, Hidden]`.
pub type Activations<G, B, T> = Tensor<f32, (B, T, <G as GqaDims>::Hidden)>;

/// Keys or values of the positions attended, `[B, KvHeads, keys, HeadDim]`.
type Keys<G, B> = Tensor<f32, (B, <G as GqaDims>::KvHeads, Dyn, <G as GqaDims>::HeadDim)>;

/// One attention's keys and values of the positions seen so far (transformers'
/// `DynamicCache` layer), preallocated for `capacity` positions: each step writes its
/// positions into views of it (`copy_` into `narrow`) and attends over the first `len`.
pub struct GqaCache<G: GqaDims> {
    /// Keys after RoPE, `[batch, KvHeads, capacity, HeadDim]`.
    pub k: CacheTensor<G>,
    /// Values, `[batch, KvHeads, capacity, HeadDim]`.
    pub v: CacheTensor<G>,
    /// Positions written so far.
    pub len: usize,
}

impl<G: GqaDims> GqaCache<G> {
    /// An empty cache for `batch` sequences of up to `capacity` positions (zeroed
    /// memory: untouched until written).
    ///
    /// # Errors
    /// Run-time dims in `G`; an allocation failure.
    pub fn new(batch: usize, capacity: usize) -> Result<Self> {
        let (kv, d) = (
            size::<G::KvHeads>("KvHeads")?,
            size::<G::HeadDim>("HeadDim")?,
        );
        Ok(GqaCache {
            k: Tensor::zeros_with(&[batch, kv, capacity, d])?,
            v: Tensor::zeros_with(&[batch, kv, capacity, d])?,
            len: 0,
        })
    }

    /// The positions the cache holds.
    pub fn capacity(&self) -> usize {
        self.k.dims()[2]
    }
}

/// `true` where a query may not attend: query `i` (at position `past + i`) against key
/// `j` with `j > past + i`, `[T, past + len]`. transformers' causal mask with a cache
/// offset (`create_causal_mask`), in the `masked_fill` form of
/// [`scaled_dot_product_attention`](super::scaled_dot_product_attention).
///
/// # Errors
/// `len` is not a static `T`'s size; an allocation failure.
pub fn causal_mask<T: Dim>(past: usize, len: usize) -> Result<Tensor<bool, (T, Dyn)>> {
    let keys = past + len;
    let mask = (0..len)
        .flat_map(|i| (0..keys).map(move |j| j > past + i))
        .collect();
    Tensor::from_vec(mask, &[len, keys])
}

impl<G: GqaDims> GqaAttention<G> {
    /// Projections of zeros (to load into), with biases when `bias` (`attention_bias`).
    ///
    /// # Errors
    /// Run-time dims in `G`; an allocation failure.
    pub fn zeros(bias: bool) -> Result<Self> {
        let e = size::<G::Hidden>("Hidden")?;
        let (q, kv) = (size::<G::QWidth>("QWidth")?, size::<G::KvWidth>("KvWidth")?);
        Ok(GqaAttention {
            q_proj: linear_zeros(e, q, bias)?,
            k_proj: linear_zeros(e, kv, bias)?,
            v_proj: linear_zeros(e, kv, bias)?,
            o_proj: linear_zeros(q, e, bias)?,
        })
    }

    /// Causal self-attention of `x` `[B, T, Hidden]` at the positions `angles` were
    /// computed for: `LlamaAttention.forward`. With a cache, the keys and values of its
    /// `len` earlier positions are attended too, this step's are written after them and
    /// `len` grows by `T` (the angles are then those of positions `len..len + T`).
    ///
    /// # Errors
    /// `InvalidArgument` when the cache has no room for `T` more positions; PyTorch's
    /// messages when run-time dims do not fit (a cache of another batch); an
    /// allocation failure.
    pub fn try_forward<B: Dim, T: Dim>(
        &self,
        x: &Activations<G, B, T>,
        angles: &RopeAngles<T, G::HeadDim>,
        cache: Option<&mut GqaCache<G>>,
    ) -> Result<Activations<G, B, T>> {
        let t = x.dims()[1];
        // [B, T, Heads · HeadDim] -> [B, Heads, T, HeadDim], rotated (a fresh contiguous
        // tensor), viewed grouped as [B, KvHeads, Rep, T, HeadDim].
        let q = self.q_proj.try_forward(x)?;
        let q = q
            .try_unflatten::<2, G::Heads, G::HeadDim>()?
            .transpose::<1, 2>();
        let q = angles.try_apply(&q)?;
        let q = q.try_unflatten::<1, G::KvHeads, G::Rep>()?;
        let k = self.k_proj.try_forward(x)?;
        let k = k
            .try_unflatten::<2, G::KvHeads, G::HeadDim>()?
            .transpose::<1, 2>();
        let k = angles.try_apply(&k)?;
        let v = self.v_proj.try_forward(x)?;
        let v = v
            .try_unflatten::<2, G::KvHeads, G::HeadDim>()?
            .transpose::<1, 2>();
        let past = cache.as_ref().map_or(0, |c| c.len);
        let (keys, values): (Keys<G, B>, Keys<G, B>) = match cache {
            Some(c) => {
                if past + t > c.capacity() {
                    return Err(Error::InvalidArgument {
                        op: "GqaAttention",
                        message: format!(
                            "the KV cache holds {} positions: {past} cached and {t} new exceed it",
                            c.capacity()
                        ),
                    });
                }
                // This step's keys and values as the cache's (run-time) batch and
                // positions.
                let (k, v): (CacheTensor<G>, CacheTensor<G>) = (k.try_rename()?, v.try_rename()?);
                c.k.try_narrow_dyn::<2>(past, t)?.try_copy_(&k)?;
                c.v.try_narrow_dyn::<2>(past, t)?.try_copy_(&v)?;
                c.len = past + t;
                // The cache's positions so far, named by the queries' batch `B`.
                (
                    c.k.try_narrow_dyn::<2>(0, past + t)?.try_rename()?,
                    c.v.try_narrow_dyn::<2>(0, past + t)?.try_rename()?,
                )
            }
            None => (k.try_rename()?, v.try_rename()?),
        };
        // [B, KvHeads, Rep, T, HeadDim] @ [batch, KvHeads, 1, HeadDim, keys]: the 1
        // broadcasts over Rep without a copy.
        let keys_t = keys.unsqueeze::<2>().transpose::<-2, -1>();
        let scale = 1.0 / (q.dims()[4] as f64).sqrt();
        let scores = q.try_matmul(&keys_t)?.try_mul_scalar(scale)?;
        let scores = if t > 1 {
            scores.try_masked_fill(&causal_mask::<T>(past, t)?, f32::NEG_INFINITY)?
        } else {
            scores // one query at the end: it may attend to every position
        };
        let a = scores
            .try_softmax::<-1>()?
            .try_matmul(&values.unsqueeze::<2>())?;
        // [B, KvHeads, Rep, T, HeadDim] -> [B, Heads, T, HeadDim] (a view) -> [B, T,
        // QWidth] (a copy).
        let a = a.try_flatten_into::<1, G::Heads>()?;
        let merged: Tensor<f32, (B, T, G::QWidth)> = a.try_merge_heads()?;
        self.o_proj.try_forward(&merged)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::{RopeScaling, Rotary};
    use crate::prelude::*;

    struct Tiny;
    impl GqaDims for Tiny {
        type Hidden = D<8>;
        type Heads = D<4>;
        type KvHeads = D<2>;
        type Rep = D<2>;
        type HeadDim = D<4>;
        type QWidth = D<16>;
        type KvWidth = D<8>;
    }

    fn random() -> GqaAttention<Tiny> {
        let mut a = GqaAttention::<Tiny>::zeros(false).unwrap();
        a.q_proj.weight = Tensor::randn(1);
        a.k_proj.weight = Tensor::randn(2);
        a.v_proj.weight = Tensor::randn(3);
        a.o_proj.weight = Tensor::randn(4);
        a
    }

    /// The attention as transformers computes it: keys and values repeated per query
    /// head (`repeat_kv`), then plain causal attention per head.
    fn repeated_kv_reference(
        a: &GqaAttention<Tiny>,
        x: &Tensor<f32, Shape![1, Dyn, 8]>,
    ) -> Vec<f32> {
        let t = x.dims()[1];
        let rot = Rotary::<D<4>>::new(4, 10000.0, RopeScaling::Default).unwrap();
        let ang = rot.angles::<Dyn>(0, t).unwrap();
        let heads = |y: Tensor<f32, Shape![1, Dyn, Dyn]>, h: usize| {
            y.reshape_with::<Shape![1, Dyn, Dyn, 4]>(&[1, t as i64, h as i64, 4])
                .unwrap()
                .transpose::<1, 2>()
        };
        let q = ang.apply(&heads(a.q_proj.forward(x).rename(), 4));
        let k = ang.apply(&heads(a.k_proj.forward(x).rename(), 2));
        let v = heads(a.v_proj.forward(x).rename(), 2).contiguous_copy();
        let repeat = |y: &Tensor<f32, Shape![1, Dyn, Dyn, 4]>| {
            let c = y.as_dyn().repeat_interleave(2, 1).unwrap();
            Tensor::<f32, Shape![1, Dyn, Dyn, 4]>::try_from_dyn(c).unwrap()
        };
        let mask = causal_mask::<Dyn>(0, t).unwrap();
        let o = nn::scaled_dot_product_attention(&q, &repeat(&k), &repeat(&v), Some(&mask));
        let merged = o.transpose::<1, 2>().contiguous_copy();
        let merged = merged
            .reshape_with::<Shape![1, Dyn, 16]>(&[1, t as i64, 16])
            .unwrap();
        a.o_proj.forward(&merged).to_vec()
    }

    #[test]
    fn grouped_queries_against_broadcast_kv_equal_repeated_kv_attention() {
        let a = random();
        let x = Tensor::<f32, Shape![1, Dyn, 8]>::randn_with(&[1, 5, 8], 5).unwrap();
        let rot = Rotary::<D<4>>::new(4, 10000.0, RopeScaling::Default).unwrap();
        let got = a.try_forward(&x, &rot.angles(0, 5).unwrap(), None).unwrap();
        let want = repeated_kv_reference(&a, &x);
        for (g, w) in got.to_vec().iter().zip(&want) {
            assert!((g - w).abs() < 1e-5, "{g} vs {w}");
        }
    }

    #[test]
    fn the_cache_gives_the_outputs_of_the_whole_sequence() {
        let a = random();
        let x = Tensor::<f32, Shape![1, Dyn, 8]>::randn_with(&[1, 6, 8], 6).unwrap();
        let rot = Rotary::<D<4>>::new(4, 10000.0, RopeScaling::Default).unwrap();
        let whole = a
            .try_forward(&x, &rot.angles(0, 6).unwrap(), None)
            .unwrap()
            .to_vec();
        let mut cache = GqaCache::<Tiny>::new(1, 8).unwrap();
        let first = x.narrow_dyn::<1>(0, 4);
        let y = a
            .try_forward(&first, &rot.angles(0, 4).unwrap(), Some(&mut cache))
            .unwrap();
        assert_eq!(cache.len, 4);
        let mut got = y.to_vec();
        for p in 4..6 {
            let one = x.narrow_dyn::<1>(p, 1);
            let y = a
                .try_forward(&one, &rot.angles(p, 1).unwrap(), Some(&mut cache))
                .unwrap();
            got.extend(y.to_vec());
        }
        for (g, w) in got.iter().zip(&whole) {
            assert!((g - w).abs() < 1e-5, "{g} vs {w}");
        }
        let over = x.narrow_dyn::<1>(0, 3);
        let e = a.try_forward(&over, &rot.angles(6, 3).unwrap(), Some(&mut cache));
        let e = e.err().unwrap().to_string();
        assert!(
            e.contains("the KV cache holds 8 positions: 6 cached and 3 new exceed it"),
            "{e}"
        );
    }

    #[test]
    fn causal_mask_hides_the_future_after_the_offset() {
        let m = causal_mask::<Dyn>(2, 2).unwrap();
        assert_eq!(m.dims(), &[2, 4]);
        assert_eq!(
            m.to_vec(),
            [false, false, false, true, false, false, false, false]
        );
    }

    #[test]
    fn gqa_parameters_are_named_as_llama_attention() {
        let a = GqaAttention::<Tiny>::zeros(true).unwrap();
        let names: Vec<String> = a.named_params().into_iter().map(|(n, _)| n).collect();
        assert_eq!(
            names,
            [
                "q_proj.weight",
                "q_proj.bias",
                "k_proj.weight",
                "k_proj.bias",
                "v_proj.weight",
                "v_proj.bias",
                "o_proj.weight",
                "o_proj.bias"
            ]
        );
    }
}
