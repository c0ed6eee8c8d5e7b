//! Elementwise operations on [`Tensor`](crate::tensor::Tensor), built on the
//! [`TensorIterator`](crate::iterator::TensorIterator) and the kernels.

mod addcmul;
mod binary;
mod clamp;
mod compare;
mod copy;
mod operators;
mod unary;
mod where_op;

pub use binary::{BinaryOp, BinaryPartial};

pub use unary::{Domain, PartialRule, UnaryOp};
