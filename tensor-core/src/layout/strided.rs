//! `Layout`: sizes, strides and storage offset of a strided view.

use crate::error::{Error, Result};
use smallvec::SmallVec;

/// Dims kept inline in a [`Layout`] (no heap allocation up to this many).
pub(crate) const INLINE_DIMS: usize = 6;

/// Sizes or strides of a layout: inline up to [`INLINE_DIMS`] dims, so that cloning a
/// layout (every `alias`, every operand of an iterator) allocates nothing.
pub(crate) type DimVec<T> = SmallVec<[T; INLINE_DIMS]>;

/// `DimVec::from_slice` without a call to `memcpy` for the usual few dims: the inline
/// buffer is filled element by element (an unrolled loop), as cloning a layout happens
/// several times per elementwise op (`Tensor::alias`).
#[inline]
pub(crate) fn dims_from_slice<T: Copy + Default>(s: &[T]) -> DimVec<T> {
    if s.len() > INLINE_DIMS {
        return DimVec::from_slice(s);
    }
    let mut buf = [T::default(); INLINE_DIMS];
    for (i, slot) in buf.iter_mut().enumerate() {
        if let Some(&v) = s.get(i) {
            *slot = v;
        }
    }
    DimVec::from_buf_and_len(buf, s.len())
}

/// The geometry of a strided tensor: `sizes`, `strides` (in elements) and
/// `storage_offset` (in elements), as `torch.Tensor.size()`, `.stride()` and
/// `.storage_offset()`.
///
/// A layout is an immutable value; movement ops (view, permute, expand, ...) return a new
/// one and never touch storage. Element `(i0, i1, ...)` lives at storage index
/// `storage_offset + Σ i_d * strides[d]`.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    sizes: DimVec<usize>,
    strides: DimVec<isize>,
    storage_offset: usize,
}

impl Clone for Layout {
    /// A plain copy of the dims (`from_slice`: one `memcpy` each, no allocation up to
    /// `INLINE_DIMS` dims; the derived clone went element by element).
    #[inline]
    fn clone(&self) -> Layout {
        Layout::from_slices(&self.sizes, &self.strides, self.storage_offset)
    }
}

impl Layout {
    /// A layout from raw parts, unchecked: crate code only, where the parts come from an
    /// existing valid layout. Public construction goes through [`Layout::checked`].
    pub(crate) fn new(sizes: Vec<usize>, strides: Vec<isize>, storage_offset: usize) -> Layout {
        Layout::from_slices(&sizes, &strides, storage_offset)
    }

    /// [`Layout::new`] from borrowed parts (no intermediate `Vec`).
    #[inline]
    pub(crate) fn from_slices(sizes: &[usize], strides: &[isize], storage_offset: usize) -> Layout {
        debug_assert_eq!(sizes.len(), strides.len());
        Layout {
            sizes: dims_from_slice(sizes),
            strides: dims_from_slice(strides),
            storage_offset,
        }
    }

    /// A layout from raw parts (strides and offset in elements), checked as
    /// `torch.as_strided` checks its arguments: sizes and strides of the same length, no
    /// negative stride, no size past `isize::MAX` (PyTorch's sizes are `int64_t`), and a
    /// storage extent (`offset + 1 + Σ (size-1)·stride`) that
    /// fits in `usize`, so that every element index of the layout is computable.
    /// Whether the layout fits a given storage is checked by [`crate::tensor::Tensor::from_parts`].
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for mismatched lengths (`mismatch in length of strides
    /// and shape`); [`Error::StorageBounds`] for a negative stride (`as_strided: Negative
    /// strides are not supported at the moment, got strides: [..]`);
    /// [`Error::StorageSizeOverflow`] (`Storage size calculation overflowed with
    /// sizes=[..] and strides=[..]`).
    pub fn checked(
        sizes: Vec<usize>,
        strides: Vec<isize>,
        storage_offset: usize,
    ) -> Result<Layout> {
        Layout::checked_from_slices(&sizes, &strides, storage_offset)
    }

    /// [`Layout::checked`] from borrowed parts (no intermediate `Vec`).
    ///
    /// # Errors
    /// As [`Layout::checked`].
    pub(crate) fn checked_from_slices(
        sizes: &[usize],
        strides: &[isize],
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
        if strides.iter().any(|&s| s < 0) {
            return Err(Error::StorageBounds {
                message: format!(
                    "as_strided: Negative strides are not supported at the moment, got strides: {strides:?}"
                ),
            });
        }
        let layout = Layout::from_slices(sizes, strides, storage_offset);
        if layout.sizes.iter().any(|&s| s > isize::MAX as usize) {
            return Err(layout.size_overflow());
        }
        layout.required_storage_len()?;
        Ok(layout)
    }

    /// The contiguous (row-major) layout of `sizes`, offset 0: PyTorch's
    /// `at::empty(sizes)` strides, where a size-0 or size-1 dim multiplies as 1.
    ///
    /// # Errors
    /// [`Error::StorageSizeOverflow`] (`Storage size calculation overflowed with
    /// sizes=[..]`) if the sizes multiply past `i64::MAX`.
    pub fn contiguous(sizes: &[usize]) -> Result<Layout> {
        contiguous_nbytes(sizes, 1)?;
        let mut strides = DimVec::from_elem(0isize, sizes.len());
        fill_contiguous_strides(sizes, &mut strides);
        Ok(Layout {
            sizes: dims_from_slice(sizes),
            strides,
            storage_offset: 0,
        })
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

    /// Number of elements: the product of the sizes (1 for a 0-d layout). Every layout
    /// of a tensor has a product that fits (it is checked when the layout is made).
    pub fn numel(&self) -> usize {
        self.sizes
            .iter()
            .try_fold(1usize, |n, &s| n.checked_mul(s))
            .unwrap_or(usize::MAX)
    }

    /// The largest storage index this layout can touch plus one (0 when empty): how many
    /// elements the storage must hold (c10's `computeStorageNbytes` in elements).
    /// Negative strides (which no checked layout has) add nothing.
    ///
    /// # Errors
    /// [`Error::StorageSizeOverflow`] when the sum overflows `usize`.
    pub fn required_storage_len(&self) -> Result<usize> {
        self.storage_len_opt().ok_or_else(|| self.size_overflow())
    }

    /// [`Layout::required_storage_len`] in bytes for elements of `itemsize` bytes.
    ///
    /// # Errors
    /// [`Error::StorageSizeOverflow`] when it exceeds `isize::MAX` (no allocation can be
    /// that large).
    pub fn required_storage_bytes(&self, itemsize: usize) -> Result<usize> {
        self.storage_len_opt()
            .and_then(|n| n.checked_mul(itemsize))
            .filter(|&n| n <= isize::MAX as usize)
            .ok_or_else(|| self.size_overflow())
    }

    fn storage_len_opt(&self) -> Option<usize> {
        if self.sizes.contains(&0) {
            return Some(0);
        }
        let mut hi = self.storage_offset.checked_add(1)?;
        for (&s, &st) in self.sizes.iter().zip(&self.strides) {
            if st > 0 {
                hi = hi.checked_add((s - 1).checked_mul(st as usize)?)?;
            }
        }
        Some(hi)
    }

    fn size_overflow(&self) -> Error {
        Error::StorageSizeOverflow {
            sizes: self.sizes.to_vec(),
            strides: Some(self.strides.to_vec()),
        }
    }

    /// Storage indices of every element, in logical row-major order. This is the naive
    /// index walk the tests compare the iterator against.
    pub fn offsets(&self) -> StridedOffsets<'_> {
        StridedOffsets::new(self)
    }
}

/// Row-major contiguous strides for `sizes` (max(size, 1) rule, as `at::empty`).
/// Saturates at `isize::MAX` for sizes whose product overflows (such sizes never make a
/// tensor).
pub fn contiguous_strides(sizes: &[usize]) -> Vec<isize> {
    let mut strides = vec![0isize; sizes.len()];
    fill_contiguous_strides(sizes, &mut strides);
    strides
}

/// Writes [`contiguous_strides`] of `sizes` into `strides` (of the same length).
pub(crate) fn fill_contiguous_strides(sizes: &[usize], strides: &mut [isize]) {
    let mut acc: isize = 1;
    for d in (0..sizes.len()).rev() {
        strides[d] = acc;
        acc = acc.saturating_mul(sizes[d].max(1).min(isize::MAX as usize) as isize);
    }
}

/// Bytes of a contiguous allocation of `sizes` with elements of `itemsize` bytes
/// (c10's `computeStorageNbytesContiguous`).
///
/// # Errors
/// [`Error::StorageSizeOverflow`] (`Storage size calculation overflowed with
/// sizes=[..]`) when a size, the element count or the byte count exceeds `isize::MAX`.
pub fn contiguous_nbytes(sizes: &[usize], itemsize: usize) -> Result<usize> {
    let too_big = sizes.iter().any(|&s| s > isize::MAX as usize);
    sizes
        .iter()
        .try_fold(1usize, |n, &s| n.checked_mul(s))
        .and_then(|n| n.checked_mul(itemsize))
        .filter(|&n| n <= isize::MAX as usize && !too_big)
        .ok_or_else(|| Error::StorageSizeOverflow {
            sizes: sizes.to_vec(),
            strides: None,
        })
}

/// The product of `sizes` as an element count: 0 when any size is 0 (even if the
/// others multiply past `usize`, as the huge dims of an empty tensor can), otherwise
/// the product, saturating at `usize::MAX` (layouts of live tensors were checked, so
/// it is exact for them).
pub(crate) fn numel_of(sizes: impl IntoIterator<Item = usize>) -> usize {
    let mut n = 1usize;
    let mut empty = false;
    for s in sizes {
        empty |= s == 0;
        n = n.saturating_mul(s);
    }
    if empty {
        0
    } else {
        n
    }
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
///
/// Indices are computed with wrapping arithmetic; for a layout whose
/// [`Layout::required_storage_len`] is `Ok` (every layout of a tensor, every layout from
/// [`Layout::checked`]) no intermediate value leaves `[0, required_storage_len)`, so the
/// indices are exact.
pub struct StridedOffsets<'a> {
    layout: &'a Layout,
    index: DimVec<usize>,
    next: Option<usize>,
}

impl<'a> StridedOffsets<'a> {
    fn new(layout: &'a Layout) -> Self {
        let next = if layout.sizes.contains(&0) {
            None
        } else {
            Some(layout.storage_offset)
        };
        StridedOffsets {
            layout,
            index: DimVec::from_elem(0, layout.ndim()),
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
        self.next = None;
        while d > 0 {
            d -= 1;
            let st = strides[d] as usize;
            if self.index[d] + 1 < sizes[d] {
                self.index[d] += 1;
                self.next = Some(pos.wrapping_add(st));
                break;
            }
            // Back to index 0 along `d`: subtract (size-1)·stride, which stays in range.
            pos = pos.wrapping_sub(st.wrapping_mul(sizes[d] - 1));
            self.index[d] = 0;
        }
        Some(cur)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numel_of_empty_shape_with_huge_dims_is_zero_without_overflow() {
        let huge = usize::MAX / 2;
        assert_eq!(numel_of([huge, huge, 0]), 0);
        assert_eq!(numel_of([0, huge, huge]), 0);
        assert_eq!(numel_of([2, 3, 4]), 24);
        assert_eq!(numel_of([]), 1);
    }

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
        assert_eq!(l.required_storage_len().unwrap(), 0);
    }

    #[test]
    fn as_strided_9_by_stride_2_pow_61_is_a_size_overflow() {
        let e = Layout::checked(vec![9], vec![1 << 61], 0).unwrap_err();
        assert_eq!(
            e.to_string(),
            "Storage size calculation overflowed with sizes=[9] and strides=[2305843009213693952]"
        );
    }

    #[test]
    fn extent_that_fits_in_elements_but_not_in_bytes_is_a_size_overflow() {
        let l = Layout::checked(vec![9], vec![1 << 60], 0).unwrap();
        assert_eq!(l.required_storage_len().unwrap(), (8usize << 60) + 1);
        assert!(matches!(
            l.required_storage_bytes(4),
            Err(Error::StorageSizeOverflow { .. })
        ));
    }

    #[test]
    fn checked_layout_with_offset_usize_max_is_an_overflow_error() {
        let e = Layout::checked(vec![1], vec![1], usize::MAX).unwrap_err();
        assert!(e
            .to_string()
            .starts_with("Storage size calculation overflowed"));
        let e = Layout::checked(vec![3], vec![isize::MAX], 2).unwrap_err();
        assert!(matches!(e, Error::StorageSizeOverflow { .. }));
    }

    #[test]
    fn checked_layout_with_mismatched_lengths_is_an_error() {
        let e = Layout::checked(vec![2, 3], vec![1], 0).unwrap_err();
        assert!(e
            .to_string()
            .contains("mismatch in length of strides and shape (1 vs 2)"));
    }

    #[test]
    fn checked_layout_with_negative_stride_is_an_error() {
        let e = Layout::checked(vec![2], vec![-1], 1).unwrap_err();
        assert!(e
            .to_string()
            .contains("as_strided: Negative strides are not supported at the moment"));
    }

    #[test]
    fn contiguous_nbytes_overflow_names_the_sizes() {
        assert_eq!(
            contiguous_nbytes(&[usize::MAX / 2, 2], 1)
                .unwrap_err()
                .to_string(),
            format!(
                "Storage size calculation overflowed with sizes=[{}, 2]",
                usize::MAX / 2
            )
        );
        assert_eq!(contiguous_nbytes(&[2, 3], 4).unwrap(), 24);
        assert!(contiguous_nbytes(&[1 << 62], 2).is_err());
    }

    #[test]
    fn offsets_of_huge_size_one_stride_do_not_overflow() {
        let l = Layout::checked(vec![1, 3], vec![isize::MAX, 2], 5).unwrap();
        assert_eq!(l.offsets().collect::<Vec<_>>(), vec![5, 7, 9]);
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
