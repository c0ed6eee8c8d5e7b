//! The copy / cast kernel (`copy_stub`): converts every element from the input's dtype
//! to the output's as `static_cast` does.

use super::elementwise::unary;
use crate::iterator::TensorIterator;
use crate::{dispatch_dtype, Element};

/// Copies operand 1 into operand 0, casting between their dtypes.
pub(crate) fn copy_kernel(iter: &TensorIterator) {
    let (dst, src) = (iter.dtype(0), iter.dtype(1));
    dispatch_dtype!(dst, O, {
        dispatch_dtype!(src, I, unary::<I, O, _>(iter, |x: I| x.cast::<O>()))
    })
}
