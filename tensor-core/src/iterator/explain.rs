//! `explain()`: the plan a built iterator followed, printable step by step.

use super::{FastSetupType, TensorIterator};
use crate::cpu::cpu_capability;
use crate::error::list;
use crate::layout::DimVec;
use std::fmt;

/// What `build` recorded on the way (filled by the steps as they run).
#[derive(Clone, Debug, Default)]
pub(crate) struct Trace {
    /// The broadcast shape before any permutation.
    pub broadcast_shape: DimVec<usize>,
    /// Per operand, the strides (elements) right-aligned to the broadcast shape, with 0
    /// for broadcast dims; `None` for outputs still to be allocated.
    pub effective_strides: Vec<Option<Vec<isize>>>,
    /// The perm of `reorder_dimensions`.
    pub perm: DimVec<usize>,
    /// The shape after permutation, before coalescing.
    pub permuted_shape: DimVec<usize>,
}

impl TensorIterator {
    /// Records the broadcast shape and effective strides (after `compute_strides`).
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn trace_effective_strides(&mut self) {
        let strides = self
            .operands
            .iter()
            .map(|op| {
                let t = op.tensor.as_ref()?;
                if op.will_resize {
                    return None;
                }
                let e = t.dtype().size() as isize;
                Some(op.stride_bytes.iter().map(|s| s / e).collect())
            })
            .collect();
        self.trace.broadcast_shape = self.shape.clone();
        self.trace.effective_strides = strides;
    }

    /// Records the perm and the permuted shape (after `reorder_dimensions`).
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn trace_perm(&mut self) {
        self.trace.perm = self.perm.clone();
        self.trace.permuted_shape = self.shape.clone();
    }

    /// Records the broadcast shape of a fast setup.
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn trace_fast_setup(&mut self) {
        self.trace.broadcast_shape = self.shape.clone();
    }
}

/// The plan of a built [`TensorIterator`]: which fast setup was taken, the effective
/// strides, the perm, the coalesced sizes, the byte strides per operand and the output
/// strides, and the CPU capability the kernels dispatch on. `Display` prints one step
/// per line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explain {
    /// The fast setup taken (`None` when strides and perm were computed).
    pub fast_setup: FastSetupType,
    /// The broadcast shape (elements).
    pub shape: Vec<usize>,
    /// Per operand (outputs first), strides in elements right-aligned to `shape`, 0 on
    /// broadcast dims; `None` for outputs the iterator allocated. Empty after a fast
    /// setup.
    pub effective_strides: Vec<Option<Vec<isize>>>,
    /// `perm[i]` = the dim at iteration position `i` (0 fastest); empty after a fast
    /// setup.
    pub perm: Vec<usize>,
    /// The iteration sizes after coalescing.
    pub coalesced_sizes: Vec<usize>,
    /// Per operand, byte strides along the coalesced dims.
    pub byte_strides: Vec<Vec<isize>>,
    /// Per output, its strides in elements.
    pub output_strides: Vec<Vec<isize>>,
    /// The vector instruction set the kernels run with in this process
    /// ([`crate::cpu::cpu_capability`]: `AVX512`, `AVX2` or `DEFAULT`; the CPU's
    /// widest unless `ATEN_CPU_CAPABILITY` caps it).
    pub cpu_capability: &'static str,
}

impl TensorIterator {
    /// The plan this iterator follows (see [`Explain`]).
    #[cfg_attr(unoptimized, inline)]
    pub fn explain(&self) -> Explain {
        let fast = self.fast_setup != FastSetupType::None;
        Explain {
            fast_setup: self.fast_setup,
            shape: self.trace.broadcast_shape.to_vec(),
            effective_strides: if fast {
                Vec::new()
            } else {
                self.trace.effective_strides.clone()
            },
            perm: if fast {
                Vec::new()
            } else {
                self.trace.perm.to_vec()
            },
            coalesced_sizes: self.shape.to_vec(),
            byte_strides: self
                .operands
                .iter()
                .map(|op| op.stride_bytes.to_vec())
                .collect(),
            output_strides: (0..self.num_outputs)
                .map(|i| self.final_output(i).strides().to_vec())
                .collect(),
            cpu_capability: cpu_capability(),
        }
    }
}

impl fmt::Display for Explain {
    #[cfg_attr(unoptimized, inline)]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.fast_setup {
            FastSetupType::None => "none (compute_strides, reorder_dimensions, coalesce)",
            FastSetupType::Contiguous => "contiguous",
            FastSetupType::ChannelsLast => "channels_last",
            FastSetupType::NonOverlappingDense => "non_overlapping_and_dense",
        };
        writeln!(f, "fast setup:        {kind}")?;
        writeln!(f, "broadcast shape:   {}", list(&self.shape))?;
        for (k, s) in self.effective_strides.iter().enumerate() {
            match s {
                Some(s) => writeln!(f, "effective strides: op{k} {}", list(s))?,
                None => writeln!(f, "effective strides: op{k} (allocated by the iterator)")?,
            }
        }
        if !self.perm.is_empty() {
            writeln!(f, "perm:              {}", list(&self.perm))?;
        }
        writeln!(f, "coalesced sizes:   {}", list(&self.coalesced_sizes))?;
        for (k, s) in self.byte_strides.iter().enumerate() {
            writeln!(f, "byte strides:      op{k} {}", list(s))?;
        }
        for (k, s) in self.output_strides.iter().enumerate() {
            writeln!(f, "output strides:    out{k} {}", list(s))?;
        }
        writeln!(f, "cpu capability:    {}", self.cpu_capability)?;
        Ok(())
    }
}
