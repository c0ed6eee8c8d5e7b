//! Typed ops on one or two dims, given as PyTorch gives them (`const D: isize`, negative
//! counting from the end): `transpose`, `unsqueeze`, `squeeze`, `narrow`, `cat`, `stack`.
//! Dims out of range, a static dim that `squeeze` cannot remove, a `narrow` past the end
//! and `cat` of shapes that differ off the cat dim are compile errors; `Dyn` dims are
//! checked at run time with PyTorch's message (the `try_` forms return it, the plain
//! forms panic with it).

use crate::ops::or_panic;
use crate::shape::check::Blame;
use crate::shape::dims::{out, At, DimAt, DimOkOf, NewDimOkOf, PosOf, Squeezable, WrapDim};
use crate::shape::dims::{DimInRange, NarrowOk, SqueezeOk};
use crate::shape::nn_rules::{Cat, CatWith};
use crate::shape::split::{FlattenInto, Unflatten};
use crate::shape::{ListOf, Shape};
use crate::tensor::{check_fits, Tensor};
use crate::typelevel::arith::{DimAdd, DimSub, Sum};
use crate::typelevel::dim::{Dim, D};
use crate::typelevel::op;
use crate::typelevel::peano::S as Succ;
use tensor_core::{Element, Result};
use tensor_macros::plain_form;

/// A runtime result typed as `Tensor<T, S2>` after checking it fits (dtype, rank, static
/// dims): not generic, so one copy serves every call.
pub(crate) fn fit<T: Element, S2: Shape>(r: Result<tensor_core::Tensor>) -> Result<Tensor<T, S2>> {
    let t = r?;
    check_fits(&t, T::DTYPE, S2::DIMS)?;
    Ok(wrap!(t))
}

impl<T: Element, S: Shape> Tensor<T, S> {
    /// Swaps dims `A` and `B` (a view). Mirrors `torch.transpose(x, A, B)`; `-1` is the
    /// last dim. Compile error: a dim out of range.
    ///
    /// Never fails for a tensor of this type: the dims are checked at compile time.
    #[track_caller]
    pub fn transpose<const A: isize, const B: isize>(&self) -> Tensor<T, out::Transposed<S, A, B>>
    where
        crate::shape::dims::SDim<A>: WrapDim<crate::shape::dims::RankOf<S>>,
        crate::shape::dims::SDim<B>: WrapDim<crate::shape::dims::RankOf<S>>,
        DimOkOf<S, A>: DimInRange<op::transpose, S, A>,
        DimOkOf<S, B>: DimInRange<op::transpose, S, B>,
        ListOf<S>: At<PosOf<S, A>> + At<PosOf<S, B>>,
        ListOf<S>: crate::shape::dims::SetAt<PosOf<S, A>, DimAt<S, PosOf<S, B>>>,
        <ListOf<S> as crate::shape::dims::SetAt<PosOf<S, A>, DimAt<S, PosOf<S, B>>>>::Output:
            crate::shape::dims::SetAt<PosOf<S, B>, DimAt<S, PosOf<S, A>>>,
        out::Transposed<S, A, B>: Shape,
        <<ListOf<S> as crate::shape::dims::SetAt<PosOf<S, A>, DimAt<S, PosOf<S, B>>>>::Output as crate::shape::dims::SetAt<PosOf<S, B>, DimAt<S, PosOf<S, A>>>>::Output: crate::shape::IntoShape,
    {
        or_panic(fit(self.inner.transpose(A as i64, B as i64)))
    }

    /// Inserts a dim of size 1 at `A` (a view). Mirrors `torch.unsqueeze(x, A)`; `A` lies
    /// in `[-(r + 1), r]`.
    ///
    /// Never fails for a tensor of this type: the dim is checked at compile time.
    #[track_caller]
    pub fn unsqueeze<const A: isize>(&self) -> Tensor<T, out::Unsqueezed<S, A>>
    where
        crate::shape::dims::SDim<A>: WrapDim<Succ<crate::shape::dims::RankOf<S>>>,
        NewDimOkOf<S, A>: DimInRange<op::unsqueeze, S, A>,
        ListOf<S>: crate::shape::dims::InsertAt<crate::shape::dims::NewPosOf<S, A>, D<1>>,
        <ListOf<S> as crate::shape::dims::InsertAt<crate::shape::dims::NewPosOf<S, A>, D<1>>>::Output:
            crate::shape::IntoShape,
    {
        or_panic(fit(self.inner.unsqueeze(A as i64)))
    }

    /// Removes dim `A`, which must be 1 (a view). Mirrors `torch.squeeze(x, A)`, except
    /// that a dim that is not 1 is an error rather than a no-op (the type removes the
    /// dim): a compile error for a static dim.
    ///
    /// # Errors
    /// When a `Dyn` dim `A` is not 1.
    #[plain_form]
    pub fn try_squeeze<const A: isize>(&self) -> Result<Tensor<T, out::Squeezed<S, A>>>
    where
        crate::shape::dims::SDim<A>: WrapDim<crate::shape::dims::RankOf<S>>,
        DimOkOf<S, A>: DimInRange<op::squeeze, S, A>,
        ListOf<S>: At<PosOf<S, A>> + crate::shape::dims::RemoveAt<PosOf<S, A>>,
        DimAt<S, PosOf<S, A>>: Squeezable,
        <DimAt<S, PosOf<S, A>> as Squeezable>::Output: SqueezeOk<S, DimAt<S, PosOf<S, A>>>,
        <ListOf<S> as crate::shape::dims::RemoveAt<PosOf<S, A>>>::Output: crate::shape::IntoShape,
    {
        fit(self.inner.squeeze_dim(A as i64))
    }

    /// Elements `START..START + LEN` of dim `A` (a view). Mirrors
    /// `torch.narrow(x, A, START, LEN)`. Compile error: past the end of a static dim
    /// (`narrow: start (2) + length (3) exceeds dimension size (D<4>)`). `LEN` is at most
    /// 999 (a `D<LEN>`).
    ///
    /// # Errors
    /// PyTorch's `start (1) + length (5) exceeds dimension size (4).` when dim `A` is
    /// `Dyn` and too short.
    #[plain_form]
    pub fn try_narrow<const A: isize, const START: usize, const LEN: usize>(
        &self,
    ) -> Result<Tensor<T, out::Narrowed<S, A, LEN>>>
    where
        crate::shape::dims::SDim<A>: WrapDim<crate::shape::dims::RankOf<S>>,
        DimOkOf<S, A>: DimInRange<op::narrow, S, A>,
        ListOf<S>: At<PosOf<S, A>> + crate::shape::dims::SetAt<PosOf<S, A>, D<LEN>>,
        D<START>: DimAdd<D<LEN>>,
        DimAt<S, PosOf<S, A>>: DimSub<Sum<D<START>, D<LEN>>>,
        Blame<<DimAt<S, PosOf<S, A>> as DimSub<Sum<D<START>, D<LEN>>>>::Ok, op::narrow>:
            NarrowOk<S, DimAt<S, PosOf<S, A>>, START, LEN>,
        <ListOf<S> as crate::shape::dims::SetAt<PosOf<S, A>, D<LEN>>>::Output:
            crate::shape::IntoShape,
    {
        fit(self.inner.narrow(A as i64, START as i64, LEN))
    }
}

impl<T: Element, S: Shape> Tensor<T, S> {
    /// Dim `DIM` viewed as the two dims `[H, E]` (a view; `H` outer). Mirrors
    /// `torch.unflatten(x, DIM, (h, e))`. Compile errors: `DIM` out of range; the dim is
    /// not `H · E` ([`ProductOf`](crate::shape::split::ProductOf)). In generic code the
    /// dim `H * E` (`Shape![B, S, H * E]`) unflattens into `H, E` with no other bound.
    ///
    /// ```
    /// use tensor_typed::prelude::*;
    /// let x = Tensor::<f32, Shape![2, 12]>::zeros();
    /// let y: Tensor<f32, Shape![2, 3, 4]> = x.unflatten::<1, D<3>, D<4>>();
    /// # let _ = y;
    /// ```
    ///
    /// # Errors
    /// PyTorch's `unflatten: Provided sizes [4, 8] don't multiply up to the size of dim 1
    /// (30) in the input tensor` when a run-time dim is not the product; an
    /// [`Error::InvalidArgument`](tensor_core::Error::InvalidArgument) when both `H` and
    /// `E` are run-time sizes (one of them must be known to split the dim).
    #[plain_form]
    pub fn try_unflatten<const DIM: isize, H: Dim, E: Dim>(
        &self,
    ) -> Result<Tensor<T, <S as Unflatten<DIM, H, E>>::Output>>
    where
        S: Unflatten<DIM, H, E>,
    {
        let known = |s: Option<usize>| s.map_or(-1, |n| n as i64);
        if H::STATIC.is_none() && E::STATIC.is_none() {
            return Err(tensor_core::Error::InvalidArgument {
                op: "unflatten",
                message: format!(
                    "both sizes of the split are known only at run time ({:?}, {:?}): one must be static to split dim {DIM}",
                    std::any::type_name::<H>(),
                    std::any::type_name::<E>()
                ),
            });
        }
        fit(self
            .inner
            .unflatten(DIM as i64, &[known(H::STATIC), known(E::STATIC)]))
    }

    /// Dims `DIM` and `DIM + 1` merged into the one dim `M`, their product (a view when
    /// one exists, else a copy, as `reshape`). Mirrors `torch.flatten(x, DIM, DIM + 1)`;
    /// `M` names the result (`C::Embd` for `[B, T, C::Heads, C::HeadDim]`). Compile
    /// errors: `DIM` out of range or the last dim; `M` is not the product
    /// ([`ProductOf`](crate::shape::split::ProductOf)).
    ///
    /// ```
    /// use tensor_typed::prelude::*;
    /// let x = Tensor::<f32, Shape![2, 3, 4]>::zeros();
    /// let y: Tensor<f32, Shape![2, 12]> = x.flatten_into::<1, D<12>>();
    /// # let _ = y;
    /// ```
    ///
    /// # Errors
    /// PyTorch's errors of a `reshape` that runs out of memory; a run-time `M` whose size
    /// is not the product (`check_shape`'s message).
    #[plain_form]
    pub fn try_flatten_into<const DIM: isize, M: Dim>(
        &self,
    ) -> Result<Tensor<T, <S as FlattenInto<DIM, M>>::Output>>
    where
        S: FlattenInto<DIM, M>,
    {
        fit(self.inner.flatten(DIM as i64, DIM as i64 + 1))
    }
}

/// The tensors of a [`Tensor::cat`]: a tuple of 2 to 4 references to tensors of one
/// element type, whose shapes agree off the cat dim `DIM`.
pub trait CatList<T, const DIM: isize> {
    /// The concatenated shape.
    type Shape: Shape;
    /// The runtime tensors, in order.
    fn inners(&self) -> Vec<&tensor_core::Tensor>;
}
impl<T: Element, A: CatWith<B, DIM>, B: Shape, const DIM: isize> CatList<T, DIM>
    for (&Tensor<T, A>, &Tensor<T, B>)
{
    type Shape = Cat<A, B, DIM>;
    fn inners(&self) -> Vec<&tensor_core::Tensor> {
        vec![&self.0.inner, &self.1.inner]
    }
}
impl<T: Element, A: CatWith<B, DIM>, B: Shape, C: Shape, const DIM: isize> CatList<T, DIM>
    for (&Tensor<T, A>, &Tensor<T, B>, &Tensor<T, C>)
where
    Cat<A, B, DIM>: CatWith<C, DIM>,
{
    type Shape = Cat<Cat<A, B, DIM>, C, DIM>;
    fn inners(&self) -> Vec<&tensor_core::Tensor> {
        vec![&self.0.inner, &self.1.inner, &self.2.inner]
    }
}
impl<T: Element, A: CatWith<B, DIM>, B: Shape, C: Shape, E: Shape, const DIM: isize> CatList<T, DIM>
    for (&Tensor<T, A>, &Tensor<T, B>, &Tensor<T, C>, &Tensor<T, E>)
where
    Cat<A, B, DIM>: CatWith<C, DIM>,
    Cat<Cat<A, B, DIM>, C, DIM>: CatWith<E, DIM>,
{
    type Shape = Cat<Cat<Cat<A, B, DIM>, C, DIM>, E, DIM>;
    fn inners(&self) -> Vec<&tensor_core::Tensor> {
        vec![&self.0.inner, &self.1.inner, &self.2.inner, &self.3.inner]
    }
}

/// The tensors of a [`Tensor::stack`]: an array of `N` references to tensors of one type.
pub trait StackList<T, const DIM: isize> {
    /// The stacked shape.
    type Shape: Shape;
    /// The runtime tensors, in order.
    fn inners(&self) -> Vec<&tensor_core::Tensor>;
}
/// The tensors of a stack as given: an array of `N` references to tensors of shape
/// `Item`, `Count` = `D<N>` (what [`StackList`] is implemented through).
pub trait StackItems<T> {
    /// The shape of each tensor.
    type Item: Shape;
    /// `D<N>`.
    type Count;
    /// The runtime tensors, in order.
    fn items(&self) -> Vec<&tensor_core::Tensor>;
}
impl<T: Element, X: Shape, const N: usize> StackItems<T> for [&Tensor<T, X>; N] {
    type Item = X;
    type Count = D<N>;
    fn items(&self) -> Vec<&tensor_core::Tensor> {
        self.iter().map(|t| &t.inner).collect()
    }
}

/// The list of `X` with the count `C` inserted at the new dim `DIM`.
type StackedList<X, const DIM: isize, C> =
    <ListOf<X> as crate::shape::dims::InsertAt<crate::shape::dims::NewPosOf<X, DIM>, C>>::Output;

// One blanket impl (the arrays are `StackItems`): rustc then shows no impl of this trait
// beside a failed check.
impl<T: Element, L: StackItems<T>, const DIM: isize> StackList<T, DIM> for L
where
    crate::shape::dims::SDim<DIM>: WrapDim<Succ<crate::shape::dims::RankOf<L::Item>>>,
    NewDimOkOf<L::Item, DIM>: DimInRange<op::stack, L::Item, DIM>,
    ListOf<L::Item>:
        crate::shape::dims::InsertAt<crate::shape::dims::NewPosOf<L::Item, DIM>, L::Count>,
    StackedList<L::Item, DIM, L::Count>: crate::shape::IntoShape,
{
    type Shape = crate::shape::ShapeOf<StackedList<L::Item, DIM, L::Count>>;
    fn inners(&self) -> Vec<&tensor_core::Tensor> {
        self.items()
    }
}

impl<T: Element, S: Shape> Tensor<T, S> {
    /// Concatenates 2 to 4 tensors along `DIM`: `Tensor::cat::<1>((&a, &b))` of
    /// `[2, 3]` and `[2, 5]` is `[2, 8]`. Mirrors `torch.cat`. Compile errors: ranks or
    /// static dims off the cat dim that differ.
    ///
    /// # Errors
    /// With PyTorch's message when `Dyn` dims differ off the cat dim, or when the result
    /// cannot be allocated.
    #[plain_form]
    pub fn try_cat<const DIM: isize>(tensors: impl CatList<T, DIM, Shape = S>) -> Result<Self> {
        fit(tensor_core::Tensor::cat(&tensors.inners(), DIM as i64))
    }

    /// Stacks `N` tensors of one shape along a new dim `DIM` of size `N`:
    /// `Tensor::stack::<0>([&a, &b, &c])`. Mirrors `torch.stack`.
    ///
    /// # Errors
    /// With PyTorch's message when `Dyn` dims differ, or when the result cannot be
    /// allocated.
    #[plain_form]
    pub fn try_stack<const DIM: isize>(tensors: impl StackList<T, DIM, Shape = S>) -> Result<Self> {
        fit(tensor_core::Tensor::stack(&tensors.inners(), DIM as i64))
    }
}
