//! Proc macros for typed tensors: `tensor!`, `layout!`, `Shape!`, `Axes!`.
#![warn(missing_docs)]
