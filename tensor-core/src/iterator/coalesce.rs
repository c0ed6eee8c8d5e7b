//! `coalesce_dimensions`: merges adjacent iteration dims that every operand walks as
//! one, so kernels see the fewest, longest loops.

use super::TensorIterator;

impl TensorIterator {
    /// Two dims merge when either has size 1 or, for every operand,
    /// `shape[d0] * stride[d0] == stride[d1]`.
    #[cfg_attr(unoptimized, inline)]
    fn can_coalesce(&self, dim0: usize, dim1: usize) -> bool {
        let (s0, s1) = (self.shape[dim0], self.shape[dim1]);
        // Two huge dims of an empty iteration (another dim is 0) can have a product past
        // `usize`: keep them apart (nothing is iterated either way).
        if s0.checked_mul(s1).is_none() {
            return false;
        }
        if s0 == 1 || s1 == 1 {
            return true;
        }
        self.operands.iter().all(|op| {
            (s0 as isize).checked_mul(op.stride_bytes[dim0]) == Some(op.stride_bytes[dim1])
        })
    }

    /// `coalesce_dimensions` (rule in ARCHITECTURE.md, "coalesce_dimensions"). Afterwards `invert_perm` is invalid.
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn coalesce_dimensions(&mut self) {
        let ndim = self.shape.len();
        if ndim <= 1 {
            return;
        }
        let mut prev = 0usize;
        for dim in 1..ndim {
            if self.can_coalesce(prev, dim) {
                if self.shape[prev] == 1 {
                    for op in self.operands.iter_mut() {
                        op.stride_bytes[prev] = op.stride_bytes[dim];
                    }
                }
                self.shape[prev] *= self.shape[dim];
            } else {
                prev += 1;
                if prev != dim {
                    for op in self.operands.iter_mut() {
                        op.stride_bytes[prev] = op.stride_bytes[dim];
                    }
                    self.shape[prev] = self.shape[dim];
                }
            }
        }
        self.shape.truncate(prev + 1);
        for op in self.operands.iter_mut() {
            op.stride_bytes.truncate(prev + 1);
        }
        self.has_coalesced_dimensions = true;
    }
}
