//! The least work of each case: bytes a streaming case must move (useful bytes, each
//! read and write once) and floating-point operations of a compute-bound one, to quote a
//! case as a fraction of the machine's limit (`bandwidth_16M`, `fma_peak`).

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
        "softmax_lastdim" => 2 * 4096 * 1024,
        "log_softmax_vocab" => 2 * 64 * 50257,
        "cross_entropy_vocab" => 64 * 50257,
        "layer_norm_768" => 2 * 2048 * 768,
        "gelu_tanh_4M" => 2 * (4 << 20),
        // The scores read and written; the mask (bytes, a quarter of an f32) read.
        "masked_fill_causal" => 2 * 8 * 128 * 128 + 128 * 128 / 4,
        "masked_fill_random" => 2 * 8 * 512 * 512 + 8 * 512 * 512 / 4,
        // The gathered rows read once and written once.
        "embedding_gpt2" => 2 * 32 * 128 * 768,
        "cat_dim1" => 4 * 64 * 512 * 256,
        "max_pool2d_2x2" => NCHW + NCHW / 4,
        // One read of the weight (the row and the output are a few KiB).
        "linear_gemv_vocab" => 50257 * 768,
        "linear_gemv_768x3072" => 3072 * 768,
        // The [64, 256, 256] result written once; the two [64, 256] inputs.
        "einsum_outer" => 64 * 256 * 256 + 2 * 64 * 256,
        _ => return None,
    };
    Some(elems * F32)
}

/// Floating-point operations of a compute-bound case (2 per multiply-add; a
/// convolution counted as the direct method's, whatever algorithm runs), to quote it as
/// a fraction of `fma_peak`; `None` for the others. `fma_peak` itself is
/// [`crate::peak::fma_peak_flops`].
pub fn case_flops(case: &str) -> Option<u64> {
    let mnk = |m: u64, n: u64, k: u64| 2 * m * n * k;
    Some(match case {
        "matmul_1024" => mnk(1024, 1024, 1024),
        "bmm_attention" => 128 * mnk(128, 128, 64),
        "bmm_scores_s16" => 96 * mnk(16, 16, 64),
        "bmm_scores_s64" => 96 * mnk(64, 64, 64),
        "bmm_scores_s128" => 96 * mnk(128, 128, 64),
        "einsum_attn_scores" => 24 * mnk(128, 128, 64),
        "einsum_proj" => mnk(2 * 128, 768, 768),
        // (bi,ij->bj), then 256 dot products of 512 (bj,bj->b).
        "einsum_bilinear" => mnk(256, 512, 512) + 256 * mnk(1, 1, 512),
        // [16, 64, 28, 28] outputs, each 64 · 3 · 3 multiply-adds.
        "conv2d_3x3" => mnk(16 * 28 * 28, 64, 64 * 9),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bandwidth_case_moves_three_times_64_mib() {
        assert_eq!(case_bytes("bandwidth_16M"), Some((3 * 64) << 20));
        assert_eq!(case_bytes("add_small_64"), None);
    }

    #[test]
    fn matmul_1024_is_two_gflop() {
        assert_eq!(case_flops("matmul_1024"), Some(2 << 30));
        assert_eq!(case_flops("add_contig_16M"), None);
    }
}
