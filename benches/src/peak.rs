//! The physical limit of the compute-bound cases: fused multiply-adds with no memory
//! traffic, on every thread of the pool.

use rayon::prelude::*;

/// Independent accumulators per thread: enough to cover the FMA latency on two pipes.
const ACC: usize = 12;
/// Loop trips per thread in one call.
const ITERS: usize = 1 << 20;

/// Floating-point operations of one [`fma_peak`] call on `threads` threads: each trip
/// runs `ACC` vector FMAs of `lanes` f32 lanes (2 FLOP per lane).
pub fn fma_peak_flops(threads: usize, lanes: usize) -> u64 {
    (threads * ITERS * ACC * lanes * 2) as u64
}

/// f32 lanes of the widest FMA [`fma_peak`] uses on this CPU (16 with AVX-512, 8 with
/// AVX2+FMA, 1 otherwise).
pub fn fma_lanes() -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx512f") {
            return 16;
        }
        if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
            return 8;
        }
    }
    1
}

/// Runs the FMA loop once on each of `threads` rayon tasks; returns a value that depends
/// on every accumulator (so nothing is optimised away).
pub fn fma_peak(threads: usize) -> f32 {
    (0..threads)
        .into_par_iter()
        .map(|t| one_thread(t as f32))
        .sum()
}

fn one_thread(seed: f32) -> f32 {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx512f") {
            // SAFETY: the CPU supports AVX-512F, checked just above.
            return unsafe { avx512(seed) };
        }
        if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
            // SAFETY: the CPU supports AVX2 and FMA, checked just above.
            return unsafe { avx2(seed) };
        }
    }
    let mut acc = [seed; ACC];
    for _ in 0..ITERS {
        for a in &mut acc {
            *a = a.mul_add(0.999_999, 1e-7);
        }
    }
    acc.iter().sum()
}

/// # Safety
/// The CPU must support AVX-512F.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn avx512(seed: f32) -> f32 {
    use std::arch::x86_64::*;
    let (m, c) = (_mm512_set1_ps(0.999_999), _mm512_set1_ps(1e-7));
    let mut acc = [_mm512_set1_ps(seed); ACC];
    for _ in 0..ITERS {
        for a in &mut acc {
            *a = _mm512_fmadd_ps(*a, m, c);
        }
    }
    acc.iter().map(|&a| _mm512_reduce_add_ps(a)).sum()
}

/// # Safety
/// The CPU must support AVX2 and FMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn avx2(seed: f32) -> f32 {
    use std::arch::x86_64::*;
    let (m, c) = (_mm256_set1_ps(0.999_999), _mm256_set1_ps(1e-7));
    let mut acc = [_mm256_set1_ps(seed); ACC];
    for _ in 0..ITERS {
        for a in &mut acc {
            *a = _mm256_fmadd_ps(*a, m, c);
        }
    }
    let mut lanes = [0.0f32; 8];
    acc.iter()
        .map(|&a| {
            // SAFETY: `lanes` holds 8 f32, the width of one AVX register.
            unsafe { _mm256_storeu_ps(lanes.as_mut_ptr(), a) };
            lanes.iter().sum::<f32>()
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_lane_converges_to_the_same_fixed_point() {
        // x ← 0.999999 x + 1e-7 tends to 0.1 from any seed; 2^20 trips get close.
        let v = one_thread(0.0) / (ACC * fma_lanes()) as f32;
        assert!((v - 0.064).abs() < 0.05, "{v}");
    }
}
