//! The user's methods on [`Tensor`](crate::Tensor), one family per file: elementwise
//! binary ops and operators, unary ops, reductions, views, in-place ops.

pub mod binary;
pub mod dims;
pub mod inplace;
pub mod reduction;
pub mod unary;
pub mod view;

/// The plain form's panic, re-exported here for the op families (it lives below
/// `tensor.rs`, which uses it too).
pub(crate) use crate::or_panic::or_panic;
