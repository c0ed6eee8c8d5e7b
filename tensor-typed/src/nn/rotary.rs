//! Rotary position embeddings (RoPE) with transformers' `rotate_half` convention:
//! [`Rotary`] holds the inverse frequencies of a head dim `E` (`LlamaRotaryEmbedding`,
//! with the [`RopeScaling`] types `default`, `linear` and `llama3`), [`Rotary::angles`]
//! gives the cos and sin of the positions `start..start + len` (a KV cache's offset), and
//! [`RopeAngles::apply`] rotates queries or keys `[B, H, T, E]`
//! (`apply_rotary_pos_emb`: `q * cos + rotate_half(q) * sin`).
//!
//! Every step is computed in `f32` in transformers' order, so the angles are its angles:
//! `inv_freq = 1 / θ^(2i/d)` (`torch.arange(0, d, 2) / d` in `f32`), `freqs = position *
//! inv_freq`, `emb = cat(freqs, freqs)`.

use crate::tensor::Tensor;
use crate::typelevel::dim::{Dim, Dyn};
use tensor_core::{Error, Result};

/// How the inverse frequencies are scaled: the `rope_type` of transformers'
/// `rope_parameters` (`rope_scaling` in older configs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RopeScaling {
    /// `"default"`: `1 / θ^(2i/d)`.
    Default,
    /// `"linear"`: the default frequencies divided by `factor` (positions / factor),
    /// `_compute_linear_scaling_rope_parameters`.
    Linear {
        /// `factor`.
        factor: f32,
    },
    /// `"llama3"`: `_compute_llama3_parameters`. Wavelengths (`2π / inv_freq`) above
    /// `original_max_position_embeddings / low_freq_factor` are divided by `factor`,
    /// those below `original_max_position_embeddings / high_freq_factor` kept, and those
    /// between interpolated smoothly.
    Llama3 {
        /// `factor` (8 for Llama 3.1, 32 for Llama 3.2).
        factor: f32,
        /// `low_freq_factor`.
        low_freq_factor: f32,
        /// `high_freq_factor`.
        high_freq_factor: f32,
        /// `original_max_position_embeddings`: the context before scaling.
        original_max_position_embeddings: usize,
    },
}

/// The inverse frequencies of RoPE over a head dim `E` (even): `E / 2` of them, each
/// used for the two halves of the head, as transformers' `LlamaRotaryEmbedding`.
#[derive(Clone, Debug, PartialEq)]
pub struct Rotary<E: Dim> {
    /// `inv_freq` `[E / 2]`.
    pub inv_freq: Vec<f32>,
    /// Multiplies cos and sin (`attention_scaling`: 1 for the types here).
    pub attention_scaling: f32,
    _head_dim: std::marker::PhantomData<E>,
}

/// The cos and sin `[T, E]` of the angles of `T` positions, to rotate queries and keys
/// of those positions with [`RopeAngles::apply`].
#[derive(Clone)]
pub struct RopeAngles<T: Dim, E: Dim> {
    /// `cos(emb) * attention_scaling`.
    pub cos: Tensor<f32, (T, E)>,
    /// `sin(emb) * attention_scaling`.
    pub sin: Tensor<f32, (T, E)>,
}

/// The default inverse frequencies `1 / θ^(2i/d)` for `i` in `0..d/2`, in `f32` in
/// transformers' order: `torch.arange(0, d, 2, dtype=torch.float) / d`, then `θ ** that`,
/// then `1.0 / that`.
#[cfg_attr(unoptimized, inline)]
fn default_inv_freq(head_dim: usize, theta: f64) -> Vec<f32> {
    let base = theta as f32;
    (0..head_dim / 2)
        .map(|i| 1.0 / base.powf((2 * i) as f32 / head_dim as f32))
        .collect()
}

/// `_compute_llama3_parameters` applied to `inv_freq`, element by element in `f32`.
#[cfg_attr(unoptimized, inline)]
fn llama3(inv_freq: &mut [f32], factor: f32, low: f32, high: f32, old_context: usize) {
    let old = old_context as f32;
    let (low_wavelen, high_wavelen) = (old / low, old / high);
    let two_pi = (2.0 * std::f64::consts::PI) as f32;
    for f in inv_freq {
        let wavelen = two_pi / *f;
        let scaled = if wavelen > low_wavelen {
            *f / factor
        } else {
            *f
        };
        let smooth = (old / wavelen - low) / (high - low);
        let smoothed = (1.0 - smooth) * scaled / factor + smooth * scaled;
        // transformers' `~(wavelen < high) * ~(wavelen > low)` (wavelengths are never NaN).
        let medium = wavelen >= high_wavelen && wavelen <= low_wavelen;
        *f = if medium { smoothed } else { scaled };
    }
}

impl<E: Dim> Rotary<E> {
    /// The frequencies of a head dim of `head_dim` elements for base `theta`
    /// (`rope_theta`) and `scaling`: `LlamaRotaryEmbedding.__init__`.
    ///
    /// # Errors
    /// `InvalidArgument` for an odd or zero `head_dim`, one that is not `E`'s static
    /// size, a `theta` that is not finite and above 1, or scaling factors that are not
    /// finite and positive (`high_freq_factor` must differ from `low_freq_factor`).
    pub fn new(head_dim: usize, theta: f64, scaling: RopeScaling) -> Result<Self> {
        let invalid = |message: String| Error::InvalidArgument {
            op: "Rotary",
            message,
        };
        if head_dim == 0 || head_dim % 2 == 1 || E::STATIC.is_some_and(|n| n != head_dim) {
            return Err(invalid(format!(
                "head_dim is {head_dim}: expected an even size{}",
                E::STATIC.map_or(String::new(), |n| format!(" equal to the dim's {n}"))
            )));
        }
        if !(theta.is_finite() && theta > 1.0) {
            return Err(invalid(format!(
                "rope_theta is {theta}: expected a finite number above 1"
            )));
        }
        let mut inv_freq = default_inv_freq(head_dim, theta);
        let positive = |name: &str, v: f32| {
            if v.is_finite() && v > 0.0 {
                Ok(())
            } else {
                Err(invalid(format!(
                    "{name} is {v}: expected a finite positive number"
                )))
            }
        };
        match scaling {
            RopeScaling::Default => {}
            RopeScaling::Linear { factor } => {
                positive("factor", factor)?;
                inv_freq.iter_mut().for_each(|f| *f /= factor);
            }
            RopeScaling::Llama3 {
                factor,
                low_freq_factor,
                high_freq_factor,
                original_max_position_embeddings,
            } => {
                positive("factor", factor)?;
                positive("low_freq_factor", low_freq_factor)?;
                positive("high_freq_factor", high_freq_factor)?;
                if high_freq_factor == low_freq_factor || original_max_position_embeddings == 0 {
                    return Err(invalid(format!(
                        "llama3 rope scaling needs high_freq_factor ({high_freq_factor}) other than low_freq_factor ({low_freq_factor}) and a positive original_max_position_embeddings ({original_max_position_embeddings})"
                    )));
                }
                llama3(
                    &mut inv_freq,
                    factor,
                    low_freq_factor,
                    high_freq_factor,
                    original_max_position_embeddings,
                );
            }
        }
        Ok(Rotary {
            inv_freq,
            attention_scaling: 1.0,
            _head_dim: std::marker::PhantomData,
        })
    }

    /// The cos and sin `[T, E]` of positions `start..start + len` (`start` is the KV
    /// cache's length): `LlamaRotaryEmbedding.forward` for `position_ids = start +
    /// arange(len)`.
    ///
    /// # Errors
    /// `InvalidArgument` when `len` is not a static `T`'s size; an allocation failure.
    pub fn angles<T: Dim>(&self, start: usize, len: usize) -> Result<RopeAngles<T, E>> {
        let half = self.inv_freq.len();
        let mut emb = Vec::with_capacity(len * 2 * half);
        for p in start..start + len {
            let p = p as f32;
            let freqs = self.inv_freq.iter().map(|&f| p * f);
            emb.extend(freqs.clone());
            emb.extend(freqs);
        }
        let emb = Tensor::<f32, (T, E)>::from_vec(emb, &[len, 2 * half])?;
        let (cos, sin) = (emb.try_cos()?, emb.try_sin()?);
        if self.attention_scaling == 1.0 {
            return Ok(RopeAngles { cos, sin });
        }
        Ok(RopeAngles {
            cos: cos.try_mul_scalar(self.attention_scaling)?,
            sin: sin.try_mul_scalar(self.attention_scaling)?,
        })
    }
}

impl<T: Dim, E: Dim> RopeAngles<T, E> {
    /// `x * cos + rotate_half(x) * sin` for queries or keys `x` `[B, H, T, E]`, where
    /// `rotate_half(x) = cat(-x[.., E/2..], x[.., ..E/2])`: one half of
    /// transformers' `apply_rotary_pos_emb`.
    ///
    /// # Errors
    /// PyTorch's broadcast message when run-time dims of `x` are not the angles'; an
    /// allocation failure.
    pub fn try_apply<B: Dim, H: Dim>(
        &self,
        x: &Tensor<f32, (B, H, T, E)>,
    ) -> Result<Tensor<f32, (B, H, T, E)>> {
        let half = x.dims()[3] / 2;
        // The halves are not `E`: they are sliced from a view whose last dim is `Dyn`.
        let whole = x.try_rename::<(B, H, T, Dyn)>()?;
        let x1 = whole.try_narrow_dyn::<-1>(0, half)?;
        let x2 = whole.try_narrow_dyn::<-1>(half, half)?;
        let rotated: Tensor<f32, (B, H, T, Dyn)> = Tensor::try_cat::<-1>((&x2.try_neg()?, &x1))?;
        let out = x.try_mul(&self.cos)?;
        out.try_add_(&rotated.try_rename::<(B, H, T, E)>()?.try_mul(&self.sin)?)?;
        Ok(out)
    }

    /// [`Self::try_apply`], panicking with its error.
    ///
    /// # Panics
    /// As [`Self::try_apply`]'s errors.
    #[track_caller]
    pub fn apply<B: Dim, H: Dim>(
        &self,
        x: &Tensor<f32, (B, H, T, E)>,
    ) -> Tensor<f32, (B, H, T, E)> {
        crate::or_panic::or_panic(self.try_apply(x))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prelude::*;

    #[test]
    fn default_inv_freq_is_one_over_theta_to_the_2i_over_d() {
        let r = Rotary::<D<8>>::new(8, 10000.0, RopeScaling::Default).unwrap();
        let want: Vec<f32> = (0..4)
            .map(|i| 1.0 / 10000f32.powf(i as f32 / 4.0))
            .collect();
        assert_eq!(r.inv_freq, want);
    }

    #[test]
    fn linear_scaling_divides_the_frequencies_by_the_factor() {
        let d = Rotary::<D<8>>::new(8, 500.0, RopeScaling::Default).unwrap();
        let l = Rotary::<D<8>>::new(8, 500.0, RopeScaling::Linear { factor: 4.0 }).unwrap();
        for (a, b) in d.inv_freq.iter().zip(&l.inv_freq) {
            assert_eq!(*b, a / 4.0);
        }
    }

    #[test]
    fn llama3_keeps_high_frequencies_divides_low_ones_and_smooths_between() {
        // Wavelengths 2π·10000^(i/8): 6.3, 20.9, 62.8, ... against 32/4 = 8 and 32/1 = 32.
        let d = Rotary::<D<16>>::new(16, 10000.0, RopeScaling::Default).unwrap();
        let scaling = RopeScaling::Llama3 {
            factor: 8.0,
            low_freq_factor: 1.0,
            high_freq_factor: 4.0,
            original_max_position_embeddings: 32,
        };
        let l = Rotary::<D<16>>::new(16, 10000.0, scaling).unwrap();
        assert_eq!(l.inv_freq[0], d.inv_freq[0]);
        assert!(l.inv_freq[1] < d.inv_freq[1] && l.inv_freq[1] > d.inv_freq[1] / 8.0);
        for i in 2..8 {
            assert_eq!(l.inv_freq[i], d.inv_freq[i] / 8.0);
        }
    }

    #[test]
    fn angles_start_at_the_offset_and_repeat_over_both_halves() {
        let r = Rotary::<D<4>>::new(4, 100.0, RopeScaling::Default).unwrap();
        let a = r.angles::<Dyn>(3, 2).unwrap();
        let whole = r.angles::<Dyn>(0, 5).unwrap();
        assert_eq!(a.cos.to_vec(), whole.cos.narrow_dyn::<0>(3, 2).to_vec());
        let cos = a.cos.to_vec();
        assert_eq!(cos[0], (3.0f32 * r.inv_freq[0]).cos());
        assert_eq!(cos[..2], cos[2..4]);
    }

    #[test]
    fn apply_rotates_each_pair_of_halves_by_its_angle() {
        // head_dim 2: one frequency (1), so position p rotates (x1, x2) by p radians.
        let r = Rotary::<D<2>>::new(2, 10.0, RopeScaling::Default).unwrap();
        let a = r.angles::<D<1>>(1, 1).unwrap();
        let x = Tensor::<f32, Shape![1, 1, 1, 2]>::from_vec(vec![1.0, 0.0], &[1, 1, 1, 2]).unwrap();
        let y = a.apply(&x).to_vec();
        assert!((y[0] - 1f32.cos()).abs() < 1e-7 && (y[1] - 1f32.sin()).abs() < 1e-7);
        // Rotation keeps the norm.
        let x = Tensor::<f32, Shape![2, 3, 1, 2]>::randn(0);
        let n = |v: Vec<f32>| v.iter().map(|e| e * e).sum::<f32>();
        assert!((n(a.apply(&x).to_vec()) - n(x.to_vec())).abs() < 1e-4);
    }

    #[test]
    fn an_odd_head_dim_or_a_bad_theta_is_an_error() {
        let e = Rotary::<Dyn>::new(5, 10000.0, RopeScaling::Default).unwrap_err();
        assert!(e.to_string().contains("head_dim is 5"), "{e}");
        let e = Rotary::<D<8>>::new(4, 10000.0, RopeScaling::Default).unwrap_err();
        assert!(e.to_string().contains("equal to the dim's 8"), "{e}");
        let e = Rotary::<Dyn>::new(4, f64::NAN, RopeScaling::Default).unwrap_err();
        assert!(e.to_string().contains("rope_theta is NaN"), "{e}");
        let e = Rotary::<Dyn>::new(4, 1e4, RopeScaling::Linear { factor: 0.0 }).unwrap_err();
        assert!(e.to_string().contains("factor is 0"), "{e}");
    }
}
