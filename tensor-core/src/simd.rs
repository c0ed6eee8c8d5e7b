//! Run-time choice of vector width for hot loops (PyTorch's CPU capability dispatch).
//!
//! The crate is compiled for the x86_64 baseline (SSE2, 128-bit vectors). A loop run
//! through [`vectorized`] is compiled a second time for AVX2 (256-bit vectors) and that
//! copy runs when the CPU has AVX2. Both copies compute the same operations in the same
//! order (Rust never fuses a multiply and an add on its own), so results do not depend
//! on the CPU.

/// Runs `f`, compiled for AVX2 when the CPU supports it (the closure is inlined into an
/// AVX2 function, and the `#[inline]` loops it calls with it).
#[inline(always)]
pub(crate) fn vectorized<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU supports AVX2, checked just above.
        return unsafe { with_avx2(f) };
    }
    f()
}

/// `f()` in a function compiled with AVX2 enabled.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn with_avx2<R>(f: impl FnOnce() -> R) -> R {
    f()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vectorized_returns_the_closures_value() {
        let v: Vec<f32> = (0..1000).map(|i| i as f32).collect();
        let s = vectorized(|| v.iter().sum::<f32>());
        assert_eq!(s, v.iter().sum::<f32>());
    }
}
