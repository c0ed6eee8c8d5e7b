//! The global ops that normalise over dims: `softmax`, `log_softmax` (over one dim) and
//! `layer_norm` (over the trailing dims). Each output element depends on every element
//! of its row along the normalised dims, so those dims must be whole on every rank: a
//! split of another dim passes through (each rank normalises its own rows), a split of
//! a normalised dim is broadcast first. None of them commutes with a sum, max or min of
//! shards, so a partial input is broadcast first too. OneFlow's `softmax` and
//! `layer_norm` kernels state the same signatures (`GetSbp`: split along any dim but
//! the normalised ones).

use super::apply::stand_in;
use super::global_tensor::GlobalTensor;
use super::ops::Signature;
use super::sbp::Sbp;
use crate::error::Result;
use crate::nn::{check_layer_norm_inputs, layer_norm, log_softmax, softmax};
use crate::tensor::Tensor;

/// The signature of `softmax` / `log_softmax` over `dim` (already wrapped) of an input
/// with SBP `sbp`: `Split(d)` with `d != dim` passes through (inputs `[Split(d)]`,
/// output `Split(d)`); `Split(dim)` is broadcast first (inputs `[Broadcast]`, output
/// `Broadcast`); `Broadcast` stays; a partial input (sum, max or min) is broadcast
/// first, since softmax of a reduction of shards is not a reduction of their softmaxes.
#[cfg_attr(unoptimized, inline)]
pub fn softmax_signature(sbp: Sbp, dim: usize) -> Signature {
    let kept = match sbp {
        Sbp::Split(d) if d != dim => sbp,
        _ => Sbp::Broadcast,
    };
    Signature {
        inputs: vec![kept],
        output: kept,
    }
}

/// The signature of `layer_norm` of an input of `ndim` dims with SBP `sbp`, normalised
/// over its last `normalized` dims, with `params` affine parameters (0, 1 for a weight
/// or a bias alone, 2 for both): the input's `Split(d)` with `d < ndim - normalized`
/// passes through; a split of a normalised dim is broadcast first; `Broadcast` stays; a
/// partial input is broadcast first. Every parameter is boxed to `Broadcast` (each rank
/// needs all of it). `inputs` is the input's SBP, then one `Broadcast` per parameter;
/// the output has the input's boxed SBP.
#[cfg_attr(unoptimized, inline)]
pub fn layer_norm_signature(sbp: Sbp, ndim: usize, normalized: usize, params: usize) -> Signature {
    let kept = match sbp {
        Sbp::Split(d) if d + normalized < ndim => sbp,
        _ => Sbp::Broadcast,
    };
    let mut inputs = vec![kept];
    inputs.extend(std::iter::repeat_n(Sbp::Broadcast, params));
    Signature {
        inputs,
        output: kept,
    }
}

impl GlobalTensor {
    /// `softmax` or `log_softmax` (`f`) over `dim`, checked on a stand-in of the logical
    /// call first: one element per dim of at least one element (no element where the
    /// logical tensor has none), so the stand-in fails exactly when the logical op does,
    /// with its message, on every rank (an empty shard alone would not refuse an integer
    /// dtype).
    #[cfg_attr(unoptimized, inline)]
    fn normalise_dim(
        &self,
        name: &'static str,
        dim: i64,
        f: fn(&Tensor, i64) -> Result<Tensor>,
    ) -> Result<GlobalTensor> {
        let ones: Vec<usize> = self.sizes().iter().map(|&s| s.min(1)).collect();
        f(&stand_in(&ones, self.dtype())?, dim)?;
        let wrapped = crate::layout::wrap_dim(dim, self.dim())?;
        let sig = softmax_signature(self.sbp(), wrapped);
        let x = self.boxed(name, sig.inputs[0])?;
        let local = f(x.local(), dim)?;
        self.with_local(local, self.sizes(), sig.output)
    }

    /// `torch.softmax(self, dim)` (OneFlow's `flow.softmax` on a global tensor): the
    /// signature of [`softmax_signature`]: a split of another dim passes through, a split
    /// of `dim` and a partial input are broadcast first. The output has the logical
    /// sizes and dtype; gradients flow through the shards' softmax and the boxing.
    ///
    /// # Errors
    /// The logical call's, on every rank before any communication:
    /// [`Error::DimOutOfRange`](crate::error::Error::DimOutOfRange) (`Dimension out of
    /// range (expected to be in range of [-2, 1], but got 2)`);
    /// [`Error::UnsupportedDType`](crate::error::Error::UnsupportedDType) for a non-float
    /// tensor with elements (`"softmax_lastdim_kernel_impl" not implemented for
    /// 'Long'`). A collective's.
    #[cfg_attr(unoptimized, inline)]
    pub fn softmax(&self, dim: i64) -> Result<GlobalTensor> {
        self.normalise_dim("softmax", dim, softmax)
    }

    /// `torch.log_softmax(self, dim)` (OneFlow's `flow.log_softmax` on a global tensor):
    /// SBPs as [`GlobalTensor::softmax`].
    ///
    /// # Errors
    /// As [`GlobalTensor::softmax`] (`"log_softmax_lastdim_kernel_impl" not implemented
    /// for 'Long'`).
    #[cfg_attr(unoptimized, inline)]
    pub fn log_softmax(&self, dim: i64) -> Result<GlobalTensor> {
        self.normalise_dim("log_softmax", dim, log_softmax)
    }

    /// `torch.nn.functional.layer_norm(self, normalized_shape, weight, bias, eps)`
    /// (OneFlow's `flow.nn.functional.layer_norm` on global tensors): normalises over the
    /// trailing dims `normalized_shape`, then scales by `weight` and shifts by `bias`
    /// (each of shape `normalized_shape`, optional, on the same placement). The signature
    /// of [`layer_norm_signature`]: a split of a leading dim passes through, a split of a
    /// normalised dim and a partial input are broadcast first; the parameters are
    /// broadcast. Gradients flow to the input and the parameters (a parameter's gradient
    /// is `PartialSum` where the input is split: each rank's rows' share).
    ///
    /// # Errors
    /// Different placements; the logical call's, with PyTorch's messages, on every rank
    /// before any communication ([`Error::InvalidArgument`](crate::error::Error::InvalidArgument):
    /// an empty `normalized_shape`, `Expected weight to be of same shape as
    /// normalized_shape, but got weight of shape [4] and normalized_shape = [3]`,
    /// `Given normalized_shape=[3, 5], expected input with shape [*, 3, 5], but got input
    /// of size[3, 4]`, mixed dtypes); the local op's
    /// ([`Error::UnsupportedDType`](crate::error::Error::UnsupportedDType) for a non-float
    /// input: `"LayerNormKernelImpl" not implemented for 'Long'`); a collective's.
    #[cfg_attr(unoptimized, inline)]
    pub fn layer_norm(
        &self,
        normalized_shape: &[usize],
        weight: Option<&GlobalTensor>,
        bias: Option<&GlobalTensor>,
        eps: f64,
    ) -> Result<GlobalTensor> {
        let params: Vec<&GlobalTensor> = weight.into_iter().chain(bias).collect();
        for p in &params {
            self.check_same_placement(p, "layer_norm")?;
        }
        let logical = |t: &GlobalTensor| stand_in(t.sizes(), t.dtype());
        let (w, b) = (
            weight.map(logical).transpose()?,
            bias.map(logical).transpose()?,
        );
        check_layer_norm_inputs(&logical(self)?, normalized_shape, w.as_ref(), b.as_ref())?;
        let sig =
            layer_norm_signature(self.sbp(), self.dim(), normalized_shape.len(), params.len());
        let x = self.boxed("layer_norm", sig.inputs[0])?;
        let boxed =
            |p: Option<&GlobalTensor>| p.map(|p| p.boxed("layer_norm", Sbp::Broadcast)).transpose();
        let (w, b) = (boxed(weight)?, boxed(bias)?);
        let local = layer_norm(
            x.local(),
            normalized_shape,
            w.as_ref().map(GlobalTensor::local),
            b.as_ref().map(GlobalTensor::local),
            eps,
        )?;
        self.with_local(local, self.sizes(), sig.output)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Sbp::*;

    fn passes(sbp: Sbp, params: usize) -> Signature {
        let mut inputs = vec![sbp];
        inputs.extend(std::iter::repeat_n(Broadcast, params));
        Signature {
            inputs,
            output: sbp,
        }
    }

    #[test]
    fn softmax_keeps_a_split_of_another_dim_and_broadcasts_the_rest() {
        // A [4, 5, 6] tensor over dim 1.
        assert_eq!(softmax_signature(Split(0), 1), passes(Split(0), 0));
        assert_eq!(softmax_signature(Split(2), 1), passes(Split(2), 0));
        assert_eq!(softmax_signature(Split(1), 1), passes(Broadcast, 0));
        assert_eq!(softmax_signature(Broadcast, 1), passes(Broadcast, 0));
        for p in [PartialSum, PartialMax, PartialMin] {
            assert_eq!(softmax_signature(p, 1), passes(Broadcast, 0));
        }
        // Over the last dim of a 1-D tensor: its only split is of the softmax dim.
        assert_eq!(softmax_signature(Split(0), 0), passes(Broadcast, 0));
    }

    #[test]
    fn layer_norm_keeps_a_split_of_a_leading_dim_and_broadcasts_the_params() {
        // A [4, 5, 6] tensor normalised over [5, 6]: dim 0 leads, dims 1 and 2 are
        // normalised.
        for params in 0..=2 {
            let sig = |sbp| layer_norm_signature(sbp, 3, 2, params);
            assert_eq!(sig(Split(0)), passes(Split(0), params));
            assert_eq!(sig(Split(1)), passes(Broadcast, params));
            assert_eq!(sig(Split(2)), passes(Broadcast, params));
            assert_eq!(sig(Broadcast), passes(Broadcast, params));
            for p in [PartialSum, PartialMax, PartialMin] {
                assert_eq!(sig(p), passes(Broadcast, params));
            }
        }
        // Normalised over the last dim only: dims 0 and 1 lead.
        assert_eq!(layer_norm_signature(Split(1), 3, 1, 2), passes(Split(1), 2));
        assert_eq!(
            layer_norm_signature(Split(2), 3, 1, 1),
            Signature {
                inputs: vec![Broadcast, Broadcast],
                output: Broadcast
            }
        );
        // Normalised over every dim: nothing may stay split.
        assert_eq!(
            layer_norm_signature(Split(0), 2, 2, 0),
            passes(Broadcast, 0)
        );
    }
}
