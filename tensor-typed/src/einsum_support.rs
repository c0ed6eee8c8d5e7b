//! Support for the code `einsum!` emits (not a public API: paths may change).
//!
//! `einsum!("b h s d, b h t d -> b h s t", q, k)` expands to a block of local traits
//! (one per operand, reading its dims; one per further place of a label, comparing its
//! dims through [`SameLabel`]), a generic fn `__einsum` whose return type is the output
//! labels' dims, and its call, which runs [`run`]: `torch.einsum` of the runtime
//! (`tensor_core::Tensor::einsum`) on an equation of one letter per label, its result
//! typed as the computed shape.

pub use crate::shape::Shape;
pub use crate::tensor::Tensor;
pub use crate::typelevel::dim::Dim;
pub use tensor_core::{Element, Result};

use crate::ops::dims::fit;
use crate::typelevel::dim::BroadcastAt;
use typenum::B1;

/// `Self` and `Y` are one label's dims in two places: equal, the same name, `Dyn`
/// (checked at run time) or an unnamed 1 that the other broadcasts over, as
/// `torch.einsum` broadcasts a label's size-1 dim. `Joined` is the label's dim (a name
/// kept, a static size over `Dyn`).
pub trait SameLabel<Y> {
    /// The label's dim.
    type Joined: Dim;
}
impl<X: BroadcastAt<Y, Ok = B1>, Y> SameLabel<Y> for X {
    type Joined = <X as BroadcastAt<Y>>::Output;
}

/// `torch.einsum(equation, operands)` typed as `O` (the shape the macro computed).
///
/// # Errors
/// PyTorch's einsum errors for run-time sizes that do not fit (a `Dyn` dim); an
/// allocation failure.
pub fn run<T: Element, O: Shape>(
    equation: &str,
    operands: &[&tensor_core::Tensor],
) -> Result<Tensor<T, O>> {
    fit(tensor_core::Tensor::einsum(equation, operands))
}

/// The value, or a panic at the caller with the error's message (`einsum!`'s plain
/// form).
#[track_caller]
pub fn or_panic<X>(r: Result<X>) -> X {
    crate::or_panic::or_panic(r)
}
