//! The classification of an inner loop by its byte strides, and the overlap test the
//! slice loops rely on.

/// The classification of one inner loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum InnerKind {
    /// Every operand steps by its element size.
    Contiguous,
    /// The output and the other inputs step by their element size; input `k` has
    /// stride 0.
    ScalarBroadcast(usize),
    /// Any other strides.
    Strided,
}

/// Classifies an inner loop from the byte strides (output first) and element sizes.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn classify(strides: &[isize], elem_sizes: &[isize]) -> InnerKind {
    if strides.iter().zip(elem_sizes).all(|(s, e)| s == e) {
        return InnerKind::Contiguous;
    }
    if strides[0] == elem_sizes[0] {
        let mut zero = None;
        for k in 1..strides.len() {
            if strides[k] == 0 && zero.is_none() {
                zero = Some(k);
            } else if strides[k] != elem_sizes[k] {
                return InnerKind::Strided;
            }
        }
        if let Some(k) = zero {
            return InnerKind::ScalarBroadcast(k);
        }
    }
    InnerKind::Strided
}

/// `true` when the byte ranges `[a, a + la)` and `[b, b + lb)` do not intersect.
#[inline(always)]
pub(crate) fn disjoint(a: *const u8, la: usize, b: *const u8, lb: usize) -> bool {
    let (a, b) = (a as usize, b as usize);
    a + la <= b || b + lb <= a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classify_contiguous_scalar_and_strided() {
        assert_eq!(classify(&[4, 4, 4], &[4, 4, 4]), InnerKind::Contiguous);
        assert_eq!(
            classify(&[4, 4, 0], &[4, 4, 4]),
            InnerKind::ScalarBroadcast(2)
        );
        assert_eq!(
            classify(&[4, 0, 4], &[4, 4, 4]),
            InnerKind::ScalarBroadcast(1)
        );
        assert_eq!(classify(&[4, 0, 0], &[4, 4, 4]), InnerKind::Strided);
        assert_eq!(classify(&[4, 16, 4], &[4, 4, 4]), InnerKind::Strided);
    }
}
