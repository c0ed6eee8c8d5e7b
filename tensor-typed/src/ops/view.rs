//! Typed view and shape ops: expand, repeat, reshape, permute, t, matmul, check_shape.
//!
//! Each lowers to the tensor-core op of the same name. Static mistakes are compile errors
//! (see the rules in `shape/`); mistakes that
//! involve a `Dyn` dim are run-time errors with PyTorch's message: the plain method
//! panics with it, the `try_` method returns it.

use super::or_panic;
use crate::shape::axes::{AxisList, PermuteBy, Permuted};
use crate::shape::dtype::MatmulElement;
use crate::shape::expand::{ExpandTo, RepeatBy, Repeated};
use crate::shape::matmul_dims::MatmulRankOk;
use crate::shape::matmul_dims::{MatmulOut, MatmulWith};
use crate::shape::matrix_t::Transpose;
use crate::shape::matrix_t::TransposeOk;
use crate::shape::reshape::ReshapeTo;
use crate::shape::Shape;
use crate::tensor::Tensor;
use tensor_core::{Element, Error, Result};
use tensor_macros::plain_form;

/// Sizes of a target shape for the runtime: static dims as is, `Dyn` as `-1`.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn target_sizes(dims: &[Option<usize>]) -> Vec<i64> {
    dims.iter().map(|d| d.map_or(-1, |n| n as i64)).collect()
}

/// `reshape` to the dims of a shape type (a `Dyn` dim is `-1`), outside the generic
/// code.
///
/// # Errors
/// More than one `Dyn` dim (`only one dimension can be inferred`); PyTorch's reshape
/// errors.
#[cfg_attr(unoptimized, inline)]
fn reshape_to(t: &tensor_core::Tensor, dims: &[Option<usize>]) -> Result<tensor_core::Tensor> {
    let sizes = target_sizes(dims);
    if sizes.iter().filter(|&&s| s < 0).count() > 1 {
        return Err(Error::InvalidArgument {
            op: "reshape",
            message: format!(
                "only one dimension can be inferred; target {} has several Dyn dims, use reshape_with",
                crate::shape::describe(dims)
            ),
        });
    }
    t.reshape(&sizes)
}

impl<T: Element, S: Shape> Tensor<T, S> {
    /// A view with the shape `S2` (stride 0 along expanded dims). Mirrors
    /// `Tensor.expand(*sizes)`; a `Dyn` target dim keeps the tensor's size (`-1`).
    ///
    /// Compile errors: a static dim that is neither 1 nor the target, fewer target dims.
    ///
    /// # Errors
    /// With PyTorch's message when a `Dyn` dim does not fit.
    // The bound on the signature's line: an error's note on it then shows that one line
    // (rustc adds the signature and `where` lines when the bound is on another line).
    #[rustfmt::skip]
    #[plain_form]
    pub fn try_expand<S2: Shape>(&self) -> Result<Tensor<T, S2>> where S: ExpandTo<S2> {
        let t = self.inner.expand(&target_sizes(S2::DIMS))?;
        Tensor::try_from_dyn(t)
    }

    /// A new tensor repeating the data `R` times along each dim (extra leading counts
    /// add dims). Mirrors `Tensor.repeat(*repeats)`: `[2, 3].repeat([2, 1, 2])` is
    /// `[2, 2, 6]`. Compile error: fewer repeat counts than dims.
    ///
    /// # Errors
    /// `Error::OutOfMemory` when the result cannot be allocated; a size overflow
    /// (`StorageSizeOverflow`, or PyTorch's overflow error) for counts past `i64`.
    #[plain_form]
    pub fn try_repeat<R: Shape>(&self) -> Result<Tensor<T, Repeated<S, R>>>
    where
        S: RepeatBy<R>,
    {
        let counts: Vec<i64> = R::static_dims()
            .into_iter()
            .map(|d| d.unwrap_or(1) as i64)
            .collect();
        Ok(wrap!(self.inner.repeat(&counts)?))
    }

    /// The same elements with shape `S2` (a view when the strides allow, else a copy).
    /// Mirrors `Tensor.reshape(*shape)`; one `Dyn` dim of `S2` is inferred (`-1`).
    ///
    /// Compile error: both shapes static with different element counts.
    ///
    /// # Errors
    /// With PyTorch's message for a run-time mismatch or for more than one `Dyn` in `S2`
    /// (use [`Self::reshape_with`] then), or when a copy cannot be allocated.
    #[plain_form]
    pub fn try_reshape<S2: Shape>(&self) -> Result<Tensor<T, S2>>
    where
        S: ReshapeTo<S2>,
    {
        Tensor::try_from_dyn(reshape_to(&self.inner, S2::DIMS)?)
    }

    /// Reshape to `S2` with run-time sizes `sizes` (may hold one `-1`), for targets with
    /// several `Dyn` dims. Mirrors `Tensor.reshape(*sizes)`.
    /// Errors: PyTorch's reshape errors, or sizes that do not fit `S2`.
    pub fn reshape_with<S2: Shape>(&self, sizes: &[i64]) -> Result<Tensor<T, S2>>
    where
        S: ReshapeTo<S2>,
    {
        Tensor::try_from_dyn(self.inner.reshape(sizes)?)
    }

    /// A view with the dims reordered by the axis list `A` (`Axes![1, 0]`). Mirrors
    /// `Tensor.permute(*dims)`. Compile errors: wrong number of axes, an axis out of
    /// range or repeated.
    ///
    /// Never fails for a tensor of this type: the axes are checked at compile time (a
    /// view allocates only its `rank` sizes and strides).
    #[track_caller]
    pub fn permute<A: AxisList>(&self) -> Tensor<T, Permuted<S, A>>
    where
        S: PermuteBy<A>,
    {
        wrap!(or_panic(self.inner.permute(&A::indices())))
    }

    /// Matrix product (batched, with broadcast batch dims). Mirrors `torch.matmul`.
    /// Compile error: different static inner dims.
    ///
    /// # Errors
    /// With PyTorch's message when a `Dyn` inner dim differs, or when the result cannot
    /// be allocated.
    #[plain_form]
    pub fn try_matmul<S2: Shape>(
        &self,
        other: &Tensor<T, S2>,
    ) -> Result<Tensor<T, MatmulOut<S, S2>>>
    where
        S: MatmulWith<S2>,
        T: MatmulElement,
        <S as MatmulWith<S2>>::Ok: MatmulRankOk<S, S2>,
    {
        Tensor::try_from_dyn(self.inner.matmul(&other.inner)?)
    }
}

impl<T: Element, S: Shape> Tensor<T, S> {
    /// The transpose of a tensor with at most 2 dims (a view). Mirrors `Tensor.t()`.
    /// Compile error: more than 2 dims (`t() expects a tensor with <= 2 dimensions, but
    /// self is (D<2>, D<3>, D<4>)`).
    ///
    /// Never fails for a tensor of this type: the rank is checked at compile time.
    #[track_caller]
    pub fn t(&self) -> Tensor<T, <S as Transpose>::Output>
    where
        S: Transpose,
        <S as Transpose>::Ok: TransposeOk<S>,
    {
        wrap!(or_panic(self.inner.t()))
    }
}
