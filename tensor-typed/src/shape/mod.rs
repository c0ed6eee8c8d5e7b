//! Shapes as types, and every shape and dtype rule with the error it reports.
//!
//! # How a shape is written
//!
//! * A **static dim** is written in decimal groups of three digits
//!   ([`crate::typelevel::dim`]): [`D<N>`](crate::D) for `N` in `0..=999`, and
//!   [`K<Hi, Lo>`](crate::K) for `Hi·1000 + Lo` (`Shape![50257]` is `(K<D<50>, D<257>>,)`).
//!   rustc prints them so, never as `UInt<UInt<UTerm, B1>, B1>`; every size has one form.
//! * A **run-time dim** is the unit type [`Dyn`].
//! * A **named dim** is the user's struct ([`crate::NamedDim`], declared by `dims!`).
//! * A **shape** is a tuple of dims, rank 0 to 8: `Shape![2, Dyn, 3]` expands to
//!   `(D<2>, Dyn, D<3>)`, `Shape![3]` to `(D<3>,)`, `Shape![]` to `()`. So a mismatch
//!   against an annotation reads
//!   ``expected `Tensor<f32, (D<3>, D<2>)>`, found `Tensor<f32, (D<2>, D<3>)>` ``.
//!   A dim may also be a const expression (`Shape![N_EMBD, 4]` → `(D<{ N_EMBD }>, D<4>)`)
//!   or a dim type (a type parameter `E`, `C::Embd`, a name), and arithmetic over dim
//!   types is a dim type: `Shape![B, H * E]` → `(B, Prod<H, E>)`.
//! * Inside trait bounds a shape is a **cons list** ([`Shape::List`]:
//!   `Cons<D<2>, Cons<Dyn, Cons<D<3>, Nil>>>`), turned back by [`IntoShape`], so every
//!   shape rule is one recursive trait instead of one impl per rank. An axis list
//!   (`Axes![1, 0]`) is a tuple of [`Ax<I>`](crate::Ax) types, listed the same way.
//!
//! # The rules, one file each
//!
//! | file | rules |
//! |---|---|
//! | [`broadcast`] | PyTorch's broadcasting (`infer_size`) |
//! | [`expand`] | `expand` and `repeat` |
//! | [`reshape`] | `reshape`/`view` targets, `Numel` |
//! | [`axes`] | `permute` and reductions over `Axes![..]` |
//! | [`dims`] | one or two signed dims: softmax, transpose, unsqueeze, squeeze, narrow, stack |
//! | [`split`] | `unflatten` and `flatten_into` over a product of dims |
//! | [`matmul_dims`] | `matmul` (with batch broadcasting) |
//! | [`matrix_t`] | `t()` |
//! | [`same`] | `check_shape`: two shapes that agree where both are static |
//! | [`names`] | `rename` and the names of a result |
//! | [`layout`] | `layout!`'s size checks |
//! | [`nn_rules`] | the model ops: cat, conv2d, pooling, layer_norm, embedding, cross_entropy |
//! | [`dtype`] | dtype promotion, safe casts, and the dtypes an op refuses |
//!
//! Each file also declares the *check traits* its rules report failures with
//! ([`check`]): a failed rule is a missing impl whose `#[diagnostic::on_unimplemented]`
//! message prints the values in decimal, e.g.
//! `add: cannot broadcast (D<2>, D<3>) with (D<4>,): dim 1 is D<3> vs D<4>`. A rule
//! stops at its first failure (broadcast from the last dim, `check_shape` on the rank
//! before the dims), so one mistake is one error. When a named dim is involved,
//! [`mismatch`] picks the message that prints the names with their sizes. Where a rule
//! depends only on the receiver's shape (`t()`, a 0-d `matmul` operand), the rule
//! carries an `Ok` bit and the method has the bound `<S as Rule>::Ok: XOk<S>`: a failed
//! bound on the rule itself would be reported as "the method exists but its trait bounds
//! were not satisfied" (E0599) instead of the check's message.

pub mod axes;
pub mod broadcast;
pub mod check;
pub mod dims;
pub mod dtype;
pub mod expand;
pub mod layout;
pub mod matmul_dims;
pub mod matrix_t;
pub mod mismatch;
pub mod names;
pub mod nn_rules;
pub mod reshape;
pub mod same;
pub mod split;

use crate::typelevel::dim::{Dim, Dyn, D, K};
use crate::typelevel::peano::{S as Succ, Z};

pub use crate::typelevel::list::{Cons, Nil};

/// A list of dims as a cons list: static facts about it, used by every shape operator.
pub trait DimList {
    /// Number of dims.
    const RANK: usize;
    /// Writes the static dims (`None` for `Dyn`) in order.
    fn push_static(out: &mut Vec<Option<usize>>);
}

impl DimList for Nil {
    const RANK: usize = 0;
    #[cfg_attr(unoptimized, inline)]
    fn push_static(_out: &mut Vec<Option<usize>>) {}
}

impl<H: Dim, T: DimList> DimList for Cons<H, T> {
    const RANK: usize = 1 + T::RANK;
    fn push_static(out: &mut Vec<Option<usize>>) {
        out.push(H::STATIC);
        T::push_static(out);
    }
}

/// A shape: a tuple of dims (`()`, `(D<3>,)`, `(Dyn, D<3>)`, … up to rank 8).
///
/// Written with `Shape![..]`. [`Shape::List`] is its cons-list form.
pub trait Shape: 'static + Send + Sync {
    /// The same dims as a cons list (`Cons<D<2>, Cons<Dyn, Nil>>`).
    type List: DimList + IntoShape<Shape = Self> + crate::typelevel::list::Len;
    /// The dims as a cons list, last dim first ([`FromRev`] turns it back), for the
    /// rules that align shapes at the right (broadcasting, matmul): one step for the
    /// trait solver, where reversing [`Shape::List`] takes one per dim.
    #[doc(hidden)]
    type Rev;
    /// The rank as a Peano number ([`crate::typelevel::peano`]): one step, where the
    /// length of [`Shape::List`] takes one per dim.
    #[doc(hidden)]
    type Rank;
    /// The static dims in order, `None` where the dim is `Dyn` (a constant, so the
    /// run-time helpers below are not generic: each shape costs no extra code).
    const DIMS: &'static [Option<usize>];
    /// Number of dims.
    const RANK: usize = Self::DIMS.len();

    /// The static dims in order, `None` where the dim is `Dyn`.
    fn static_dims() -> Vec<Option<usize>> {
        Self::DIMS.to_vec()
    }

    /// The dims if all are static (`zeros()`, `ones()`), else `None`.
    fn all_static() -> Option<Vec<usize>> {
        all_static(Self::DIMS)
    }

    /// Renders the shape as PyTorch prints sizes, with `Dyn` for run-time dims:
    /// `[2, Dyn, 3]`.
    fn describe() -> String {
        describe(Self::DIMS)
    }

    /// Whether run-time `sizes` fit this shape: same rank and every static dim equal.
    fn matches(sizes: &[usize]) -> bool {
        matches(Self::DIMS, sizes)
    }
}

/// The dims if all are static.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn all_static(dims: &[Option<usize>]) -> Option<Vec<usize>> {
    dims.iter().copied().collect()
}

/// `[2, Dyn, 3]`.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn describe(dims: &[Option<usize>]) -> String {
    let parts: Vec<String> = dims
        .iter()
        .map(|d| d.map_or_else(|| "Dyn".to_string(), |n| n.to_string()))
        .collect();
    format!("[{}]", parts.join(", "))
}

/// Same rank and every static dim equal.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn matches(dims: &[Option<usize>], sizes: &[usize]) -> bool {
    dims.len() == sizes.len()
        && dims
            .iter()
            .zip(sizes)
            .all(|(d, s)| d.is_none_or(|n| n == *s))
}

/// Turns a cons list of dims back into its tuple (the inverse of [`Shape::List`]).
pub trait IntoShape {
    /// The tuple shape.
    type Shape: Shape;
}

/// Turns a cons list of dims in reverse order back into its tuple (the inverse of
/// [`Shape::Rev`]).
pub trait FromRev {
    /// The tuple shape.
    type Shape: Shape;
}

/// The tuple shape of the cons list `L`.
pub type ShapeOf<L> = <L as IntoShape>::Shape;
/// The cons list of the tuple shape `S`.
pub type ListOf<S> = <S as Shape>::List;

macro_rules! tuple_shapes {
    ($( ($($d:ident),*) => $list:ty, $rev:ty, $rank:ty ;)*) => {$(
        impl<$($d: Dim),*> Shape for ($($d,)*) {
            type List = $list;
            type Rev = $rev;
            type Rank = $rank;
            const DIMS: &'static [Option<usize>] = &[$($d::STATIC),*];
        }
        impl<$($d: Dim),*> IntoShape for $list {
            type Shape = ($($d,)*);
        }
        impl<$($d: Dim),*> FromRev for $rev {
            type Shape = ($($d,)*);
        }
    )*};
}

// Each rank: the dims, their list, the list reversed and the rank.
tuple_shapes! {
    () => Nil, Nil, Z;
    (A) => Cons<A, Nil>, Cons<A, Nil>, Succ<Z>;
    (A, B) => Cons<A, Cons<B, Nil>>, Cons<B, Cons<A, Nil>>, Succ<Succ<Z>>;
    (A, B, C) =>
        Cons<A, Cons<B, Cons<C, Nil>>>,
        Cons<C, Cons<B, Cons<A, Nil>>>,
        Succ<Succ<Succ<Z>>>;
    (A, B, C, E) =>
        Cons<A, Cons<B, Cons<C, Cons<E, Nil>>>>,
        Cons<E, Cons<C, Cons<B, Cons<A, Nil>>>>,
        Succ<Succ<Succ<Succ<Z>>>>;
    (A, B, C, E, F) =>
        Cons<A, Cons<B, Cons<C, Cons<E, Cons<F, Nil>>>>>,
        Cons<F, Cons<E, Cons<C, Cons<B, Cons<A, Nil>>>>>,
        Succ<Succ<Succ<Succ<Succ<Z>>>>>;
    (A, B, C, E, F, G) =>
        Cons<A, Cons<B, Cons<C, Cons<E, Cons<F, Cons<G, Nil>>>>>>,
        Cons<G, Cons<F, Cons<E, Cons<C, Cons<B, Cons<A, Nil>>>>>>,
        Succ<Succ<Succ<Succ<Succ<Succ<Z>>>>>>;
    (A, B, C, E, F, G, H) =>
        Cons<A, Cons<B, Cons<C, Cons<E, Cons<F, Cons<G, Cons<H, Nil>>>>>>>,
        Cons<H, Cons<G, Cons<F, Cons<E, Cons<C, Cons<B, Cons<A, Nil>>>>>>>,
        Succ<Succ<Succ<Succ<Succ<Succ<Succ<Z>>>>>>>;
    (A, B, C, E, F, G, H, I) =>
        Cons<A, Cons<B, Cons<C, Cons<E, Cons<F, Cons<G, Cons<H, Cons<I, Nil>>>>>>>>,
        Cons<I, Cons<H, Cons<G, Cons<F, Cons<E, Cons<C, Cons<B, Cons<A, Nil>>>>>>>>,
        Succ<Succ<Succ<Succ<Succ<Succ<Succ<Succ<Z>>>>>>>>;
}

/// Marker: the shape has no `Dyn` dim (needed by `zeros()`, `ones()`, `tensor!`).
pub trait StaticShape: Shape {}
// The `Self` of a failed check is `Dyn` (the dim at fault): with `S`, the root bound's
// `Self`, rustc would report `S: StaticShape` without the check's message.
impl<S: Shape> StaticShape for S
where
    S::List: AllStatic,
    crate::shape::check::Blame<<S::List as AllStatic>::Ok, Dyn>: StaticList<S>,
{
}

/// `B1` when the cons list `Self` has no `Dyn` (never fails).
pub trait AllStatic {
    /// `B1` or `B0`.
    type Ok: crate::typelevel::dim::Bool;
}
impl AllStatic for Nil {
    type Ok = typenum::B1;
}
impl<const N: usize, T: AllStatic> AllStatic for Cons<D<N>, T> {
    type Ok = T::Ok;
}
impl<H, L, T: AllStatic> AllStatic for Cons<K<H, L>, T> {
    type Ok = T::Ok;
}
/// A name as its size ([`AllStaticAfter`]).
impl<X: crate::typelevel::named::NamedDim, T> AllStatic for Cons<X, T>
where
    X::Size: AllStaticAfter<T>,
{
    type Ok = <X::Size as AllStaticAfter<T>>::Ok;
}
/// [`AllStatic`] of a list whose head has the size `Self` (a name's) and whose tail is
/// `T`. (Asked of the size itself, not of `Cons<X::Size, T>`: with the head not yet
/// inferred, that bound would nest projections without end.)
pub trait AllStaticAfter<T> {
    /// `B1` or `B0`.
    type Ok: crate::typelevel::dim::Bool;
}
impl<const N: usize, T: AllStatic> AllStaticAfter<T> for D<N> {
    type Ok = T::Ok;
}
impl<H, L, T: AllStatic> AllStaticAfter<T> for K<H, L> {
    type Ok = T::Ok;
}
impl<T> AllStaticAfter<T> for Dyn {
    type Ok = typenum::B0;
}
impl<T> AllStatic for Cons<Dyn, T> {
    type Ok = typenum::B0;
}

/// The check that shape `S` has no `Dyn` dim (holds on `B1`; a failure's `Self` is
/// `Dyn`).
#[diagnostic::on_unimplemented(
    message = "zeros/ones/full/rand/randn: shape {S} has a `Dyn` dim; its size is only known at run time",
    label = "this needs a fully static shape",
    note = "use `zeros_with(&dims)` / `from_vec(data, &dims)` to give the run-time dims"
)]
pub trait StaticList<S> {}
#[diagnostic::do_not_recommend]
impl<S> StaticList<S> for typenum::B1 {}

#[cfg(test)]
mod tests {
    use super::*;

    fn same<A: 'static, B: 'static>() -> bool {
        std::any::TypeId::of::<A>() == std::any::TypeId::of::<B>()
    }
    type Rev<S> = <S as Shape>::Rev;
    type Back<S> = <<S as Shape>::Rev as FromRev>::Shape;

    #[test]
    fn reversed_lists_and_ranks_match_the_lists() {
        type S3 = (D<2>, Dyn, K<D<1>, D<0>>);
        assert!(same::<
            Rev<S3>,
            Cons<K<D<1>, D<0>>, Cons<Dyn, Cons<D<2>, Nil>>>,
        >());
        assert!(same::<Back<S3>, S3>());
        assert!(same::<<S3 as Shape>::Rank, Succ<Succ<Succ<Z>>>>());
        assert!(same::<Rev<()>, Nil>());
        assert!(same::<Back<()>, ()>());
        assert!(same::<<() as Shape>::Rank, Z>());
        type S8 = (D<1>, D<2>, D<3>, D<4>, D<5>, D<6>, D<7>, D<8>);
        assert!(same::<Back<S8>, S8>());
        assert!(same::<
            <Rev<S8> as crate::typelevel::list::ReverseAcc<Nil>>::Output,
            ListOf<S8>,
        >());
        assert!(same::<
            <S8 as Shape>::Rank,
            crate::typelevel::list::LenOf<ListOf<S8>>,
        >());
    }
}
