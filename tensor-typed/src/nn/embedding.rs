//! `embedding`: rows of a weight matrix picked by integer ids, and the layer
//! [`Embedding`] (`torch.nn.Embedding`).

use crate::ops::dims::fit;
use crate::shape::dims::Push;
use crate::shape::nn_rules::Embedded;
use crate::shape::{IntoShape, ListOf, Shape};
use crate::tensor::Tensor;
use crate::typelevel::dim::Dim;
use tensor_core::{Element, Result};
use tensor_macros::plain_form;

/// The element types of embedding ids (PyTorch: Long or Int).
#[diagnostic::on_unimplemented(
    message = "embedding: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got elements of type {Self} instead",
    label = "the ids must be an i64 or i32 tensor"
)]
pub trait IndexElement: Element {}
#[diagnostic::do_not_recommend]
impl IndexElement for i64 {}
#[diagnostic::do_not_recommend]
impl IndexElement for i32 {}

/// The rows of `weight` `[V, E]` at `ids` (any shape `S`): shape `S ++ [E]`. Mirrors
/// `F.embedding(ids, weight)`. Compile error: ids that are not `i64`/`i32`.
///
/// # Errors
/// An id outside `0..V` (PyTorch's `index out of range in self`), or memory running
/// out.
#[plain_form(free)]
pub fn try_embedding<I: IndexElement, T: Element, S: Shape, V: Dim, E: Dim>(
    ids: &Tensor<I, S>,
    weight: &Tensor<T, (V, E)>,
) -> Result<Tensor<T, Embedded<S, E>>>
where
    ListOf<S>: Push<E>,
    <ListOf<S> as Push<E>>::Output: IntoShape,
{
    fit(tensor_core::nn::embedding(&ids.inner, &weight.inner))
}

/// An embedding table as `torch.nn.Embedding(V, E)`: `weight` `[V, E]`, `forward(ids)`
/// = [`embedding`]`(ids, weight)`. Loads from PyTorch's state dict under the name
/// `weight`.
#[derive(tensor_macros::Params)]
pub struct Embedding<V: Dim, E: Dim, T: Element = f32> {
    /// `[V, E]`: row `i` is the vector of id `i`.
    pub weight: Tensor<T, (V, E)>,
}

impl<V: Dim, E: Dim, T: Element> Embedding<V, E, T> {
    /// The rows of `weight` at `ids` (any shape `S`): shape `S ++ [E]`. Mirrors
    /// `Embedding.forward`.
    ///
    /// # Errors
    /// An id outside `0..V` (PyTorch's `index out of range in self`).
    #[plain_form]
    pub fn try_forward<I: IndexElement, S: Shape>(
        &self,
        ids: &Tensor<I, S>,
    ) -> Result<Tensor<T, Embedded<S, E>>>
    where
        ListOf<S>: Push<E>,
        <ListOf<S> as Push<E>>::Output: IntoShape,
    {
        try_embedding(ids, &self.weight)
    }
}
