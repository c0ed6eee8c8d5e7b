//! The y range of a plot's curves, scaled to their data: an accuracy that never passes
//! 0.5 is drawn as well as one near 1.

use std::ops::Range;

/// The y range that shows every finite value of `values` with a margin of 5% of their
/// spread (at least 0.01), clamped into `floor..ceil`; `floor..floor + 1` clamped to
/// `ceil` when no value is finite.
pub fn y_range(values: &[f64], floor: f64, ceil: f64) -> Range<f64> {
    let finite = values.iter().copied().filter(|v| v.is_finite());
    let (lo, hi) = finite.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    if lo > hi {
        return floor..(floor + 1.0).min(ceil);
    }
    let margin = ((hi - lo) * 0.05).max(0.01);
    (lo - margin).max(floor)..(hi + margin).min(ceil)
}
