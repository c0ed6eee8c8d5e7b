//! The static checks of `layout!`: each a trait implemented only where the check holds,
//! whose `#[diagnostic::on_unimplemented]` names the operation and prints the dims in
//! decimal (the dim index and the sizes are const generics). There is one module per
//! operation ([`rearrange`], [`repeat`], [`reduce`]) so that each message starts with its
//! operation's name.
//!
//! In each module:
//! * `DimIs<I, D<B>>` for dim `I` of the input, when the pattern knows its size:
//!   `D<A>` must be `D<B>` (no typenum: equal const generics); `Dyn` is checked at run
//!   time.
//! * `Split<I, Rhs>` for dim `I` split into a group with one unknown axis:
//!   `Output = D<A / B>` when `B` divides `A` (by factorisation, [`crate::typelevel::factor`], so `A`
//!   and `B` must lie in the dim table of [`crate::typelevel::dim`]); `Dyn` if either is `Dyn`. `Chunks<I, X, B>` is its
//!   output.

/// The receiver of the const-generic check traits.
pub struct Check;

macro_rules! op_checks {
    ($op:ident, $name:literal, $size_eq:literal, $split_ok:literal) => {
        #[doc = concat!("The static checks of `layout!` as einops' ", $name, ".")]
        pub mod $op {
            use super::Check;
            use crate::typelevel::dim::{Dim, Dyn, D};
            use crate::typelevel::factor::ExactDiv;
            use typenum::B1;

            /// Holds when `A == B`.
            #[diagnostic::on_unimplemented(
                                                message = $size_eq,
                                                label = "dim {I} is {A}, the pattern needs {B}"
                                            )]
            pub trait SizeEq<const I: usize, const A: usize, const B: usize> {}
            impl<const I: usize, const N: usize> SizeEq<I, N, N> for Check {}

            /// Dim `I` of the input (`Self`) has the size `Rhs` the pattern gives it:
            /// equal static sizes, or `Self` is `Dyn` (checked at run time).
            pub trait DimIs<const I: usize, Rhs> {}
            impl<const I: usize, const A: usize, const B: usize> DimIs<I, D<B>> for D<A> where
                Check: SizeEq<I, A, B>
            {
            }
            impl<const I: usize, const B: usize> DimIs<I, D<B>> for Dyn {}

            /// Holds for `B1` (divisible).
            #[diagnostic::on_unimplemented(
                                                message = $split_ok,
                                                label = "dim {I} is {A}, not a multiple of {B}"
                                            )]
            pub trait SplitOk<const I: usize, const A: usize, const B: usize> {}
            impl<const I: usize, const A: usize, const B: usize> SplitOk<I, A, B> for B1 {}

            /// Dim `I` of the input (`Self`) split into chunks of `Rhs`: the number of
            /// chunks. `D<A>` by `D<B>` → `D<A / B>` if `B` divides `A` (else a compile
            /// error); `Dyn` if either is `Dyn` (checked at run time).
            pub trait Split<const I: usize, Rhs> {
                /// The number of chunks.
                type Output: Dim;
            }
            impl<const I: usize, const A: usize, const B: usize> Split<I, D<B>> for D<A>
            where
                D<A>: ExactDiv<D<B>, Output: Dim>,
                <D<A> as ExactDiv<D<B>>>::Ok: SplitOk<I, A, B>,
            {
                type Output = <D<A> as ExactDiv<D<B>>>::Output;
            }
            impl<const I: usize, const A: usize> Split<I, Dyn> for D<A> {
                type Output = Dyn;
            }
            impl<const I: usize, X: Dim> Split<I, X> for Dyn {
                type Output = Dyn;
            }

            /// The chunks of dim `I` (`X`) split by `B`.
            pub type Chunks<const I: usize, X, B> = <X as Split<I, B>>::Output;
        }
    };
}

op_checks!(
    rearrange,
    "rearrange",
    "layout!(rearrange): Shape mismatch, {A} != {B}: dim {I} of the input has size {A}, but the pattern needs {B}",
    "layout!(rearrange): Shape mismatch, can't divide axis of length {A} in chunks of {B} (dim {I} of the input)"
);
op_checks!(
    repeat,
    "repeat",
    "layout!(repeat): Shape mismatch, {A} != {B}: dim {I} of the input has size {A}, but the pattern needs {B}",
    "layout!(repeat): Shape mismatch, can't divide axis of length {A} in chunks of {B} (dim {I} of the input)"
);
op_checks!(
    reduce,
    "reduce",
    "layout!(reduce): Shape mismatch, {A} != {B}: dim {I} of the input has size {A}, but the pattern needs {B}",
    "layout!(reduce): Shape mismatch, can't divide axis of length {A} in chunks of {B} (dim {I} of the input)"
);
