//! Typed tensors: static dims checked by the compiler, `Dyn` dims by the runtime.
//!
//! See [`shape`] for how shapes are represented (`Shape![2, Dyn, 3]` is
//! `(D<2>, Dyn, D<3>)`) and which type-level operators exist.
#![warn(missing_docs)]
#![forbid(unsafe_code)]

extern crate self as tensor_typed;

#[macro_use]
mod wrap;

pub mod axes;
pub mod broadcast;
pub mod checks;
pub mod dim;
pub mod dtype_rules;
pub mod expand;
pub mod factor;
pub mod inplace;
#[doc(hidden)]
pub mod layout_support;
pub mod list;
pub mod matmul_shape;
pub mod op;
pub mod ops_binary;
pub mod ops_reduce;
pub mod ops_unary;
pub mod ops_view;
pub mod peano;
pub mod promote;
pub mod reshape;
pub mod shape;
pub mod tensor;

pub use dim::{Ax, Dim, Dyn, D};
pub use shape::{Shape, StaticShape};
pub use tensor::Tensor;
pub use tensor_macros::{layout, tensor, Axes, Shape};

/// Everything a user needs: `use tensor_typed::prelude::*;`.
pub mod prelude {
    pub use crate::dim::{Ax, Dyn, D};
    pub use crate::tensor::Tensor;
    pub use crate::{layout, tensor, Axes, Shape};
}
