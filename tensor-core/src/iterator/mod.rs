//! PyTorch's TensorIterator (aten/src/ATen/TensorIterator.cpp): broadcasting, dtype
//! promotion, fast setup, the stride-sorting perm, output allocation, coalescing and
//! the 2-D loops that kernels run on.
//!
//! # Building
//! ```
//! use tensor_core::{DType, Tensor, TensorIterator, TensorIteratorConfig};
//! let a = Tensor::zeros(&[2, 3], DType::F32)?;
//! let b = Tensor::zeros(&[3], DType::F32)?;
//! let iter = TensorIterator::build(TensorIteratorConfig::binary_op(None, &a, &b))?;
//! assert_eq!(iter.try_output(0)?.sizes(), &[2, 3]);
//! # Ok::<(), tensor_core::Error>(())
//! ```
//! `build` runs the reference's steps in order: populate operands, mark outputs
//! (read-write when an output is an input too), memory-overlap checks,
//! `compute_shape`, `mark_resize_outputs`, `compute_types`, then either
//! `fast_set_up` or `compute_strides` → `reorder_dimensions` →
//! `allocate_or_resize_outputs` → `coalesce_dimensions`.
//!
//! # Running a kernel
//! [`TensorIterator::for_each`] takes a *2-D loop*
//! `Fn(data: &[*mut u8], strides: &[isize], size0: usize, size1: usize)`:
//! `data[k]` points at the first element of operand `k` (outputs first) for this call,
//! `strides[k]` is operand `k`'s byte stride along the inner dim and
//! `strides[ntensors + k]` along the outer dim. It splits the linear range
//! `[0, numel)` into chunks of at least `GRAIN_SIZE` (32768) elements across rayon
//! threads, as `at::parallel_for` does. Dereferencing the pointers is the kernel's
//! `unsafe` business (see `crate::kernels`). Before `for_each` runs the loop it takes
//! each distinct storage's lock once (write if any operand on it is written), in the
//! order of `Storage::id`. After a kernel, call [`TensorIterator::cast_outputs`] so
//! outputs computed in a temporary of the common dtype are copied back.
//!
//! # Reductions (for the reduction kernels)
//! 1. Allocate the result (contiguous, reduced shape) and view it with the input's ndim
//!    with [`reduce::reduction_output_view`] (size 1, stride 0 on reduced dims; PyTorch's
//!    `make_reduction` + `review_reduce_result`).
//! 2. Fill the result with the reduction's identity (or first element).
//! 3. `TensorIterator::build(TensorIteratorConfig::reduce_op(&view, &input))`:
//!    outputs are not resized, the output has byte stride 0 on reduced dims, reduced
//!    dims are ordered first (innermost), there is no fast setup, and coalescing merges
//!    reduced dims (`0 * n == 0`). The input is converted to the common dtype of the
//!    inputs if promotion applies (pass an already converted input to control the
//!    accumulation dtype).
//! 4. Run [`TensorIterator::serial_for_each`] (or `for_each`, which is always serial in
//!    reduction mode, so no two threads update the same output element) with a 2-D
//!    loop that accumulates `*out = f(*out, *in)`; `strides[0] == 0` means the inner
//!    dim is reduced. [`TensorIterator::is_dim_reduced`],
//!    [`TensorIterator::num_reduce_dims`], [`TensorIterator::num_output_elements`]
//!    describe the plan; [`TensorIterator::shape`] and
//!    [`TensorIterator::try_strides`] give the coalesced geometry (byte strides).
//!    For argmax-like kernels that need the reduced index, iterate the input yourself
//!    with the plan or use `enforce_linear_iteration`.

mod coalesce;
mod config;
mod explain;
mod fast_setup;
mod loops;
mod overlap;
mod promotion;
mod reduce;
mod shape;
mod strides;
mod types;
mod written;

#[cfg(test)]
mod tests;

pub use config::TensorIteratorConfig;
pub use explain::Explain;
pub use loops::{DimCounter, GRAIN_SIZE};
pub use overlap::{get_overlap_status, has_internal_overlap, MemOverlap, MemOverlapStatus};
pub use promotion::{result_type, Operand, ResultTypeState};
pub use reduce::{make_dim_mask, make_reduction_output, reduced_sizes, reduction_output_view};
pub(crate) use types::to_dtype_preserve as types_to_dtype_preserve;
pub(crate) use written::Written;

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::DimVec;
use crate::tensor::Tensor;
use smallvec::SmallVec;

/// Operands kept inline in an iterator (outputs and inputs of the common ops).
type Operands = SmallVec<[OperandInfo; 4]>;

/// How `fast_set_up` laid out the outputs (`FastSetupType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FastSetupType {
    /// No fast setup: strides, perm and coalescing were computed.
    None,
    /// Every operand contiguous: outputs contiguous, one flat loop.
    Contiguous,
    /// Every operand channels-last contiguous: outputs channels-last, one flat loop.
    ChannelsLast,
    /// Every operand non-overlapping and dense with identical strides: outputs get
    /// those strides, one flat loop.
    NonOverlappingDense,
}

/// One operand of a built iterator (`OperandInfo`).
#[derive(Debug)]
pub(crate) struct OperandInfo {
    /// The tensor the kernel reads or writes (`None` until an output is allocated).
    pub tensor: Option<Tensor>,
    /// The caller's output when the kernel writes a temporary of the common dtype.
    pub original: Option<Box<Tensor>>,
    /// Byte strides in iteration order (after permutation / coalescing).
    pub stride_bytes: DimVec<isize>,
    /// The dtype the operand will have (`target_dtype`).
    pub target_dtype: Option<DType>,
    /// The dtype the operand has now (`current_dtype`).
    pub current_dtype: Option<DType>,
    pub is_output: bool,
    pub is_read_write: bool,
    pub will_resize: bool,
    pub is_wrapped_number: bool,
}

impl OperandInfo {
    #[cfg_attr(unoptimized, inline)]
    fn defined(&self) -> bool {
        self.tensor.is_some()
    }

    #[cfg_attr(unoptimized, inline)]
    fn t(&self) -> &Tensor {
        self.tensor.as_ref().expect("operand is defined")
    }
}

/// A built iteration plan over outputs and inputs (`at::TensorIterator`).
///
/// Operands are numbered outputs first. Sizes are elements; strides inside the plan
/// are bytes.
#[derive(Debug)]
pub struct TensorIterator {
    pub(crate) operands: Operands,
    pub(crate) num_outputs: usize,
    pub(crate) shape: DimVec<usize>,
    pub(crate) perm: DimVec<usize>,
    pub(crate) common_dtype: Option<DType>,
    pub(crate) all_ops_same_shape: bool,
    pub(crate) all_ops_are_scalars: bool,
    pub(crate) has_coalesced_dimensions: bool,
    pub(crate) is_reduction: bool,
    pub(crate) enforce_linear_iteration: bool,
    pub(crate) fast_setup: FastSetupType,
    pub(crate) trace: explain::Trace,
    /// Allocate outputs without zero-filling them (`TensorIterator::build_and_run`).
    pub(crate) uninit_outputs: bool,
}

impl TensorIterator {
    /// Builds the plan (`TensorIteratorBase::build`), allocating undefined outputs.
    ///
    /// # Errors
    /// Overlap ([`Error::InternalOverlap`](crate::error::Error::InternalOverlap),
    /// [`Error::PartialOverlap`](crate::error::Error::PartialOverlap)), broadcasting
    /// ([`Error::Broadcast`](crate::error::Error::Broadcast)), output shape
    /// ([`Error::OutputShape`](crate::error::Error::OutputShape)), dtypes
    /// ([`Error::DTypeMismatch`](crate::error::Error::DTypeMismatch),
    /// [`Error::UnsafeCast`](crate::error::Error::UnsafeCast)), in that order of checking.
    #[cfg_attr(unoptimized, inline)]
    pub fn build(config: TensorIteratorConfig) -> Result<TensorIterator> {
        let mut it = TensorIterator {
            operands: Operands::new(),
            num_outputs: 0,
            shape: DimVec::new(),
            perm: DimVec::new(),
            common_dtype: None,
            all_ops_same_shape: true,
            all_ops_are_scalars: false,
            has_coalesced_dimensions: false,
            is_reduction: config.is_reduction,
            enforce_linear_iteration: config.enforce_linear_iteration,
            uninit_outputs: config.uninit_outputs,
            fast_setup: FastSetupType::None,
            trace: explain::Trace::default(),
        };
        if config.output_after_input {
            return Err(Error::InvalidArgument {
                op: "TensorIteratorConfig",
                message: "outputs must be added before inputs".into(),
            });
        }
        let mut config = config;
        it.populate_operands(&mut config);
        it.mark_outputs();
        if config.check_mem_overlap {
            it.compute_mem_overlaps()?;
        }
        it.compute_shape(&config)?;
        it.mark_resize_outputs(&config)?;
        it.compute_types(&config)?;
        if !it.fast_set_up(&config)? {
            it.compute_strides(&config);
            it.reorder_dimensions();
            it.allocate_or_resize_outputs()?;
            it.coalesce_dimensions();
        }
        Ok(it)
    }

    /// Moves the config's operands into the iterator (the config keeps its flags).
    #[cfg_attr(unoptimized, inline)]
    fn populate_operands(&mut self, config: &mut TensorIteratorConfig) {
        self.num_outputs = config.outputs.len();
        let outputs = config.outputs.iter_mut().map(|op| (op, true));
        for (op, is_output) in outputs.chain(config.inputs.iter_mut().map(|op| (op, false))) {
            let tensor = op.tensor.take();
            let dtype = tensor.as_ref().map(|t| t.dtype());
            self.operands.push(OperandInfo {
                tensor,
                original: None,
                stride_bytes: DimVec::new(),
                target_dtype: dtype,
                current_dtype: dtype,
                is_output,
                is_read_write: false,
                will_resize: false,
                is_wrapped_number: op.is_wrapped_number,
            });
        }
    }

    /// `mark_outputs`: an output that is also an input is read-write.
    #[cfg_attr(unoptimized, inline)]
    fn mark_outputs(&mut self) {
        for i in 0..self.num_outputs {
            let Some(out) = self.operands[i].tensor.as_ref() else {
                continue;
            };
            let rw = self.operands[self.num_outputs..]
                .iter()
                .any(|op| op.tensor.as_ref().is_some_and(|t| is_same(out, t)));
            self.operands[i].is_read_write = rw;
        }
    }

    // ---- accessors ----------------------------------------------------------------------

    /// Number of operands, outputs first (`ntensors`).
    #[cfg_attr(unoptimized, inline)]
    pub fn ntensors(&self) -> usize {
        self.operands.len()
    }

    /// Number of outputs.
    #[cfg_attr(unoptimized, inline)]
    pub fn noutputs(&self) -> usize {
        self.num_outputs
    }

    /// Number of inputs.
    #[cfg_attr(unoptimized, inline)]
    pub fn ninputs(&self) -> usize {
        self.operands.len() - self.num_outputs
    }

    /// The iteration shape after permutation and coalescing (elements; dim 0 fastest).
    #[cfg_attr(unoptimized, inline)]
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// Number of iteration dims (`ndim`).
    #[cfg_attr(unoptimized, inline)]
    pub fn ndim(&self) -> usize {
        self.shape.len()
    }

    /// Number of elements iterated (`numel`).
    #[cfg_attr(unoptimized, inline)]
    pub fn numel(&self) -> usize {
        crate::layout::numel_of(self.shape.iter().copied())
    }

    /// Byte strides of operand `arg` in iteration order. Crate code only (its indices
    /// are constants); see [`TensorIterator::try_strides`].
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn strides(&self, arg: usize) -> &[isize] {
        &self.operands[arg].stride_bytes
    }

    /// Byte strides of operand `arg` (outputs first) in iteration order.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `arg >= ntensors()`.
    #[cfg_attr(unoptimized, inline)]
    pub fn try_strides(&self, arg: usize) -> Result<&[isize]> {
        Ok(&self.operand(arg, self.operands.len(), 0)?.stride_bytes)
    }

    /// Operand `base + i`, checked against `bound` operands from `base`.
    #[cfg_attr(unoptimized, inline)]
    fn operand(&self, i: usize, bound: usize, base: usize) -> Result<&OperandInfo> {
        if i >= bound {
            return Err(Error::InvalidArgument {
                op: "TensorIterator",
                message: format!("operand index {i} out of range for {bound} operands"),
            });
        }
        Ok(&self.operands[base + i])
    }

    /// The perm computed by `reorder_dimensions`: `perm[i]` is the original dim at
    /// iteration position `i` (empty after a fast setup).
    #[cfg_attr(unoptimized, inline)]
    pub fn perm(&self) -> &[usize] {
        &self.perm
    }

    /// The common dtype of the inputs (`common_dtype`), if one was computed.
    #[cfg_attr(unoptimized, inline)]
    pub fn common_dtype(&self) -> Option<DType> {
        self.common_dtype
    }

    /// Which fast setup was taken.
    #[cfg_attr(unoptimized, inline)]
    pub fn fast_setup_type(&self) -> FastSetupType {
        self.fast_setup
    }

    /// `true` when dims were merged (after a fast setup or `coalesce_dimensions`).
    #[cfg_attr(unoptimized, inline)]
    pub fn has_coalesced_dimensions(&self) -> bool {
        self.has_coalesced_dimensions
    }

    /// The tensor the kernel writes for output `i` (a temporary of the common dtype
    /// until [`cast_outputs`](Self::cast_outputs) runs, when the caller's output has
    /// another dtype). Crate code only; see [`TensorIterator::try_output`].
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn output(&self, i: usize) -> &Tensor {
        self.operands[..self.num_outputs][i].t()
    }

    /// The tensor the caller sees for output `i`: the user's tensor when a temporary is
    /// used, else [`output`](Self::output). Crate code only.
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn final_output(&self, i: usize) -> &Tensor {
        let op = &self.operands[..self.num_outputs][i];
        op.original.as_deref().unwrap_or_else(|| op.t())
    }

    /// The dtype of operand `arg` as the kernel sees it. Crate code only.
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn dtype(&self, arg: usize) -> DType {
        self.operands[arg].t().dtype()
    }

    /// The tensor the kernel writes for output `i` (see `output`).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `i >= noutputs()`.
    #[cfg_attr(unoptimized, inline)]
    pub fn try_output(&self, i: usize) -> Result<&Tensor> {
        self.operand(i, self.num_outputs, 0)?
            .tensor
            .as_ref()
            .ok_or_else(|| undefined(i))
    }

    /// The tensor the caller sees for output `i`: the user's tensor when a temporary is
    /// used, else [`TensorIterator::try_output`].
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `i >= noutputs()`.
    #[cfg_attr(unoptimized, inline)]
    pub fn try_final_output(&self, i: usize) -> Result<&Tensor> {
        let op = self.operand(i, self.num_outputs, 0)?;
        op.original
            .as_deref()
            .or(op.tensor.as_ref())
            .ok_or_else(|| undefined(i))
    }

    /// Input `i` as the kernel reads it (converted to the common dtype if promoted).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `i >= ninputs()`.
    #[cfg_attr(unoptimized, inline)]
    pub fn try_input(&self, i: usize) -> Result<&Tensor> {
        self.operand(i, self.ninputs(), self.num_outputs)?
            .tensor
            .as_ref()
            .ok_or_else(|| undefined(self.num_outputs + i))
    }

    /// The dtype of operand `arg` (outputs first) as the kernel sees it.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `arg >= ntensors()`.
    #[cfg_attr(unoptimized, inline)]
    pub fn try_dtype(&self, arg: usize) -> Result<DType> {
        self.operand(arg, self.operands.len(), 0)?
            .tensor
            .as_ref()
            .map(|t| t.dtype())
            .ok_or_else(|| undefined(arg))
    }

    /// Whether the iterator is in reduction mode.
    #[cfg_attr(unoptimized, inline)]
    pub fn is_reduction(&self) -> bool {
        self.is_reduction
    }

    /// `is_dim_reduced(d)`: some output has byte stride 0 on iteration dim `d` and
    /// `shape[d] > 1`.
    #[cfg_attr(unoptimized, inline)]
    pub fn is_dim_reduced(&self, dim: usize) -> bool {
        self.operands[..self.num_outputs]
            .iter()
            .any(|op| op.stride_bytes.get(dim) == Some(&0) && self.shape[dim] > 1)
    }

    /// Number of iteration dims that are reduced.
    #[cfg_attr(unoptimized, inline)]
    pub fn num_reduce_dims(&self) -> usize {
        (0..self.ndim()).filter(|&d| self.is_dim_reduced(d)).count()
    }

    /// Number of output elements: the product of the non-reduced iteration dims.
    #[cfg_attr(unoptimized, inline)]
    pub fn num_output_elements(&self) -> usize {
        crate::layout::numel_of(
            (0..self.ndim())
                .filter(|&d| !self.is_dim_reduced(d))
                .map(|d| self.shape[d]),
        )
    }

    /// Copies outputs computed in temporaries of the common dtype back to the caller's
    /// tensors (`cast_outputs`). Call once after the kernel.
    ///
    /// # Errors
    /// As [`Tensor::copy_`].
    #[cfg_attr(unoptimized, inline)]
    pub fn cast_outputs(&mut self) -> Result<()> {
        for i in 0..self.num_outputs {
            if let Some(orig) = self.operands[i].original.take() {
                let tmp = self.operands[i].t().alias();
                orig.copy_(&tmp)?;
                self.operands[i].tensor = Some(*orig);
            }
        }
        Ok(())
    }
}

/// PyTorch's `is_same` on two handles: the same view of the same storage.
/// The error for an operand a built iterator left undefined (never happens: every
/// output is allocated by `build`).
#[cfg_attr(unoptimized, inline)]
fn undefined(arg: usize) -> Error {
    Error::InvalidArgument {
        op: "TensorIterator",
        message: format!("operand {arg} is undefined"),
    }
}

#[cfg_attr(unoptimized, inline)]
pub(crate) fn is_same(a: &Tensor, b: &Tensor) -> bool {
    a.shares_storage(b) && a.layout() == b.layout() && a.dtype() == b.dtype()
}
