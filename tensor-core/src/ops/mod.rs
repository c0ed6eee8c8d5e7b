//! Elementwise operations on [`Tensor`](crate::Tensor), built on the
//! [`TensorIterator`](crate::TensorIterator) and the kernels.

mod binary;
mod compare;
mod copy;
mod operators;
mod ternary;
mod unary;
