//! Run-time choice of vector width for hot loops (PyTorch's CPU capability dispatch).
//!
//! The crate is compiled for the x86_64 baseline (SSE2, 128-bit vectors). A loop run
//! through [`vectorized`] is compiled a second time for AVX2 (256-bit vectors) and FMA,
//! and that copy runs when the process's level (`cpu::level`: the CPU's widest, capped
//! by `ATEN_CPU_CAPABILITY`) is AVX2 or wider. The level is never above the CPU's, so a
//! copy it picks runs on a CPU that has the copy's features. Both copies compute the
//! same operations in the same order (Rust never fuses a multiply and an add on its own;
//! an explicit `mul_add` is exact either way, an instruction instead of a libm call), so
//! results do not depend on the level.
//!
//! [`widest`] adds an AVX-512 copy (as PyTorch's `AVX512` CPU capability), and
//! [`by_width`] runs a different body per width (a kernel whose tile shape depends on
//! the number of vector registers).
//!
//! In a build without optimisation (`cfg(unoptimized)`, see build.rs) nothing is
//! vectorised either way, so the baseline runs: one copy of each loop instead of two or
//! three.

#[cfg(all(target_arch = "x86_64", not(unoptimized)))]
use crate::cpu::{level, Level};

/// Runs `f`, compiled for AVX2 and FMA when the level is AVX2 or wider (the closure,
/// passed with `#[inline(always)]`, is inlined into such a function, and the `#[inline]`
/// loops it calls with it).
#[inline(always)]
pub(crate) fn vectorized<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(all(target_arch = "x86_64", not(unoptimized)))]
    if level() >= Level::Avx2 {
        // SAFETY: the level is never above the CPU's (`cpu::level`), so the CPU supports
        // AVX2 and FMA.
        return unsafe { with_avx2(f) };
    }
    f()
}

/// Runs `f(true)` compiled for AVX2 and FMA when the level is AVX2 or wider, else
/// `f(false)`. The flag is for kernels that write fused multiply-adds: with it,
/// `mul_add` is one instruction; without it, `mul_add` would be a libm call, so such a
/// kernel writes a multiply and an add instead (and its results then depend on the
/// level). Pass the closure with `#[inline(always)]` and branch on the flag to a
/// const-generic body.
#[inline(always)]
pub(crate) fn with_fma<R>(f: impl FnOnce(bool) -> R) -> R {
    #[cfg(all(target_arch = "x86_64", not(unoptimized)))]
    if level() >= Level::Avx2 {
        // SAFETY: the level is never above the CPU's (`cpu::level`), so the CPU supports
        // AVX2 and FMA. The closure must be inlined into `with_avx2`: compiled outside
        // it, `f`'s `mul_add`s are libm calls (an unrelated change once made LLVM leave
        // it out of line, and the GEMVs ran 10-40x slower).
        return unsafe {
            with_avx2(
                #[inline(always)]
                || f(true),
            )
        };
    }
    f(false)
}

/// Runs `f` compiled for the widest vectors of the level: AVX-512 (F, BW, VL), else
/// AVX2 and FMA ([`vectorized`]'s rule), else the baseline. Every copy computes the same
/// operations in the same order (Rust never fuses a multiply and an add on its own), so
/// results do not depend on the level.
#[inline(always)]
pub(crate) fn widest<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(all(target_arch = "x86_64", not(unoptimized)))]
    if level() == Level::Avx512 {
        // SAFETY: the level is AVX-512 only when the CPU supports every feature
        // `with_avx512` enables (`cpu::level` is never above the CPU's).
        return unsafe { with_avx512(f) };
    }
    vectorized(f)
}

/// `avx512(arg)` compiled for AVX-512 when the level is AVX-512 (as [`widest`]), else
/// `avx2(arg)` compiled for AVX2 and FMA when it is AVX2, else `base(arg)`. For
/// kernels whose shape depends on the width (a register tile); the three must compute
/// the same values. `arg` is what all three need (an output slice, say). Pass each
/// closure with `#[inline(always)]`.
#[inline(always)]
#[allow(unused_variables)] // without optimisation only `base` runs
pub(crate) fn by_width<A, R>(
    arg: A,
    avx512: impl FnOnce(A) -> R,
    avx2: impl FnOnce(A) -> R,
    base: impl FnOnce(A) -> R,
) -> R {
    #[cfg(all(target_arch = "x86_64", not(unoptimized)))]
    {
        if level() == Level::Avx512 {
            // SAFETY: as in `widest`.
            return unsafe {
                with_avx512(
                    #[inline(always)]
                    move || avx512(arg),
                )
            };
        }
        if level() >= Level::Avx2 {
            // SAFETY: as in `vectorized`.
            return unsafe {
                with_avx2(
                    #[inline(always)]
                    move || avx2(arg),
                )
            };
        }
    }
    base(arg)
}

/// `f()` in a function compiled with AVX-512 (F, BW, VL), AVX2 and FMA enabled.
///
/// # Safety
/// The CPU must support those features.
#[cfg(all(target_arch = "x86_64", not(unoptimized)))]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2,fma")]
unsafe fn with_avx512<R>(f: impl FnOnce() -> R) -> R {
    f()
}

/// `f()` in a function compiled with AVX2 and FMA enabled.
///
/// # Safety
/// The CPU must support AVX2 and FMA.
#[cfg(all(target_arch = "x86_64", not(unoptimized)))]
#[target_feature(enable = "avx2,fma")]
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
