//! Affine layers: [`linear`] (`torch.nn.functional.linear`, weight `[out, in]`) and one
//! layer, [`Affine`], under two names by how it stores its weight: [`Linear`]
//! (`torch.nn.Linear`, `[out, in]`) and [`Conv1D`] (the layer Hugging Face's GPT-2 calls
//! `Conv1D`, `[in, out]`).
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
use crate::shape::{Shape, StaticShape};
use crate::tensor::Tensor;
use crate::typelevel::dim::Dim;
use tensor_core::{Element, Result};
use tensor_macros::plain_form;

/// `x @ W + bias` on the runtime tensors, `W` stored as `L` says; the bias is added in
/// place into the fresh product (one pass, no second output).
fn affine<L: WeightLayout>(
    x: &tensor_core::Tensor,
    weight: &tensor_core::Tensor,
    bias: Option<&tensor_core::Tensor>,
) -> Result<tensor_core::Tensor> {
    let y = L::project(x, weight)?;
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
    fit(affine::<OutIn>(
        &x.inner,
        &weight.inner,
        bias.map(|b| &b.inner),
    ))
}

/// How an affine layer stores its weight: [`OutIn`] (`[out, in]`, PyTorch's `Linear`) or
/// [`InOut`] (`[in, out]`, Hugging Face's `Conv1D`).
pub trait WeightLayout: 'static {
    /// The weight's shape for input width `I` and output width `O`.
    type Weight<I: Dim, O: Dim>: Shape;
    /// `x @ W` with `W` read as `[in, out]` (a transposed view for [`OutIn`], no copy).
    ///
    /// # Errors
    /// PyTorch's matmul error when `x`'s last dim is not the weight's input width.
    fn project(
        x: &tensor_core::Tensor,
        weight: &tensor_core::Tensor,
    ) -> Result<tensor_core::Tensor>;
}

/// The weight stored `[out, in]`, as `torch.nn.Linear` stores it.
pub struct OutIn;

/// The weight stored `[in, out]`, as Hugging Face's `Conv1D` stores it.
pub struct InOut;

impl WeightLayout for OutIn {
    type Weight<I: Dim, O: Dim> = (O, I);
    #[cfg_attr(unoptimized, inline)]
    fn project(
        x: &tensor_core::Tensor,
        weight: &tensor_core::Tensor,
    ) -> Result<tensor_core::Tensor> {
        x.matmul(&weight.t()?)
    }
}

impl WeightLayout for InOut {
    type Weight<I: Dim, O: Dim> = (I, O);
    #[cfg_attr(unoptimized, inline)]
    fn project(
        x: &tensor_core::Tensor,
        weight: &tensor_core::Tensor,
    ) -> Result<tensor_core::Tensor> {
        x.matmul(weight)
    }
}

/// An affine layer `x @ W + b` from width `I` to width `O`, its weight stored as `L`
/// says: `weight` of shape `L::Weight<I, O>`, `bias` `[O]` (or none). The layers users
/// name are [`Linear`] and [`Conv1D`]; both load from a state dict under the names
/// `weight` and `bias`.
#[derive(tensor_macros::Params)]
pub struct Affine<I: Dim, O: Dim, L: WeightLayout, T: Element = f32> {
    /// `L::Weight<I, O>`: `[O, I]` for [`Linear`], `[I, O]` for [`Conv1D`].
    pub weight: Tensor<T, L::Weight<I, O>>,
    /// `[O]`, or `None` for a layer without bias (`bias=False`).
    pub bias: Option<Tensor<T, (O,)>>,
}

/// A linear layer as `torch.nn.Linear(I, O)`: `weight` `[O, I]`, `bias` `[O]` (or none,
/// `bias=False`), `forward(x) = x @ weight.T + bias`.
pub type Linear<I, O, T = f32> = Affine<I, O, OutIn, T>;

/// The `[in, out]` layer of Hugging Face's GPT-2 (`transformers.pytorch_utils.Conv1D`,
/// despite its name a linear layer): `weight` `[I, O]`, `bias` `[O]`, `forward(x) =
/// x @ weight + bias` (`torch.addmm(bias, x, weight)`).
pub type Conv1D<I, O, T = f32> = Affine<I, O, InOut, T>;

impl<I: Dim, O: Dim, L: WeightLayout, T: Float + MatmulElement> Affine<I, O, L, T> {
    /// A layer of zeros with a bias (to load weights into; zeroed memory costs nothing
    /// until written).
    ///
    /// # Errors
    /// `OutOfMemory` (or `StorageSizeOverflow`) when the weights cannot be allocated.
    #[plain_form]
    pub fn try_zeros() -> Result<Self>
    where
        L::Weight<I, O>: StaticShape,
        (O,): StaticShape,
    {
        Ok(Affine {
            weight: Tensor::try_zeros()?,
            bias: Some(Tensor::try_zeros()?),
        })
    }

    /// `x @ W + b`: the input's last dim `I` becomes `O`. Mirrors `Linear.forward` and
    /// Hugging Face's `Conv1D.forward`.
    ///
    /// Compile error: `x`'s last dim is a static dim other than `I` (the matmul error).
    ///
    /// # Errors
    /// PyTorch's matmul error when a `Dyn` last dim is not `I`.
    #[allow(clippy::type_complexity)]
    #[plain_form]
    pub fn try_forward<S: CanMatmul<(I, O)>>(
        &self,
        x: &Tensor<T, S>,
    ) -> Result<Tensor<T, MatmulOut<S, (I, O)>>> {
        let bias = self.bias.as_ref().map(|b| &b.inner);
        fit(affine::<L>(&x.inner, &self.weight.inner, bias))
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
            bias: Some(b),
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
