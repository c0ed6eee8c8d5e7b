//! `fast_set_up` / `compute_fast_setup_type`: when every operand has the same shape and
//! one memory layout, outputs take that layout and the loop is one flat range.

use super::config::TensorIteratorConfig;
use super::{FastSetupType, TensorIterator};
use crate::error::Result;
use crate::layout::{channels_last_strides_2d, fill_contiguous_strides, DimVec};
use crate::Tensor;

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
    /// Allocation errors ([`Error::NumelOverflow`](crate::Error::NumelOverflow)).
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
                DimVec::from_slice(last.t().strides())
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
