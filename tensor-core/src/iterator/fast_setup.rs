//! `fast_set_up` / `compute_fast_setup_type`: when every operand has the same shape and
//! one memory layout, outputs take that layout and the loop is one flat range.

use super::config::TensorIteratorConfig;
use super::{FastSetupType, TensorIterator};
use crate::error::Result;
use crate::layout::{channels_last_strides_2d, dims_from_slice, fill_contiguous_strides, DimVec};
use crate::tensor::Tensor;

impl TensorIterator {
    /// `compute_fast_setup_type`: contiguous is tested first (so an NC11 tensor that is
    /// both contiguous and channels-last counts as contiguous), then channels-last, then
    /// non-overlapping-and-dense with identical strides (scanned from the last operand).
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn compute_fast_setup_type(&self, config: &TensorIteratorConfig) -> FastSetupType {
        if self.is_reduction || !self.all_ops_same_shape {
            return FastSetupType::None;
        }
        let considered = || {
            self.operands
                .iter()
                .filter(|op| op.defined() && !op.will_resize)
                .map(|op| op.t())
        };
        if config.enforce_linear_iteration {
            return if considered().all(|t| t.is_contiguous()) {
                FastSetupType::Contiguous
            } else {
                FastSetupType::None
            };
        }
        let mut contiguous = true;
        let mut channels_last = true;
        let mut dense = true;
        for t in considered() {
            contiguous &= t.is_contiguous();
            channels_last &= t.layout().is_channels_last_contiguous();
            dense &= t.is_non_overlapping_and_dense();
        }
        if contiguous {
            return FastSetupType::Contiguous;
        }
        if channels_last {
            return FastSetupType::ChannelsLast;
        }
        if dense {
            let mut prev: Option<&Tensor> = None;
            for op in self.operands.iter().rev() {
                if !op.defined() || op.will_resize {
                    continue;
                }
                match prev {
                    None => prev = Some(op.t()),
                    Some(p) if p.strides() != op.t().strides() => return FastSetupType::None,
                    Some(_) => {}
                }
            }
            return FastSetupType::NonOverlappingDense;
        }
        FastSetupType::None
    }

    /// `fast_set_up`: allocates undefined / resized outputs in the common layout, then
    /// collapses the iteration to one dim of `numel` elements with byte stride
    /// `element_size` for every operand. Returns `false` when no fast setup applies.
    ///
    /// # Errors
    /// Allocation errors ([`Error::NumelOverflow`](crate::error::Error::NumelOverflow)).
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn fast_set_up(&mut self, config: &TensorIteratorConfig) -> Result<bool> {
        let kind = self.compute_fast_setup_type(config);
        self.fast_setup = kind;
        if kind == FastSetupType::None {
            return Ok(false);
        }
        let strides: DimVec<isize> = match kind {
            FastSetupType::Contiguous => {
                let mut s = DimVec::from_elem(0, self.shape.len());
                fill_contiguous_strides(&self.shape, &mut s);
                s
            }
            FastSetupType::ChannelsLast => channels_last_strides_2d(&self.shape)
                .expect("channels-last operands are 4-d")
                .into_iter()
                .collect(),
            _ => {
                let last = self
                    .operands
                    .iter()
                    .rev()
                    .find(|op| op.defined())
                    .expect("an input is defined");
                dims_from_slice(last.t().strides())
            }
        };
        for i in 0..self.num_outputs {
            if !self.operands[i].defined() || self.operands[i].will_resize {
                let shape = self.shape.clone();
                self.set_output_strided(i, &shape, &strides)?;
            }
        }
        self.trace_fast_setup();
        let ndim = self.shape.len();
        if ndim > 1 {
            self.has_coalesced_dimensions = true;
        }
        if ndim >= 1 {
            self.shape = DimVec::from_elem(self.numel(), 1);
        }
        let new_ndim = self.shape.len();
        for op in self.operands.iter_mut() {
            let size = op.t().dtype().size() as isize;
            op.stride_bytes = DimVec::from_elem(size, new_ndim);
        }
        Ok(true)
    }
}

impl TensorIterator {
    /// What [`build`](TensorIterator::build) gives for the commonest elementwise call,
    /// without a config: inputs of one dtype and one shape (at least 1-d, not empty),
    /// all row-major contiguous, and an output that is either `None` (allocated
    /// contiguous) or a contiguous tensor of that dtype and shape sharing no storage
    /// with an input unless it is the same view. For such operands `build` finds no
    /// overlap, no promotion and no cast, and takes the contiguous fast setup; this
    /// builds that plan directly (the per-op setup is most of a small op's time).
    /// `Ok(None)` when any condition fails: build the iterator with `build` then.
    ///
    /// # Safety
    /// A `None` output is allocated uninitialised: the caller must run a kernel that
    /// writes every element of it before anything reads it.
    ///
    /// # Errors
    /// Allocation errors of the output.
    #[cfg_attr(unoptimized, inline)]
    pub(super) unsafe fn trivial_contiguous(
        out: Option<&Tensor>,
        inputs: &[&Tensor],
    ) -> Result<Option<TensorIterator>> {
        let Some((first, rest)) = inputs.split_first() else {
            return Ok(None);
        };
        let (sizes, dtype) = (first.sizes(), first.dtype());
        let numel = first.numel();
        let like = |t: &Tensor| t.dtype() == dtype && t.sizes() == sizes && t.is_contiguous();
        if sizes.is_empty() || numel == 0 || !first.is_contiguous() || !rest.iter().all(|t| like(t))
        {
            return Ok(None);
        }
        let output = match out {
            Some(o) => {
                let clear = |t: &&Tensor| !o.shares_storage(t) || super::is_same(o, t);
                if !like(o) || !inputs.iter().all(clear) {
                    return Ok(None);
                }
                o.alias()
            }
            None => {
                let strides = crate::layout::contiguous_strides(sizes);
                // SAFETY: the caller writes every element before reading (above).
                unsafe { Tensor::empty_strided_uninit(sizes, &strides, dtype)? }
            }
        };
        let size = dtype.size() as isize;
        let read_write = inputs.iter().any(|t| super::is_same(&output, t));
        let operand = |tensor: Tensor, is_output: bool| super::OperandInfo {
            tensor: Some(tensor),
            original: None,
            stride_bytes: DimVec::from_elem(size, 1),
            target_dtype: Some(dtype),
            current_dtype: Some(dtype),
            is_output,
            is_read_write: is_output && read_write,
            will_resize: false,
            is_wrapped_number: false,
        };
        let mut operands = super::Operands::new();
        operands.push(operand(output, true));
        for t in inputs {
            operands.push(operand(t.alias(), false));
        }
        let trace = super::explain::Trace {
            broadcast_shape: dims_from_slice(sizes),
            ..Default::default()
        };
        Ok(Some(TensorIterator {
            operands,
            num_outputs: 1,
            shape: DimVec::from_elem(numel, 1),
            perm: DimVec::new(),
            common_dtype: Some(dtype),
            all_ops_same_shape: true,
            all_ops_are_scalars: false,
            has_coalesced_dimensions: sizes.len() > 1,
            is_reduction: false,
            enforce_linear_iteration: false,
            fast_setup: FastSetupType::Contiguous,
            trace,
            uninit_outputs: out.is_none(),
        }))
    }
}
