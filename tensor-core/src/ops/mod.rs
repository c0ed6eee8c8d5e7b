//! Elementwise operations on [`Tensor`](crate::Tensor), built on the
//! [`TensorIterator`](crate::TensorIterator) and the kernels.

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
