//! Memory-overlap checks (aten/src/ATen/MemoryOverlap.cpp).

use super::{is_same, TensorIterator};
use crate::error::{Error, Result};
use crate::tensor::Tensor;

/// Whether a tensor's elements share addresses (`MemOverlap`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemOverlap {
    /// Provably no two elements share an address.
    No,
    /// Provably some do (a dim of size > 1 with stride 0).
    Yes,
    /// Not decided cheaply; PyTorch allows it.
    TooHard,
}

/// How two tensors' memory relates (`MemOverlapStatus`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemOverlapStatus {
    /// The same elements in the same order.
    Full,
    /// Some elements shared, not all in the same place.
    Partial,
    /// Disjoint.
    No,
    /// Not decided cheaply.
    TooHard,
}

/// `has_internal_overlap(t)`: `No` when non-overlapping and dense, `Yes` when a dim of
/// size > 1 has stride 0, else `TooHard`.
#[cfg_attr(unoptimized, inline)]
pub fn has_internal_overlap(t: &Tensor) -> MemOverlap {
    if t.is_non_overlapping_and_dense() {
        return MemOverlap::No;
    }
    if t.sizes()
        .iter()
        .zip(t.strides())
        .any(|(&s, &st)| s > 1 && st == 0)
    {
        return MemOverlap::Yes;
    }
    MemOverlap::TooHard
}

/// `get_overlap_status(a, b)`: compares the byte ranges of two dense tensors.
#[cfg_attr(unoptimized, inline)]
pub fn get_overlap_status(a: &Tensor, b: &Tensor) -> MemOverlapStatus {
    if is_same(a, b) {
        return MemOverlapStatus::Full;
    }
    if a.numel() == 0 || b.numel() == 0 {
        return MemOverlapStatus::No;
    }
    if !a.is_non_overlapping_and_dense() || !b.is_non_overlapping_and_dense() {
        return MemOverlapStatus::TooHard;
    }
    if !a.shares_storage(b) {
        return MemOverlapStatus::No;
    }
    let range = |t: &Tensor| {
        let start = t.storage_offset() * t.dtype().size();
        (start, start + t.numel() * t.dtype().size())
    };
    let (a0, a1) = range(a);
    let (b0, b1) = range(b);
    if a0 == b0 && a1 == b1 {
        if a.strides() == b.strides() {
            return MemOverlapStatus::Full;
        }
        return MemOverlapStatus::Partial;
    }
    if a0 < b1 && b0 < a1 {
        return MemOverlapStatus::Partial;
    }
    MemOverlapStatus::No
}

/// `assert_no_internal_overlap`.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn assert_no_internal_overlap(t: &Tensor) -> Result<()> {
    if has_internal_overlap(t) == MemOverlap::Yes {
        return Err(Error::InternalOverlap);
    }
    Ok(())
}

/// `assert_no_partial_overlap`.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn assert_no_partial_overlap(a: &Tensor, b: &Tensor) -> Result<()> {
    if get_overlap_status(a, b) == MemOverlapStatus::Partial {
        return Err(Error::PartialOverlap);
    }
    Ok(())
}

impl TensorIterator {
    /// `compute_mem_overlaps`: no output may overlap itself; no input that is not the
    /// same view as an output may partially overlap it.
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn compute_mem_overlaps(&self) -> Result<()> {
        for i in 0..self.num_outputs {
            let Some(out) = self.operands[i].tensor.as_ref() else {
                continue;
            };
            assert_no_internal_overlap(out)?;
            for op in &self.operands[self.num_outputs..] {
                let input = op.t();
                if !is_same(out, input) {
                    assert_no_partial_overlap(out, input)?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dtype::DType;
    use crate::layout::Layout;

    fn view(t: &Tensor, sizes: &[usize], strides: &[isize], off: usize) -> Tensor {
        t.with_layout(Layout::new(sizes.to_vec(), strides.to_vec(), off))
    }

    #[test]
    fn overlapping_as_strided_is_too_hard_not_an_error() {
        let z = Tensor::zeros(&[4], DType::F32).unwrap();
        let v = view(&z, &[2, 3], &[1, 1], 0);
        assert_eq!(has_internal_overlap(&v), MemOverlap::TooHard);
        assert!(assert_no_internal_overlap(&v).is_ok());
    }

    #[test]
    fn expanded_output_overlaps_itself() {
        let z = Tensor::zeros(&[3], DType::F32).unwrap();
        let v = view(&z, &[2, 3], &[0, 1], 0);
        assert_eq!(has_internal_overlap(&v), MemOverlap::Yes);
        assert!(assert_no_internal_overlap(&v)
            .unwrap_err()
            .to_string()
            .starts_with("unsupported operation: more than one element"));
    }

    #[test]
    fn shifted_dense_views_overlap_partially() {
        let z = Tensor::zeros(&[6], DType::F32).unwrap();
        let a = view(&z, &[4], &[1], 0);
        let b = view(&z, &[4], &[1], 2);
        assert_eq!(get_overlap_status(&a, &b), MemOverlapStatus::Partial);
        let t = view(&z, &[2, 2], &[1, 2], 0);
        let u = view(&z, &[2, 2], &[2, 1], 0);
        assert_eq!(get_overlap_status(&t, &u), MemOverlapStatus::Partial);
        let c = view(&z, &[2], &[1], 4);
        assert_eq!(get_overlap_status(&a, &c), MemOverlapStatus::No);
    }
}
