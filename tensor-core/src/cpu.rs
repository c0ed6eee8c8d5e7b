//! The CPU's vector capability, read once per process: what the run-time dispatch of the
//! hot loops (`kernels::simd`) and the matmul kernels pick, and what `explain()` and the
//! benchmarks print.

/// The widest vector instruction set the run-time dispatch picks on this CPU, named as
/// PyTorch's `torch.backends.cpu.get_cpu_capability()`: `"AVX512"` (AVX-512 F, BW and VL
/// with AVX2 and FMA: the AVX-512 copies of the elementwise and reduction loops, and the
/// matmul kernels' AVX-512F micro-kernels), `"AVX2"` (AVX2 and FMA: the AVX2 copies and
/// the matmul kernels' AVX2 micro-kernels) or `"DEFAULT"` (the x86_64 baseline). The
/// CPU's features are read once per process (the standard library caches them; the
/// matmul kernels keep the kernel they picked at their first call). A build without
/// optimisation dispatches nothing: its loops run the baseline copy whatever this says.
///
/// ```
/// assert!(["AVX512", "AVX2", "DEFAULT"].contains(&tensor_core::cpu_capability()));
/// ```
#[cfg_attr(unoptimized, inline)]
pub fn cpu_capability() -> &'static str {
    #[cfg(target_arch = "x86_64")]
    {
        if has_avx512() {
            return "AVX512";
        }
        if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
            return "AVX2";
        }
    }
    "DEFAULT"
}

/// `true` when the CPU has every feature the AVX-512 copies of the loops are compiled
/// with: AVX-512 F, BW and VL, AVX2 and FMA.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn has_avx512() -> bool {
    std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512bw")
        && std::is_x86_feature_detected!("avx512vl")
        && std::is_x86_feature_detected!("avx2")
        && std::is_x86_feature_detected!("fma")
}

#[cfg(test)]
mod tests {
    use super::cpu_capability;

    #[test]
    fn cpu_capability_is_one_of_pytorchs_names() {
        assert!(["AVX512", "AVX2", "DEFAULT"].contains(&cpu_capability()));
    }
}
