//! Typed softmax, log_softmax, the activations (gelu, gelu_tanh, silu), layer_norm,
//! cross_entropy, masked_fill, tril/triu and var/std over axes. Shapes are kept (or
//! reduced as the axes say); dims and shape agreements are compile-time checks where
//! static, run-time checks with PyTorch's message where `Dyn`.

use crate::ops::dims::fit;
use crate::ops::inplace::InplaceBroadcast;
use crate::ops::reduction::Float;
use crate::shape::axes::{AxisList, Reduced, ReducedKeepdim};
use crate::shape::check::Blame;
use crate::shape::dims::DimInRange;
use crate::shape::dims::{AtLeast2, DimOkOf, RankOf, SDim, WrapDim};
use crate::shape::nn_rules::MatrixOk;
use crate::shape::nn_rules::{CrossEntropyWith, NormalizedBy};
use crate::shape::Shape;
use crate::tensor::Tensor;
use crate::typelevel::dim::Dim;
use crate::typelevel::op;
use tensor_core::{Element, Result, Scalar};
use tensor_macros::plain_form;

impl<T: Float, S: Shape> Tensor<T, S> {
    /// Softmax over dim `D` (`-1`: the last). Mirrors `torch.softmax(x, D)`. Compile
    /// error: `D` out of range.
    ///
    /// # Errors
    /// `OutOfMemory` when the result cannot be allocated.
    #[plain_form]
    pub fn try_softmax<const D: isize>(&self) -> Result<Tensor<T, S>>
    where
        SDim<D>: WrapDim<RankOf<S>>,
        DimOkOf<S, D>: DimInRange<op::softmax, S, D>,
    {
        fit(self.inner.softmax(D as i64))
    }

    /// Log-softmax over dim `D`. Mirrors `torch.log_softmax(x, D)`.
    ///
    /// # Errors
    /// `OutOfMemory` when the result cannot be allocated.
    #[plain_form]
    pub fn try_log_softmax<const D: isize>(&self) -> Result<Tensor<T, S>>
    where
        SDim<D>: WrapDim<RankOf<S>>,
        DimOkOf<S, D>: DimInRange<op::log_softmax, S, D>,
    {
        fit(self.inner.log_softmax(D as i64))
    }

    /// GELU (exact, with erf). Mirrors `F.gelu(x)`.
    ///
    /// # Errors
    /// `OutOfMemory` when the result cannot be allocated.
    #[plain_form]
    pub fn try_gelu(&self) -> Result<Tensor<T, S>> {
        fit(self.inner.gelu())
    }

    /// GELU with the tanh approximation. Mirrors `F.gelu(x, approximate="tanh")`.
    ///
    /// # Errors
    /// `OutOfMemory` when the result cannot be allocated.
    #[plain_form]
    pub fn try_gelu_tanh(&self) -> Result<Tensor<T, S>> {
        fit(self.inner.gelu_tanh())
    }

    /// SiLU (`x · sigmoid(x)`). Mirrors `F.silu(x)`.
    ///
    /// # Errors
    /// `OutOfMemory` when the result cannot be allocated.
    #[plain_form]
    pub fn try_silu(&self) -> Result<Tensor<T, S>> {
        fit(self.inner.silu())
    }

    /// Variance over the axes `A` with Bessel's `correction` (1: unbiased). Mirrors
    /// `torch.var(x, dim=A, correction=correction)`.
    ///
    /// # Errors
    /// `OutOfMemory` when the result cannot be allocated.
    #[plain_form]
    pub fn try_var<A: AxisList>(&self, correction: i64) -> Result<Tensor<T, Reduced<S, A, op::var>>>
    where
        S: crate::shape::axes::ReduceOver<A, crate::shape::axes::NoKeepdim, op::var>,
    {
        fit(self.inner.var(&A::indices(), correction, false))
    }

    /// [`Tensor::var`] keeping the reduced dims as 1.
    ///
    /// # Errors
    /// `OutOfMemory` when the result cannot be allocated.
    #[plain_form]
    pub fn try_var_keepdim<A: AxisList>(
        &self,
        correction: i64,
    ) -> Result<Tensor<T, ReducedKeepdim<S, A, op::var>>>
    where
        S: crate::shape::axes::ReduceOver<A, crate::shape::axes::Keepdim, op::var>,
    {
        fit(self.inner.var(&A::indices(), correction, true))
    }

    /// Standard deviation over the axes `A`. Mirrors `torch.std(x, dim=A, correction=..)`.
    ///
    /// # Errors
    /// `OutOfMemory` when the result cannot be allocated.
    #[plain_form]
    pub fn try_std<A: AxisList>(&self, correction: i64) -> Result<Tensor<T, Reduced<S, A, op::std>>>
    where
        S: crate::shape::axes::ReduceOver<A, crate::shape::axes::NoKeepdim, op::std>,
    {
        fit(self.inner.std(&A::indices(), correction, false))
    }

    /// [`Tensor::std`] keeping the reduced dims as 1.
    ///
    /// # Errors
    /// `OutOfMemory` when the result cannot be allocated.
    #[plain_form]
    pub fn try_std_keepdim<A: AxisList>(
        &self,
        correction: i64,
    ) -> Result<Tensor<T, ReducedKeepdim<S, A, op::std>>>
    where
        S: crate::shape::axes::ReduceOver<A, crate::shape::axes::Keepdim, op::std>,
    {
        fit(self.inner.std(&A::indices(), correction, true))
    }
}

impl<T: Element, S: Shape> Tensor<T, S> {
    /// `self` with `value` where `mask` is true; `mask` broadcasts to `self`'s shape.
    /// Mirrors `x.masked_fill(mask, value)`. Compile error: a mask that does not
    /// broadcast to `self`.
    ///
    /// # Errors
    /// PyTorch's broadcast error for a `Dyn` mask dim that does not fit; the overflow
    /// error for a `value` outside `T`; `OutOfMemory`.
    #[plain_form]
    pub fn try_masked_fill<M: Shape>(
        &self,
        mask: &Tensor<bool, M>,
        value: impl Into<Scalar>,
    ) -> Result<Tensor<T, S>>
    where
        S: InplaceBroadcast<M, op::masked_fill>,
    {
        fit(self.inner.masked_fill(&mask.inner, value))
    }

    /// The lower triangle (on and below diagonal `K` of the last two dims). Mirrors
    /// `torch.tril(x, K)`. Compile error: fewer than 2 dims.
    ///
    /// # Errors
    /// `OutOfMemory` when the result cannot be allocated.
    #[plain_form]
    pub fn try_tril<const K: i64>(&self) -> Result<Tensor<T, S>>
    where
        RankOf<S>: AtLeast2,
        Blame<<RankOf<S> as AtLeast2>::Output, S>: MatrixOk<op::tril, S>,
    {
        fit(self.inner.tril(K))
    }

    /// The upper triangle. Mirrors `torch.triu(x, K)`.
    ///
    /// # Errors
    /// `OutOfMemory` when the result cannot be allocated.
    #[plain_form]
    pub fn try_triu<const K: i64>(&self) -> Result<Tensor<T, S>>
    where
        RankOf<S>: AtLeast2,
        Blame<<RankOf<S> as AtLeast2>::Output, S>: MatrixOk<op::triu, S>,
    {
        fit(self.inner.triu(K))
    }
}

/// Layer norm of `x` over its trailing dims, the shape of `weight` and `bias`. Mirrors
/// `F.layer_norm(x, weight.shape, weight, bias, eps)`. Compile error: `weight`'s shape
/// is not the trailing dims of `x`.
///
/// # Errors
/// With PyTorch's message when `Dyn` dims do not fit, or when memory runs out; see
/// [`try_layer_norm`].
#[plain_form(free)]
pub fn try_layer_norm<T: Float, S: NormalizedBy<W>, W: Shape>(
    x: &Tensor<T, S>,
    weight: &Tensor<T, W>,
    bias: &Tensor<T, W>,
    eps: f64,
) -> Result<Tensor<T, S>> {
    fit(tensor_core::nn::layer_norm(
        &x.inner,
        weight.dims(),
        Some(&weight.inner),
        Some(&bias.inner),
        eps,
    ))
}

/// Mean cross-entropy of `logits` `[N, C]` against class ids `targets` `[N]` (int64): a
/// 0-d tensor. Mirrors `F.cross_entropy(logits, targets)`. Compile error: batch dims
/// that differ.
///
/// # Errors
/// With PyTorch's message for an id outside `0..C` or `Dyn` batch dims that differ; see
/// [`try_cross_entropy`].
#[plain_form(free)]
pub fn try_cross_entropy<T: Float, N: Dim, C: Dim, N2: Dim>(
    logits: &Tensor<T, (N, C)>,
    targets: &Tensor<i64, (N2,)>,
) -> Result<Tensor<T, ()>>
where
    (N, C): CrossEntropyWith<(N2,)>,
{
    fit(tensor_core::nn::cross_entropy(
        &logits.inner,
        &targets.inner,
        tensor_core::nn::Reduction::Mean,
    ))
}
