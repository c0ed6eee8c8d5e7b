//! Reductions: `sum`, `mean`, `prod`, `amax`, `amin`, `argmax`, `argmin`.
//!
//! A reduction runs in three steps, as PyTorch's `make_reduction` + reduce kernels:
//! 1. [`ops`] checks the dims (wrap, duplicates, empty dims for reductions without an
//!    identity) and picks the output dtype (`int64` for `sum`/`prod` of bool and
//!    integer inputs);
//! 2. [`Geometry::of`] lays out the iteration as PyTorch's TensorIterator does in
//!    reduction mode: the output is the contiguous result viewed with the input's ndim
//!    (stride 0 on reduced dims), dims are sorted so that reduced dims come first
//!    (innermost), then dims are coalesced;
//! 3. [`kernels`] classifies the geometry once and runs one of three loops, in
//!    parallel over output elements or, for few outputs, over fixed pieces of each
//!    output's reduction (cut the same way whatever the number of threads, so results
//!    do not depend on it):
//!    - *inner*: a reduced dim is contiguous in the input: each output folds contiguous
//!      runs with several independent accumulators (vectorisable);
//!    - *outer*: a kept dim is contiguous in the input: input rows are accumulated into
//!      a vector of outputs, vectorised across that dim (sum over dim 0, or over H and W
//!      of a channels-last tensor);
//!    - *strided*: otherwise, the inner loop over strided runs.
//!
//!    Every loop accumulates through [`cascade`]: short in-order leaves combined as a
//!    pairwise tree, so a float sum's error grows with `log2(n)` (PyTorch's
//!    `cascade_sum`), and memory is the output plus a few partials per thread.
//!
//! `argmax`/`argmin` need the index along the original dim, so they walk the input in
//! its own dim order instead.

pub mod cascade;
pub mod kernels;
pub mod ops;

use crate::error::Result;
use crate::iterator::{reduced_sizes, reduction_output_view};
use crate::iterator::{TensorIterator, TensorIteratorConfig};
use crate::tensor::Tensor;

/// The iteration layout of one reduction, in elements: `shape[d]`, the output's
/// stride `out_strides[d]` (0 on reduced dims) and the input's `in_strides[d]`, with
/// dim 0 the fastest (innermost) and reduced dims first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// Iteration sizes after sorting and coalescing (dim 0 innermost).
    pub shape: Vec<usize>,
    /// Strides of the output (a fresh contiguous buffer), 0 on reduced dims.
    pub out_strides: Vec<isize>,
    /// Strides of the input.
    pub in_strides: Vec<isize>,
    /// Storage offset of the input's first element.
    pub in_offset: usize,
}

impl Geometry {
    /// The geometry of reducing `input` over the dims where `reduced[d]` is true into a
    /// contiguous output of the keepdim shape, taken from a [`TensorIterator`] built in
    /// reduction mode (`reduce_op`: `compute_strides`, `reorder_dimensions`,
    /// `coalesce_dimensions`), with byte strides converted to elements.
    ///
    /// # Errors
    /// [`Error::NumelOverflow`](crate::error::Error::NumelOverflow) from allocating the output,
    /// or an error of [`TensorIterator::build`].
    #[cfg_attr(unoptimized, inline)]
    pub fn of(input: &Tensor, reduced: &[bool]) -> Result<Geometry> {
        let keep_sizes = reduced_sizes(input.sizes(), reduced, true);
        let result = Tensor::zeros(&keep_sizes, input.dtype())?;
        let view = reduction_output_view(&result, reduced, true);
        let it = TensorIterator::build(TensorIteratorConfig::reduce_op(&view, input))?;
        let item = input.dtype().size() as isize;
        let elements = |arg: usize| -> Vec<isize> {
            let strides = it.strides(arg);
            (0..it.ndim())
                .map(|d| strides.get(d).map_or(0, |s| s / item))
                .collect()
        };
        Ok(Geometry {
            shape: it.shape().to_vec(),
            out_strides: elements(0),
            in_strides: elements(1),
            in_offset: input.storage_offset(),
        })
    }
}

#[cfg(test)]
mod tests;
