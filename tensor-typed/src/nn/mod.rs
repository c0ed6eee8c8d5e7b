//! Model ops as free functions, as `torch.nn.functional`: convolution, pooling,
//! embedding, linear, layer norm, attention and the cross-entropy loss (and the layers
//! [`Linear`] and [`Conv1D`] (one [`Affine`] layer), [`Embedding`], [`LayerNorm`], and
//! Llama's [`RmsNorm`], [`Rotary`], [`SwiGlu`] and [`GqaAttention`], generic over their
//! dims), with
//! their output shapes computed
//! at compile time from the static dims (`Dyn` dims checked at run time with PyTorch's
//! message; the `try_` forms return it, the plain forms panic with it).
//!
//! ```
//! use tensor_typed::prelude::*;
//! let x = Tensor::<f32, Shape![Dyn, 3, 28, 28]>::zeros_with(&[2, 3, 28, 28])?;
//! let w: Tensor<f32, Shape![16, 3, 3, 3]> = Tensor::zeros();
//! let b: Tensor<f32, Shape![16]> = Tensor::zeros();
//! let y = x.conv2d::<1, 1, 1, 1>(&w, Some(&b)); // [Dyn, 16, 28, 28]
//! let p = y.max_pool2d::<2, 2, 0>();             // [Dyn, 16, 14, 14]
//! let q = nn::avg_pool2d::<2, 2, 0, _, _>(&y);   // the free form: `_` for the types
//! let _: Tensor<f32, Shape![Dyn, 16, 14, 14]> = p;
//! # Ok::<(), tensor_typed::Error>(())
//! ```

mod attention;
mod conv;
mod embedding;
mod gqa;
mod linear;
mod rms_norm;
mod rotary;
mod rowwise;
mod swiglu;

pub use attention::{
    scaled_dot_product_attention, try_scaled_dot_product_attention, Activation, LayerNorm, Mlp,
    LAYER_NORM_EPS,
};
pub use conv::{
    avg_pool2d, conv2d, max_pool2d, try_avg_pool2d, try_conv2d, try_max_pool2d, Conv2dExt,
};
pub use embedding::{embedding, try_embedding, Embedding, IndexElement};
pub use gqa::{causal_mask, Activations, CacheTensor, GqaAttention, GqaCache, GqaDims};
pub use linear::{linear, try_linear, Affine, Conv1D, InOut, Linear, OutIn, WeightLayout};
pub use rms_norm::RmsNorm;
pub use rotary::{RopeAngles, RopeScaling, Rotary};
pub use rowwise::{cross_entropy, layer_norm, try_cross_entropy, try_layer_norm};
pub use swiglu::SwiGlu;
