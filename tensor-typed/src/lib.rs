//! Typed tensors: static dims checked by the compiler, `Dyn` dims by the runtime.
#![warn(missing_docs)]
