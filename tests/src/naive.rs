//! Naive index arithmetic shared by the property and fuzz tests: the reference the
//! runtime's strided kernels are compared with.

/// Row-major multi-index of flat index `flat` in `sizes` (every size non-zero).
pub fn unravel(mut flat: usize, sizes: &[usize]) -> Vec<usize> {
    let mut idx = vec![0; sizes.len()];
    for d in (0..sizes.len()).rev() {
        idx[d] = flat % sizes[d];
        flat /= sizes[d];
    }
    idx
}

/// Flat row-major index in `sizes` of the broadcast index `idx` (right-aligned; size-1
/// dims read index 0). `idx` has at least as many dims as `sizes`.
pub fn ravel_broadcast(idx: &[usize], sizes: &[usize]) -> usize {
    let lead = idx.len() - sizes.len();
    sizes.iter().enumerate().fold(0, |acc, (d, &s)| {
        acc * s + if s == 1 { 0 } else { idx[lead + d] }
    })
}

/// The broadcast of two shapes by PyTorch's rule, or `None` when they do not broadcast.
pub fn broadcast(a: &[usize], b: &[usize]) -> Option<Vec<usize>> {
    let nd = a.len().max(b.len());
    (0..nd)
        .map(|i| {
            let get = |s: &[usize]| (i + s.len()).checked_sub(nd).map_or(1, |j| s[j]);
            match (get(a), get(b)) {
                (x, 1) => Some(x),
                (1, y) => Some(y),
                (x, y) if x == y => Some(x),
                _ => None,
            }
        })
        .collect()
}

/// The lowest and highest storage index a layout reaches, computed in `i128` so no
/// input can overflow; `None` for a layout with no elements. Sizes and strides of
/// different lengths pair up to the shorter.
pub fn extent(sizes: &[usize], strides: &[isize], offset: usize) -> Option<(i128, i128)> {
    if sizes.contains(&0) {
        return None;
    }
    let (mut lo, mut hi) = (offset as i128, offset as i128);
    for (&s, &st) in sizes.iter().zip(strides) {
        let reach = (s as i128 - 1) * st as i128;
        if reach < 0 {
            lo = lo.saturating_add(reach);
        } else {
            hi = hi.saturating_add(reach);
        }
    }
    Some((lo, hi))
}

/// Product of `sizes` in `u128` (cannot overflow for up to two `usize` factors beyond
/// which it saturates).
pub fn numel(sizes: &[usize]) -> u128 {
    sizes
        .iter()
        .fold(1u128, |acc, &s| acc.saturating_mul(s as u128))
}
