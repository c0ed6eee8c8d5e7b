//! `wrap!(inner)`: the typed tensor around a runtime tensor that a typed op produced
//! (its dtype and sizes already fit the type the context expects).
//!
//! A struct literal rather than a generic function: a function would be compiled once
//! per shape a program uses (a debug build of 200 typed ops compiled 349 copies). With
//! the feature `check-invariants`, which this workspace's tests turn on, every result is
//! checked against its type, and a mismatch (a bug in tensor-typed's type-level rules)
//! panics naming both.

#[cfg(not(feature = "check-invariants"))]
macro_rules! wrap {
    ($inner:expr $(,)?) => {
        $crate::tensor::Tensor {
            inner: $inner,
            _marker: ::std::marker::PhantomData,
        }
    };
}

#[cfg(feature = "check-invariants")]
macro_rules! wrap {
    ($inner:expr $(,)?) => {
        $crate::tensor::checked($crate::tensor::Tensor {
            inner: $inner,
            _marker: ::std::marker::PhantomData,
        })
    };
}
