//! From random bits to uniform floats in `[0, 1)`, as PyTorch's CPU
//! `uniform_real_distribution` does it (`transformation::uniform_real`).
//!
//! A float of `d` significand bits (24 for `f32`, 53 for `f64`) takes the LOW `d` bits
//! of one draw (32 bits for `f32`, 64 for `f64`) times `2^-d`: every value is a multiple
//! of `2^-d`, exact, and 1.0 is never produced. (The high bits of the draw are dropped.)

/// `f32` in `[0, 1)` from one 32-bit draw: its low 24 bits times 2^-24.
#[inline]
pub(crate) fn f32_from_bits(bits: u32) -> f32 {
    (bits & 0x00ff_ffff) as f32 * (1.0 / 16_777_216.0)
}

/// `f64` in `[0, 1)` from one 64-bit draw: its low 53 bits times 2^-53.
#[inline]
pub(crate) fn f64_from_bits(bits: u64) -> f64 {
    (bits & ((1u64 << 53) - 1)) as f64 * (1.0 / 9_007_199_254_740_992.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn low_bits_only_and_never_one() {
        assert_eq!(f32_from_bits(0xff00_0000), 0.0);
        assert_eq!(f32_from_bits(u32::MAX), 1.0 - f32::EPSILON / 2.0);
        assert_eq!(f32_from_bits(1), 2f32.powi(-24));
        assert_eq!(f64_from_bits(u64::MAX), 1.0 - f64::EPSILON / 2.0);
        assert_eq!(f64_from_bits(1 << 53), 0.0);
    }
}
