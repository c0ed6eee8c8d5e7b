//! What `Dim![expr]` expands to for a const expression (`Dim![VOCAB]`, `Dim![4 *
//! N_EMBD]`): the expression's groups of three decimal digits, highest first, each a
//! const argument the compiler evaluates, folded into the dim's one form (`D<N>` below
//! 1000, else `K<Hi, Lo>`; see [`crate::typelevel::dim`]).
//!
//! The fold starts at [`Lead`] (no group yet); [`Group`] skips leading zero groups while
//! in `Lead` (told by the group's [`Flag`], `group != 0`, computed by the compiler too)
//! and appends every group after the first non-zero one; [`Last`] appends the lowest
//! group (which stands alone when every higher group was zero: `0` is `D<0>`).
//!
//! `Dim![N_EMBD]` thus works for every size, where `Shape![N_EMBD]` (`D<{ N_EMBD }>`)
//! holds only sizes below 1000.

use crate::typelevel::dim::{D, K};

/// The fold before its first non-zero group.
pub struct Lead;

/// `true` when a group is not zero, as a type.
pub struct Flag<const NONZERO: bool>;

/// Appends group `G` (a leaf `D<g>`, `F` = `Flag<{ g != 0 }>`) to the dim so far.
pub trait Group<G, F> {
    /// The dim so far, with `G` appended.
    type Out;
}
/// A leading zero group is skipped.
impl<const G: usize> Group<D<G>, Flag<false>> for Lead {
    type Out = Lead;
}
/// The first non-zero group is the dim so far.
impl<const G: usize> Group<D<G>, Flag<true>> for Lead {
    type Out = D<G>;
}
/// After a first group: `Hi · 1000 + G`.
impl<const H: usize, G, F> Group<G, F> for D<H> {
    type Out = K<D<H>, G>;
}
/// After several groups: `Hi · 1000 + G`.
impl<Hi, Lo, G, F> Group<G, F> for K<Hi, Lo> {
    type Out = K<K<Hi, Lo>, G>;
}

/// Appends the lowest group `G` (a leaf): the finished dim.
pub trait Last<G> {
    /// The dim.
    type Out;
}
impl<G> Last<G> for Lead {
    type Out = G;
}
impl<const H: usize, G> Last<G> for D<H> {
    type Out = K<D<H>, G>;
}
impl<Hi, Lo, G> Last<G> for K<Hi, Lo> {
    type Out = K<K<Hi, Lo>, G>;
}

/// What `Dim![..]` stands for when it holds a mistake (beside the `compile_error!` that
/// reports it): `Dyn`, which every shape accepts, so the macro's error is the only one.
pub trait Stub<E> {
    /// `Dyn`.
    type Out;
}
impl<E> Stub<E> for crate::typelevel::dim::Dyn {
    type Out = crate::typelevel::dim::Dyn;
}

#[cfg(test)]
mod tests {
    use crate::{Dim, Shape};

    fn same<A: 'static, B: 'static>() -> bool {
        std::any::TypeId::of::<A>() == std::any::TypeId::of::<B>()
    }

    const VOCAB: usize = 50257;
    const N_EMBD: usize = 768;

    #[test]
    fn a_const_dim_has_the_form_of_the_literal() {
        assert!(same::<Dim![VOCAB], Dim![50257]>());
        assert!(same::<(Dim![VOCAB],), Shape![50257]>());
        assert!(same::<Dim![4 * N_EMBD], Dim![3072]>());
        assert!(same::<Dim![N_EMBD], crate::typelevel::dim::D<768>>());
        assert!(same::<Dim![{ N_EMBD - 768 }], crate::typelevel::dim::D<0>>());
        assert!(same::<Dim![{ 1_000_000 }], Dim![1000000]>());
        assert!(same::<Dim![{ usize::MAX }], Dim![18446744073709551615]>());
    }

    #[test]
    fn a_named_dim_is_usable_inside_shape() {
        type Vocab = Dim![VOCAB];
        type Embd = Dim![N_EMBD];
        assert!(same::<Shape![Dyn, Vocab, Embd], Shape![Dyn, 50257, 768]>());
        let w = crate::tensor::Tensor::<f32, Shape![Embd, Vocab]>::zeros();
        let x = crate::tensor::Tensor::<f32, Shape![2, 768]>::zeros();
        let y: crate::tensor::Tensor<f32, Shape![2, 50257]> = x.matmul(&w);
        assert_eq!(y.dims(), &[2, 50257]);
    }
}
