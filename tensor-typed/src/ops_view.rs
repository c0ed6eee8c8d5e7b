//! Typed view and shape ops: expand, repeat, reshape, permute, t, matmul, check_shape.
//!
//! Each lowers to the tensor-core op of the same name. Static mistakes are compile errors
//! (see `expand.rs`, `reshape.rs`, `axes.rs`, `matmul_shape.rs`); mistakes that
//! involve a `Dyn` dim are run-time errors with PyTorch's message: the plain method
//! panics with it, the `try_` method returns it.

use crate::axes::{AxisList, PermuteBy, Permuted};
use crate::checks::{MatmulRankOk, SameDimOk, SameRankOk, TransposeOk};
use crate::dim::{DimEq, Dyn, D};
use crate::dtype_rules::MatmulElement;
use crate::expand::{ExpandTo, RepeatBy, Repeated};
use crate::list::{Len, LenOf, Next};
use crate::matmul_shape::{MatmulOut, MatmulWith};
use crate::peano::PEq;
use crate::reshape::ReshapeTo;
use crate::shape::{Cons, ListOf, Nil, Shape};
use crate::tensor::Tensor;
use tensor_core::{Element, Error, Result};
use typenum::{B0, B1};

/// One dim of `check_shape`: `Self` (from `S`) vs `Y` (from `T`) at index `P`.
pub trait SameAt<Y, S, T, P> {}
impl<const A: usize, const B: usize, S, T, const I: usize> SameAt<D<B>, S, T, D<I>> for D<A>
where
    D<A>: DimEq<D<B>>,
    <D<A> as DimEq<D<B>>>::Out: SameDimOk<S, T, I, A, B>,
{
}
impl<const A: usize, S, T, P> SameAt<Dyn, S, T, P> for D<A> {}
impl<Y, S, T, P> SameAt<Y, S, T, P> for Dyn {}

/// Zips two dim lists of the same length for `check_shape`; `J` is the index of the
/// heads (a `D<j>`).
pub trait SameZip<Y, S, T, J> {}
impl<S, T, J> SameZip<Nil, S, T, J> for Nil {}
impl<H1, T1, H2, T2, S, T, const J: usize> SameZip<Cons<H2, T2>, S, T, D<J>> for Cons<H1, T1>
where
    D<J>: Next,
    H1: SameAt<H2, S, T, D<J>>,
    T1: SameZip<T2, S, T, <D<J> as Next>::Out>,
{
}

/// `check_shape` after comparing the ranks (`Self` is `B1` when they are equal): the
/// dims are compared only when the ranks agree, so a rank mismatch is one error.
pub trait SameDims<S, T> {}
impl<S: Shape, T: Shape> SameDims<S, T> for B1 where ListOf<S>: SameZip<ListOf<T>, S, T, D<0>> {}
impl<S, T> SameDims<S, T> for B0 where B0: SameRankOk<S, T> {}

/// `SameShape<T>`: shapes `Self` and `T` have the same rank and agree on every dim that
/// is static in both (so a run-time check can turn one into the other).
pub trait SameShape<T: Shape>: Shape {}
impl<S: Shape, T: Shape> SameShape<T> for S
where
    ListOf<S>: Len,
    ListOf<T>: Len,
    LenOf<ListOf<S>>: PEq<LenOf<ListOf<T>>>,
    <LenOf<ListOf<S>> as PEq<LenOf<ListOf<T>>>>::Out: SameDims<S, T>,
{
}

/// Sizes of a target shape for the runtime: static dims as is, `Dyn` as `-1`.
fn target_sizes(dims: &[Option<usize>]) -> Vec<i64> {
    dims.iter().map(|d| d.map_or(-1, |n| n as i64)).collect()
}

pub(crate) fn or_panic<X>(r: Result<X>) -> X {
    match r {
        Ok(x) => x,
        Err(e) => fail(e),
    }
}

/// The panic of [`or_panic`], outside the generic code.
#[cold]
#[inline(never)]
fn fail(e: tensor_core::Error) -> ! {
    panic!("{e}")
}

/// `reshape` to the dims of a shape type (a `Dyn` dim is `-1`), outside the generic
/// code.
///
/// # Errors
/// More than one `Dyn` dim (`only one dimension can be inferred`); PyTorch's reshape
/// errors.
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
    /// Panics with PyTorch's message when a `Dyn` dim does not fit (see [`Self::try_expand`]).
    pub fn expand<S2: Shape>(&self) -> Tensor<T, S2>
    where
        S: ExpandTo<S2>,
    {
        wrap!(or_panic(self.inner.expand(&target_sizes(S2::DIMS))))
    }

    /// [`Self::expand`], returning the run-time error instead of panicking.
    pub fn try_expand<S2: Shape>(&self) -> Result<Tensor<T, S2>>
    where
        S: ExpandTo<S2>,
    {
        let t = self.inner.expand(&target_sizes(S2::DIMS))?;
        Tensor::try_from_dyn(t)
    }

    /// A new tensor repeating the data `R` times along each dim (extra leading counts
    /// add dims). Mirrors `Tensor.repeat(*repeats)`: `[2, 3].repeat([2, 1, 2])` is
    /// `[2, 2, 6]`. Compile error: fewer repeat counts than dims.
    pub fn repeat<R: Shape>(&self) -> Tensor<T, Repeated<S, R>>
    where
        S: RepeatBy<R>,
    {
        let counts: Vec<i64> = R::static_dims()
            .into_iter()
            .map(|d| d.unwrap_or(1) as i64)
            .collect();
        wrap!(or_panic(self.inner.repeat(&counts)))
    }

    /// The same elements with shape `S2` (a view when the strides allow, else a copy).
    /// Mirrors `Tensor.reshape(*shape)`; one `Dyn` dim of `S2` is inferred (`-1`).
    ///
    /// Compile error: both shapes static with different element counts. Panics with
    /// PyTorch's message for a run-time mismatch or for more than one `Dyn` in `S2`
    /// (use [`Self::reshape_with`] then).
    pub fn reshape<S2: Shape>(&self) -> Tensor<T, S2>
    where
        S: ReshapeTo<S2>,
    {
        wrap!(or_panic(reshape_to(&self.inner, S2::DIMS)))
    }

    /// [`Self::reshape`], returning the run-time error instead of panicking.
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
    pub fn permute<A: AxisList>(&self) -> Tensor<T, Permuted<S, A>>
    where
        S: PermuteBy<A>,
    {
        wrap!(or_panic(self.inner.permute(&A::indices())))
    }

    /// Matrix product (batched, with broadcast batch dims). Mirrors `torch.matmul`.
    /// Compile error: different static inner dims. Panics with PyTorch's message when a
    /// `Dyn` inner dim differs (see [`Self::try_matmul`]).
    pub fn matmul<S2: Shape>(&self, other: &Tensor<T, S2>) -> Tensor<T, MatmulOut<S, S2>>
    where
        S: MatmulWith<S2>,
        T: MatmulElement,
        <S as MatmulWith<S2>>::Ok: MatmulRankOk<S, S2>,
    {
        wrap!(or_panic(self.inner.matmul(&other.inner)))
    }

    /// [`Self::matmul`], returning the run-time error instead of panicking.
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

/// `Transpose`: the shape of `t()`: 0-d and 1-d shapes are unchanged, 2-d are swapped;
/// for more dims `Ok` is `B0`, reported by the method's `TransposeOk` bound (so that
/// the error is ours, not "the method `t` exists but its trait bounds were not
/// satisfied").
pub trait Transpose: Shape {
    /// The transposed shape (the shape itself when there are more than 2 dims).
    type Output: Shape;
    /// `B1` for at most 2 dims, else `B0`.
    type Ok;
}
impl Transpose for () {
    type Output = ();
    type Ok = B1;
}
impl<X: crate::Dim> Transpose for (X,) {
    type Output = (X,);
    type Ok = B1;
}
impl<X: crate::Dim, Y: crate::Dim> Transpose for (X, Y) {
    type Output = (Y, X);
    type Ok = B1;
}
macro_rules! no_transpose {
    ($(($($d:ident),*))*) => {$(
        impl<$($d: crate::Dim),*> Transpose for ($($d,)*) {
            type Output = Self;
            type Ok = B0;
        }
    )*};
}
no_transpose! {
    (A, B, C) (A, B, C, E) (A, B, C, E, F) (A, B, C, E, F, G) (A, B, C, E, F, G, H)
    (A, B, C, E, F, G, H, I)
}

impl<T: Element, S: Shape> Tensor<T, S> {
    /// The transpose of a tensor with at most 2 dims (a view). Mirrors `Tensor.t()`.
    /// Compile error: more than 2 dims (`t() expects a tensor with <= 2 dimensions, but
    /// self is (D<2>, D<3>, D<4>)`).
    pub fn t(&self) -> Tensor<T, <S as Transpose>::Output>
    where
        S: Transpose,
        <S as Transpose>::Ok: TransposeOk<S>,
    {
        wrap!(or_panic(self.inner.t()))
    }
}
