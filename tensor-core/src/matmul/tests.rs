//! Tests of `matmul` against a naive triple loop over logical indices.

use super::*;
use crate::element::Element;
use crate::layout::Layout;
use crate::test_util::{arange, strided};

/// `n` distinct small values `1, 2, ..., 7, -3, ...` (exact in every float type).
fn values(n: usize) -> Vec<f64> {
    (0..n).map(|i| ((i * 5 + 3) % 11) as f64 - 3.0).collect()
}

fn storage_f32(n: usize) -> Vec<f32> {
    values(n).into_iter().map(|v| v as f32).collect()
}

/// torch.matmul on logical values: 1-d operands become [1, k] / [k, 1], batch dims
/// broadcast, then the added dims are removed. Returns (sizes, values).
fn naive(a: &Tensor, b: &Tensor) -> (Vec<usize>, Vec<f64>) {
    let (av, bv) = (a.to_vec_f64().unwrap(), b.to_vec_f64().unwrap());
    let (mut sa, mut sb) = (a.sizes().to_vec(), b.sizes().to_vec());
    if sa.len() == 1 {
        sa.insert(0, 1);
    }
    if sb.len() == 1 {
        sb.push(1);
    }
    let (ba, bb) = (&sa[..sa.len() - 2], &sb[..sb.len() - 2]);
    let batch = crate::layout::broadcast_shapes(ba, bb).unwrap();
    let (m, k, n) = (sa[sa.len() - 2], sa[sa.len() - 1], sb[sb.len() - 1]);
    let nb: usize = batch.iter().product();
    let mut out = Vec::new();
    for bi in 0..nb {
        // Row-major batch index -> index into each operand's own batch dims.
        let mut idx = vec![0; batch.len()];
        let mut r = bi;
        for d in (0..batch.len()).rev() {
            idx[d] = r % batch[d];
            r /= batch[d];
        }
        let flat = |own: &[usize]| {
            let lead = batch.len() - own.len();
            own.iter().enumerate().fold(0, |acc, (j, &s)| {
                acc * s + if s == 1 { 0 } else { idx[lead + j] }
            })
        };
        let (oa, ob) = (flat(ba) * m * k, flat(bb) * k * n);
        for i in 0..m {
            for j in 0..n {
                let s: f64 = (0..k)
                    .map(|p| av[oa + i * k + p] * bv[ob + p * n + j])
                    .sum();
                out.push(s);
            }
        }
    }
    let mut sizes = batch.clone();
    if a.dim() > 1 {
        sizes.push(m);
    }
    if b.dim() > 1 {
        sizes.push(n);
    }
    (sizes, out)
}

fn check(a: &Tensor, b: &Tensor) {
    let r = a.matmul(b).unwrap();
    let (sizes, want) = naive(a, b);
    assert_eq!(r.sizes(), sizes.as_slice());
    assert!(
        r.layout() == &Layout::contiguous(&sizes).unwrap(),
        "not contiguous"
    );
    let got = r.to_vec_f64().unwrap();
    for (g, w) in got.iter().zip(&want) {
        assert!(
            (g - w).abs() <= 1e-4 * w.abs().max(1.0),
            "{got:?} vs {want:?}"
        );
    }
    assert_eq!(got.len(), want.len());
}

#[test]
fn dot_of_two_vectors_is_zero_dim() {
    let a = Tensor::from_vec(vec![1.0f32, 2.0, 3.0], &[3]).unwrap();
    let b = Tensor::from_vec(vec![4.0f32, 5.0, 6.0], &[3]).unwrap();
    let r = a.matmul(&b).unwrap();
    assert_eq!(r.sizes(), &[] as &[usize]);
    assert_eq!(r.item::<f32>().unwrap(), 32.0);
}

#[test]
fn matrix_times_matrix_matches_naive() {
    let a = strided(storage_f32(6), &[2, 3], &[3, 1], 0);
    let b = strided(storage_f32(12), &[3, 4], &[4, 1], 0);
    check(&a, &b);
}

#[test]
fn vector_times_matrix_and_matrix_times_vector_drop_the_added_dim() {
    let v = strided(storage_f32(3), &[3], &[1], 0);
    let m = strided(storage_f32(12), &[3, 4], &[4, 1], 0);
    check(&v, &m);
    assert_eq!(v.matmul(&m).unwrap().sizes(), &[4]);
    let mt = strided(storage_f32(12), &[4, 3], &[1, 4], 0);
    check(&mt, &v);
    assert_eq!(mt.matmul(&v).unwrap().sizes(), &[4]);
}

#[test]
fn transposed_and_sliced_inputs_match_naive() {
    // a = base[5,6][1:, ::2].t() -> sizes [3, 4], strides [2, 6], offset 6.
    let a = strided(storage_f32(30), &[3, 4], &[2, 6], 6);
    let b = strided(storage_f32(40), &[4, 5], &[1, 8], 3);
    check(&a, &b);
    check(
        &b.with_layout(Layout::new(vec![5, 4], vec![8, 1], 3)),
        &a.with_layout(Layout::new(vec![4, 3], vec![6, 2], 6)),
    );
}

#[test]
fn expanded_stride_zero_inputs_match_naive() {
    let a = strided(storage_f32(3), &[4, 3], &[0, 1], 0);
    let b = strided(storage_f32(2), &[3, 2], &[0, 1], 0);
    check(&a, &b);
    let v = strided(storage_f32(1), &[5], &[0], 0);
    let m = strided(storage_f32(10), &[5, 2], &[2, 1], 0);
    check(&v, &m);
}

#[test]
fn batched_broadcast_matches_naive() {
    // [2, 1, 3, 4] @ [3, 4, 2] -> [2, 3, 3, 2]
    let a = strided(storage_f32(24), &[2, 1, 3, 4], &[12, 12, 4, 1], 0);
    let b = strided(storage_f32(24), &[3, 4, 2], &[8, 2, 1], 0);
    check(&a, &b);
    assert_eq!(a.matmul(&b).unwrap().sizes(), &[2, 3, 3, 2]);
    // Expanded batch dim (stride 0) and a permuted batch.
    let c = strided(storage_f32(12), &[5, 3, 4], &[0, 4, 1], 0);
    let d = strided(storage_f32(40), &[5, 4, 2], &[1, 10, 5], 0);
    check(&c, &d);
}

#[test]
fn batched_with_vector_operands_matches_naive() {
    let a = strided(storage_f32(24), &[2, 3, 4], &[12, 4, 1], 0);
    let v = strided(storage_f32(4), &[4], &[1], 0);
    check(&a, &v);
    assert_eq!(a.matmul(&v).unwrap().sizes(), &[2, 3]);
    let w = strided(storage_f32(3), &[3], &[1], 0);
    check(&w, &a);
    assert_eq!(w.matmul(&a).unwrap().sizes(), &[2, 4]);
    let m = strided(storage_f32(8), &[4, 2], &[2, 1], 0);
    check(&a, &m);
    let m2 = strided(storage_f32(6), &[2, 3], &[3, 1], 0);
    check(&m2, &a);
}

#[test]
fn batch_folded_into_rows_matches_naive() {
    // [2, 3, 5, 4] (contiguous) @ [4, 16]: one 30-row product; then batches that may not
    // be folded: a batch stride that skips rows, a size-1 batch dim with any stride, and
    // an expanded (stride-0) weight batch that still folds.
    let w = strided(storage_f32(64), &[4, 16], &[16, 1], 0);
    let a = strided(storage_f32(120), &[2, 3, 5, 4], &[60, 20, 4, 1], 0);
    check(&a, &w);
    let gaps = strided(storage_f32(200), &[2, 3, 5, 4], &[100, 30, 4, 1], 0);
    check(&gaps, &w);
    let one = strided(storage_f32(40), &[2, 1, 5, 4], &[20, 7, 4, 1], 0);
    check(&one, &w);
    let wb = strided(storage_f32(64), &[2, 3, 4, 16], &[0, 0, 16, 1], 0);
    check(&a, &wb);
    let rows_expanded = strided(storage_f32(4), &[2, 3, 5, 4], &[0, 0, 0, 1], 0);
    check(&rows_expanded, &w);
    let mv = strided(storage_f32(4), &[4], &[1], 0);
    check(&a, &mv);
}

#[test]
fn many_small_batches_match_naive() {
    let a = strided(storage_f32(64 * 6), &[64, 2, 3], &[6, 3, 1], 0);
    let b = strided(storage_f32(64 * 6), &[64, 3, 2], &[1, 64, 192], 0);
    check(&a, &b);
}

#[test]
fn large_product_uses_gemm_and_matches_naive() {
    let a = strided(storage_f32(70 * 90), &[70, 90], &[1, 70], 0);
    let b = strided(storage_f32(90 * 80), &[90, 80], &[80, 1], 0);
    check(&a, &b);
}

#[test]
fn integer_and_half_dtypes_match_naive() {
    for dt in [
        DType::I64,
        DType::I32,
        DType::U8,
        DType::F16,
        DType::BF16,
        DType::F64,
    ] {
        let data: Vec<f64> = values(24).iter().map(|v| v.abs()).collect();
        let a = dispatch_dtype!(dt, T, {
            strided(
                data.iter().map(|&v| T::from_f64(v)).collect::<Vec<T>>(),
                &[2, 3, 4],
                &[12, 1, 3],
                0,
            )
        });
        let b = dispatch_dtype!(dt, T, {
            strided(
                data.iter().map(|&v| T::from_f64(v)).collect::<Vec<T>>(),
                &[4, 2],
                &[1, 4],
                1,
            )
        });
        let r = a.matmul(&b).unwrap();
        assert_eq!(r.dtype(), dt);
        check(&a, &b);
    }
}

#[test]
fn integer_overflow_wraps() {
    let a = Tensor::from_vec(vec![100u8, 100], &[1, 2]).unwrap();
    let b = Tensor::from_vec(vec![3u8, 1], &[2, 1]).unwrap();
    assert_eq!(a.matmul(&b).unwrap().to_vec::<u8>().unwrap(), vec![144]);
}

#[test]
fn empty_inner_dim_gives_zeros() {
    let a = Tensor::zeros(&[2, 0], DType::F32).unwrap();
    let b = Tensor::zeros(&[0, 3], DType::F32).unwrap();
    let r = a.matmul(&b).unwrap();
    assert_eq!(r.sizes(), &[2, 3]);
    assert_eq!(r.to_vec::<f32>().unwrap(), vec![0.0; 6]);
    let e = Tensor::zeros(&[0, 4, 2], DType::F32).unwrap();
    let f = Tensor::zeros(&[2, 5], DType::F32).unwrap();
    assert_eq!(e.matmul(&f).unwrap().sizes(), &[0, 4, 5]);
}

#[test]
fn zero_dim_operand_is_an_error() {
    let s = Tensor::scalar(1.0f32);
    let m = Tensor::zeros(&[2, 2], DType::F32).unwrap();
    assert_eq!(
        s.matmul(&m).unwrap_err().to_string(),
        "both arguments to matmul need to be at least 1D, but they are 0D and 2D"
    );
}

#[test]
fn mismatched_matrices_name_both_shapes() {
    let a = Tensor::zeros(&[2, 3], DType::F32).unwrap();
    let b = Tensor::zeros(&[4, 5], DType::F32).unwrap();
    assert_eq!(
        a.matmul(&b).unwrap_err().to_string(),
        "mm: mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)"
    );
    let v = Tensor::zeros(&[3], DType::F32).unwrap();
    assert_eq!(
        v.matmul(&b).unwrap_err().to_string(),
        "mm: mat1 and mat2 shapes cannot be multiplied (1x3 and 4x5)"
    );
    let w = Tensor::zeros(&[4], DType::F32).unwrap();
    assert_eq!(
        a.matmul(&w).unwrap_err().to_string(),
        "size mismatch, got input (2), mat (2x3), vec (4)"
    );
}

#[test]
fn mismatched_vectors_use_the_dot_message() {
    let a = Tensor::zeros(&[3], DType::F32).unwrap();
    let b = Tensor::zeros(&[4], DType::F32).unwrap();
    assert_eq!(
        a.matmul(&b).unwrap_err().to_string(),
        "inconsistent tensor size, expected tensor [3] and src [4] to have the same number of elements, but got 3 and 4 elements respectively"
    );
}

#[test]
fn folded_batch_mismatch_uses_the_mm_message() {
    let a = Tensor::zeros(&[2, 3, 4], DType::F32).unwrap();
    let b = Tensor::zeros(&[5, 6], DType::F32).unwrap();
    assert_eq!(
        a.matmul(&b).unwrap_err().to_string(),
        "mm: mat1 and mat2 shapes cannot be multiplied (6x4 and 5x6)"
    );
}

#[test]
fn bmm_mismatch_uses_the_bmm_message() {
    let a = Tensor::zeros(&[2, 3, 4], DType::F32).unwrap();
    let b = Tensor::zeros(&[2, 5, 6], DType::F32).unwrap();
    assert_eq!(
        a.matmul(&b).unwrap_err().to_string(),
        "Expected size for first two dimensions of batch2 tensor to be: [2, 4] but got: [2, 5]."
    );
}

#[test]
fn batch_dims_that_do_not_broadcast_are_an_error() {
    let a = Tensor::zeros(&[2, 3, 4], DType::F32).unwrap();
    let b = Tensor::zeros(&[3, 4, 5], DType::F32).unwrap();
    assert_eq!(
        a.matmul(&b).unwrap_err().to_string(),
        "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0"
    );
}

#[test]
fn different_dtypes_are_an_error() {
    let a = Tensor::zeros(&[2, 3], DType::F32).unwrap();
    let b = Tensor::zeros(&[3, 2], DType::F64).unwrap();
    assert!(a
        .matmul(&b)
        .unwrap_err()
        .to_string()
        .contains("expected m1 and m2 to have the same dtype, but got: float != double"));
    let v = Tensor::zeros(&[3], DType::F32).unwrap();
    let w = Tensor::zeros(&[3], DType::F64).unwrap();
    assert!(v
        .matmul(&w)
        .unwrap_err()
        .to_string()
        .contains("dot : expected both vectors to have same dtype, but found Float and Double"));
}

#[test]
fn bool_matmul_is_unsupported() {
    let a = Tensor::zeros(&[2, 2], DType::Bool).unwrap();
    assert!(a
        .matmul(&a)
        .unwrap_err()
        .to_string()
        .contains("not implemented for 'Bool'"));
}

#[test]
fn same_storage_operands_are_read_once() {
    let a = strided(storage_f32(9), &[3, 3], &[3, 1], 0);
    let at = a.with_layout(Layout::new(vec![3, 3], vec![1, 3], 0));
    check(&a, &at);
}

#[test]
fn one_d_times_three_d_mismatch_uses_the_bmm_message() {
    // [4] @ [2, 3, 5]: tensor2.mT() is not foldable, so PyTorch calls bmm.
    let v = Tensor::zeros(&[4], DType::F32).unwrap();
    let b = Tensor::zeros(&[2, 3, 5], DType::F32).unwrap();
    assert_eq!(
        v.matmul(&b).unwrap_err().to_string(),
        "Expected size for first two dimensions of batch2 tensor to be: [2, 4] but got: [2, 3]."
    );
}

#[test]
fn one_d_times_folded_three_d_mismatch_uses_the_mv_message() {
    // [4] @ [2, 3, 5] stored as its mT (strides [15, 1, 3]): tensor2.mT() is contiguous,
    // so PyTorch folds it to [10, 3] and calls mv.
    let v = Tensor::zeros(&[4], DType::F32).unwrap();
    let b = strided(vec![0f32; 30], &[2, 3, 5], &[15, 1, 3], 0);
    assert_eq!(
        v.matmul(&b).unwrap_err().to_string(),
        "size mismatch, got input (10), mat (10x3), vec (4)"
    );
}

#[test]
fn two_d_mismatch_has_the_mm_prefix() {
    // PyTorch 2.15 (as recorded in the crafted cases) prefixes the mm check with
    // the op's name.
    let a = Tensor::zeros(&[2, 3], DType::F64).unwrap();
    let b = Tensor::zeros(&[4, 5], DType::F64).unwrap();
    let msg = a.matmul(&b).unwrap_err().to_string();
    assert_eq!(
        msg,
        "mm: mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)"
    );
}

#[test]
fn expanded_huge_batch_is_out_of_memory_not_an_abort() {
    // [2^40, 1, 1] (stride 0) @ [1, 1]: a 4 TiB result.
    let a = Tensor::ones(&[1, 1, 1], DType::F32).unwrap();
    let a = a.expand(&[1 << 40, 1, 1]).unwrap();
    let b = Tensor::ones(&[1, 1], DType::F32).unwrap();
    let e = a.matmul(&b).unwrap_err();
    assert!(matches!(e, Error::OutOfMemory { .. }), "{e}");
    // Both as bmm operands: [2^40, 1, 1] @ [2^40, 1, 1].
    let e = a.matmul(&a).unwrap_err();
    assert!(matches!(e, Error::OutOfMemory { .. }), "{e}");
}

#[test]
fn expanded_large_batch_computes() {
    // A million broadcast batches of a 1×2 · 2×1 product, read in place.
    let a = Tensor::from_vec(vec![1.0f32, 2.0], &[1, 1, 2]).unwrap();
    let a = a.expand(&[1 << 20, 1, 2]).unwrap();
    let b = Tensor::from_vec(vec![3.0f32, 4.0], &[2, 1]).unwrap();
    let c = a.matmul(&b.unsqueeze(0).unwrap().expand(&[1 << 20, 2, 1]).unwrap());
    let c = c.unwrap();
    assert_eq!(c.sizes(), &[1 << 20, 1, 1]);
    assert!(c.to_vec::<f32>().unwrap().iter().all(|&v| v == 11.0));
}

#[test]
fn an_expanded_batch_is_one_product_expanded_into_the_result() {
    // zeros(1, 1, 1).expand(2^31, 1, 1) @ zeros(1, 1) ran one tiny product per batch
    // entry (minutes); the batch dim moves neither operand, so one product is expanded.
    // 2^24 entries here (64 MiB of output): the values, and that nothing is slow.
    let a = Tensor::from_vec(vec![2.0f32, 3.0], &[1, 1, 2]).unwrap();
    let b = Tensor::from_vec(vec![5.0f32, 7.0], &[2, 1]).unwrap();
    let big = a.expand(&[1 << 24, 1, 2]).unwrap();
    let r = big.matmul(&b).unwrap();
    assert_eq!(r.sizes(), &[1 << 24, 1, 1]);
    assert!(r.is_contiguous());
    let last = r.select(0, (1 << 24) - 1).unwrap();
    assert_eq!(last.to_vec::<f32>().unwrap(), vec![31.0]);
    // A batch dim broadcast in both ([3, 1, 2, 2] @ [1, 4, 2, 2] shares nothing; an
    // expanded dim of a against b's missing one does).
    let x = arange(&[2, 1, 2, 3]).expand(&[2, 5, 2, 3]).unwrap();
    let y = arange(&[3, 4]);
    let r = x.matmul(&y).unwrap();
    let want = x.contiguous().unwrap().matmul(&y).unwrap();
    assert_eq!(r.sizes(), want.sizes());
    assert_eq!(r.to_vec::<f32>().unwrap(), want.to_vec::<f32>().unwrap());
}

#[test]
fn a_batch_times_a_matrix_with_a_permuted_batch_is_folded_after_a_copy() {
    // [4, 3, 5] stored as [3, 4, 5] transposed: not one run of rows; PyTorch reshapes
    // (copies) and runs one product.
    let base = arange(&[3, 4, 5]);
    let a = base.transpose(0, 1).unwrap();
    let b = arange(&[5, 2]);
    let r = a.matmul(&b).unwrap();
    let want = a.contiguous().unwrap().matmul(&b).unwrap();
    assert_eq!(r.to_vec::<f32>().unwrap(), want.to_vec::<f32>().unwrap());
}

#[test]
fn one_row_times_a_transposed_or_row_major_matrix_runs_the_gemv_and_matches_naive() {
    // m = 1 (GPT-2's one-position products): `b = Wᵀ` (columns contiguous, the
    // F.linear layout) and `b` row-major, with k not a multiple of the 16 lanes and
    // k·n above the grain (the columns split across threads), a strided row, a
    // batch of one, and a vector times a matrix.
    for (k, n) in [(3, 5), (37, 700), (300, 1000)] {
        let row = strided(storage_f32(k), &[1, k], &[k as isize, 1], 0);
        let w = strided(storage_f32(n * k), &[n, k], &[k as isize, 1], 0);
        check(&row, &w.t().unwrap());
        let b = strided(storage_f32(k * n), &[k, n], &[n as isize, 1], 0);
        check(&row, &b);
        let wide = strided(storage_f32(2 * k), &[1, k], &[2 * k as isize, 2], 0);
        check(&wide, &w.t().unwrap());
        check(&row.unsqueeze(0).unwrap(), &b);
        check(&row.squeeze_dim(0).unwrap(), &w.t().unwrap());
    }
}

#[test]
fn a_batch_with_an_empty_inner_dim_times_a_matrix_is_zeros_not_a_recursion() {
    // [2, 3, 0] (strided) @ [0, 4]: the fold's copy must not repeat forever (the fuzz
    // test's stack overflow).
    let a = Tensor::zeros(&[3, 2, 0], crate::dtype::DType::F32)
        .unwrap()
        .transpose(0, 1)
        .unwrap();
    let b = Tensor::zeros(&[0, 4], crate::dtype::DType::F32).unwrap();
    let r = a.matmul(&b).unwrap();
    assert_eq!(r.sizes(), &[2, 3, 4]);
    assert!(r.to_vec::<f32>().unwrap().iter().all(|&v| v == 0.0));
    let e = Tensor::zeros(&[1, 0, 2], crate::dtype::DType::F32)
        .unwrap()
        .expand(&[5, 0, 2])
        .unwrap();
    let r = e
        .matmul(&Tensor::zeros(&[2, 3], crate::dtype::DType::F32).unwrap())
        .unwrap();
    assert_eq!(r.sizes(), &[5, 0, 3]);
}
