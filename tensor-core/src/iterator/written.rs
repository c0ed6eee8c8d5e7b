//! Elementwise ops whose output the iterator allocates uninitialised, as `at::empty`:
//! one write pass instead of a zero-fill and a write. [`Written`] is the proof that a
//! kernel wrote every element of the output, and [`TensorIterator::build_and_run`]
//! (with its fast-setup form) the one place that relies on it.
//!
//! A `Written<'it>` is made only by the elementwise loops (`kernels::unary`, `binary`,
//! `binary_fma`, `ternary`), each of which writes operand 0 at every point of the
//! iteration space, and it is branded with the borrow of the iterator it ran on: the
//! lifetime is invariant and the kernel handed to `build_and_run` must return one for
//! every lifetime (`for<'it>`), so a proof from any other iterator does not type-check.

use super::{TensorIterator, TensorIteratorConfig};
use crate::error::Result;
use crate::tensor::Tensor;
use std::marker::PhantomData;

/// Proof that every element of output 0 of the iterator borrowed for `'it` was written.
pub(crate) struct Written<'it> {
    /// Invariant in `'it`: a `Written` of one borrow is never one of another.
    brand: PhantomData<fn(&'it ()) -> &'it ()>,
}

impl<'it> Written<'it> {
    /// The proof for `iter`.
    ///
    /// # Safety
    /// Every element of `iter`'s output 0 has been written (the loop that calls this
    /// wrote operand 0 at every point of the iteration space).
    #[inline(always)]
    pub(crate) unsafe fn new(iter: &'it TensorIterator) -> Written<'it> {
        let _ = iter;
        Written { brand: PhantomData }
    }
}

impl TensorIterator {
    /// Builds the iterator of `config`, runs `kernel` on it, then copies outputs computed
    /// in a temporary back ([`cast_outputs`](TensorIterator::cast_outputs)); returns
    /// the iterator, whose [`final_output`](TensorIterator::final_output) is the result.
    /// When `config` has one output, outputs the iterator allocates (an undefined or
    /// resized output, a temporary of the common dtype) are not zero-filled first.
    ///
    /// # Errors
    /// As [`build`](TensorIterator::build), `kernel` and `cast_outputs`.
    pub(crate) fn build_and_run<K>(config: TensorIteratorConfig, kernel: K) -> Result<Self>
    where
        K: for<'it> FnOnce(&'it TensorIterator) -> Result<Written<'it>>,
    {
        let config = if config.outputs.len() == 1 {
            // SAFETY: the iterator is read only by `kernel` before its output is handed
            // out, and `kernel` returns `Ok` only with a `Written` for this very
            // iterator (the brand), i.e. after every element of output 0, its one
            // output, was written; `cast_outputs` runs next. On an error or a panic the
            // iterator, and with it every uninitialised output, is dropped unread.
            unsafe { config.kernel_writes_every_output() }
        } else {
            config
        };
        run(TensorIterator::build(config)?, kernel)
    }

    /// [`build_and_run`](TensorIterator::build_and_run) on the plan `build` gives
    /// same-dtype, same-shape contiguous operands, made directly when `eligible` (the op
    /// neither refuses nor promotes the inputs' dtype) and the operands allow it (see
    /// `trivial_contiguous`), else on `config()`. `out` is the output (`None`:
    /// allocated), `inputs` the inputs in order.
    ///
    /// # Errors
    /// As [`build_and_run`](TensorIterator::build_and_run).
    pub(crate) fn build_or_trivial_and_run<K>(
        eligible: bool,
        out: Option<&Tensor>,
        inputs: &[&Tensor],
        config: impl FnOnce() -> TensorIteratorConfig,
        kernel: K,
    ) -> Result<Self>
    where
        K: for<'it> FnOnce(&'it TensorIterator) -> Result<Written<'it>>,
    {
        if eligible {
            // SAFETY: the plan has one output, allocated uninitialised when `out` is
            // `None`; as in `build_and_run`, only `kernel` reads the iterator before
            // it returns a `Written` for it, and an error or a panic drops it.
            if let Some(iter) = unsafe { Self::trivial_contiguous(out, inputs)? } {
                return run(iter, kernel);
            }
        }
        Self::build_and_run(config(), kernel)
    }
}

/// `kernel` on `iter`, then `cast_outputs`.
fn run<K>(mut iter: TensorIterator, kernel: K) -> Result<TensorIterator>
where
    K: for<'it> FnOnce(&'it TensorIterator) -> Result<Written<'it>>,
{
    let Written { brand: _ } = kernel(&iter)?;
    iter.cast_outputs()?;
    Ok(iter)
}
