//! The verdict of two dims that do not unify, by whether they are named.
//!
//! A rule that compares dims (broadcast, matmul, `check_shape`, `rename`, expand, cat)
//! walks its shapes without failing and keeps the first mismatch as a verdict type,
//! checked once at the end, whose check's message prints the two dims. Which verdict a
//! mismatch gets, and so which message, is asked only once the comparison has failed
//! ([`ThenDiffer`] of `B0`): a program that compiles never asks it. `layout!`'s size
//! check (`DimIs`) asks the same of each dim it checks ([`ThenUnnamed`] beside it).
//!
//! * Neither dim named: the rule's own verdict (`Mismatch<D<3>, D<4>, D<1>>`), whose
//!   message prints the dims (`dim 1 is D<3> vs D<4>`).
//! * [`NamesDiffer`]: two names, each printed with its size, a static dim or `Dyn`
//!   (`dim 0 is Seq (D<256>) vs Model (D<256>)`).
//! * [`NameVsDim`] and [`DimVsName`]: a name (with its size) against an unnamed dim
//!   (`dim 2 is D<64> vs Hidden (D<128>)`).
//!
//! The size is a second type parameter of the check (`<A as NamedDim>::Size`, which rustc
//! prints normalized): rustc prints a type as its name, so a name's size cannot be part
//! of how the name prints, and `#[diagnostic::on_unimplemented]` has no conditional
//! message, hence a check of their own for named dims.
//!
//! The step that picks a verdict has one parameter, the rule's own verdict, and gives the
//! rest of the walk as a generic associated type (as `Pick`): with the dims and the index
//! as parameters too, it cost a file of matmuls 1% more rustc instructions and a file of
//! expands 4%, on programs that compile.

use crate::typelevel::dim::{Bool, Pick};
use crate::typelevel::named::IsNamed;
use std::marker::PhantomData;
use typenum::{B0, B1};

/// The verdict of a rule whose dims `A` (a name) and `B` (a name) at index `P` (a
/// `D<i>`, or [`Inner`] for a matmul's inner dims) differ.
pub struct NamesDiffer<A, B, P>(PhantomData<(A, B, P)>);
/// The verdict of a rule whose dims `A` (a name) and `B` (unnamed) at `P` differ.
pub struct NameVsDim<A, B, P>(PhantomData<(A, B, P)>);
/// The verdict of a rule whose dims `A` (unnamed) and `B` (a name) at `P` differ.
pub struct DimVsName<A, B, P>(PhantomData<(A, B, P)>);
/// The index of a matmul's inner dims in a verdict (they have none in the output).
pub struct Inner;

/// A rule's own verdict of a mismatch of two dims (`Mismatch<A, B, P>`, `DimsDiffer<A, B,
/// P>`, ..): the dims and where they are, read by [`ThenDiffer`] only once the comparison
/// has failed.
pub trait Mismatched {
    /// The left dim.
    type A: IsNamed;
    /// The right dim.
    type B: IsNamed;
    /// Where: a `D<i>`, or [`Inner`].
    type At;
}

/// One step of a rule's walk, by the outcome `Self` (a bit) of a comparison whose
/// mismatch would be the rule's own verdict `U` ([`Mismatched`]): `B1` gives `T` (the
/// verdict of the rest of the walk); `B0` gives `U` when neither dim is named, else
/// [`NamesDiffer`], [`NameVsDim`] or [`DimVsName`]. (One parameter and a generic
/// associated type, as [`Pick`]: a step of more parameters costs the type checker more
/// on every comparison, failed or not.)
pub trait ThenDiffer<U> {
    /// The verdict.
    type Verdict<T>;
}
impl<U> ThenDiffer<U> for B1 {
    type Verdict<T> = T;
}
impl<U: Mismatched> ThenDiffer<U> for B0
where
    NamedPair<U>: DifferBy<U::A, U::B, U::At, U>,
{
    type Verdict<T> = <NamedPair<U> as DifferBy<U::A, U::B, U::At, U>>::Verdict;
}

/// [`ThenDiffer`] for a rule that reports a mismatch of unnamed dims and one of named
/// dims by two bounds (`layout!`'s `DimIs`): `B1` gives `B1`, and so does `B0` when a dim
/// is named (that mismatch is [`ThenDiffer`]'s, checked by the other bound); `B0` of two
/// unnamed dims gives `W`.
pub trait ThenUnnamed<W, U> {
    /// `B1` or `W`.
    type Verdict;
}
impl<W, U> ThenUnnamed<W, U> for B1 {
    type Verdict = B1;
}
impl<W, U: Mismatched> ThenUnnamed<W, U> for B0
where
    NamedPair<U>: DifferBy<U::A, U::B, U::At, U>,
{
    type Verdict = <<NamedPair<U> as DifferBy<U::A, U::B, U::At, U>>::Named as Pick>::Out<B1, W>;
}

/// The [`IsNamed`] bits of the dims of a mismatch `U`, as a pair.
pub type NamedPair<U> = (
    <<U as Mismatched>::A as IsNamed>::Output,
    <<U as Mismatched>::B as IsNamed>::Output,
);

/// The verdict of dims `A` and `B` at `P` that do not unify, by whether each is named
/// (`Self` is the pair of their [`IsNamed`] bits); `U` (the rule's own) when neither is.
pub trait DifferBy<A, B, P, U> {
    /// The verdict.
    type Verdict;
    /// `B1` when a dim is named.
    type Named: Bool;
}
impl<A, B, P, U> DifferBy<A, B, P, U> for (B0, B0) {
    type Verdict = U;
    type Named = B0;
}
impl<A, B, P, U> DifferBy<A, B, P, U> for (B1, B1) {
    type Verdict = NamesDiffer<A, B, P>;
    type Named = B1;
}
impl<A, B, P, U> DifferBy<A, B, P, U> for (B1, B0) {
    type Verdict = NameVsDim<A, B, P>;
    type Named = B1;
}
impl<A, B, P, U> DifferBy<A, B, P, U> for (B0, B1) {
    type Verdict = DimVsName<A, B, P>;
    type Named = B1;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::typelevel::dim::{Dyn, D};
    use crate::typelevel::test_names::{same, test_name};

    test_name!(Seq, Dyn, Dg1);
    test_name!(Head, D<16>, Dg2);

    /// A rule's own verdict (as broadcast's `Mismatch`).
    struct Own<A, B, P>(PhantomData<(A, B, P)>);
    impl<A: IsNamed, B: IsNamed, P> Mismatched for Own<A, B, P> {
        type A = A;
        type B = B;
        type At = P;
    }
    /// The verdict of a failed comparison of `A` and `B` at dim 1.
    type Failed<A, B> = <B0 as ThenDiffer<Own<A, B, D<1>>>>::Verdict<B1>;

    #[test]
    fn a_failed_comparison_is_the_rules_own_verdict_unless_a_dim_is_named() {
        assert!(same::<Failed<D<3>, D<4>>, Own<D<3>, D<4>, D<1>>>());
        assert!(same::<Failed<Head, Seq>, NamesDiffer<Head, Seq, D<1>>>());
        assert!(same::<Failed<Head, D<32>>, NameVsDim<Head, D<32>, D<1>>>());
        assert!(same::<Failed<D<32>, Head>, DimVsName<D<32>, Head, D<1>>>());
    }

    #[test]
    fn a_comparison_that_holds_is_the_verdict_of_the_rest_of_the_walk() {
        type Held = <B1 as ThenDiffer<Own<Head, Seq, D<1>>>>::Verdict<Inner>;
        assert!(same::<Held, Inner>());
    }

    #[test]
    fn only_a_mismatch_of_unnamed_dims_blames_the_op() {
        type Blamed<C, A, B> = <C as ThenUnnamed<Inner, Own<A, B, D<1>>>>::Verdict;
        assert!(same::<Blamed<B0, D<3>, D<4>>, Inner>());
        assert!(same::<Blamed<B0, Head, D<4>>, B1>());
        assert!(same::<Blamed<B1, D<3>, D<3>>, B1>());
    }
}
