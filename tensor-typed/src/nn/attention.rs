//! The transformer layers models share, each written once over its dims: [`LayerNorm`]
//! (`torch.nn.LayerNorm`), the [`Mlp`], the heads of a multi-head attention
//! ([`Tensor::split_heads`], [`Tensor::merge_heads`]) and its core,
//! [`scaled_dot_product_attention`]
//! (`F.scaled_dot_product_attention`). Generic over dim type parameters with no bound
//! but `Dim` (and, where a width is split into heads, the fact that it is their product,
//! [`ProductOf`]).

use super::linear::Conv1D;
use crate::ops::reduction::Float;
use crate::shape::dtype::MatmulElement;
use crate::shape::split::ProductOf;
use crate::tensor::Tensor;
use crate::typelevel::dim::Dim;
use tensor_core::{Element, Result};
use tensor_macros::{plain_form, try_einsum};

/// Layer norm over the last dim `E` with a learned scale and shift: `torch.nn.LayerNorm(E)`
/// with PyTorch's default epsilon 1e-5. Loads from PyTorch's state dict under the names
/// `weight` and `bias`.
///
/// ```
/// use tensor_typed::prelude::*;
/// let ln = nn::LayerNorm::<D<4>>::new()?;
/// let x = Tensor::<f32, Shape![Dyn, 4]>::from_vec(vec![1.0, 2.0, 3.0, 4.0], &[1, 4])?;
/// let y = ln.forward(&x); // zero mean, unit variance over the last dim
/// assert!(y.to_vec()[0] < -1.3);
/// # Ok::<(), tensor_typed::Error>(())
/// ```
#[derive(tensor_macros::Params)]
pub struct LayerNorm<E: Dim, T: Element = f32> {
    /// Scale (gamma) `[E]`.
    pub weight: Tensor<T, (E,)>,
    /// Shift (beta) `[E]`.
    pub bias: Tensor<T, (E,)>,
}

/// PyTorch's default epsilon of `torch.nn.LayerNorm`.
pub const LAYER_NORM_EPS: f64 = 1e-5;

impl<E: Dim, T: Float> LayerNorm<E, T> {
    /// Weight ones and bias zeros, as PyTorch initialises them, for a static `E`.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`](tensor_core::Error::InvalidArgument) for a run-time
    /// `E` (use [`Self::with_size`]); an allocation failure.
    pub fn new() -> Result<Self> {
        match E::STATIC {
            Some(n) => Self::with_size(n),
            None => Err(tensor_core::Error::InvalidArgument {
                op: "LayerNorm",
                message: "the normalized dim is known only at run time: give its size (LayerNorm::with_size)".into(),
            }),
        }
    }

    /// Weight ones and bias zeros of `n` elements (`n` must be `E`'s size when it is
    /// static).
    ///
    /// # Errors
    /// A static `E` of another size; an allocation failure.
    pub fn with_size(n: usize) -> Result<Self> {
        Ok(LayerNorm {
            weight: Tensor::ones_with(&[n])?,
            bias: Tensor::zeros_with(&[n])?,
        })
    }

    /// The normalised `x` `[.., E]`, scaled and shifted: `LayerNorm.forward` with epsilon
    /// 1e-5.
    ///
    /// # Errors
    /// PyTorch's message when a run-time last dim is not `E`.
    #[plain_form]
    pub fn try_forward<S>(&self, x: &Tensor<T, S>) -> Result<Tensor<T, S>>
    where
        S: crate::shape::nn_rules::NormalizedBy<(E,)>,
    {
        super::rowwise::try_layer_norm(x, &self.weight, &self.bias, LAYER_NORM_EPS)
    }
}

/// The activation between an [`Mlp`]'s two layers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activation {
    /// `F.gelu` (the erf form).
    Gelu,
    /// `F.gelu(approximate="tanh")` (GPT-2's `gelu_new`).
    GeluTanh,
    /// `F.silu`.
    Silu,
}

/// A transformer's MLP over activations `[B, S, E]`: `c_proj(act(c_fc(x)))` with
/// `[in, out]` layers, `E` → `H` → `E` (Hugging Face's GPT-2 `MLP`, whose names it keeps).
///
/// ```
/// use tensor_typed::prelude::*;
/// let mlp = nn::Mlp::<D<4>, D<16>> {
///     c_fc: nn::Conv1D::zeros(),
///     c_proj: nn::Conv1D::zeros(),
/// };
/// let x = Tensor::<f32, Shape![Dyn, 3, 4]>::ones_with(&[2, 3, 4])?;
/// let y: Tensor<f32, Shape![Dyn, 3, 4]> = mlp.forward(&x, nn::Activation::GeluTanh);
/// # let _ = y;
/// # Ok::<(), tensor_typed::Error>(())
/// ```
#[derive(tensor_macros::Params)]
pub struct Mlp<E: Dim, H: Dim, T: Element = f32> {
    /// The up-projection `[E, H]`.
    pub c_fc: Conv1D<E, H, T>,
    /// The down-projection `[H, E]`.
    pub c_proj: Conv1D<H, E, T>,
}

impl<E: Dim, H: Dim, T: Float + MatmulElement> Mlp<E, H, T> {
    /// `c_proj(act(c_fc(x)))` of `x` `[B, S, E]`.
    ///
    /// # Errors
    /// PyTorch's matmul error when a run-time last dim is not `E`; an allocation failure.
    #[plain_form]
    pub fn try_forward<B: Dim, S: Dim>(
        &self,
        x: &Tensor<T, (B, S, E)>,
        act: Activation,
    ) -> Result<Tensor<T, (B, S, E)>> {
        let up: Tensor<T, (B, S, H)> = self.c_fc.try_forward(x)?;
        let up = match act {
            Activation::Gelu => up.try_gelu()?,
            Activation::GeluTanh => up.try_gelu_tanh()?,
            Activation::Silu => up.try_silu()?,
        };
        self.c_proj.try_forward(&up)
    }
}

impl<T: Element, B: Dim, S: Dim, X: Dim> Tensor<T, (B, S, X)> {
    /// `[B, S, X]` viewed as heads `[B, H, S, E]` (`X` is `H · E`): einops' `b s (h e) ->
    /// b h s e`, a view (`unflatten` then `transpose`).
    ///
    /// ```
    /// use tensor_typed::prelude::*;
    /// let x = Tensor::<f32, Shape![Dyn, 5, 32]>::zeros_with(&[2, 5, 32])?;
    /// let q: Tensor<f32, Shape![Dyn, 4, 5, 8]> = x.split_heads::<D<4>, D<8>>();
    /// let back: Tensor<f32, Shape![Dyn, 5, 32]> = q.merge_heads();
    /// # let _ = back;
    /// # Ok::<(), tensor_typed::Error>(())
    /// ```
    ///
    /// # Errors
    /// PyTorch's `unflatten` error when a run-time `X` is not `H · E`.
    #[plain_form]
    pub fn try_split_heads<H: Dim, E: Dim>(&self) -> Result<Tensor<T, (B, H, S, E)>>
    where
        X: ProductOf<H, E>,
    {
        Ok(self.try_unflatten::<2, H, E>()?.transpose::<1, 2>())
    }
}

impl<T: Element, B: Dim, H: Dim, S: Dim, E: Dim> Tensor<T, (B, H, S, E)> {
    /// Heads `[B, H, S, E]` merged into `[B, S, X]` (`X` is `H · E`, often inferred from
    /// the result's type): einops' `b h s e -> b s (h e)`, a copy.
    ///
    /// # Errors
    /// An allocation failure.
    #[plain_form]
    pub fn try_merge_heads<X: ProductOf<H, E>>(&self) -> Result<Tensor<T, (B, S, X)>> {
        self.transpose::<1, 2>().try_flatten_into::<2, X>()
    }
}

/// Attention of queries `q` `[B, H, S, E]` over keys `k` `[B, H, L, E]` and values `v`
/// `[B, H, L, V]`: `softmax(q @ k.T * scale, masked to -inf) @ v`, `[B, H, S, V]`, with
/// `scale` = 1/sqrt(E) (the dim's run-time size). `masked` `[S, L]` is `true` where a
/// query must *not* attend: PyTorch's
/// `F.scaled_dot_product_attention(q, k, v, attn_mask=~masked)` for `f32`.
///
/// # Errors
/// PyTorch's messages when run-time dims do not fit; an allocation failure.
#[plain_form(free)]
pub fn try_scaled_dot_product_attention<B: Dim, H: Dim, S: Dim, L: Dim, E: Dim, V: Dim>(
    q: &Tensor<f32, (B, H, S, E)>,
    k: &Tensor<f32, (B, H, L, E)>,
    v: &Tensor<f32, (B, H, L, V)>,
    masked: Option<&Tensor<bool, (S, L)>>,
) -> Result<Tensor<f32, (B, H, S, V)>> {
    let scale = 1.0 / (q.dims()[3] as f64).sqrt();
    let scores = try_einsum!("b h s e, b h l e -> b h s l", q, k)?.try_mul_scalar(scale)?;
    let scores = match masked {
        Some(m) => scores.try_masked_fill(m, f32::NEG_INFINITY)?,
        None => scores,
    };
    let weights = scores.try_softmax::<-1>()?;
    try_einsum!("b h s l, b h l v -> b h s v", weights, v)
}
