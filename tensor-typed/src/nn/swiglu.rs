//! [`SwiGlu`]: the gated MLP of Llama-family models (transformers' `LlamaMLP`).

use super::linear::Linear;
use crate::ops::reduction::Float;
use crate::shape::dtype::MatmulElement;
use crate::tensor::Tensor;
use crate::typelevel::dim::Dim;
use tensor_core::{Element, Result};
use tensor_macros::plain_form;

/// The SwiGLU MLP over activations `[B, S, E]` with an intermediate width `I`:
/// `down_proj(silu(gate_proj(x)) * up_proj(x))`, as transformers' `LlamaMLP` (with
/// `hidden_act="silu"`), whose names it keeps. The projections are `torch.nn.Linear`
/// (`[out, in]`), without biases unless the config's `mlp_bias`.
///
/// ```
/// use tensor_typed::prelude::*;
/// let mlp = nn::SwiGlu::<D<4>, D<8>>::zeros(false)?;
/// let x = Tensor::<f32, Shape![Dyn, 3, 4]>::ones_with(&[2, 3, 4])?;
/// let y: Tensor<f32, Shape![Dyn, 3, 4]> = mlp.forward(&x);
/// assert_eq!(y.to_vec(), vec![0.0; 24]);
/// # Ok::<(), tensor_typed::Error>(())
/// ```
#[derive(tensor_macros::Params)]
pub struct SwiGlu<E: Dim, I: Dim, T: Element = f32> {
    /// The gate `[I, E]`, through SiLU.
    pub gate_proj: Linear<E, I, T>,
    /// The up-projection `[I, E]`.
    pub up_proj: Linear<E, I, T>,
    /// The down-projection `[E, I]`.
    pub down_proj: Linear<I, E, T>,
}

/// A `Linear<I, O>` of zeros of sizes `i`, `o` (with a bias of zeros or none).
///
/// # Errors
/// A static dim of another size; an allocation failure.
pub(crate) fn linear_zeros<I: Dim, O: Dim, T: Float>(
    i: usize,
    o: usize,
    bias: bool,
) -> Result<Linear<I, O, T>> {
    Ok(Linear {
        weight: Tensor::zeros_with(&[o, i])?,
        bias: if bias {
            Some(Tensor::zeros_with(&[o])?)
        } else {
            None
        },
    })
}

impl<E: Dim, I: Dim, T: Float + MatmulElement> SwiGlu<E, I, T> {
    /// Weights of zeros (to load into; zeroed memory costs nothing until written), with
    /// biases when `bias` (`mlp_bias`). Static `E` and `I` only: else
    /// [`Self::zeros_with`].
    ///
    /// # Errors
    /// `InvalidArgument` for a run-time dim; an allocation failure.
    pub fn zeros(bias: bool) -> Result<Self> {
        match (E::STATIC, I::STATIC) {
            (Some(e), Some(i)) => Self::zeros_with(e, i, bias),
            _ => Err(tensor_core::Error::InvalidArgument {
                op: "SwiGlu",
                message: "a width is known only at run time: give the sizes (SwiGlu::zeros_with)"
                    .into(),
            }),
        }
    }

    /// Weights of zeros for widths `e` → `i` → `e`, with biases when `bias`.
    ///
    /// # Errors
    /// A static dim of another size; an allocation failure.
    pub fn zeros_with(e: usize, i: usize, bias: bool) -> Result<Self> {
        Ok(SwiGlu {
            gate_proj: linear_zeros(e, i, bias)?,
            up_proj: linear_zeros(e, i, bias)?,
            down_proj: linear_zeros(i, e, bias)?,
        })
    }

    /// `down_proj(silu(gate_proj(x)) * up_proj(x))` of `x` `[B, S, E]`: `LlamaMLP.forward`.
    /// The SiLU and the product run in place in the gate's fresh output.
    ///
    /// # Errors
    /// PyTorch's matmul error when a run-time last dim is not `E`; an allocation failure.
    #[plain_form]
    pub fn try_forward<B: Dim, S: Dim>(
        &self,
        x: &Tensor<T, (B, S, E)>,
    ) -> Result<Tensor<T, (B, S, E)>> {
        let gate: Tensor<T, (B, S, I)> = self.gate_proj.try_forward(x)?.try_silu()?;
        let up: Tensor<T, (B, S, I)> = self.up_proj.try_forward(x)?;
        gate.inner.mul_(&up.inner)?; // same shape and dtype: in place, as `gate * up`
        self.down_proj.try_forward(&gate)
    }
}

#[cfg(test)]
mod tests {
    use crate::prelude::*;

    #[test]
    fn swiglu_is_down_of_silu_gate_times_up() {
        // E = 1, I = 2: gate weights (1, 2), up (3, 4), down (1, 1); x = 0.5.
        let mut mlp = nn::SwiGlu::<D<1>, D<2>>::zeros(false).unwrap();
        mlp.gate_proj.weight = Tensor::from_vec(vec![1.0, 2.0], &[2, 1]).unwrap();
        mlp.up_proj.weight = Tensor::from_vec(vec![3.0, 4.0], &[2, 1]).unwrap();
        mlp.down_proj.weight = Tensor::from_vec(vec![1.0, 1.0], &[1, 2]).unwrap();
        let x = Tensor::<f32, Shape![1, 1, 1]>::from_vec(vec![0.5], &[1, 1, 1]).unwrap();
        let silu = |v: f32| v / (1.0 + (-v).exp());
        let want = silu(0.5) * 1.5 + silu(1.0) * 2.0;
        assert!((mlp.forward(&x).to_vec()[0] - want).abs() < 1e-6);
    }

    #[test]
    fn swiglu_is_named_as_llama_mlp_and_has_no_bias_by_default() {
        let mlp = nn::SwiGlu::<D<4>, D<8>>::zeros(false).unwrap();
        let names: Vec<String> = mlp.named_params().into_iter().map(|(n, _)| n).collect();
        assert_eq!(
            names,
            ["gate_proj.weight", "up_proj.weight", "down_proj.weight"]
        );
        let biased = nn::SwiGlu::<D<4>, D<8>>::zeros(true).unwrap();
        assert_eq!(biased.named_params().len(), 6);
    }
}
