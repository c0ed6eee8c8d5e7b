//! `compute_shape` and `mark_resize_outputs`: the broadcast shape of the inputs, and
//! which outputs must be (re)allocated.

use super::config::TensorIteratorConfig;
use super::TensorIterator;
use crate::error::{Error, Result};
use crate::layout::{broadcast_shapes, dims_from_slice, DimVec};

impl TensorIterator {
    /// `compute_shape`: broadcasts the operands' sizes left to right (`infer_size`
    /// with the accumulated shape as `a`). Outputs do not vote when they may be
    /// resized. Records `all_ops_same_shape` (false as soon as sizes differ or 0-d and
    /// n-d operands mix) and `all_ops_are_scalars`.
    ///
    /// # Errors
    /// [`Error::Broadcast`] when two shapes cannot broadcast.
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn compute_shape(&mut self, config: &TensorIteratorConfig) -> Result<()> {
        if let Some(shape) = &config.static_shape {
            crate::layout::contiguous_nbytes(shape, 1)?;
            for op in &self.operands {
                let Some(t) = op.tensor.as_ref() else {
                    continue;
                };
                // Every stride walk below takes the static shape as each operand's own.
                if t.sizes() != shape.as_slice() {
                    return Err(Error::OutputShape {
                        sizes: t.sizes().to_vec(),
                        broadcast: shape.clone(),
                    });
                }
            }
            self.shape = dims_from_slice(shape);
            return Ok(());
        }
        self.all_ops_same_shape = true;
        let mut has_scalars = false;
        let mut has_tensors = false;
        let mut shape: Option<DimVec<usize>> = None;
        for op in &self.operands {
            let Some(t) = op.tensor.as_ref() else {
                continue;
            };
            if config.resize_outputs && op.is_output {
                continue;
            }
            let sizes = t.sizes();
            if sizes.is_empty() {
                has_scalars = true;
            } else {
                has_tensors = true;
            }
            if has_scalars && has_tensors {
                self.all_ops_same_shape = false;
            }
            match &shape {
                None => shape = Some(dims_from_slice(sizes)),
                Some(s) if s.as_slice() != sizes => {
                    self.all_ops_same_shape = false;
                    shape = Some(DimVec::from_vec(broadcast_shapes(s, sizes)?));
                }
                Some(_) => {}
            }
        }
        let shape = shape.unwrap_or_default();
        // Operands that each fit can broadcast to a shape that does not
        // ([2^40, 1] with [1, 2^40]): every loop below counts elements in usize.
        crate::layout::contiguous_nbytes(&shape, 1)?;
        self.shape = shape;
        self.all_ops_are_scalars = !has_tensors;
        Ok(())
    }

    /// `mark_resize_outputs`: an output whose sizes differ from the shape is resized
    /// when resizing is allowed and it is not read-write; otherwise only a reduction
    /// tolerates the mismatch.
    ///
    /// # Errors
    /// [`Error::OutputShape`]: `output with shape [2, 3] doesn't match the broadcast
    /// shape [4, 2, 3]`.
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn mark_resize_outputs(&mut self, config: &TensorIteratorConfig) -> Result<()> {
        if config.static_shape.is_some() {
            return Ok(());
        }
        for i in 0..self.num_outputs {
            let op = &mut self.operands[i];
            let Some(t) = op.tensor.as_ref() else {
                continue;
            };
            if t.sizes() != self.shape.as_slice() {
                if config.resize_outputs && !op.is_read_write {
                    op.will_resize = true;
                    continue;
                }
                if !self.is_reduction {
                    return Err(Error::OutputShape {
                        sizes: t.sizes().to_vec(),
                        broadcast: self.shape.to_vec(),
                    });
                }
            }
        }
        Ok(())
    }
}
