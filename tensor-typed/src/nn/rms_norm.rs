//! [`RmsNorm`]: root-mean-square layer norm over the last dim, as transformers'
//! `LlamaRMSNorm` (`T5LayerNorm`) computes it.

use crate::ops::dims::fit;
use crate::ops::reduction::Float;
use crate::shape::nn_rules::NormalizedBy;
use crate::tensor::Tensor;
use crate::typelevel::dim::Dim;
use tensor_core::{DType, Element, Result};
use tensor_macros::plain_form;

/// RMS norm over the last dim `E` with a learned scale: `weight * x * rsqrt(mean(x², -1)
/// + eps)`, computed in `f32` whatever `T` is and cast back to `T` before the scale, as
/// transformers' `LlamaRMSNorm.forward` (`hidden_states.to(torch.float32)`, ...,
/// `self.weight * hidden_states.to(input_dtype)`). Loads from PyTorch's state dict under
/// the name `weight`; `eps` is the config's `rms_norm_eps`.
///
/// ```
/// use tensor_typed::prelude::*;
/// let norm = nn::RmsNorm::<D<4>>::with_size(4, 1e-6)?;
/// let x = Tensor::<f32, Shape![Dyn, 4]>::from_vec(vec![2.0, -2.0, 2.0, -2.0], &[1, 4])?;
/// let y = norm.forward(&x); // the mean of the squares is 4: every element over 2
/// assert!((y.to_vec()[0] - 1.0).abs() < 1e-6);
/// # Ok::<(), tensor_typed::Error>(())
/// ```
#[derive(tensor_macros::Params)]
pub struct RmsNorm<E: Dim, T: Element = f32> {
    /// Scale `[E]`.
    pub weight: Tensor<T, (E,)>,
    /// Added to the mean of the squares (`variance_epsilon`).
    #[params(skip)]
    pub eps: f64,
}

impl<E: Dim, T: Float> RmsNorm<E, T> {
    /// Weight ones of `n` elements (as transformers initialises it) and `eps` (`n` must
    /// be `E`'s size when it is static).
    ///
    /// # Errors
    /// A static `E` of another size; an allocation failure.
    pub fn with_size(n: usize, eps: f64) -> Result<Self> {
        Ok(RmsNorm {
            weight: Tensor::ones_with(&[n])?,
            eps,
        })
    }

    /// The normalised and scaled `x` `[.., E]`, of `x`'s shape and element type.
    /// Mirrors `LlamaRMSNorm.forward`.
    ///
    /// Compile error: `x`'s last dim is a static dim other than `E`.
    ///
    /// # Errors
    /// PyTorch's broadcast message when a run-time last dim is not `E`'s size; an
    /// allocation failure.
    #[plain_form]
    pub fn try_forward<S>(&self, x: &Tensor<T, S>) -> Result<Tensor<T, S>>
    where
        S: NormalizedBy<(E,)>,
    {
        fit(rms_norm(&x.inner, &self.weight.inner, self.eps))
    }
}

/// `weight * (x * rsqrt(mean(x², -1) + eps))` on the runtime tensors, the normalisation
/// in `f32` (not generic: one copy serves every layer).
#[cfg_attr(unoptimized, inline)]
fn rms_norm(
    x: &tensor_core::Tensor,
    weight: &tensor_core::Tensor,
    eps: f64,
) -> Result<tensor_core::Tensor> {
    let dtype = x.dtype();
    let x32 = x.to_dtype(DType::F32)?;
    let scale = x32.mul(&x32)?.mean(&[-1], true)?.add_scalar(eps)?.rsqrt()?;
    let normed = x32.mul(&scale)?.to_dtype(dtype)?;
    normed.mul_(weight)?;
    Ok(normed)
}

#[cfg(test)]
mod tests {
    use crate::prelude::*;
    use tensor_core::half::bf16;

    #[test]
    fn rms_norm_divides_by_the_root_mean_square_and_scales() {
        let mut norm = nn::RmsNorm::<D<2>>::with_size(2, 0.0).unwrap();
        norm.weight = Tensor::from_vec(vec![1.0, 10.0], &[2]).unwrap();
        let x = Tensor::<f32, Shape![2, 2]>::from_vec(vec![3.0, 4.0, 1.0, 1.0], &[2, 2]).unwrap();
        // Rows: rms sqrt(12.5) and 1.
        let r = 12.5f32.sqrt();
        let want = [3.0 / r, 40.0 / r, 1.0, 10.0];
        let got = norm.forward(&x).to_vec();
        for (g, w) in got.iter().zip(want) {
            assert!((g - w).abs() < 1e-6, "{got:?} vs {want:?}");
        }
    }

    #[test]
    fn eps_is_added_to_the_mean_of_the_squares() {
        let norm = nn::RmsNorm::<D<1>>::with_size(1, 3.0).unwrap();
        let x = Tensor::<f32, Shape![1]>::from_vec(vec![1.0], &[1]).unwrap();
        assert_eq!(norm.forward(&x).to_vec(), [0.5]); // 1 / sqrt(1 + 3)
    }

    #[test]
    fn a_bf16_input_is_normalised_in_f32_and_returned_in_bf16() {
        let norm = nn::RmsNorm::<D<2>, bf16>::with_size(2, 0.0).unwrap();
        let x = Tensor::<bf16, Shape![2]>::from_vec(
            vec![bf16::from_f32(3.0), bf16::from_f32(4.0)],
            &[2],
        )
        .unwrap();
        let y: Tensor<bf16, Shape![2]> = norm.forward(&x);
        let r = 12.5f32.sqrt();
        assert_eq!(
            y.to_vec(),
            [bf16::from_f32(3.0 / r), bf16::from_f32(4.0 / r)]
        );
    }

    #[test]
    fn a_run_time_last_dim_of_another_size_is_an_error() {
        let norm = nn::RmsNorm::<D<4>>::with_size(4, 1e-6).unwrap();
        let x = Tensor::<f32, Shape![Dyn]>::zeros_with(&[3]).unwrap();
        assert!(norm.try_forward(&x).is_err());
    }

    #[test]
    fn rms_norm_loads_its_weight_by_pytorchs_name() {
        let norm = nn::RmsNorm::<D<4>>::with_size(4, 1e-6).unwrap();
        let names: Vec<String> = norm.named_params().into_iter().map(|(n, _)| n).collect();
        assert_eq!(names, ["weight"]);
    }
}
