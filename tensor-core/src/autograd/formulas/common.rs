//! What every formula uses: the incoming gradient, a zero to select with.

use crate::error::Result;
use crate::tensor::Tensor;

/// The gradient of output 0 (the engine calls a node only when some gradient
/// reached it; a single-output node always gets it).
#[cfg_attr(unoptimized, inline)]
pub(crate) fn first(grads: &[Option<Tensor>]) -> Result<&Tensor> {
    grads
        .first()
        .and_then(Option::as_ref)
        .ok_or(crate::error::Error::InvalidArgument {
            op: "backward",
            message: "a node was run without the gradient of its output".into(),
        })
}

/// A 0-d zero of `t`'s dtype (broadcasts in `where`).
#[cfg_attr(unoptimized, inline)]
pub(crate) fn zero_of(t: &Tensor) -> Result<Tensor> {
    Tensor::zeros(&[], t.dtype())
}
