//! Typed tensors: static dims checked by the compiler, `Dyn` dims by the runtime.
//!
//! See [`shape`] for how shapes are represented (`Shape![2, Dyn, 3]` is
//! `(D<2>, Dyn, D<3>)`) and which shape rules exist; the user's methods are on
//! [`Tensor`]. `typelevel` (dims as types, Peano numbers, prime factorisations, type
//! lists, checks, op markers) is the machinery behind the bounds: public because error
//! messages name its types, not an API to call.
#![warn(missing_docs)]
#![forbid(unsafe_code)]

extern crate self as tensor_typed;

#[macro_use]
mod wrap;

#[doc(hidden)]
pub mod layout_support;
pub mod ops;
pub mod shape;
pub mod tensor;
// Not `#[doc(hidden)]`: rustc prints a type unqualified (`add:`, `D<3>`) only when its
// path is visible, and error messages name op markers and dims from this module.
pub mod typelevel;

pub use shape::{Shape, StaticShape};
pub use tensor::Tensor;
pub use tensor_core::{Element, Error, Result};
pub use tensor_macros::{layout, tensor, Axes, Shape};
pub use typelevel::dim::{Ax, Dim, Dyn, D};

/// Everything a user needs: `use tensor_typed::prelude::*;`.
pub mod prelude {
    pub use crate::tensor::Tensor;
    pub use crate::typelevel::dim::{Ax, Dyn, D};
    pub use crate::{layout, tensor, Axes, Shape};
    pub use tensor_core::{Element, Error, Result};
}
