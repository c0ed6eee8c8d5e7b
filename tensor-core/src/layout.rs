//! `Layout`: sizes, strides and storage offset of a strided view.

use crate::error::{Error, Result};

/// The geometry of a strided tensor: `sizes`, `strides` (in elements) and
/// `storage_offset` (in elements), as `torch.Tensor.size()`, `.stride()` and
/// `.storage_offset()`.
///
/// A layout is an immutable value; movement ops (view, permute, expand, ...) return a new
/// one and never touch storage. Element `(i0, i1, ...)` lives at storage index
/// `storage_offset + Σ i_d * strides[d]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    sizes: Vec<usize>,
    strides: Vec<isize>,
    storage_offset: usize,
}

impl Layout {
    /// A layout from raw parts. No check is made; see [`Layout::checked`].
    pub fn new(sizes: Vec<usize>, strides: Vec<isize>, storage_offset: usize) -> Layout {
        debug_assert_eq!(sizes.len(), strides.len());
        Layout {
            sizes,
            strides,
            storage_offset,
        }
    }

    /// A layout from raw parts, checking that sizes and strides have the same length and
    /// that the element count does not overflow.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for mismatched lengths; [`Error::NumelOverflow`].
    pub fn checked(
        sizes: Vec<usize>,
        strides: Vec<isize>,
        storage_offset: usize,
    ) -> Result<Layout> {
        if sizes.len() != strides.len() {
            return Err(Error::InvalidArgument {
                op: "as_strided",
                message: format!(
                    "mismatch in length of strides and shape ({} vs {})",
                    strides.len(),
                    sizes.len()
                ),
            });
        }
        checked_numel(&sizes, "as_strided")?;
        Ok(Layout::new(sizes, strides, storage_offset))
    }

    /// The contiguous (row-major) layout of `sizes`, offset 0: PyTorch's
    /// `at::empty(sizes)` strides, where a size-0 or size-1 dim multiplies as 1.
    ///
    /// # Errors
    /// [`Error::NumelOverflow`] if the sizes multiply past `isize::MAX`.
    pub fn contiguous(sizes: &[usize]) -> Result<Layout> {
        checked_numel(sizes, "empty")?;
        Ok(Layout::new(sizes.to_vec(), contiguous_strides(sizes), 0))
    }

    /// Sizes of each dim (elements).
    pub fn sizes(&self) -> &[usize] {
        &self.sizes
    }

    /// Strides of each dim, in elements.
    pub fn strides(&self) -> &[isize] {
        &self.strides
    }

    /// Offset of element `(0, 0, ...)` in the storage, in elements.
    pub fn storage_offset(&self) -> usize {
        self.storage_offset
    }

    /// Number of dims (`Tensor.dim()`).
    pub fn ndim(&self) -> usize {
        self.sizes.len()
    }

    /// Number of elements: the product of the sizes (1 for a 0-d layout).
    pub fn numel(&self) -> usize {
        self.sizes.iter().product()
    }

    /// The largest storage index this layout can touch plus one (0 when empty):
    /// how many elements the storage must hold.
    pub fn required_storage_len(&self) -> usize {
        if self.sizes.contains(&0) {
            return 0;
        }
        let mut hi = self.storage_offset as isize;
        for (&s, &st) in self.sizes.iter().zip(&self.strides) {
            if st > 0 {
                hi += (s as isize - 1) * st;
            }
        }
        hi as usize + 1
    }

    /// Storage indices of every element, in logical row-major order. This is the naive
    /// index walk the tests compare the iterator against.
    pub fn offsets(&self) -> StridedOffsets<'_> {
        StridedOffsets::new(self)
    }
}

/// Row-major contiguous strides for `sizes` (max(size, 1) rule, as `at::empty`).
pub fn contiguous_strides(sizes: &[usize]) -> Vec<isize> {
    let mut strides = vec![0isize; sizes.len()];
    let mut acc: isize = 1;
    for d in (0..sizes.len()).rev() {
        strides[d] = acc;
        acc = acc.saturating_mul(sizes[d].max(1) as isize);
    }
    strides
}

/// Product of `sizes`, checked: PyTorch's `numel: integer multiplication overflow`.
///
/// # Errors
/// [`Error::NumelOverflow`] when the product exceeds `i64::MAX`.
pub fn checked_numel(sizes: &[usize], op: &'static str) -> Result<usize> {
    let mut n: usize = 1;
    for &s in sizes {
        n = n.checked_mul(s).ok_or(Error::NumelOverflow { op })?;
    }
    if n > i64::MAX as usize {
        return Err(Error::NumelOverflow { op });
    }
    Ok(n)
}

/// Iterator over the storage indices of a layout in logical row-major order.
pub struct StridedOffsets<'a> {
    layout: &'a Layout,
    index: Vec<usize>,
    next: Option<isize>,
}

impl<'a> StridedOffsets<'a> {
    fn new(layout: &'a Layout) -> Self {
        let next = if layout.numel() == 0 {
            None
        } else {
            Some(layout.storage_offset as isize)
        };
        StridedOffsets {
            layout,
            index: vec![0; layout.ndim()],
            next,
        }
    }
}

impl Iterator for StridedOffsets<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        let cur = self.next?;
        let sizes = &self.layout.sizes;
        let strides = &self.layout.strides;
        let mut pos = cur;
        let mut d = sizes.len();
        loop {
            if d == 0 {
                self.next = None;
                break;
            }
            d -= 1;
            self.index[d] += 1;
            pos += strides[d];
            if self.index[d] < sizes[d] {
                self.next = Some(pos);
                break;
            }
            pos -= strides[d] * sizes[d] as isize;
            self.index[d] = 0;
        }
        Some(cur as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_walk_transposed_in_logical_order() {
        let l = Layout::new(vec![2, 3], vec![1, 2], 1);
        let v: Vec<usize> = l.offsets().collect();
        assert_eq!(v, vec![1, 3, 5, 2, 4, 6]);
    }

    #[test]
    fn zero_dim_layout_has_one_offset() {
        let l = Layout::new(vec![], vec![], 4);
        assert_eq!(l.offsets().collect::<Vec<_>>(), vec![4]);
    }

    #[test]
    fn empty_layout_has_no_offsets() {
        let l = Layout::new(vec![2, 0], vec![1, 1], 0);
        assert_eq!(l.offsets().count(), 0);
        assert_eq!(l.required_storage_len(), 0);
    }

    #[test]
    fn contiguous_strides_treat_zero_sizes_as_one() {
        assert_eq!(contiguous_strides(&[2, 0, 3]), vec![3, 3, 1]);
    }

    #[test]
    fn numel_overflow_is_an_error() {
        assert!(checked_numel(&[1 << 40, 1 << 40], "empty").is_err());
    }
}
