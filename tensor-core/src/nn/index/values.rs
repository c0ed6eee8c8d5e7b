//! The values of an index tensor, which the forward of `index_select`, `gather` and
//! `embedding` (`mod.rs`) and their backward (`backward.rs`) both read.

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::tensor::Tensor;

/// The values of an index tensor of dtype int64 or int32, in row-major order.
#[cfg_attr(unoptimized, inline)]
pub(super) fn index_values(index: &Tensor) -> Result<Vec<i64>> {
    match index.dtype() {
        DType::I64 => index.to_vec::<i64>(),
        DType::I32 => Ok(index.to_vec::<i32>()?.into_iter().map(i64::from).collect()),
        other => Err(Error::DTypeMismatch {
            op: "index",
            found: other,
            expected: DType::I64,
        }),
    }
}
