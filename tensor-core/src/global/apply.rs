//! The ops on [`GlobalTensor`]: check the logical call (so an error is the same on
//! every rank, before any communication), deduce the signature (`ops.rs`), box the
//! inputs to it, run the ordinary runtime op on each rank's shard, and wrap the result
//! with the shape inference checked.

use super::global_tensor::GlobalTensor;
use super::infer::{infer_expand, physical_shape};
use super::ops::{
    binary_partial, elementwise_signature, expand_signature, matmul_signature, permute_signature,
    reduce_signature, reshape_signature, unary_signature, ReduceKind,
};
use super::sbp::Sbp;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::iterator::{result_type, Operand};
use crate::layout::{
    broadcast_shapes, contiguous_strides, infer_expand_geometry, infer_size, wrap_dims,
};
use crate::ops::BinaryOp;
use crate::ops::{PartialRule, UnaryOp};
use crate::scalar::Scalar;
use crate::shape_ops::repeat_decomposition;
use crate::tensor::Tensor;

#[cfg_attr(unoptimized, inline)]
fn as_i64(v: &[usize]) -> Vec<i64> {
    v.iter().map(|&s| s as i64).collect()
}

/// A view of the logical sizes over one element (no data), to check view-only ops
/// against the logical shape with PyTorch's own errors.
#[cfg_attr(unoptimized, inline)]
pub(super) fn stand_in(sizes: &[usize], dtype: DType) -> Result<Tensor> {
    Tensor::scalar_of(Scalar::Int(0), dtype).expand(&as_i64(sizes))
}

impl GlobalTensor {
    /// A unary op on every shard, with the signature its [`PartialRule`] gives.
    fn unary_with(
        &self,
        name: &'static str,
        rule: PartialRule,
        f: impl Fn(&Tensor) -> Result<Tensor>,
    ) -> Result<GlobalTensor> {
        let sig = unary_signature(rule, self.sbp(), self.dtype().is_floating());
        let x = self.boxed(name, sig.inputs[0])?;
        let local = f(x.local())?;
        self.with_local(local, self.sizes(), sig.output)
    }

    /// The unary op `op` ([`Tensor::unary`]) on every shard: split and broadcast pass
    /// through; a partial input stays partial where the op's
    /// [`UnaryOp::partial_rule`] allows (`neg`: `P(sum)` stays, for floats `P(max)` ↔
    /// `P(min)`; `relu`: `P(max)`/`P(min)` stay), else it is broadcast first. Every op of
    /// the table also has its own method (`GlobalTensor::exp`, ...).
    ///
    /// # Errors
    /// The local op's (bool where refused); a collective's.
    #[cfg_attr(unoptimized, inline)]
    pub fn unary(&self, op: UnaryOp) -> Result<GlobalTensor> {
        self.unary_with(op.name(), op.partial_rule(), |t| t.unary(op))
    }

    /// `Tensor.to(dtype)` on every shard (a partial input is broadcast first).
    ///
    /// # Errors
    /// The local op's; a collective's.
    #[cfg_attr(unoptimized, inline)]
    pub fn to_dtype(&self, dtype: DType) -> Result<GlobalTensor> {
        self.unary_with("to", PartialRule::Broadcasts, |t| t.to_dtype(dtype))
    }

    /// `op(self, other)` for any [`BinaryOp`] with broadcasting on the logical sizes
    /// (`x.binary(BinaryOp::Add, &y)` is `x.add(&y)`); the output keeps the partial SBP
    /// of [`BinaryOp::partial_rule`], other partial inputs are broadcast first.
    ///
    /// # Errors
    /// Different placements; [`Error::Broadcast`](crate::error::Error::Broadcast) on the
    /// logical sizes; the local op's; a collective's.
    #[cfg_attr(unoptimized, inline)]
    pub fn binary(&self, op: BinaryOp, other: &GlobalTensor) -> Result<GlobalTensor> {
        self.binary_with(other, op, |a, b| a.binary(op, b))
    }

    fn binary_with(
        &self,
        other: &GlobalTensor,
        kind: BinaryOp,
        f: impl Fn(&Tensor, &Tensor) -> Result<Tensor>,
    ) -> Result<GlobalTensor> {
        self.check_same_placement(other, kind.name())?;
        let out = broadcast_shapes(self.sizes(), other.sizes())?;
        let mut out_dtype = result_type(&[
            Operand::Tensor(self.local()),
            Operand::Tensor(other.local()),
        ]);
        if kind.is_float_op() && !out_dtype.is_floating() {
            out_dtype = DType::F32;
        }
        let partial = binary_partial(
            kind,
            (self.sbp(), self.dtype()),
            (other.sbp(), other.dtype()),
            out_dtype,
        );
        let sig = elementwise_signature(
            &[self.sizes(), other.sizes()],
            &[self.sbp(), other.sbp()],
            &out,
            partial,
        );
        let (a, b) = (
            self.boxed(kind.name(), sig.inputs[0])?,
            other.boxed(kind.name(), sig.inputs[1])?,
        );
        let local = f(a.local(), b.local())?;
        self.with_local(local, &out, sig.output)
    }

    fn reduce(
        &self,
        kind: ReduceKind,
        dims: &[i64],
        keepdim: bool,
        f: impl Fn(&Tensor, &[i64], bool) -> Result<Tensor>,
    ) -> Result<GlobalTensor> {
        let wrapped = wrap_dims(dims, self.dim())?;
        let reduced: Vec<usize> = if dims.is_empty() {
            (0..self.dim()).collect()
        } else {
            wrapped
        };
        let out: Vec<usize> = (0..self.dim())
            .filter_map(|d| match (reduced.contains(&d), keepdim) {
                (false, _) => Some(self.sizes()[d]),
                (true, true) => Some(1),
                (true, false) => None,
            })
            .collect();
        let dtype_kept = !self.dtype().is_integral(true) || self.dtype() == DType::I64;
        let sig = reduce_signature(
            kind,
            self.sizes(),
            self.sbp(),
            &reduced,
            keepdim,
            self.placement().len(),
            dtype_kept,
        );
        let x = self.boxed(kind.name(), sig.inputs[0])?;
        let local = f(x.local(), dims, keepdim)?;
        self.with_local(local, &out, sig.output)
    }

    /// `torch.sum(self, dims, keepdim)` (empty `dims` = all): a sum over the split dim
    /// gives `PartialSum`.
    ///
    /// # Errors
    /// [`Error::DimOutOfRange`], [`Error::DuplicateDim`] on the logical dims; a
    /// collective's.
    #[cfg_attr(unoptimized, inline)]
    pub fn sum(&self, dims: &[i64], keepdim: bool) -> Result<GlobalTensor> {
        self.reduce(ReduceKind::Sum, dims, keepdim, Tensor::sum)
    }

    /// `torch.amax(self, dims, keepdim)`: a max over the split dim gives `PartialMax`.
    ///
    /// # Errors
    /// As [`GlobalTensor::sum`]; the local op's for an empty reduced dim (the same on
    /// every rank: a split that would leave a shard empty is broadcast first).
    #[cfg_attr(unoptimized, inline)]
    pub fn amax(&self, dims: &[i64], keepdim: bool) -> Result<GlobalTensor> {
        self.reduce(ReduceKind::Amax, dims, keepdim, Tensor::amax)
    }

    /// `torch.amin(self, dims, keepdim)`: a min over the split dim gives `PartialMin`.
    ///
    /// # Errors
    /// As [`GlobalTensor::amax`].
    #[cfg_attr(unoptimized, inline)]
    pub fn amin(&self, dims: &[i64], keepdim: bool) -> Result<GlobalTensor> {
        self.reduce(ReduceKind::Amin, dims, keepdim, Tensor::amin)
    }

    /// `torch.matmul` of two 2-D global tensors, with the signatures
    /// `S(0)·B → S(0)`, `B·S(1) → S(1)`, `S(1)·S(0) → P(sum)`, `P(sum)·B → P(sum)`.
    ///
    /// # Errors
    /// Different placements; an [`Error::InvalidArgument`] for operands that are not 2-D;
    /// [`Error::MatmulShape`] (`mm: mat1 and mat2 shapes cannot be multiplied (2x3 and
    /// 4x5)`) on the logical sizes; the local op's (dtypes).
    #[cfg_attr(unoptimized, inline)]
    pub fn matmul(&self, other: &GlobalTensor) -> Result<GlobalTensor> {
        self.check_same_placement(other, "matmul")?;
        let (a, b) = (self.sizes(), other.sizes());
        if a.len() != 2 || b.len() != 2 {
            return Err(Error::InvalidArgument {
                op: "matmul",
                message: format!(
                    "global matmul takes 2-D tensors, got {}D and {}D",
                    a.len(),
                    b.len()
                ),
            });
        }
        if a[1] != b[0] {
            return Err(Error::MatmulShape {
                message: format!(
                    "mm: mat1 and mat2 shapes cannot be multiplied ({}x{} and {}x{})",
                    a[0], a[1], b[0], b[1]
                ),
            });
        }
        let sig = matmul_signature(self.sbp(), other.sbp());
        let (x, y) = (
            self.boxed("matmul", sig.inputs[0])?,
            other.boxed("matmul", sig.inputs[1])?,
        );
        let local = x.local().matmul(y.local())?;
        self.with_local(local, &[a[0], b[1]], sig.output)
    }

    /// `Tensor.expand(sizes)`: each rank expands its shard with the physical
    /// `expand_size` of [`infer_expand`] (the split dim's logical size replaced by the
    /// shard's), as OneFlow's kernel does; a split of a dim expanded from 1 is broadcast
    /// first. The result is a view of the (boxed) input's shard.
    ///
    /// # Errors
    /// The logical call's (PyTorch's expand messages); a collective's.
    #[cfg_attr(unoptimized, inline)]
    pub fn expand(&self, sizes: &[i64]) -> Result<GlobalTensor> {
        let strides = contiguous_strides(self.sizes());
        if sizes.len() < self.dim() {
            return Err(Error::ExpandTooFewSizes {
                dtype: self.dtype(),
                sizes: self.sizes().to_vec(),
                target_sizes: sizes.to_vec(),
            });
        }
        let (out, _) = infer_expand_geometry(self.sizes(), &strides, sizes)?;
        let sig = expand_signature(self.sizes(), self.sbp(), &out);
        let x = self.boxed("expand", sig.inputs[0])?;
        let inf = infer_expand(
            self.sizes(),
            &strides,
            x.local().strides(),
            x.sbp(),
            self.placement().len(),
            self.parallel_index(),
            sizes,
        )?;
        let local = x.local().expand(&inf.physical_expand_size)?;
        self.with_local(local, &inf.logical_sizes, inf.sbp)
    }

    /// `Tensor.repeat(repeats)` decomposed into reshape → expand → reshape
    /// ([`crate::shape_ops::repeat_decomposition`]), each a global op; a split of a repeated dim is
    /// broadcast first. The result is a fresh tensor on every rank.
    ///
    /// # Errors
    /// [`crate::shape_ops::repeat_decomposition`]'s on the logical sizes; a collective's.
    #[cfg_attr(unoptimized, inline)]
    pub fn repeat(&self, repeats: &[i64]) -> Result<GlobalTensor> {
        let plan = repeat_decomposition(self.sizes(), repeats)?;
        let new_dims = repeats.len() - self.dim();
        let x = match self.sbp() {
            Sbp::Split(d) if repeats[d + new_dims] != 1 => self.boxed("repeat", Sbp::Broadcast)?,
            _ => self.clone(),
        };
        let y = x
            .reshape(&as_i64(&plan.input_shape))?
            .expand(&as_i64(&plan.expand_sizes))?
            .reshape(&as_i64(&plan.output_shape))?;
        let local = y.local().contiguous()?;
        self.with_local(local, y.sizes(), y.sbp())
    }

    fn reshape_with(
        &self,
        shape: &[i64],
        f: impl Fn(&Tensor, &[i64]) -> Result<Tensor>,
    ) -> Result<GlobalTensor> {
        let numel = crate::layout::checked_numel(self.sizes(), "reshape")?;
        let out = infer_size(shape, numel)?;
        let sig = reshape_signature(self.sizes(), self.sbp(), &out);
        let x = self.boxed("reshape", sig.inputs[0])?;
        let local_out = physical_shape(
            &out,
            sig.output,
            self.placement().len(),
            self.parallel_index(),
        )?;
        let local = f(x.local(), &as_i64(&local_out))?;
        self.with_local(local, &out, sig.output)
    }

    /// `Tensor.reshape(shape)` (one `-1` inferred from the logical element count): a
    /// split survives when its dim maps one-to-one to an output dim with the same
    /// elements before it; otherwise the input is broadcast first.
    ///
    /// # Errors
    /// [`crate::layout::infer_size`]'s on the logical sizes (`shape '[5]' is invalid for input of
    /// size 6`); a collective's.
    #[cfg_attr(unoptimized, inline)]
    pub fn reshape(&self, shape: &[i64]) -> Result<GlobalTensor> {
        self.reshape_with(shape, Tensor::reshape)
    }

    /// `Tensor.view(shape)`: [`GlobalTensor::reshape`]'s SBP rule, each shard viewed.
    ///
    /// # Errors
    /// As [`GlobalTensor::reshape`]; [`Error::ViewIncompatible`] when a shard's strides
    /// cannot be viewed so.
    #[cfg_attr(unoptimized, inline)]
    pub fn view(&self, shape: &[i64]) -> Result<GlobalTensor> {
        self.reshape_with(shape, Tensor::view)
    }

    /// `Tensor.permute(dims)`: every shard permuted; a split dim follows its data.
    ///
    /// # Errors
    /// PyTorch's permute errors on the logical sizes ([`Error::PermuteRank`],
    /// [`Error::DimOutOfRange`], [`Error::PermuteDuplicate`]).
    #[cfg_attr(unoptimized, inline)]
    pub fn permute(&self, dims: &[i64]) -> Result<GlobalTensor> {
        let out = stand_in(self.sizes(), self.dtype())?.permute(dims)?;
        let wrapped = wrap_dims(dims, self.dim())?;
        let sig = permute_signature(self.sbp(), &wrapped);
        let local = self.local().permute(dims)?;
        self.with_local(local, out.sizes(), sig.output)
    }
}

/// One `GlobalTensor` method per row of the unary op table (`ops/unary/defs.rs`).
macro_rules! global_unary_methods {
    ($( $name:ident {
        variant: $V:ident, inplace: $inplace:ident, out: $out:ident,
        torch: $torch:literal, doc: $what:literal,
        $($field:tt)*
    } )*) => {
        impl GlobalTensor {
            $(
                #[doc = concat!("`torch.", $torch, "` (", $what, ") on every shard: [`GlobalTensor::unary`].")]
                ///
                /// # Errors
                /// The local op's; a collective's.
                #[cfg_attr(unoptimized, inline)]
                pub fn $name(&self) -> Result<GlobalTensor> {
                    self.unary(UnaryOp::$V)
                }
            )*
        }
    };
}
crate::__unary_ops!(global_unary_methods);

macro_rules! global_binary_methods {
    ($( $name:ident {
        variant: $V:ident, inplace: $inplace:ident, out: $out:ident,
        torch: $torch:literal, doc: $what:literal,
        kernel: $k:ident, dtype: $dtype:ident, check: $check:ident, bool: $bool:ident,
        grad: |$ga:pat_param, $gb:pat_param, $gout:pat_param| $grad:expr,
        scalar: $scalar:tt,
        smooth: $domain:ident, partial: $partial:ident $(,)?
    } )*) => {
        impl GlobalTensor {
            $(
                #[doc = concat!("`torch.", $torch, "(self, other)` (", $what, ") with broadcasting on the logical sizes;")]
                #[doc = concat!("the partial SBP kept: [`BinaryPartial::", stringify!($partial), "`](crate::ops::BinaryPartial::", stringify!($partial), ").")]
                ///
                /// # Errors
                /// Different placements; [`Error::Broadcast`](crate::error::Error::Broadcast) on
                /// the logical sizes; the local op's; a collective's.
                #[cfg_attr(unoptimized, inline)]
                pub fn $name(&self, other: &GlobalTensor) -> Result<GlobalTensor> {
                    self.binary(BinaryOp::$V, other)
                }
            )*
        }
    };
}
crate::__binary_ops!(global_binary_methods);
