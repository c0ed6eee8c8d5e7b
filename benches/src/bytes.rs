//! Bytes each streaming case must move at least (useful bytes, each read and write once).

const F32: u64 = 4;
const M16: u64 = 1 << 24;
const NCHW: u64 = 32 * 64 * 56 * 56;
const SQ: u64 = 4096 * 4096;

/// Minimum bytes a case reads plus writes (each operand element once, f32), used to
/// quote a case as a fraction of the `bandwidth_16M` loop; `None` for cases that are not
/// bandwidth-bound (`add_small_64`, `repeat_4x` whose 4 MiB stay in cache) or unknown.
/// Strided reads that touch whole cache lines (`add_sliced` reads every other f32 of
/// 128 MiB) count only the bytes used, so their fraction is an under-estimate of the
/// traffic.
pub fn case_bytes(case: &str) -> Option<u64> {
    let elems = match case {
        "bandwidth_16M" | "add_contig_16M" => 3 * M16,
        "add_contig_1M" => 3 << 20,
        "add_cl_cl" | "add_permuted_dense" => 3 * NCHW,
        "add_cl_ct_bcast" => 2 * NCHW + 64 * 56 * 56,
        "add_nchw_bias" => 2 * NCHW + 64,
        "add_transposed" | "add_sliced" => 3 * SQ,
        "add_outer" | "expand_materialize" => SQ + 2 * 4096,
        "sum_lastdim" | "sum_firstdim" => SQ + 4096,
        "sum_cl_hw" => NCHW + 32 * 64,
        "copy_cl_to_contig" => 2 * NCHW,
        "copy_transposed" => 2 * SQ,
        _ => return None,
    };
    Some(elems * F32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bandwidth_case_moves_three_times_64_mib() {
        assert_eq!(case_bytes("bandwidth_16M"), Some((3 * 64) << 20));
        assert_eq!(case_bytes("add_small_64"), None);
    }
}
