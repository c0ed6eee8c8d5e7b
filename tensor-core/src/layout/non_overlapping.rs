//! A stride predicate the iterator needs beyond the views module's (contiguity,
//! broadcasting and dense strides live in `contiguity.rs`, `broadcast.rs` and
//! `memory_format.rs`).

/// A sufficient test that no two elements share an address: sorted by stride, every
/// stride exceeds the extent of the dims below it. Decides that a written tensor may be
/// split across threads (PyTorch's `has_internal_overlap` answers `TooHard` for many of
/// these).
pub(crate) fn is_provably_non_overlapping(sizes: &[usize], strides: &[isize]) -> bool {
    let mut dims: Vec<(usize, isize)> = sizes
        .iter()
        .zip(strides)
        .filter(|(&s, _)| s > 1)
        .map(|(&s, &st)| (s, st.abs()))
        .collect();
    dims.sort_by_key(|&(_, st)| st);
    let mut extent: isize = 0;
    for (s, st) in dims {
        if st <= extent {
            return false;
        }
        extent += st * (s as isize - 1);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sliced_columns_do_not_overlap_but_as_strided_rows_do() {
        assert!(is_provably_non_overlapping(&[4, 3], &[8, 2]));
        assert!(is_provably_non_overlapping(&[3, 4], &[1, 3]));
        assert!(!is_provably_non_overlapping(&[2, 3], &[1, 1]));
        assert!(!is_provably_non_overlapping(&[2, 3], &[0, 1]));
    }
}
