//! Typed softmax, log_softmax, the activations (gelu, gelu_tanh, silu), layer_norm,
//! cross_entropy, masked_fill, tril/triu and var/std over axes. Shapes are kept (or
//! reduced as the axes say); dims and shape agreements are compile-time checks where
//! static, run-time checks with PyTorch's message where `Dyn`.

use crate::ops::dims::fit;
use crate::ops::inplace::InplaceBroadcast;
use crate::ops::or_panic;
use crate::ops::reduction::Float;
use crate::shape::axes::{AxisList, Reduced, ReducedKeepdim};
use crate::shape::dims::{AtLeast2, DimOkOf, RankOf, SDim, WrapDim};
use crate::shape::nn_rules::{CrossEntropyWith, NormalizedBy};
use crate::shape::Shape;
use crate::tensor::Tensor;
use crate::typelevel::checks::{Blame, DimInRange, MatrixOk};
use crate::typelevel::dim::Dim;
use crate::typelevel::op;
use tensor_core::{Element, Result, Scalar};

impl<T: Float, S: Shape> Tensor<T, S> {
    /// Softmax over dim `D` (`-1`: the last). Mirrors `torch.softmax(x, D)`. Compile
    /// error: `D` out of range.
    ///
    /// # Panics
    /// When the result cannot be allocated (the `OutOfMemory` error's message); see
    /// [`Tensor::try_softmax`].
    #[track_caller]
    pub fn softmax<const D: isize>(&self) -> Tensor<T, S>
    where
        SDim<D>: WrapDim<RankOf<S>>,
        DimOkOf<S, D>: DimInRange<op::softmax, S, D>,
    {
        or_panic(self.try_softmax::<D>())
    }

    /// [`Tensor::softmax`], returning the error.
    ///
    /// # Errors
    /// `OutOfMemory` when the result cannot be allocated.
    pub fn try_softmax<const D: isize>(&self) -> Result<Tensor<T, S>>
    where
        SDim<D>: WrapDim<RankOf<S>>,
        DimOkOf<S, D>: DimInRange<op::softmax, S, D>,
    {
        fit(self.inner.softmax(D as i64))
    }

    /// Log-softmax over dim `D`. Mirrors `torch.log_softmax(x, D)`.
    ///
    /// # Panics
    /// When the result cannot be allocated (the `OutOfMemory` error's message); see
    /// [`Tensor::try_log_softmax`].
    #[track_caller]
    pub fn log_softmax<const D: isize>(&self) -> Tensor<T, S>
    where
        SDim<D>: WrapDim<RankOf<S>>,
        DimOkOf<S, D>: DimInRange<op::log_softmax, S, D>,
    {
        or_panic(self.try_log_softmax::<D>())
    }

    /// [`Tensor::log_softmax`], returning the error.
    ///
    /// # Errors
    /// `OutOfMemory` when the result cannot be allocated.
    pub fn try_log_softmax<const D: isize>(&self) -> Result<Tensor<T, S>>
    where
        SDim<D>: WrapDim<RankOf<S>>,
        DimOkOf<S, D>: DimInRange<op::log_softmax, S, D>,
    {
        fit(self.inner.log_softmax(D as i64))
    }

    /// GELU (exact, with erf). Mirrors `F.gelu(x)`.
    ///
    /// # Panics
    /// When the result cannot be allocated (the `OutOfMemory` error's message); see
    /// [`Tensor::try_gelu`].
    #[track_caller]
    pub fn gelu(&self) -> Tensor<T, S> {
        or_panic(self.try_gelu())
    }

    /// [`Tensor::gelu`], returning the error.
    ///
    /// # Errors
    /// `OutOfMemory` when the result cannot be allocated.
    pub fn try_gelu(&self) -> Result<Tensor<T, S>> {
        fit(self.inner.gelu())
    }

    /// GELU with the tanh approximation. Mirrors `F.gelu(x, approximate="tanh")`.
    ///
    /// # Panics
    /// When the result cannot be allocated (the `OutOfMemory` error's message); see
    /// [`Tensor::try_gelu_tanh`].
    #[track_caller]
    pub fn gelu_tanh(&self) -> Tensor<T, S> {
        or_panic(self.try_gelu_tanh())
    }

    /// [`Tensor::gelu_tanh`], returning the error.
    ///
    /// # Errors
    /// `OutOfMemory` when the result cannot be allocated.
    pub fn try_gelu_tanh(&self) -> Result<Tensor<T, S>> {
        fit(self.inner.gelu_tanh())
    }

    /// SiLU (`x · sigmoid(x)`). Mirrors `F.silu(x)`.
    ///
    /// # Panics
    /// When the result cannot be allocated (the `OutOfMemory` error's message); see
    /// [`Tensor::try_silu`].
    #[track_caller]
    pub fn silu(&self) -> Tensor<T, S> {
        or_panic(self.try_silu())
    }

    /// [`Tensor::silu`], returning the error.
    ///
    /// # Errors
    /// `OutOfMemory` when the result cannot be allocated.
    pub fn try_silu(&self) -> Result<Tensor<T, S>> {
        fit(self.inner.silu())
    }

    /// Variance over the axes `A` with Bessel's `correction` (1: unbiased). Mirrors
    /// `torch.var(x, dim=A, correction=correction)`.
    ///
    /// # Panics
    /// When the result cannot be allocated (the `OutOfMemory` error's message); see
    /// [`Tensor::try_var`].
    #[track_caller]
    pub fn var<A: AxisList>(&self, correction: i64) -> Tensor<T, Reduced<S, A, op::var>>
    where
        S: crate::shape::axes::ReduceOver<A, crate::shape::axes::NoKeepdim, op::var>,
    {
        or_panic(self.try_var::<A>(correction))
    }

    /// [`Tensor::var`], returning the error.
    ///
    /// # Errors
    /// `OutOfMemory` when the result cannot be allocated.
    pub fn try_var<A: AxisList>(&self, correction: i64) -> Result<Tensor<T, Reduced<S, A, op::var>>>
    where
        S: crate::shape::axes::ReduceOver<A, crate::shape::axes::NoKeepdim, op::var>,
    {
        fit(self.inner.var(&A::indices(), correction, false))
    }

    /// [`Tensor::var`] keeping the reduced dims as 1.
    ///
    /// # Panics
    /// When the result cannot be allocated (the `OutOfMemory` error's message); see
    /// [`Tensor::try_var_keepdim`].
    #[track_caller]
    pub fn var_keepdim<A: AxisList>(
        &self,
        correction: i64,
    ) -> Tensor<T, ReducedKeepdim<S, A, op::var>>
    where
        S: crate::shape::axes::ReduceOver<A, crate::shape::axes::Keepdim, op::var>,
    {
        or_panic(self.try_var_keepdim::<A>(correction))
    }

    /// [`Tensor::var_keepdim`], returning the error.
    ///
    /// # Errors
    /// `OutOfMemory` when the result cannot be allocated.
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
    /// # Panics
    /// When the result cannot be allocated (the `OutOfMemory` error's message); see
    /// [`Tensor::try_std`].
    #[track_caller]
    pub fn std<A: AxisList>(&self, correction: i64) -> Tensor<T, Reduced<S, A, op::std>>
    where
        S: crate::shape::axes::ReduceOver<A, crate::shape::axes::NoKeepdim, op::std>,
    {
        or_panic(self.try_std::<A>(correction))
    }

    /// [`Tensor::std`], returning the error.
    ///
    /// # Errors
    /// `OutOfMemory` when the result cannot be allocated.
    pub fn try_std<A: AxisList>(&self, correction: i64) -> Result<Tensor<T, Reduced<S, A, op::std>>>
    where
        S: crate::shape::axes::ReduceOver<A, crate::shape::axes::NoKeepdim, op::std>,
    {
        fit(self.inner.std(&A::indices(), correction, false))
    }

    /// [`Tensor::std`] keeping the reduced dims as 1.
    ///
    /// # Panics
    /// When the result cannot be allocated (the `OutOfMemory` error's message); see
    /// [`Tensor::try_std_keepdim`].
    #[track_caller]
    pub fn std_keepdim<A: AxisList>(
        &self,
        correction: i64,
    ) -> Tensor<T, ReducedKeepdim<S, A, op::std>>
    where
        S: crate::shape::axes::ReduceOver<A, crate::shape::axes::Keepdim, op::std>,
    {
        or_panic(self.try_std_keepdim::<A>(correction))
    }

    /// [`Tensor::std_keepdim`], returning the error.
    ///
    /// # Errors
    /// `OutOfMemory` when the result cannot be allocated.
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
    /// # Panics
    /// With PyTorch's message when a `Dyn` dim of `mask` does not broadcast to `self`,
    /// when `value` does not fit `T`, or when memory runs out; see
    /// [`Tensor::try_masked_fill`].
    #[track_caller]
    pub fn masked_fill<M: Shape>(
        &self,
        mask: &Tensor<bool, M>,
        value: impl Into<Scalar>,
    ) -> Tensor<T, S>
    where
        S: InplaceBroadcast<M, op::masked_fill>,
    {
        or_panic(self.try_masked_fill(mask, value))
    }

    /// [`Tensor::masked_fill`], returning the error.
    ///
    /// # Errors
    /// PyTorch's broadcast error for a `Dyn` mask dim that does not fit; the overflow
    /// error for a `value` outside `T`; `OutOfMemory`.
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
    /// # Panics
    /// When the result cannot be allocated (the `OutOfMemory` error's message); see
    /// [`Tensor::try_tril`].
    #[track_caller]
    pub fn tril<const K: i64>(&self) -> Tensor<T, S>
    where
        RankOf<S>: AtLeast2,
        Blame<<RankOf<S> as AtLeast2>::Output, S>: MatrixOk<op::tril, S>,
    {
        or_panic(self.try_tril::<K>())
    }

    /// [`Tensor::tril`], returning the error.
    ///
    /// # Errors
    /// `OutOfMemory` when the result cannot be allocated.
    pub fn try_tril<const K: i64>(&self) -> Result<Tensor<T, S>>
    where
        RankOf<S>: AtLeast2,
        Blame<<RankOf<S> as AtLeast2>::Output, S>: MatrixOk<op::tril, S>,
    {
        fit(self.inner.tril(K))
    }

    /// The upper triangle. Mirrors `torch.triu(x, K)`.
    ///
    /// # Panics
    /// When the result cannot be allocated (the `OutOfMemory` error's message); see
    /// [`Tensor::try_triu`].
    #[track_caller]
    pub fn triu<const K: i64>(&self) -> Tensor<T, S>
    where
        RankOf<S>: AtLeast2,
        Blame<<RankOf<S> as AtLeast2>::Output, S>: MatrixOk<op::triu, S>,
    {
        or_panic(self.try_triu::<K>())
    }

    /// [`Tensor::triu`], returning the error.
    ///
    /// # Errors
    /// `OutOfMemory` when the result cannot be allocated.
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
/// # Panics
/// With PyTorch's message when `Dyn` dims do not fit, or when memory runs out; see
/// [`try_layer_norm`].
#[track_caller]
pub fn layer_norm<T: Float, S: NormalizedBy<W>, W: Shape>(
    x: &Tensor<T, S>,
    weight: &Tensor<T, W>,
    bias: &Tensor<T, W>,
    eps: f64,
) -> Tensor<T, S> {
    or_panic(try_layer_norm(x, weight, bias, eps))
}

/// [`layer_norm`], returning PyTorch's error for `Dyn` dims that do not fit.
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
/// # Panics
/// With PyTorch's message for an id outside `0..C` or `Dyn` batch dims that differ; see
/// [`try_cross_entropy`].
#[track_caller]
pub fn cross_entropy<T: Float, N: Dim, C: Dim, N2: Dim>(
    logits: &Tensor<T, (N, C)>,
    targets: &Tensor<i64, (N2,)>,
) -> Tensor<T, ()>
where
    (N, C): CrossEntropyWith<(N2,)>,
{
    or_panic(try_cross_entropy(logits, targets))
}

/// [`cross_entropy`], returning PyTorch's error.
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
