//! Support for the code `layout!` emits (not a public API: paths may change).
//!
//! `layout!(x, "b (h d) -> b h d", h = 3)` expands to a block holding
//! * a local trait `__LayoutShape<S>` implemented for the input shapes `S` the pattern accepts,
//!   whose `Out` is the output shape computed from the input's dims with [`DimMul`] and
//!   `Split` (of [`rearrange`], [`repeat`] or [`reduce`]), and whose where-clauses are the
//!   static checks;
//! * a [`Recipe`]: the pattern as static data;
//! * a generic fn `__layout` whose signature states the output type (a parameter bound
//!   to equal `Out`, so a wrong annotation of the result names both shapes); it calls
//!   [`Mode::run`], which lowers the recipe for the input's run-time sizes
//!   ([`Recipe::plan`]: reshape → permute → reduce → expand → reshape, as views where
//!   possible) and wraps the result in the computed shape type;
//! * the call of `__layout`, type-checked (with its errors) after a `return` in a closure
//!   that never runs (borrowck and codegen drop it as dead code), which names the result
//!   type, and the call that runs:
//!   [`LayoutResult::run_as`] of that type, the same [`Mode::run`] with the output shape
//!   as a plain type parameter. So codegen never instantiates `__layout`, whose signature
//!   would make it solve the shape rules a third time (after type and borrow checking).
//!
//! With static dims and literal sizes everything is checked by the compiler and the macro
//! returns the tensor (except `reduce = max|min` over an axis that may be empty, which
//! the runtime rejects, so that returns a `Result`); with a `Dyn` dim or a run-time size (`h = {n}`) it returns a
//! `Result`, and what does not fit (rank, divisibility, a given size) is found by
//! [`Recipe::plan`] with einops' message.

mod recipe;

use std::marker::PhantomData;

pub use crate::shape::layout::{Chunks, DimIs, GroupSize, SplitDim};
pub use crate::shape::names::{AsIs, Later, NamesAs};
pub use crate::shape::Shape;
pub use crate::typelevel::arith::{DimMul, Prod};
pub use crate::typelevel::dim::{Dim, Dyn, StaticDim, D, K};
pub use crate::typelevel::named::SizeOf;
pub use crate::typelevel::op::{rearrange, reduce, repeat};
pub use recipe::{AxisSizes, Group, Op, Plan, Recipe, Reduction, Term};

pub use crate::tensor::Tensor;
pub use tensor_core::Element;

/// What `layout!` returns for element type `T`, output shape `S` and failure mode `M`:
/// `Tensor<T, S>` when nothing can fail at run time ([`Infallible`]), else
/// `Result<Tensor<T, S>>` ([`MayFail`]).
pub type Output<T, S, M> = <M as Mode>::Wrap<Tensor<T, S>>;

/// Whether a `layout!` can fail at run time, and what it returns accordingly.
///
/// [`Mode::run`] is, with [`LayoutResult::run_as`], the one generic function a `layout!`
/// call instantiates: the work is done by [`Recipe::apply`] and `fits`, which are not
/// generic, so each call adds little to compile time.
pub trait Mode {
    /// The returned type for a result of type `X`.
    type Wrap<X>;
    /// Runs `recipe` on `x` with the sizes given for its named axes and types the result
    /// as `Out` (the shape the macro computed).
    fn run<T: Element, S: Shape, Out: Shape>(
        x: &Tensor<T, S>,
        recipe: &Recipe,
        given: AxisSizes,
    ) -> Self::Wrap<Tensor<T, Out>>;
}

/// Every dim is static and every size a literal: all checks were done by the compiler,
/// so `layout!` returns the tensor itself.
pub struct Infallible;

/// A `Dyn` dim, a run-time size (`h = {n}`), or `reduce = max|min` over an axis that
/// may be empty: the checks run at run time, so `layout!` returns `Result<Tensor<T, S>>`
/// with einops' (or PyTorch's) message on error.
pub struct MayFail;

impl Mode for Infallible {
    type Wrap<X> = X;
    /// The runtime accepts whatever the types and the macro accepted (a `reduce =
    /// max|min` that may reduce an empty axis is [`MayFail`]).
    ///
    /// # Panics
    /// When a copy the recipe needs (`repeat`, `reduce`, a reshape that cannot be a view)
    /// cannot be allocated, with the `OutOfMemory` error's message at the `layout!`
    /// call.
    #[track_caller]
    fn run<T: Element, S: Shape, Out: Shape>(
        x: &Tensor<T, S>,
        recipe: &Recipe,
        given: AxisSizes,
    ) -> Tensor<T, Out> {
        wrap!(crate::or_panic::or_panic(fits(
            recipe.apply(&x.inner, given),
            T::DTYPE,
            Out::DIMS
        )))
    }
}

impl Mode for MayFail {
    type Wrap<X> = tensor_core::Result<X>;
    fn run<T: Element, S: Shape, Out: Shape>(
        x: &Tensor<T, S>,
        recipe: &Recipe,
        given: AxisSizes,
    ) -> tensor_core::Result<Tensor<T, Out>> {
        Ok(wrap!(fits(
            recipe.apply(&x.inner, given),
            T::DTYPE,
            Out::DIMS
        )?))
    }
}

/// What `layout!` returns (`Tensor<T, O>` or `Result<Tensor<T, O>>`), built from its input
/// `Tensor<T, S>`. The macro names this type from its `__layout` call without making
/// that call at run time, so codegen sees the output shape `O` already computed.
pub trait LayoutResult<T: Element, S: Shape>: Sized {
    /// Runs `recipe` on `x` (as `__layout` would).
    fn run_as(
        _out: &PhantomData<Self>,
        x: &Tensor<T, S>,
        recipe: &Recipe,
        given: AxisSizes,
    ) -> Self;
}
impl<T: Element, S: Shape, O: Shape> LayoutResult<T, S> for Tensor<T, O> {
    #[track_caller]
    fn run_as(_: &PhantomData<Self>, x: &Tensor<T, S>, recipe: &Recipe, given: AxisSizes) -> Self {
        Infallible::run::<T, S, O>(x, recipe, given)
    }
}
impl<T: Element, S: Shape, O: Shape> LayoutResult<T, S> for tensor_core::Result<Tensor<T, O>> {
    fn run_as(_: &PhantomData<Self>, x: &Tensor<T, S>, recipe: &Recipe, given: AxisSizes) -> Self {
        MayFail::run::<T, S, O>(x, recipe, given)
    }
}

/// Makes `out`'s type parameter the type of `value` (which is never computed at run time:
/// the macro calls this in a closure that it does not call).
pub fn same_type<R>(_out: &PhantomData<R>, _value: R) {}

/// The result of a recipe checked against the computed output type (dtype `dtype`, dims
/// `dims`); not generic, so one copy serves every `layout!`.
#[cfg_attr(unoptimized, inline)]
fn fits(
    result: tensor_core::Result<tensor_core::Tensor>,
    dtype: tensor_core::DType,
    dims: &[Option<usize>],
) -> tensor_core::Result<tensor_core::Tensor> {
    let t = result?;
    crate::tensor::check_fits(&t, dtype, dims)?;
    Ok(t)
}

/// The failure mode of one input dim that the pattern checks, joined with the mode `M`
/// of the other checked dims: [`MayFail`] for `Dyn`, `M` for a static dim.
pub trait ModeOfDim {
    /// `M` joined with this dim's mode.
    type Then<M: Mode>: Mode;
}
impl<const N: usize> ModeOfDim for D<N> {
    type Then<M: Mode> = M;
}
impl<H, L> ModeOfDim for K<H, L> {
    type Then<M: Mode> = M;
}
impl ModeOfDim for Dyn {
    type Then<M: Mode> = MayFail;
}
/// A name as its size.
impl<X: crate::typelevel::named::NamedDim<Size: ModeOfDim>> ModeOfDim for X {
    type Then<M: Mode> = <X::Size as ModeOfDim>::Then<M>;
}

/// `reduce = mean` needs floating-point elements (as PyTorch's `mean`).
#[diagnostic::on_unimplemented(
    message = "layout!(reduce mean): mean needs a floating-point tensor, found elements of type {Self}",
    label = "the input's elements are {Self}",
    note = "PyTorch: mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype"
)]
pub trait MeanElement {}
#[diagnostic::do_not_recommend]
impl MeanElement for f32 {}
#[diagnostic::do_not_recommend]
impl MeanElement for f64 {}
#[diagnostic::do_not_recommend]
impl MeanElement for tensor_core::half::f16 {}
#[diagnostic::do_not_recommend]
impl MeanElement for tensor_core::half::bf16 {}
