//! The plain (non-`try_`) form of a fallible typed op: the value, or a panic at the
//! caller with the error's message (PyTorch's, for a run-time check of `Dyn` dims).

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
