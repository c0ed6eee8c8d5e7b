//! The user's methods on [`Tensor`](crate::Tensor), one family per file: elementwise
//! binary ops and operators, unary ops, reductions, views, in-place ops.

pub mod binary;
pub mod dims;
pub mod inplace;
pub mod reduction;
pub mod select;
pub mod unary;
pub mod view;

use tensor_core::Result;

/// The value of `r`, or a panic with its error's message: the plain (non-`try_`) form
/// of an op whose `Dyn` dims failed PyTorch's run-time check.
#[track_caller]
pub(crate) fn or_panic<X>(r: Result<X>) -> X {
    match r {
        Ok(x) => x,
        Err(e) => fail(e),
    }
}

/// The panic of [`or_panic`], outside the generic code.
#[cold]
#[inline(never)]
#[track_caller]
fn fail(e: tensor_core::Error) -> ! {
    panic!("{e}")
}
