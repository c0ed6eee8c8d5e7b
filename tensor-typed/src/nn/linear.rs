//! Affine layers: [`linear`] (`torch.nn.functional.linear`, weight `[out, in]`),
//! [`Linear`] (`torch.nn.Linear`: the same weight layout) and [`Conv1D`] (the layer
//! Hugging Face's GPT-2 calls `Conv1D`: weight stored `[in, out]`, `x @ w + b`).
//!
//! Each is generic over its widths `I`, `O` and over the input's shape `S` with the one
//! bound [`CanMatmul`]; the output is `S` with its last dim `O`.
//!
//! ```
//! use tensor_typed::prelude::*;
//! let fc: nn::Linear<Dim![4], Dim![3]> = nn::Linear::zeros(); // weight [3, 4], bias [3]
//! let proj: nn::Conv1D<Dim![4], Dim![12]> = nn::Conv1D::zeros(); // weight [4, 12], bias [12]
//! let x = Tensor::<f32, Shape![Dyn, 7, 4]>::ones_with(&[2, 7, 4])?;
//! let y: Tensor<f32, Shape![Dyn, 7, 3]> = fc.forward(&x);
//! let z: Tensor<f32, Shape![Dyn, 7, 12]> = proj.forward(&x);
//! let w = nn::linear(&x, &fc.weight, None); // [Dyn, 7, 3]
//! assert_eq!((y.dims(), z.dims(), w.dims()), (&[2, 7, 3][..], &[2, 7, 12][..], &[2, 7, 3][..]));
//! # Ok::<(), tensor_typed::Error>(())
//! ```

use crate::ops::dims::fit;
use crate::ops::reduction::Float;
use crate::shape::dtype::MatmulElement;
use crate::shape::matmul_dims::{CanMatmul, MatmulOut};
use crate::shape::StaticShape;
use crate::tensor::Tensor;
use crate::typelevel::dim::Dim;
use tensor_core::{Element, Result};
use tensor_macros::plain_form;

/// `x @ weight.T + bias` on the runtime tensors, the bias added in place into the fresh
/// product (one pass, no second output).
#[cfg_attr(unoptimized, inline)]
fn affine(
    x: &tensor_core::Tensor,
    weight_in_out: &tensor_core::Tensor,
    bias: Option<&tensor_core::Tensor>,
) -> Result<tensor_core::Tensor> {
    let y = x.matmul(weight_in_out)?;
    if let Some(b) = bias {
        y.add_(b)?;
    }
    Ok(y)
}

/// `x @ weight.T + bias` for `weight` `[O, I]` and `bias` `[O]`: the input's last dim
/// `I` becomes `O`. Mirrors `torch.nn.functional.linear(x, weight, bias)`.
///
/// Compile error: `x`'s last dim is a static dim other than `I` (the matmul error).
///
/// # Errors
/// PyTorch's matmul error when a `Dyn` last dim is not `I`.
#[allow(clippy::type_complexity)]
#[plain_form(free)]
pub fn try_linear<T, S, I: Dim, O: Dim>(
    x: &Tensor<T, S>,
    weight: &Tensor<T, (O, I)>,
    bias: Option<&Tensor<T, (O,)>>,
) -> Result<Tensor<T, MatmulOut<S, (I, O)>>>
where
    T: Float + MatmulElement,
    S: CanMatmul<(I, O)>,
{
    fit(affine(&x.inner, &weight.inner.t()?, bias.map(|b| &b.inner)))
}

/// A linear layer as `torch.nn.Linear(I, O)`: `weight` `[O, I]`, `bias` `[O]` (or none,
/// `bias=False`), `forward(x) = x @ weight.T + bias`. Loads from PyTorch's state dict
/// under the names `weight` and `bias`.
#[derive(tensor_macros::Params)]
pub struct Linear<I: Dim, O: Dim, T: Element = f32> {
    /// `[O, I]`, as PyTorch stores it.
    pub weight: Tensor<T, (O, I)>,
    /// `[O]`.
    pub bias: Option<Tensor<T, (O,)>>,
}

/// The `[in, out]` layer of Hugging Face's GPT-2 (`transformers.pytorch_utils.Conv1D`,
/// despite its name a linear layer): `weight` `[I, O]`, `bias` `[O]`, `forward(x) =
/// x @ weight + bias` (`torch.addmm(bias, x, weight)`).
#[derive(tensor_macros::Params)]
pub struct Conv1D<I: Dim, O: Dim, T: Element = f32> {
    /// `[I, O]`.
    pub weight: Tensor<T, (I, O)>,
    /// `[O]`.
    pub bias: Tensor<T, (O,)>,
}

impl<I: Dim, O: Dim, T: Float + MatmulElement> Linear<I, O, T> {
    /// A layer of zeros with a bias (to load weights into; zeroed memory costs nothing
    /// until written).
    ///
    /// # Errors
    /// `OutOfMemory` (or `StorageSizeOverflow`) when the weights cannot be allocated.
    #[plain_form]
    pub fn try_zeros() -> Result<Self>
    where
        (O, I): StaticShape,
        (O,): StaticShape,
    {
        Ok(Linear {
            weight: Tensor::try_zeros()?,
            bias: Some(Tensor::try_zeros()?),
        })
    }

    /// `x @ weight.T + bias`: the last dim `I` becomes `O`. Mirrors `Linear.forward`.
    ///
    /// # Errors
    /// As [`try_linear`].
    #[allow(clippy::type_complexity)]
    #[plain_form]
    pub fn try_forward<S: CanMatmul<(I, O)>>(
        &self,
        x: &Tensor<T, S>,
    ) -> Result<Tensor<T, MatmulOut<S, (I, O)>>> {
        try_linear(x, &self.weight, self.bias.as_ref())
    }
}

impl<I: Dim, O: Dim, T: Float + MatmulElement> Conv1D<I, O, T> {
    /// A layer of zeros (to load weights into).
    ///
    /// # Errors
    /// `OutOfMemory` (or `StorageSizeOverflow`) when the weights cannot be allocated.
    #[plain_form]
    pub fn try_zeros() -> Result<Self>
    where
        (I, O): StaticShape,
        (O,): StaticShape,
    {
        Ok(Conv1D {
            weight: Tensor::try_zeros()?,
            bias: Tensor::try_zeros()?,
        })
    }

    /// `x @ weight + bias`: the last dim `I` becomes `O`. Mirrors Hugging Face's
    /// `Conv1D.forward`.
    ///
    /// # Errors
    /// PyTorch's matmul error when a `Dyn` last dim is not `I`.
    #[allow(clippy::type_complexity)]
    #[plain_form]
    pub fn try_forward<S: CanMatmul<(I, O)>>(
        &self,
        x: &Tensor<T, S>,
    ) -> Result<Tensor<T, MatmulOut<S, (I, O)>>> {
        fit(affine(&x.inner, &self.weight.inner, Some(&self.bias.inner)))
    }
}

#[cfg(test)]
mod tests {
    use crate::prelude::*;

    #[test]
    fn linear_is_x_times_the_transposed_weight_plus_bias() {
        // x [1, 2] = [1, 2]; W [3, 2] rows (1,0), (0,1), (1,1); b = (10, 20, 30).
        let x = Tensor::<f32, Shape![1, 2]>::from_vec(vec![1.0, 2.0], &[1, 2]).unwrap();
        let w = Tensor::<f32, Shape![3, 2]>::from_vec(vec![1.0, 0.0, 0.0, 1.0, 1.0, 1.0], &[3, 2])
            .unwrap();
        let b = Tensor::<f32, Shape![3]>::from_vec(vec![10.0, 20.0, 30.0], &[3]).unwrap();
        assert_eq!(
            nn::linear(&x, &w, Some(&b)).to_vec(),
            vec![11.0, 22.0, 33.0]
        );
        assert_eq!(nn::linear(&x, &w, None).to_vec(), vec![1.0, 2.0, 3.0]);
        let layer = nn::Linear {
            weight: w.clone(),
            bias: Some(b.clone()),
        };
        assert_eq!(layer.forward(&x).to_vec(), vec![11.0, 22.0, 33.0]);
        // Conv1D stores the same map as [in, out].
        let conv = nn::Conv1D {
            weight: w.t().contiguous_copy(),
            bias: b,
        };
        assert_eq!(conv.forward(&x).to_vec(), vec![11.0, 22.0, 33.0]);
    }

    #[test]
    fn a_dyn_last_dim_that_is_not_the_layers_input_is_pytorchs_error() {
        let fc: nn::Linear<Dim![2], Dim![3]> = nn::Linear::zeros();
        let x = Tensor::<f32, Shape![1, Dyn]>::zeros_with(&[1, 5]).unwrap();
        let e = fc.try_forward(&x).unwrap_err().to_string();
        assert!(e.contains("cannot be multiplied"), "{e}");
    }

    #[test]
    fn the_layers_parameters_are_named_as_pytorchs_state_dict() {
        let fc: nn::Linear<Dim![2], Dim![3]> = nn::Linear::zeros();
        let names: Vec<String> = fc.named_params().into_iter().map(|(n, _)| n).collect();
        assert_eq!(names, ["weight", "bias"]);
        let conv: nn::Conv1D<Dim![2], Dim![3]> = nn::Conv1D::zeros();
        let names: Vec<String> = conv.named_params().into_iter().map(|(n, _)| n).collect();
        assert_eq!(names, ["weight", "bias"]);
    }
}
