//! `compute_types`: the common dtype, the same-dtype and safe-cast checks, and the
//! CPU temporaries (inputs converted with `.to(common)`, outputs computed in a
//! temporary of the common dtype and copied back by `cast_outputs`).

use super::config::TensorIteratorConfig;
use super::promotion::ResultTypeState;
use super::TensorIterator;
use crate::dispatch_dtype;
use crate::dtype::{can_cast, DType};
use crate::element::Element;
use crate::error::{Error, Result};
use crate::layout::preserve_strides;
use crate::scalar::Scalar;
use crate::tensor::Tensor;

/// `t.to(dtype)` with `memory_format=preserve` (`_to_copy`): a dense tensor keeps its
/// strides, any other gets `infer_dense_strides`; then the values are copied.
///
/// # Errors
/// As [`Tensor::copy_`].
#[cfg_attr(unoptimized, inline)]
pub(crate) fn to_dtype_preserve(t: &Tensor, dtype: DType) -> Result<Tensor> {
    if t.dim() == 0 {
        // One element (a wrapped number, most often): the cast `copy_` applies
        // (`Element::cast`: floats through `f64`, the rest through `i64`), without
        // building a second iterator.
        let value = dispatch_dtype!(t.dtype(), T, {
            let v = t.item::<T>()?;
            if T::DTYPE.is_floating() {
                Scalar::Float(v.to_f64())
            } else {
                Scalar::Int(v.to_i64())
            }
        });
        return Ok(Tensor::scalar_of(value, dtype));
    }
    let strides = preserve_strides(t.layout());
    Tensor::fresh_copy(t, &strides, dtype)
}

impl TensorIterator {
    /// `compute_common_dtype`: `result_type` over the inputs (outputs ignored).
    #[cfg_attr(unoptimized, inline)]
    fn compute_common_dtype(&self) -> Option<DType> {
        let mut state = ResultTypeState::default();
        for op in &self.operands[self.num_outputs..] {
            let t = op.t();
            state.update(t.dtype(), t.dim(), op.is_wrapped_number);
        }
        state.result()
    }

    /// `compute_types` (see the module docs of [`super`] and ARCHITECTURE.md, "compute_types").
    ///
    /// # Errors
    /// [`Error::DTypeMismatch`] (`Found dtype Double but expected Float`) when all
    /// dtypes must match; [`Error::UnsafeCast`] (`result type Float can't be cast to the
    /// desired output type Long`); errors of the input conversions.
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn compute_types(&mut self, config: &TensorIteratorConfig) -> Result<()> {
        let mut common: Option<DType> = None;
        let mut output_dtype: Option<DType> = None;
        let mut has_different_input_dtypes = false;
        let mut has_different_output_dtypes = false;
        let mut has_undefined_outputs = false;

        for op in self.operands.iter_mut() {
            if op.target_dtype.is_none() {
                // An undefined output: its dtype is static or inferred.
                match config.static_dtype {
                    Some(d) => op.target_dtype = Some(d),
                    None => has_undefined_outputs = true,
                }
                continue;
            }
            let Some(t) = op.tensor.as_ref() else {
                continue;
            };
            let d = t.dtype();
            if !op.is_output {
                match common {
                    None => common = Some(d),
                    Some(c) if c != d => has_different_input_dtypes = true,
                    _ => {}
                }
            } else {
                match output_dtype {
                    None => output_dtype = Some(d),
                    Some(o) if o != d => has_different_output_dtypes = true,
                    _ => {}
                }
            }
        }

        if config.check_all_same_dtype
            && (has_different_input_dtypes
                || has_different_output_dtypes
                || (output_dtype.is_some() && common != output_dtype))
        {
            for op in &self.operands {
                let Some(t) = op.tensor.as_ref() else {
                    continue;
                };
                if Some(t.dtype()) != common {
                    return Err(Error::DTypeMismatch {
                        op: "TensorIterator",
                        found: t.dtype(),
                        expected: common.unwrap_or(t.dtype()),
                    });
                }
            }
        }

        // PyTorch returns early here only when check_all_same_device is off, which
        // never happens on a CPU-only runtime; so the rest always runs.
        let _ = has_undefined_outputs;
        if (has_different_input_dtypes || self.all_ops_are_scalars)
            && config.promote_inputs_to_common_dtype
        {
            common = self.compute_common_dtype();
        }
        if config.promote_integer_inputs_to_float && common.is_some_and(|c| c.is_integral(true)) {
            common = Some(DType::F32);
        }
        self.common_dtype = common;

        for i in 0..self.operands.len() {
            let op = &mut self.operands[i];
            if op.target_dtype.is_none() {
                op.target_dtype = common;
            }
            let Some(current) = op.tensor.as_ref().map(|t| t.dtype()) else {
                continue;
            };
            let Some(c) = common else {
                continue;
            };
            if config.enforce_safe_casting_to_output
                && op.is_output
                && current != c
                && !can_cast(c, current)
            {
                return Err(Error::UnsafeCast {
                    from: c,
                    to: current,
                });
            }
            if config.cast_common_dtype_to_outputs && op.is_output && current != c {
                let t = op.t();
                // empty_like(out, dtype=common, memory_format=contiguous)
                let tmp = if config.uninit_outputs {
                    let strides = crate::layout::contiguous_strides(t.sizes());
                    // SAFETY: set only by `TensorIterator::build_and_run`, which runs a
                    // kernel writing every element of this temporary before
                    // `cast_outputs` reads it.
                    unsafe { Tensor::empty_strided_uninit(t.sizes(), &strides, c)? }
                } else {
                    Tensor::empty(t.sizes(), c)?
                };
                op.original = op.tensor.replace(tmp).map(Box::new);
                op.current_dtype = Some(c);
                op.target_dtype = Some(c);
            }
            if config.promote_inputs_to_common_dtype && !op.is_output && current != c {
                let converted = to_dtype_preserve(op.t(), c)?;
                op.tensor = Some(converted);
                op.current_dtype = Some(c);
                op.target_dtype = Some(c);
            }
        }
        Ok(())
    }
}
