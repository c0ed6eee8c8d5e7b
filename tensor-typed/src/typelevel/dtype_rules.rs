//! Element types an op accepts. An op PyTorch refuses for every tensor of a dtype
//! (`neg` of bool, `-` with a bool, `relu` of bool, `pow` or `matmul` of bools, `argmax`
//! of bool) is a compile error here, with PyTorch's message, instead of a run-time
//! panic: the bound is implemented for every element type but `bool`.

use tensor_core::half::{bf16, f16};
use tensor_core::Element;

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
