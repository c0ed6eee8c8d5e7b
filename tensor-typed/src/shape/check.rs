//! How a rule reports a failure: a *check trait*, implemented only for
//! `B1` (typenum's true), whose `#[diagnostic::on_unimplemented]` message is
//! the error the user reads.
//!
//! A rule computes a typenum bit (does the condition hold?) and its method has the bound
//! `Blame<bit, W>: XOk<..>`. When the bit is `B0`, `Blame` is `W`, the readable type the
//! failure is about (a shape or an op marker, never a dim), and rustc reports the
//! missing impl with the check's message. Indices are const generics (printed in
//! decimal); dims print in their decimal form (`D<3>`, `K<D<50>, D<257>>`); shapes print
//! as tuples of them (`(D<2>, D<3>)`).
//!
//! Each check is declared with `check!` in the file of the rule that uses it, so a
//! rule and its message are read together. A check that compares two dims has three
//! more forms for named dims, which print each name's size beside it (a parameter `SA`
//! or `SB`: a static dim or `Dyn`): two names (`MatmulNamesOk`: `inner dims are HeadDim
//! (D<16>) vs Seq (Dyn)`), a name and an unnamed dim (`MatmulNameDimOk`), an unnamed dim
//! and a name (`MatmulDimNameOk`). The rule's verdict picks which one reports a failure
//! ([`crate::shape::mismatch`]).

use crate::typelevel::dim::Pick;
use typenum::B1;

/// The `Self` of a check: `B1` when the condition (a typenum bit) `C` holds, else the
/// readable type `W` the failure is about (a shape or an op marker). rustc then says
/// "the trait `XOk<..>` is not implemented for `W`", never for a typenum bit. Never a dim:
/// a name is the user's own struct, and rustc would show its definition (the `dims!`
/// block) under the error; a check takes its dims as parameters.
pub type Blame<C, W> = <C as Pick>::Out<B1, W>;

/// Declares a check trait: `check! { /// doc #[diagnostic::on_unimplemented(..)]
/// NameOk<TypeParams..; ConstParams..> }` is a trait with those parameters (the const
/// ones `usize`), implemented for `B1` only, whose `Then<X>` is `X`.
macro_rules! check {
    ($(#[$m:meta])* $name:ident < $($p:ident),* ; $($c:ident),* >) => {
        $(#[$m])*
        pub trait $name<$($p,)* $(const $c: usize),*> {
            /// `X` when the check holds; a rule whose result exists only when the check
            /// holds is this projection, so a failed check leaves no made-up result
            /// type behind (rustc reports the check once and stops there).
            type Then<Out>;
        }
        #[diagnostic::do_not_recommend]
        impl<$($p,)* $(const $c: usize),*> $name<$($p,)* $($c),*> for ::typenum::B1 {
            type Then<Out> = Out;
        }
    };
}
pub(crate) use check;
