//! The element-type rules: which dtypes an op accepts and which dtype it returns, by
//! PyTorch's tables.
//!
//! * Promotion and safe casting (`torch.promote_types`, `torch.can_cast`):
//!   `Tensor<i32, S> + Tensor<f32, S>` is `Tensor<f32, S>` ([`Promoted`]); an in-place op
//!   needs the promoted type to cast safely into the written tensor ([`CastsTo`]):
//!   `Tensor<i64, _>.add_(&Tensor<f32, _>)` is a compile error (`result type f32 can't be
//!   cast to the desired output type i64`). The tables are tested against tensor-core's
//!   `promote_types` / `can_cast`.
//! * Refusals: an op PyTorch refuses for every tensor of a dtype (`neg` of bool, `-` with
//!   a bool, `relu` of bool, `pow` or `matmul` of bools, `argmax` of bool) is a compile
//!   error, with PyTorch's message, instead of a run-time error: the bound ([`Negate`],
//!   [`Relu`], [`Subtract`], [`Power`], [`MatmulElement`], [`ArgReduce`]) holds for every
//!   element type but `bool`.

use tensor_core::half::{bf16, f16};
use tensor_core::Element;

/// `Promote<Rhs>`: the dtype of a binary op between `Self` and `Rhs` tensors
/// (`torch.promote_types`).
#[diagnostic::on_unimplemented(message = "no type promotion between {Self} and {Rhs}")]
pub trait Promote<Rhs: Element>: Element {
    /// The promoted element type.
    type Output: Element;
}
/// The promoted element type of `A` and `B` (`Promoted<i32, f32>` is `f32`).
pub type Promoted<A, B> = <A as Promote<B>>::Output;

macro_rules! promote_table {
    ($($a:ident $b:ident => $c:ident;)*) => {$(
        impl Promote<$b> for $a {
            type Output = $c;
        }
    )*};
}
promote_table! {
    bool bool => bool; bool u8 => u8; bool i8 => i8; bool i16 => i16; bool i32 => i32; bool i64 => i64; bool f16 => f16; bool bf16 => bf16; bool f32 => f32; bool f64 => f64;
    u8 bool => u8; u8 u8 => u8; u8 i8 => i16; u8 i16 => i16; u8 i32 => i32; u8 i64 => i64; u8 f16 => f16; u8 bf16 => bf16; u8 f32 => f32; u8 f64 => f64;
    i8 bool => i8; i8 u8 => i16; i8 i8 => i8; i8 i16 => i16; i8 i32 => i32; i8 i64 => i64; i8 f16 => f16; i8 bf16 => bf16; i8 f32 => f32; i8 f64 => f64;
    i16 bool => i16; i16 u8 => i16; i16 i8 => i16; i16 i16 => i16; i16 i32 => i32; i16 i64 => i64; i16 f16 => f16; i16 bf16 => bf16; i16 f32 => f32; i16 f64 => f64;
    i32 bool => i32; i32 u8 => i32; i32 i8 => i32; i32 i16 => i32; i32 i32 => i32; i32 i64 => i64; i32 f16 => f16; i32 bf16 => bf16; i32 f32 => f32; i32 f64 => f64;
    i64 bool => i64; i64 u8 => i64; i64 i8 => i64; i64 i16 => i64; i64 i32 => i64; i64 i64 => i64; i64 f16 => f16; i64 bf16 => bf16; i64 f32 => f32; i64 f64 => f64;
    f16 bool => f16; f16 u8 => f16; f16 i8 => f16; f16 i16 => f16; f16 i32 => f16; f16 i64 => f16; f16 f16 => f16; f16 bf16 => f32; f16 f32 => f32; f16 f64 => f64;
    bf16 bool => bf16; bf16 u8 => bf16; bf16 i8 => bf16; bf16 i16 => bf16; bf16 i32 => bf16; bf16 i64 => bf16; bf16 f16 => f32; bf16 bf16 => bf16; bf16 f32 => f32; bf16 f64 => f64;
    f32 bool => f32; f32 u8 => f32; f32 i8 => f32; f32 i16 => f32; f32 i32 => f32; f32 i64 => f32; f32 f16 => f32; f32 bf16 => f32; f32 f32 => f32; f32 f64 => f64;
    f64 bool => f64; f64 u8 => f64; f64 i8 => f64; f64 i16 => f64; f64 i32 => f64; f64 i64 => f64; f64 f16 => f64; f64 bf16 => f64; f64 f32 => f64; f64 f64 => f64;
}

/// `CastsTo<To, Op>`: values of the result type `Self` may be written into a `To` tensor
/// (`torch.can_cast`: no float into an integer, nothing but bool into bool) by the
/// in-place op `Op` (a marker of [`crate::typelevel::op`], named in the message).
#[diagnostic::on_unimplemented(
    message = "{Op}: result type {Self} can't be cast to the desired output type {To}",
    label = "an in-place op writes its result into this tensor's dtype",
    note = "PyTorch's can_cast: a float can't be written into an integer tensor, a number can't be written into a bool tensor"
)]
pub trait CastsTo<To: Element, Op = crate::typelevel::op::broadcast>: Element {}

macro_rules! cast_table {
    ($($from:ident => $($to:ident)*;)*) => {
        $($(#[diagnostic::do_not_recommend] impl<Op> CastsTo<$to, Op> for $from {})*)*
        /// The `(from, to)` pairs with a [`CastsTo`] impl (tested against `can_cast`).
        pub const CAST_PAIRS: &[(tensor_core::DType, tensor_core::DType)] =
            &[$($((<$from as Element>::DTYPE, <$to as Element>::DTYPE),)*)*];
    };
}
cast_table! {
    bool => bool u8 i8 i16 i32 i64 f16 bf16 f32 f64;
    u8 => u8 i8 i16 i32 i64 f16 bf16 f32 f64;
    i8 => u8 i8 i16 i32 i64 f16 bf16 f32 f64;
    i16 => u8 i8 i16 i32 i64 f16 bf16 f32 f64;
    i32 => u8 i8 i16 i32 i64 f16 bf16 f32 f64;
    i64 => u8 i8 i16 i32 i64 f16 bf16 f32 f64;
    f16 => f16 bf16 f32 f64;
    bf16 => f16 bf16 f32 f64;
    f32 => f16 bf16 f32 f64;
    f64 => f16 bf16 f32 f64;
}

/// `FloatOf`: the dtype of a float-valued op (`exp`, `mean`, `sigmoid`, …): floats keep
/// their type, integers and bool become `f32` (PyTorch's default dtype).
pub trait FloatOf: Element {
    /// The float element type.
    type Output: Element;
}
macro_rules! float_of {
    ($($a:ident => $b:ident;)*) => {$(
        impl FloatOf for $a {
            type Output = $b;
        }
    )*};
}
float_of! {
    bool => f32; u8 => f32; i8 => f32; i16 => f32; i32 => f32; i64 => f32;
    f16 => f16; bf16 => bf16; f32 => f32; f64 => f64;
}

/// `WithScalar<N>`: the dtype of `tensor op n` for a Rust number `n` of type `N`, which
/// PyTorch treats as a wrapped number: it only raises the category (an int tensor times
/// a float is `f32`; a bool tensor plus an int is `i64`).
pub trait WithScalar<N>: Element {
    /// The result element type.
    type Output: Element;
}
macro_rules! with_scalar {
    ($($a:ident: int => $i:ident, float => $f:ident;)*) => {$(
        impl WithScalar<i64> for $a { type Output = $i; }
        impl WithScalar<i32> for $a { type Output = $i; }
        impl WithScalar<f64> for $a { type Output = $f; }
        impl WithScalar<f32> for $a { type Output = $f; }
    )*};
}
with_scalar! {
    bool: int => i64, float => f32;
    u8: int => u8, float => f32;
    i8: int => i8, float => f32;
    i16: int => i16, float => f32;
    i32: int => i32, float => f32;
    i64: int => i64, float => f32;
    f16: int => f16, float => f16;
    bf16: int => bf16, float => bf16;
    f32: int => f32, float => f32;
    f64: int => f64, float => f64;
}

/// An element type `neg` (unary `-`) accepts: every type but `bool`.
#[diagnostic::on_unimplemented(
    message = "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.",
    label = "`neg` of a `Tensor<{Self}, _>`"
)]
pub trait Negate: Element {}

/// An element type `relu` accepts: every type but `bool`.
#[diagnostic::on_unimplemented(
    message = "Boolean inputs not supported for relu",
    label = "`relu` of a `Tensor<{Self}, _>`"
)]
pub trait Relu: Element {}

/// An element type `sub` (binary `-`) accepts on either side: every type but `bool`.
#[diagnostic::on_unimplemented(
    message = "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.",
    label = "`sub` with a `Tensor<{Self}, _>`"
)]
pub trait Subtract: Element {}

/// A computation type `pow` accepts (the promoted type of its operands): not `bool`.
#[diagnostic::on_unimplemented(
    message = "\"pow\" not implemented for 'Bool'",
    label = "`pow` computed in `{Self}`"
)]
pub trait Power: Element {}

/// An element type `matmul` accepts: every type but `bool`.
#[diagnostic::on_unimplemented(
    message = "\"addmm_impl_cpu_\" not implemented for 'Bool'",
    label = "`matmul` of `Tensor<{Self}, _>`s"
)]
pub trait MatmulElement: Element {}

/// An element type `argmax`/`argmin` accept: every type but `bool`.
#[diagnostic::on_unimplemented(
    message = "\"argmax_cpu\" / \"argmin_cpu\" not implemented for 'Bool'",
    label = "`argmax`/`argmin` of a `Tensor<{Self}, _>`"
)]
pub trait ArgReduce: Element {}

macro_rules! numeric {
    ($($t:ty)*) => {$(
        #[diagnostic::do_not_recommend]
        impl Negate for $t {}
        #[diagnostic::do_not_recommend]
        impl Relu for $t {}
        #[diagnostic::do_not_recommend]
        impl Subtract for $t {}
        #[diagnostic::do_not_recommend]
        impl Power for $t {}
        #[diagnostic::do_not_recommend]
        impl MatmulElement for $t {}
        #[diagnostic::do_not_recommend]
        impl ArgReduce for $t {}
    )*};
}
numeric!(u8 i8 i16 i32 i64 f16 bf16 f32 f64);

#[cfg(test)]
mod tests {
    use super::*;
    use tensor_core::{can_cast, promote_types};

    fn pair<A: Promote<B>, B: Element>() {
        assert_eq!(
            promote_types(A::DTYPE, B::DTYPE),
            <Promoted<A, B>>::DTYPE,
            "{:?} {:?}",
            A::DTYPE,
            B::DTYPE
        );
    }

    macro_rules! all_pairs {
        ($($a:ident)*) => {{ all_pairs!(@outer [$($a)*] $($a)*); }};
        (@outer $all:tt $($a:ident)*) => {$( all_pairs!(@inner $a $all); )*};
        (@inner $a:ident [$($b:ident)*]) => {$( pair::<$a, $b>(); )*};
    }

    #[test]
    fn promote_table_matches_tensor_core() {
        all_pairs!(bool u8 i8 i16 i32 i64 f16 bf16 f32 f64);
    }

    #[test]
    fn cast_table_matches_tensor_core() {
        for from in tensor_core::ALL_DTYPES {
            for to in tensor_core::ALL_DTYPES {
                let typed = CAST_PAIRS.contains(&(from, to));
                assert_eq!(can_cast(from, to), typed, "{from:?} -> {to:?}");
            }
        }
    }
}
