//! `masked_fill` and `masked_fill_`, as PyTorch's `masked_fill__cpu`: a bool mask that
//! broadcasts to the filled tensor, and a value converted to its dtype with c10's
//! overflow check.

pub(super) mod backward;

use super::backward::node::node;
use crate::autograd::{self, SavedTensor};
use crate::dispatch_dtype;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::iterator::{get_overlap_status, MemOverlapStatus, TensorIterator, TensorIteratorConfig};
use crate::kernels::ternary;
use crate::layout::{broadcast_shapes, MemoryFormat};
use crate::scalar::cast::checked_scalar;
use crate::scalar::Scalar;
use crate::tensor::Tensor;

/// `out = mask ? value : src`, elementwise, in one pass of the TensorIterator over
/// `[out, mask, value, src]` (threads and vector loops as every elementwise op): `mask`
/// is bool and broadcasts to `out`, `src` has `out`'s dtype and broadcasts to it (it may
/// be `out` itself), `value` is converted to that dtype with c10's overflow check.
#[cfg_attr(unoptimized, inline)]
fn select_fill(out: &Tensor, mask: &Tensor, value: Scalar, src: &Tensor) -> Result<()> {
    dispatch_dtype!(out.dtype(), T, {
        let v = checked_scalar::<T>(value, "masked_fill")?;
        let value = Tensor::from_vec(vec![v], &[])?;
        let config = TensorIteratorConfig::new()
            .check_all_same_dtype(false)
            .add_output(out)
            .add_const_input(mask)
            .add_const_input(&value)
            .add_const_input(src);
        TensorIterator::build_and_run(config, |iter| {
            Ok(ternary::<bool, T, T, _>(
                iter,
                |m: bool, v: T, x: T| {
                    if m {
                        v
                    } else {
                        x
                    }
                },
            ))
        })?;
    });
    Ok(())
}

/// PyTorch's refusal of a mask that is not bool.
#[cfg_attr(unoptimized, inline)]
fn check_mask_dtype(mask: &Tensor) -> Result<()> {
    if mask.dtype() != DType::Bool {
        return Err(Error::UnsupportedDType {
            message: format!(
                "masked_fill_ only supports boolean masks, but got mask with dtype {}",
                mask.dtype().type_meta_name()
            ),
        });
    }
    Ok(())
}

impl Tensor {
    /// `Tensor.masked_fill_(mask, value)`: sets the elements of `self` where the bool
    /// `mask` (broadcast to `self`'s sizes) is true to `value`, in place.
    ///
    /// # Errors
    /// [`Error::UnsupportedDType`] for a mask that is not bool (`masked_fill_ only
    /// supports boolean masks, but got mask with dtype long int`);
    /// [`Error::Broadcast`] / [`Error::OutputShape`] when the mask does not broadcast
    /// to `self` (`output with shape [2, 3] doesn't match the broadcast shape [2, 2,
    /// 3]`); [`Error::PartialOverlap`]; [`Error::InvalidArgument`] when `value` does
    /// not fit the dtype (`value cannot be converted to type uint8_t without
    /// overflow`).
    pub fn masked_fill_(&self, mask: &Tensor, value: impl Into<Scalar>) -> Result<()> {
        let value = value.into();
        if autograd::needs_grad(&[self]) {
            return autograd::inplace_rebase(self, |old| old.masked_fill(mask, value));
        }
        autograd::check_writable(self)?;
        check_mask_dtype(mask)?;
        if get_overlap_status(self, mask) == MemOverlapStatus::Partial {
            return Err(Error::PartialOverlap);
        }
        let shape = broadcast_shapes(self.sizes(), mask.sizes())?;
        if shape != self.sizes() {
            return Err(Error::OutputShape {
                sizes: self.sizes().to_vec(),
                broadcast: shape,
            });
        }
        let copy;
        let mask = if mask.shares_storage(self) {
            // Only a bool tensor can share a bool mask's storage: read a copy.
            copy = mask.clone(MemoryFormat::Contiguous)?;
            &copy
        } else {
            mask
        };
        select_fill(self, mask, value, self)?;
        autograd::wrote(self);
        Ok(())
    }

    /// `Tensor.masked_fill(mask, value)`: a copy of `self` broadcast with the bool
    /// `mask`, with `value` where `mask` is true. The result has the broadcast shape of
    /// `mask` and `self`, `self`'s dtype, and is contiguous (PyTorch's
    /// `clone(at::MemoryFormat::Contiguous)`).
    ///
    /// # Errors
    /// [`Error::Broadcast`] when `mask` and `self` do not broadcast (`The size of
    /// tensor a (4) must match the size of tensor b (3) at non-singleton dimension 1`,
    /// `a` being the mask); otherwise as [`masked_fill_`](Tensor::masked_fill_).
    pub fn masked_fill(&self, mask: &Tensor, value: impl Into<Scalar>) -> Result<Tensor> {
        let value = value.into();
        let sizes = self.sizes().to_vec();
        autograd::apply(
            &[self],
            || self.masked_fill_forward(mask, value),
            |_| {
                node(
                    "MaskedFillBackward0",
                    vec![SavedTensor::input(mask)],
                    1,
                    move |g, s| {
                        Ok(vec![Some(backward::masked_fill_backward(
                            g, &s[0], &sizes,
                        )?)])
                    },
                )
            },
        )
    }

    #[cfg_attr(unoptimized, inline)]
    fn masked_fill_forward(&self, mask: &Tensor, value: Scalar) -> Result<Tensor> {
        // PyTorch's order: the broadcast (mask first), then the mask's dtype, then the
        // value; the result is contiguous, as its `clone(at::MemoryFormat::Contiguous)`.
        let shape = broadcast_shapes(mask.sizes(), self.sizes())?;
        check_mask_dtype(mask)?;
        let result = Tensor::empty(&shape, self.dtype())?;
        select_fill(&result, mask, value, self)?;
        Ok(result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masked_fill_causal_mask() {
        let x = Tensor::zeros(&[2, 2], DType::F32).unwrap();
        let mask = Tensor::from_vec(vec![false, true, false, false], &[2, 2]).unwrap();
        let y = x.masked_fill(&mask, f32::NEG_INFINITY).unwrap();
        assert_eq!(
            y.to_vec::<f32>().unwrap(),
            vec![0.0, f32::NEG_INFINITY, 0.0, 0.0]
        );
    }

    #[test]
    fn masked_fill_broadcasts_self_to_mask() {
        let x = Tensor::from_vec(vec![1.0f64, 2.0, 3.0], &[3]).unwrap();
        let mask = Tensor::from_vec(vec![true, false], &[2, 1]).unwrap();
        let y = x.masked_fill(&mask, 0.5).unwrap();
        assert_eq!(y.sizes(), &[2, 3]);
        assert_eq!(y.strides(), &[3, 1]);
        assert_eq!(
            y.to_vec::<f64>().unwrap(),
            vec![0.5, 0.5, 0.5, 1.0, 2.0, 3.0]
        );
        // The original is untouched.
        assert_eq!(x.to_vec::<f64>().unwrap(), vec![1.0, 2.0, 3.0]);
    }

    #[test]
    fn masked_fill_errors() {
        let x = Tensor::zeros(&[2, 3], DType::F32).unwrap();
        let m8 = Tensor::zeros(&[3], DType::U8).unwrap();
        assert!(x.masked_fill(&m8, 1.0).unwrap_err().to_string().contains(
            "masked_fill_ only supports boolean masks, but got mask with dtype unsigned char"
        ));
        let m = Tensor::zeros(&[4], DType::Bool).unwrap();
        assert_eq!(
            x.masked_fill(&m, 1.0).unwrap_err().to_string(),
            "The size of tensor a (4) must match the size of tensor b (3) at non-singleton dimension 1"
        );
        let m = Tensor::zeros(&[2, 1, 3], DType::Bool).unwrap();
        assert_eq!(
            x.masked_fill_(&m, 1.0).unwrap_err().to_string(),
            "output with shape [2, 3] doesn't match the broadcast shape [2, 2, 3]"
        );
        let u = Tensor::zeros(&[3], DType::U8).unwrap();
        let m = Tensor::ones(&[3], DType::Bool).unwrap();
        assert!(u
            .masked_fill(&m, 300)
            .unwrap_err()
            .to_string()
            .contains("value cannot be converted to type uint8_t without overflow"));
    }

    #[test]
    fn masked_fill_of_bool_by_itself() {
        let b = Tensor::from_vec(vec![true, false, true], &[3]).unwrap();
        b.masked_fill_(&b, false).unwrap();
        assert_eq!(b.to_vec::<bool>().unwrap(), vec![false, false, false]);
    }
}
