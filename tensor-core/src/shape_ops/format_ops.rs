//! Tensor-level memory-format ops: `empty_like`, `clone`, `contiguous`,
//! `contiguous(memory_format)` and `to(memory_format)`, as PyTorch picks their strides.

use crate::error::{Error, Result};
use crate::layout::MemoryFormat;
use crate::layout::{preserve_strides, strides_for_format};
use crate::tensor::Tensor;

impl Tensor {
    /// `Tensor.is_contiguous()`: row-major contiguity (true for zero elements).
    #[cfg_attr(unoptimized, inline)]
    pub fn is_contiguous(&self) -> bool {
        self.layout().is_contiguous()
    }

    /// `Tensor.is_contiguous(memory_format=format)`; see [`Layout::is_contiguous_format`](crate::layout::Layout::is_contiguous_format).
    #[cfg_attr(unoptimized, inline)]
    pub fn is_contiguous_format(&self, format: MemoryFormat) -> bool {
        self.layout().is_contiguous_format(format)
    }

    /// `Tensor.is_non_overlapping_and_dense()`: the elements fill a block of memory
    /// exactly once, in some dim order.
    #[cfg_attr(unoptimized, inline)]
    pub fn is_non_overlapping_and_dense(&self) -> bool {
        self.layout().is_non_overlapping_and_dense()
    }

    /// `TensorBase::suggest_memory_format(exact_match)`; see
    /// [`Layout::suggest_memory_format`](crate::layout::Layout::suggest_memory_format).
    #[cfg_attr(unoptimized, inline)]
    pub fn suggest_memory_format(&self, exact_match: bool) -> MemoryFormat {
        self.layout().suggest_memory_format(exact_match)
    }
}

impl Tensor {
    /// `torch.empty_like(self, memory_format=format)`: a fresh tensor of the same sizes and
    /// dtype (zero-filled). `Preserve` keeps the strides of a non-overlapping-and-dense
    /// tensor and otherwise infers dense strides in the same dim order
    /// (`infer_dense_strides`); the other formats use `empty(sizes, memory_format)`.
    ///
    /// # Errors
    /// `ChannelsLast` on a rank other than 4 (`required rank 4 tensor to use channels_last
    /// format`), `ChannelsLast3d` on a rank other than 5.
    #[cfg_attr(unoptimized, inline)]
    pub fn empty_like(&self, format: MemoryFormat) -> Result<Tensor> {
        let strides = self.strides_like(format)?;
        Tensor::empty_strided(self.sizes(), &strides, self.dtype())
    }

    /// The strides `empty_like(format)` gives (elements).
    #[cfg_attr(unoptimized, inline)]
    fn strides_like(&self, format: MemoryFormat) -> Result<Vec<isize>> {
        match format {
            MemoryFormat::Preserve => Ok(preserve_strides(self.layout())),
            other => strides_for_format(self.sizes(), other),
        }
    }

    /// `Tensor.clone(memory_format=format)`: a copy into [`Tensor::empty_like`]`(format)`.
    /// It never shares storage with `self`.
    ///
    /// # Errors
    /// As [`Tensor::empty_like`].
    #[cfg_attr(unoptimized, inline)]
    pub fn clone(&self, format: MemoryFormat) -> Result<Tensor> {
        crate::autograd::apply(
            &[self],
            || self.clone_impl(format),
            |_| crate::autograd::IdentityBackward {
                name: "CloneBackward0",
            },
        )
    }

    #[cfg_attr(unoptimized, inline)]
    fn clone_impl(&self, format: MemoryFormat) -> Result<Tensor> {
        Tensor::fresh_copy(self, &self.strides_like(format)?, self.dtype())
    }

    /// `Tensor.contiguous()`: `self` (an alias) when row-major contiguous, else a
    /// row-major copy.
    ///
    /// # Errors
    /// None in practice; `Result` for uniformity with the other materialising ops.
    #[cfg_attr(unoptimized, inline)]
    pub fn contiguous(&self) -> Result<Tensor> {
        self.contiguous_format(MemoryFormat::Contiguous)
    }

    /// `Tensor.contiguous(memory_format=format)`: an alias of `self` when
    /// `is_contiguous(format)` already holds, else `clone(format)`. An ambiguous tensor
    /// (e.g. N1HW or NC11) that is contiguous in both senses is returned as is.
    ///
    /// # Errors
    /// `Preserve`: `preserve memory format is unsupported by the contiguous operator`;
    /// a channels-last format on a tensor of the wrong rank (from `empty`).
    #[cfg_attr(unoptimized, inline)]
    pub fn contiguous_format(&self, format: MemoryFormat) -> Result<Tensor> {
        if self.is_contiguous_format(format) {
            return Ok(self.alias());
        }
        if format == MemoryFormat::Preserve {
            return Err(Error::InvalidArgument {
                op: "contiguous",
                message: "preserve memory format is unsupported by the contiguous operator".into(),
            });
        }
        self.clone(format)
    }

    /// `Tensor.to(memory_format=format)`: an alias of `self` when `format` is `Preserve`
    /// or equals `suggest_memory_format()`, else a copy into `empty(sizes, format)`.
    ///
    /// Unlike [`Tensor::contiguous_format`], this asks the strides heuristic, not the
    /// contiguity flags, so an ambiguous NC11 tensor that is already channels-last
    /// contiguous is still re-strided to exact NHWC strides.
    ///
    /// # Errors
    /// A channels-last format on a tensor of the wrong rank.
    #[cfg_attr(unoptimized, inline)]
    pub fn to_memory_format(&self, format: MemoryFormat) -> Result<Tensor> {
        if format == MemoryFormat::Preserve || self.suggest_memory_format(false) == format {
            return Ok(self.alias());
        }
        self.clone(format)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strided(sizes: &[usize], strides: &[isize], len: usize) -> Tensor {
        crate::test_util::strided((0..len).map(|i| i as f32).collect(), sizes, strides, 0)
    }

    #[test]
    fn ambiguous_nc11_contiguous_cl_aliases_but_to_cl_restrides() {
        let t = strided(&[2, 4, 1, 1], &[4, 1, 1, 1], 8);
        let c = t.contiguous_format(MemoryFormat::ChannelsLast).unwrap();
        assert!(c.shares_storage(&t));
        assert_eq!(c.strides(), &[4, 1, 1, 1]);
        let to = t.to_memory_format(MemoryFormat::ChannelsLast).unwrap();
        assert!(!to.shares_storage(&t));
        assert_eq!(to.strides(), &[4, 1, 4, 4]);
        assert_eq!(to.to_vec_f64().unwrap(), t.to_vec_f64().unwrap());
    }

    #[test]
    fn clone_preserve_of_expanded_infers_dense_strides() {
        let t = strided(&[4, 3], &[1, 0], 4);
        let c = t.clone(MemoryFormat::Preserve).unwrap();
        assert_eq!(c.strides(), &[3, 1]);
        assert_eq!(c.to_vec_f64().unwrap(), t.to_vec_f64().unwrap());
    }

    #[test]
    fn contiguous_of_transposed_copies_values() {
        let t = strided(&[3, 2], &[1, 3], 6);
        let c = t.contiguous().unwrap();
        assert_eq!(c.strides(), &[2, 1]);
        assert_eq!(c.to_vec_f64().unwrap(), vec![0.0, 3.0, 1.0, 4.0, 2.0, 5.0]);
    }

    #[test]
    fn contiguous_preserve_is_an_error() {
        let t = strided(&[3, 2], &[1, 3], 6);
        assert!(t.contiguous_format(MemoryFormat::Preserve).is_err());
    }
}
