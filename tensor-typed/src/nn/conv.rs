//! `conv2d`, `max_pool2d`, `avg_pool2d` on `[N, C, H, W]` tensors.

use crate::ops::dims::fit;
use crate::shape::nn_rules::{Conv2dShape, Pool2dShape};
use crate::shape::Shape;
use crate::tensor::Tensor;
use crate::typelevel::op;
use tensor_core::{Element, Result};
use tensor_macros::plain_form;

/// 2-d convolution of `input` `[N, C, H, W]` by `weight` `[O, C / GROUPS, KH, KW]`, plus
/// `bias` `[O]`: `[N, O, H', W']` with PyTorch's output size
/// `(H + 2·PADDING − DILATION·(KH − 1) − 1) / STRIDE + 1`. Mirrors
/// `F.conv2d(input, weight, bias, STRIDE, PADDING, DILATION, GROUPS)`; a channels_last
/// input gives a channels_last output. Compile errors: input channels ≠ weight channels ×
/// groups, an empty output (both for static dims).
///
/// # Errors
/// With PyTorch's message when `Dyn` dims do not fit, or when memory runs out; see
/// [`try_conv2d`].
#[plain_form(free)]
pub fn try_conv2d<
    const STRIDE: usize,
    const PADDING: usize,
    const DILATION: usize,
    const GROUPS: usize,
    T: Element,
    X,
    W,
>(
    input: &Tensor<T, X>,
    weight: &Tensor<T, W>,
    bias: Option<&Tensor<T, <X as Conv2dShape<W, STRIDE, PADDING, DILATION, GROUPS>>::Bias>>,
) -> Result<Tensor<T, <X as Conv2dShape<W, STRIDE, PADDING, DILATION, GROUPS>>::Output>>
where
    X: Conv2dShape<W, STRIDE, PADDING, DILATION, GROUPS>,
    W: Shape,
{
    fit(tensor_core::nn::conv2d(
        &input.inner,
        &weight.inner,
        bias.map(|b| &b.inner),
        [STRIDE; 2],
        [PADDING; 2],
        [DILATION; 2],
        GROUPS,
    ))
}

macro_rules! pool {
    ($name:ident, $try_name:ident, $op:ident, $doc:literal) => {
        #[doc = concat!("2-d ", $doc, " pooling of `input` `[N, C, H, W]` with a square `KERNEL`, `STRIDE` and `PADDING`: `[N, C, H', W']`. Mirrors `F.", stringify!($name), "(input, KERNEL, STRIDE, PADDING)` (dilation 1, no ceil mode). Compile errors: padding above half the kernel, an empty output (static dims).")]
        ///
        /// # Errors
        /// PyTorch's message when `Dyn` dims do not fit (an empty output); an allocation
        /// failure.
        #[plain_form(free)]
        pub fn $try_name<const KERNEL: usize, const STRIDE: usize, const PADDING: usize, T: Element, X>(
            input: &Tensor<T, X>,
        ) -> Result<Tensor<T, <X as Pool2dShape<op::$op, KERNEL, STRIDE, PADDING>>::Output>>
        where
            X: Pool2dShape<op::$op, KERNEL, STRIDE, PADDING>,
        {
            fit(tensor_core::nn::$name(&input.inner, [KERNEL; 2], [STRIDE; 2], [PADDING; 2]))
        }
    };
}
pool!(max_pool2d, try_max_pool2d, max_pool2d, "max");
pool!(avg_pool2d, try_avg_pool2d, avg_pool2d, "average");

/// `x.conv2d::<STRIDE, PADDING, DILATION, GROUPS>(&weight, bias)`: [`conv2d`] as a
/// method (the trait is in the prelude).
///
/// Stable Rust cannot infer a function's type parameters once some of its generics are
/// written, so the free function is called `nn::conv2d::<1, 1, 1, 1, _, _, _>(..)`; as
/// a method, whose other types are the trait's, only the four numbers are written.
pub trait Conv2dExt<T: Element, W: Shape> {
    /// The input's shape.
    type Shape: Shape;
    /// [`conv2d`] of `self`.
    ///
    /// # Panics
    /// As [`conv2d`]; [`try_conv2d`] returns the error.
    #[track_caller]
    fn conv2d<const ST: usize, const PD: usize, const DL: usize, const G: usize>(
        &self,
        weight: &Tensor<T, W>,
        bias: Option<&Tensor<T, <Self::Shape as Conv2dShape<W, ST, PD, DL, G>>::Bias>>,
    ) -> Tensor<T, <Self::Shape as Conv2dShape<W, ST, PD, DL, G>>::Output>
    where
        Self::Shape: Conv2dShape<W, ST, PD, DL, G>;
}
impl<T: Element, X: Shape, W: Shape> Conv2dExt<T, W> for Tensor<T, X> {
    type Shape = X;
    #[track_caller]
    fn conv2d<const ST: usize, const PD: usize, const DL: usize, const G: usize>(
        &self,
        weight: &Tensor<T, W>,
        bias: Option<&Tensor<T, <X as Conv2dShape<W, ST, PD, DL, G>>::Bias>>,
    ) -> Tensor<T, <X as Conv2dShape<W, ST, PD, DL, G>>::Output>
    where
        X: Conv2dShape<W, ST, PD, DL, G>,
    {
        conv2d::<ST, PD, DL, G, T, X, W>(self, weight, bias)
    }
}

impl<T: Element, X: Shape> Tensor<T, X> {
    /// [`max_pool2d`] as a method: `x.max_pool2d::<KERNEL, STRIDE, PADDING>()`.
    ///
    /// # Panics
    /// As [`max_pool2d`]; [`try_max_pool2d`] returns the error.
    #[track_caller]
    pub fn max_pool2d<const K: usize, const ST: usize, const PD: usize>(
        &self,
    ) -> Tensor<T, <X as Pool2dShape<op::max_pool2d, K, ST, PD>>::Output>
    where
        X: Pool2dShape<op::max_pool2d, K, ST, PD>,
    {
        max_pool2d::<K, ST, PD, T, X>(self)
    }

    /// [`avg_pool2d`] as a method: `x.avg_pool2d::<KERNEL, STRIDE, PADDING>()`.
    ///
    /// # Panics
    /// As [`avg_pool2d`]; [`try_avg_pool2d`] returns the error.
    #[track_caller]
    pub fn avg_pool2d<const K: usize, const ST: usize, const PD: usize>(
        &self,
    ) -> Tensor<T, <X as Pool2dShape<op::avg_pool2d, K, ST, PD>>::Output>
    where
        X: Pool2dShape<op::avg_pool2d, K, ST, PD>,
    {
        avg_pool2d::<K, ST, PD, T, X>(self)
    }
}
