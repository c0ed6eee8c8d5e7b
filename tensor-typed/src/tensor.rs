//! `Tensor<T, S>`: a `tensor_core::Tensor` whose element type `T` and shape `S` are known
//! to the compiler (static dims exactly, `Dyn` dims by rank only).
//!
//! Every typed op calls the same tensor-core op (the runtime), so values, sizes and
//! strides are those of the untyped program; the type adds compile-time checks.

use crate::shape::names::RenameTo;
use crate::shape::same::SameShape;
use crate::shape::{Shape, StaticShape};
use std::fmt;
use std::marker::PhantomData;
use tensor_core::{DType, Element, Error, Result};
use tensor_macros::plain_form;

/// A tensor of element type `T` (`f32`, `i64`, `bool`, …) and shape type `S`
/// (`Shape![2, Dyn, 3]`).
///
/// Invariant: the runtime tensor's dtype is `T::DTYPE`, its rank is `S::RANK` and each
/// static dim of `S` equals its size. `Clone` is cheap and *aliases* the storage (like
/// assigning a tensor in Python); use [`Tensor::contiguous_copy`] for a copy.
pub struct Tensor<T: Element, S: Shape> {
    pub(crate) inner: tensor_core::Tensor,
    pub(crate) _marker: PhantomData<(T, S)>,
}

impl<T: Element, S: Shape> Clone for Tensor<T, S> {
    fn clone(&self) -> Self {
        wrap!(self.inner.alias())
    }
}

#[cfg_attr(unoptimized, inline)]
pub(crate) fn shape_error(op: &'static str, expected: String, got: &[usize]) -> Error {
    Error::InvalidArgument {
        op,
        message: format!("expected a tensor of shape {expected}, got sizes {got:?}"),
    }
}

/// The checks of `try_from_dyn`, not generic (one copy for every shape): dtype, then
/// rank and static dims.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn check_fits(
    t: &tensor_core::Tensor,
    dtype: DType,
    dims: &[Option<usize>],
) -> Result<()> {
    if t.dtype() != dtype {
        return Err(Error::DTypeMismatch {
            op: "try_from_dyn",
            found: t.dtype(),
            expected: dtype,
        });
    }
    if !crate::shape::matches(dims, t.sizes()) {
        return Err(shape_error(
            "try_from_dyn",
            crate::shape::describe(dims),
            t.sizes(),
        ));
    }
    Ok(())
}

/// `t`, after checking the invariant a typed op's result must keep (feature
/// `check-invariants`; a failure is a bug in tensor-typed, not a user error).
#[cfg(feature = "check-invariants")]
pub(crate) fn checked<T: Element, S: Shape>(t: Tensor<T, S>) -> Tensor<T, S> {
    check_invariant(&t.inner, T::DTYPE, S::DIMS);
    t
}

/// The invariant behind [`checked`], not generic.
#[cfg(feature = "check-invariants")]
#[cfg_attr(unoptimized, inline)]
fn check_invariant(inner: &tensor_core::Tensor, dtype: DType, dims: &[Option<usize>]) {
    assert_eq!(inner.dtype(), dtype, "typed op produced the wrong dtype");
    assert!(
        crate::shape::matches(dims, inner.sizes()),
        "typed op produced sizes {:?} for {}",
        inner.sizes(),
        crate::shape::describe(dims)
    );
}

impl<T: Element, S: Shape> Tensor<T, S> {
    /// A tensor from row-major `data` with sizes `dims` (elements). Mirrors
    /// `torch.tensor(data).reshape(dims)`.
    ///
    /// Errors: `dims` does not fit `S` (rank or a static dim differs), or `data.len()` is
    /// not the product of `dims`.
    pub fn from_vec(data: Vec<T>, dims: &[usize]) -> Result<Self> {
        if !S::matches(dims) {
            return Err(shape_error("from_vec", S::describe(), dims));
        }
        Ok(wrap!(tensor_core::Tensor::from_vec(data, dims)?))
    }

    /// Wraps a runtime tensor, checking its dtype is `T` and its sizes fit `S`.
    ///
    /// Errors: `DTypeMismatch`, or `InvalidArgument` naming both shapes.
    pub fn try_from_dyn(t: tensor_core::Tensor) -> Result<Self> {
        check_fits(&t, T::DTYPE, S::DIMS)?;
        Ok(wrap!(t))
    }

    /// A tensor of zeros with run-time sizes `dims` (any shape, `Dyn` dims included).
    /// Mirrors `torch.zeros(dims)`. Errors: `dims` does not fit `S`.
    pub fn zeros_with(dims: &[usize]) -> Result<Self> {
        if !S::matches(dims) {
            return Err(shape_error("zeros_with", S::describe(), dims));
        }
        Ok(wrap!(tensor_core::Tensor::zeros(dims, T::DTYPE)?))
    }

    /// A tensor of ones with run-time sizes `dims`. Mirrors `torch.ones(dims)`.
    /// Errors: `dims` does not fit `S`.
    pub fn ones_with(dims: &[usize]) -> Result<Self> {
        if !S::matches(dims) {
            return Err(shape_error("ones_with", S::describe(), dims));
        }
        Ok(wrap!(tensor_core::Tensor::ones(dims, T::DTYPE)?))
    }

    /// The runtime tensor (shares storage).
    pub fn into_dyn(self) -> tensor_core::Tensor {
        self.inner
    }

    /// The runtime tensor, borrowed.
    pub fn as_dyn(&self) -> &tensor_core::Tensor {
        &self.inner
    }

    /// The sizes (elements per dim); static dims equal those of `S`.
    pub fn dims(&self) -> &[usize] {
        self.inner.sizes()
    }

    /// The strides, in elements.
    pub fn strides(&self) -> &[isize] {
        self.inner.strides()
    }

    /// Number of elements.
    pub fn numel(&self) -> usize {
        self.inner.numel()
    }

    /// The elements in row-major (logical) order. Mirrors `t.reshape(-1).tolist()`.
    ///
    /// # Errors
    /// [`Error::OutOfMemory`] (`DefaultCPUAllocator: not enough memory: you tried to
    /// allocate N bytes.`) when the result cannot be allocated.
    #[plain_form]
    pub fn try_to_vec(&self) -> Result<Vec<T>> {
        self.inner.to_vec::<T>()
    }

    /// The single element of a one-element tensor. Mirrors `Tensor.item()`.
    /// Errors: `ItemNumel` when the tensor does not hold exactly one element.
    pub fn item(&self) -> Result<T> {
        self.inner.item::<T>()
    }

    /// Re-types the dims: checks at run time that the `Dyn` dims of `S` have the sizes
    /// `S2` gives them; the result is a view of the same storage. Static dims that can never agree are a compile error
    /// (`check_shape: shape (D<2>, Dyn) can never be (D<3>, D<5>): dim 0 is 2 vs 3`).
    ///
    /// Errors: `InvalidArgument` naming the expected shape and the sizes.
    // The bound on the signature's line: an error's note on it then shows that one line
    // (rustc adds the signature and `where` lines when the bound is on another line).
    #[rustfmt::skip]
    pub fn check_shape<S2: Shape>(&self) -> Result<Tensor<T, S2>> where S: SameShape<S2> {
        if !S2::matches(self.inner.sizes()) {
            return Err(shape_error(
                "check_shape",
                S2::describe(),
                self.inner.sizes(),
            ));
        }
        Ok(wrap!(self.inner.alias()))
    }

    /// Changes the names of the dims (named dims: [`dims!`](crate::dims)): any shape
    /// `S2` of the same rank whose sizes agree with `S`'s, whatever the names
    /// (`Shape![Batch, Seq, Model]` → `Shape![Batch, Seq, Dyn]`, or → `Shape![Rows, Seq,
    /// 256]`). Checked as [`check_shape`](Self::check_shape): static sizes at compile time
    /// (`rename: shape .. can never be ..`), run-time ones here. The result is a view of
    /// the same storage.
    ///
    /// # Errors
    /// `InvalidArgument` naming the expected shape and the sizes, when a run-time size
    /// differs from a static size of `S2`.
    // The bound on the signature's line: an error's note on it then shows that one line
    // (rustc adds the signature and `where` lines when the bound is on another line).
    #[rustfmt::skip]
    #[plain_form]
    pub fn try_rename<S2: Shape>(&self) -> Result<Tensor<T, S2>> where S: RenameTo<S2> {
        if !S2::matches(self.inner.sizes()) {
            return Err(shape_error("rename", S2::describe(), self.inner.sizes()));
        }
        Ok(wrap!(self.inner.alias()))
    }

    /// Forgets static dims: any shape of the same rank whose static dims are also
    /// static (and equal) in `S`, e.g. `Shape![5, 3]` → `Shape![Dyn, 3]`. Checked at run
    /// time like [`Tensor::check_shape`] (never fails for a valid widening).
    ///
    /// # Panics
    /// When `S2` has a static dim where `S` has a `Dyn` of another size (not a
    /// widening), with the message of [`check_shape`](Self::check_shape), its `try_`
    /// form.
    #[track_caller]
    // The bound on the signature's line: an error's note on it then shows that one line
    // (rustc adds the signature and `where` lines when the bound is on another line).
    #[rustfmt::skip]
    pub fn widen<S2: Shape>(self) -> Tensor<T, S2> where S: SameShape<S2> {
        crate::or_panic::or_panic(self.check_shape())
    }

    /// A contiguous copy (new storage). Mirrors `Tensor.clone()` with
    /// `torch.contiguous_format`.
    ///
    /// # Errors
    /// [`Error::OutOfMemory`] when the copy cannot be allocated.
    #[plain_form]
    pub fn try_contiguous_copy(&self) -> Result<Self> {
        Ok(wrap!(self
            .inner
            .clone(tensor_core::MemoryFormat::Contiguous)?))
    }

    /// Converts the elements to `U`. Mirrors `Tensor.to(dtype)`.
    ///
    /// # Errors
    /// [`Error::OutOfMemory`] when the copy cannot be allocated.
    #[plain_form]
    pub fn try_cast<U: Element>(&self) -> Result<Tensor<U, S>> {
        Ok(wrap!(self.inner.to_dtype(U::DTYPE)?))
    }

    /// `tensor!` support: a tensor of static shape from its elements in row-major order.
    #[doc(hidden)]
    #[track_caller]
    pub fn __from_literal<const N: usize>(data: [T; N]) -> Self
    where
        S: StaticShape,
    {
        let dims = S::all_static().expect("static shape");
        wrap!(crate::or_panic::or_panic(tensor_core::Tensor::from_vec(
            data.to_vec(),
            &dims
        )))
    }
}

/// The sizes of a static shape (every dim of a `StaticShape` is static).
#[cfg_attr(unoptimized, inline)]
fn static_sizes(dims: &[Option<usize>]) -> Vec<usize> {
    crate::shape::all_static(dims).expect("a StaticShape has only static dims")
}

/// `zeros()` / `ones()` of a static shape, outside the generic code (one copy for
/// every shape, which keeps typed programs quick to compile).
///
/// # Errors
/// `StorageSizeOverflow`, `OutOfMemory`.
#[cfg_attr(unoptimized, inline)]
fn static_filled(dims: &[Option<usize>], dtype: DType, one: bool) -> Result<tensor_core::Tensor> {
    let dims = static_sizes(dims);
    if one {
        tensor_core::Tensor::ones(&dims, dtype)
    } else {
        tensor_core::Tensor::zeros(&dims, dtype)
    }
}

/// `full()` of a static shape: fresh zeroed memory (allocated fallibly, never a
/// `vec![value; n]`) into which the 0-d `value` is copied, so every element type keeps
/// its exact value.
///
/// # Errors
/// `StorageSizeOverflow`, `OutOfMemory`.
#[cfg_attr(unoptimized, inline)]
fn static_full(dims: &[Option<usize>], value: &tensor_core::Tensor) -> Result<tensor_core::Tensor> {
    let t = tensor_core::Tensor::zeros(&static_sizes(dims), value.dtype())?;
    t.copy_(value)?;
    Ok(t)
}

/// `rand()` / `randn()` of a static shape.
///
/// # Errors
/// `StorageSizeOverflow`, `OutOfMemory`.
#[cfg_attr(unoptimized, inline)]
fn static_random(dims: &[Option<usize>], seed: u64, normal: bool) -> Result<tensor_core::Tensor> {
    let dims = static_sizes(dims);
    if normal {
        tensor_core::Tensor::randn(&dims, seed)
    } else {
        tensor_core::Tensor::rand(&dims, seed)
    }
}

impl<T: Element, S: StaticShape> Tensor<T, S> {
    /// A tensor of zeros of the static shape `S`. Mirrors `torch.zeros`.
    ///
    /// # Errors
    /// [`Error::StorageSizeOverflow`] when the bytes exceed `isize::MAX`;
    /// [`Error::OutOfMemory`] when they cannot be allocated.
    #[plain_form]
    pub fn try_zeros() -> Result<Self> {
        Ok(wrap!(static_filled(S::DIMS, T::DTYPE, false)?))
    }

    /// A tensor of ones of the static shape `S`. Mirrors `torch.ones`.
    ///
    /// # Errors
    /// As [`try_zeros`](Self::try_zeros).
    #[plain_form]
    pub fn try_ones() -> Result<Self> {
        Ok(wrap!(static_filled(S::DIMS, T::DTYPE, true)?))
    }

    /// A tensor filled with `value`. Mirrors `torch.full`.
    ///
    /// # Errors
    /// As [`try_zeros`](Self::try_zeros).
    #[plain_form]
    pub fn try_full(value: T) -> Result<Self> {
        Ok(wrap!(static_full(
            S::DIMS,
            &tensor_core::Tensor::scalar(value)
        )?))
    }
}

impl<S: Shape> Tensor<f32, S> {
    /// Uniform `[0, 1)` samples (seeded) with run-time sizes `dims` (`Dyn` dims
    /// included). Mirrors `torch.rand(dims)`, with the values of
    /// `torch.rand(dims, generator=torch.Generator().manual_seed(seed))` bit for bit
    /// (see `tensor_core::Tensor::rand`). Errors: `dims` does not fit `S`; the
    /// runtime's size overflow or out-of-memory errors.
    pub fn rand_with(dims: &[usize], seed: u64) -> Result<Self> {
        if !S::matches(dims) {
            return Err(shape_error("rand_with", S::describe(), dims));
        }
        Ok(wrap!(tensor_core::Tensor::rand(dims, seed)?))
    }

    /// Standard normal samples (seeded) with run-time sizes `dims`. Mirrors
    /// `torch.randn(dims)`, with its values for the same seed (as
    /// `tensor_core::Tensor::randn`). Errors as [`Tensor::rand_with`].
    pub fn randn_with(dims: &[usize], seed: u64) -> Result<Self> {
        if !S::matches(dims) {
            return Err(shape_error("randn_with", S::describe(), dims));
        }
        Ok(wrap!(tensor_core::Tensor::randn(dims, seed)?))
    }
}

impl<S: StaticShape> Tensor<f32, S> {
    /// Uniform `[0, 1)` samples (seeded). Mirrors `torch.rand`, with its values for a
    /// generator seeded by `torch.Generator().manual_seed(seed)`.
    ///
    /// # Errors
    /// [`Error::StorageSizeOverflow`], [`Error::OutOfMemory`].
    #[plain_form]
    pub fn try_rand(seed: u64) -> Result<Self> {
        Ok(wrap!(static_random(S::DIMS, seed, false)?))
    }

    /// Standard normal samples (seeded). Mirrors `torch.randn`, with its values for a
    /// generator seeded by `torch.Generator().manual_seed(seed)`.
    ///
    /// # Errors
    /// [`Error::StorageSizeOverflow`], [`Error::OutOfMemory`].
    #[plain_form]
    pub fn try_randn(seed: u64) -> Result<Self> {
        Ok(wrap!(static_random(S::DIMS, seed, true)?))
    }
}

impl<T: Element, S: Shape> fmt::Display for Tensor<T, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.inner, f)
    }
}

impl<T: Element, S: Shape> fmt::Debug for Tensor<T, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Tensor<{}, {}>(sizes={:?}, strides={:?})",
            T::DTYPE,
            S::describe(),
            self.dims(),
            self.strides()
        )
    }
}

impl<T: Element, S: Shape> From<Tensor<T, S>> for tensor_core::Tensor {
    fn from(t: Tensor<T, S>) -> Self {
        t.into_dyn()
    }
}

impl<T: Element, S: Shape> TryFrom<tensor_core::Tensor> for Tensor<T, S> {
    type Error = Error;
    fn try_from(t: tensor_core::Tensor) -> Result<Self> {
        Tensor::try_from_dyn(t)
    }
}
