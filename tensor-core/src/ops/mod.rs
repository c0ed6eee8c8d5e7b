//! Elementwise operations on [`Tensor`](crate::Tensor), built on the
//! [`TensorIterator`](crate::TensorIterator) and the kernels.

mod addcmul;
mod binary;
mod clamp;
mod compare;
mod copy;
mod operators;
mod scalar_cast;
mod unary;
mod where_op;

/// Helpers shared by the op tests.
#[cfg(test)]
pub(crate) mod test_util {
    use crate::{Result, Tensor};

    /// A 1-d int64 tensor holding `v`.
    pub(crate) fn longs(v: &[i64]) -> Tensor {
        Tensor::from_vec(v.to_vec(), &[v.len()]).unwrap()
    }

    /// The message of the error `r` must hold.
    pub(crate) fn err(r: Result<impl Sized>) -> String {
        match r {
            Ok(_) => panic!("expected an error"),
            Err(e) => e.to_string(),
        }
    }
}
