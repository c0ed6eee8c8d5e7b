//! `compute_strides`, `reorder_dimensions` (the perm) and
//! `allocate_or_resize_outputs` (output strides from the perm).

use super::config::TensorIteratorConfig;
use super::TensorIterator;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::DimVec;
use crate::tensor::Tensor;

impl TensorIterator {
    /// `compute_strides`: byte strides right-aligned to the iteration shape; missing
    /// leading dims and broadcast size-1 dims get 0; a size-1 dim that is not broadcast
    /// keeps its real stride. Outputs to be resized get none yet.
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn compute_strides(&mut self, config: &TensorIteratorConfig) {
        let ndim = self.shape.len();
        for op in self.operands.iter_mut() {
            let Some(t) = op.tensor.as_ref() else {
                continue;
            };
            if op.will_resize {
                continue;
            }
            let original_shape: &[usize] = match &config.static_shape {
                Some(s) => s,
                None => t.sizes(),
            };
            let original_stride = t.strides();
            let element_size = t.dtype().size() as isize;
            let offset = ndim - original_shape.len();
            op.stride_bytes = DimVec::from_elem(0, ndim);
            for i in 0..original_shape.len() {
                // By the tensor invariant, a stride of a dim of size ≥ 2 times the element
                // size fits in isize; a size-0/1 dim's stride may be huge and takes no part
                // in any address, so it saturates (keeping its order for the perm).
                op.stride_bytes[offset + i] =
                    if original_shape[i] == 1 && self.shape[offset + i] != 1 {
                        0
                    } else {
                        original_stride[i].saturating_mul(element_size)
                    };
            }
        }
        self.trace_effective_strides();
    }

    /// The comparator of `reorder_dimensions`: 1 if `dim0` should go after `dim1`
    /// (moves outward), -1 if before, 0 if ambiguous. Operands are asked in order
    /// (outputs first): a zero stride on either dim passes to the next operand; equal
    /// strides only swap when `shape[dim0] > shape[dim1]`. In reduction mode an output
    /// stride of 0 on exactly one dim puts that (reduced) dim first.
    #[cfg_attr(unoptimized, inline)]
    fn should_swap(&self, dim0: usize, dim1: usize) -> i32 {
        for op in &self.operands {
            if op.stride_bytes.is_empty() || op.will_resize {
                continue;
            }
            let s0 = op.stride_bytes[dim0];
            let s1 = op.stride_bytes[dim1];
            if self.is_reduction && op.is_output && (s0 == 0) != (s1 == 0) {
                return if s1 == 0 { 1 } else { -1 };
            }
            if s0 == 0 || s1 == 0 {
                continue;
            }
            if s0 < s1 {
                return -1;
            }
            if s0 > s1 {
                return 1;
            }
            if self.shape[dim0] > self.shape[dim1] {
                return 1;
            }
        }
        0
    }

    /// `reorder_dimensions`: sorts dims so that position 0 moves fastest in memory,
    /// giving the leftmost operand priority. The insertion sort keeps scanning left past
    /// an ambiguous (0) comparison without moving, so a later swap may exchange
    /// non-adjacent slots, exactly as PyTorch does.
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn reorder_dimensions(&mut self) {
        let ndim = self.shape.len();
        self.perm = (0..ndim).rev().collect();
        if ndim == 1 {
            self.perm = DimVec::from_elem(0, 1);
            self.trace_perm();
            return;
        }
        if !self.enforce_linear_iteration {
            for i in 1..ndim {
                let mut dim1 = i;
                for dim0 in (0..i).rev() {
                    let c = self.should_swap(self.perm[dim0], self.perm[dim1]);
                    if c > 0 {
                        self.perm.swap(dim0, dim1);
                        dim1 = dim0;
                    } else if c < 0 {
                        break;
                    }
                }
            }
        }
        self.permute_dimensions();
        self.trace_perm();
    }

    /// `permute_dimensions(perm)`: applies the perm to the shape and to every operand
    /// that has strides.
    #[cfg_attr(unoptimized, inline)]
    fn permute_dimensions(&mut self) {
        let perm = self.perm.clone();
        self.shape = perm.iter().map(|&p| self.shape[p]).collect();
        for op in self.operands.iter_mut() {
            if !op.stride_bytes.is_empty() {
                op.stride_bytes = perm.iter().map(|&p| op.stride_bytes[p]).collect();
            }
        }
    }

    /// `invert_perm`: from iteration order back to the tensors' dim order
    /// (`res[perm[d]] = input[d]`).
    pub(crate) fn invert_perm<T: Copy + Default>(&self, input: &[T]) -> Vec<T> {
        debug_assert!(!self.has_coalesced_dimensions);
        let mut res = vec![T::default(); input.len()];
        for (d, &p) in self.perm.iter().enumerate() {
            res[p] = input[d];
        }
        res
    }

    /// `allocate_or_resize_outputs`: an undefined or to-be-resized output gets
    /// `compatible_stride` (byte strides `s[0] = elem`, `s[i] = s[i-1] * shape[i-1]`,
    /// no `max(size, 1)`) in iteration order, mapped back through the perm; when the
    /// perm is the plain reversal it is allocated contiguous (`at::empty`) instead.
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn allocate_or_resize_outputs(&mut self) -> Result<()> {
        let ndim = self.shape.len();
        for i in 0..self.num_outputs {
            let op = &self.operands[i];
            if op.defined() && !op.will_resize {
                continue;
            }
            let elem = output_dtype(op.target_dtype)?.size() as isize;
            let mut stride_bytes = DimVec::from_elem(0isize, ndim);
            let mut next = elem;
            // The shape's element count fits in isize (compute_shape), so this only
            // saturates past the last dim when the byte count does not.
            for (d, s) in stride_bytes.iter_mut().enumerate() {
                *s = next;
                next = next.saturating_mul(self.shape[d] as isize);
            }
            let inverted = self
                .perm
                .iter()
                .enumerate()
                .all(|(j, &p)| p == ndim - 1 - j);
            let sizes = self.invert_perm(&self.shape);
            let strides: Vec<isize> = if inverted {
                crate::layout::contiguous_strides(&sizes)
            } else {
                self.invert_perm(&stride_bytes)
                    .into_iter()
                    .map(|s| s / elem)
                    .collect()
            };
            self.set_output_strided(i, &sizes, &strides)?;
            self.operands[i].stride_bytes = stride_bytes;
        }
        Ok(())
    }

    /// `set_output_raw_strided` for an undefined or resized output: a fresh tensor of
    /// the target dtype with these sizes and strides (elements). A caller's output that
    /// is computed through a temporary is replaced by a tensor of the same geometry in
    /// its own dtype.
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn set_output_strided(
        &mut self,
        i: usize,
        sizes: &[usize],
        strides: &[isize],
    ) -> Result<()> {
        let op = &mut self.operands[i];
        let dtype = output_dtype(op.target_dtype)?;
        let uninit = self.uninit_outputs;
        let empty = |dtype: DType| {
            if uninit {
                // SAFETY: `uninit_outputs` is set only by
                // `TensorIterator::build_and_run`, which writes every element of
                // every output (the temporary by the kernel, the caller's tensor by
                // `cast_outputs`) before anything reads them.
                unsafe { Tensor::empty_strided_uninit(sizes, strides, dtype) }
            } else {
                Tensor::empty_strided(sizes, strides, dtype)
            }
        };
        let t = empty(dtype)?;
        if let Some(orig) = op.original.as_ref() {
            if orig.sizes() != sizes {
                op.original = Some(Box::new(empty(orig.dtype())?));
            }
        }
        op.tensor = Some(t);
        op.current_dtype = Some(dtype);
        Ok(())
    }
}

/// The dtype of an output to allocate: known unless the config has an undefined
/// output, no input and no static dtype.
#[cfg_attr(unoptimized, inline)]
fn output_dtype(d: Option<DType>) -> Result<DType> {
    d.ok_or_else(|| Error::InvalidArgument {
        op: "TensorIterator",
        message:
            "cannot infer the dtype of an undefined output without inputs; declare_static_dtype"
                .into(),
    })
}
