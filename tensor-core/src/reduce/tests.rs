//! Reductions against a naive walk over logical indices, and PyTorch's errors.

use super::*;
use crate::dtype::DType;
use crate::test_util::{strided, unravel};

fn data(n: usize) -> Vec<f32> {
    (0..n).map(|i| ((i * 7) % 23) as f32 - 5.0).collect()
}

/// Naive reduction of the logical values over `dims` with `f`, keepdim layout.
fn naive(t: &Tensor, dims: &[usize], init: f64, f: impl Fn(f64, f64) -> f64) -> Vec<f64> {
    let sizes = t.sizes();
    let vals = t.to_vec_f64().unwrap();
    let out_sizes: Vec<usize> = (0..sizes.len())
        .map(|d| if dims.contains(&d) { 1 } else { sizes[d] })
        .collect();
    let mut out = vec![init; out_sizes.iter().product()];
    for (flat, &v) in vals.iter().enumerate() {
        let idx = unravel(flat, sizes);
        let mut o = 0;
        for d in 0..sizes.len() {
            o = o * out_sizes[d] + if dims.contains(&d) { 0 } else { idx[d] };
        }
        out[o] = f(out[o], v);
    }
    out
}

fn close(got: &[f64], want: &[f64]) {
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(want) {
        assert!(
            (g.is_nan() && w.is_nan()) || (g - w).abs() <= 1e-4 * w.abs().max(1.0),
            "{got:?} vs {want:?}"
        );
    }
}

fn layouts() -> Vec<Tensor> {
    vec![
        strided(data(24), &[2, 3, 4], &[12, 4, 1], 0),
        // permuted
        strided(data(24), &[4, 3, 2], &[1, 4, 12], 0),
        // sliced with offset and steps
        strided(data(80), &[3, 2, 5], &[20, 8, 2], 3),
        // expanded (stride 0) and size-1 dims
        strided(data(5), &[3, 1, 5], &[0, 7, 1], 0),
        // channels-last
        strided(data(2 * 3 * 4 * 5), &[2, 3, 4, 5], &[60, 1, 15, 3], 0),
        // large enough for the blocked and outer paths
        strided(data(300 * 700), &[300, 700], &[700, 1], 0),
        strided(data(300 * 700), &[700, 300], &[1, 700], 0),
    ]
}

fn all_dim_lists(nd: usize) -> Vec<Vec<usize>> {
    (0..1usize << nd)
        .map(|m| (0..nd).filter(|d| m >> d & 1 == 1).collect())
        .collect()
}

#[test]
fn sum_prod_amax_amin_match_naive_on_every_layout_and_dim_list() {
    for t in layouts() {
        for dims in all_dim_lists(t.dim()) {
            let di: Vec<i64> = dims.iter().map(|&d| d as i64).collect();
            let all: Vec<usize> = if dims.is_empty() {
                (0..t.dim()).collect()
            } else {
                dims.clone()
            };
            let s = t.sum(&di, true).unwrap();
            close(
                &s.to_vec_f64().unwrap(),
                &naive(&t, &all, 0.0, |a, b| a + b),
            );
            let mx = t.amax(&di, true).unwrap();
            close(
                &mx.to_vec_f64().unwrap(),
                &naive(&t, &all, f64::NEG_INFINITY, f64::max),
            );
            let mn = t.amin(&di, false).unwrap();
            close(
                &mn.to_vec_f64().unwrap(),
                &naive(&t, &all, f64::INFINITY, f64::min),
            );
            if t.numel() < 100 {
                let p = t.prod(&di, true).unwrap();
                close(
                    &p.to_vec_f64().unwrap(),
                    &naive(&t, &all, 1.0, |a, b| a * b),
                );
            }
            let m = t.mean(&di, true).unwrap();
            let n: usize = all.iter().map(|&d| t.sizes()[d]).product();
            let want: Vec<f64> = naive(&t, &all, 0.0, |a, b| a + b)
                .iter()
                .map(|s| s / n as f64)
                .collect();
            close(&m.to_vec_f64().unwrap(), &want);
        }
    }
}

#[test]
fn keepdim_false_removes_reduced_dims_and_result_is_contiguous() {
    let t = strided(data(24), &[2, 3, 4], &[12, 4, 1], 0);
    let s = t.sum(&[1], false).unwrap();
    assert_eq!(s.sizes(), &[2, 4]);
    assert_eq!(s.strides(), &[4, 1]);
    let k = t.sum(&[0, 2], true).unwrap();
    assert_eq!(k.sizes(), &[1, 3, 1]);
    assert_eq!(k.strides(), &[3, 1, 1]);
    assert_eq!(t.sum(&[], false).unwrap().sizes(), &[] as &[usize]);
}

#[test]
fn sum_of_ints_and_bools_is_int64() {
    let t = Tensor::from_vec(vec![1i32, 2, 3, 4], &[2, 2]).unwrap();
    let s = t.sum(&[0], false).unwrap();
    assert_eq!(s.dtype(), DType::I64);
    assert_eq!(s.to_vec::<i64>().unwrap(), vec![4, 6]);
    let b = Tensor::from_vec(vec![true, false, true], &[3]).unwrap();
    assert_eq!(b.sum(&[], false).unwrap().item::<i64>().unwrap(), 2);
    assert_eq!(
        t.prod(&[1], false).unwrap().to_vec::<i64>().unwrap(),
        vec![2, 12]
    );
    let u = Tensor::from_vec(vec![200u8, 100], &[2]).unwrap();
    assert_eq!(u.sum(&[0], false).unwrap().item::<i64>().unwrap(), 300);
}

#[test]
fn empty_dim_sums_to_zero_and_prod_to_one() {
    let t = Tensor::zeros(&[2, 0, 3], DType::F32).unwrap();
    let s = t.sum(&[1], false).unwrap();
    assert_eq!(s.sizes(), &[2, 3]);
    assert_eq!(s.to_vec::<f32>().unwrap(), vec![0.0; 6]);
    assert_eq!(
        t.prod(&[1], false).unwrap().to_vec::<f32>().unwrap(),
        vec![1.0; 6]
    );
    assert!(t.mean(&[1], false).unwrap().to_vec::<f32>().unwrap()[0].is_nan());
}

#[test]
fn amax_propagates_nan() {
    let t = Tensor::from_vec(vec![1.0f32, f32::NAN, 3.0, 2.0], &[2, 2]).unwrap();
    let m = t.amax(&[1], false).unwrap().to_vec::<f32>().unwrap();
    assert!(m[0].is_nan());
    assert_eq!(m[1], 3.0);
    assert!(t.amin(&[], false).unwrap().item::<f32>().unwrap().is_nan());
}

#[test]
fn amax_of_bool_and_int() {
    let b = Tensor::from_vec(vec![false, true, false, false], &[2, 2]).unwrap();
    assert_eq!(
        b.amax(&[1], false).unwrap().to_vec::<bool>().unwrap(),
        vec![true, false]
    );
    let i = Tensor::from_vec(vec![-5i64, -7, 3], &[3]).unwrap();
    assert_eq!(i.amin(&[0], false).unwrap().item::<i64>().unwrap(), -7);
}

#[test]
fn argmax_returns_first_maximum_and_nan_wins() {
    let t = Tensor::from_vec(vec![1.0f32, 3.0, 3.0, 0.0, 5.0, 5.0], &[2, 3]).unwrap();
    assert_eq!(
        t.argmax(Some(1), false).unwrap().to_vec::<i64>().unwrap(),
        vec![1, 1]
    );
    assert_eq!(t.argmax(None, false).unwrap().item::<i64>().unwrap(), 4);
    assert_eq!(t.argmin(Some(0), true).unwrap().sizes(), &[1, 3]);
    assert_eq!(
        t.argmin(Some(0), false).unwrap().to_vec::<i64>().unwrap(),
        vec![1, 0, 0]
    );
    assert_eq!(t.argmax(None, true).unwrap().sizes(), &[1, 1]);
    let n = Tensor::from_vec(vec![1.0f64, f64::NAN, 9.0, f64::NAN], &[4]).unwrap();
    assert_eq!(n.argmax(Some(0), false).unwrap().item::<i64>().unwrap(), 1);
    assert_eq!(n.argmin(None, false).unwrap().item::<i64>().unwrap(), 1);
}

#[test]
fn argmax_of_transposed_view_indexes_logical_dim() {
    let t = strided(vec![1.0, 9.0, 2.0, 3.0, 4.0, 5.0], &[3, 2], &[1, 3], 0);
    // logical [[1, 3], [9, 4], [2, 5]]
    assert_eq!(
        t.argmax(Some(0), false).unwrap().to_vec::<i64>().unwrap(),
        vec![1, 2]
    );
    assert_eq!(t.argmax(None, false).unwrap().item::<i64>().unwrap(), 2);
}

#[test]
fn duplicate_and_out_of_range_dims_are_errors() {
    let t = Tensor::zeros(&[2, 3], DType::F32).unwrap();
    assert_eq!(
        t.sum(&[0, -2], false).unwrap_err().to_string(),
        "dim 0 appears multiple times in the list of dims"
    );
    assert_eq!(
        t.amax(&[2], false).unwrap_err().to_string(),
        "Dimension out of range (expected to be in range of [-2, 1], but got 2)"
    );
}

#[test]
fn amax_over_empty_dim_names_the_dim_as_given() {
    let t = Tensor::zeros(&[2, 0], DType::F32).unwrap();
    assert_eq!(
        t.amax(&[-1], false).unwrap_err().to_string(),
        "amax(): Expected reduction dim -1 to have non-zero size."
    );
    assert!(t
        .amin(&[], false)
        .unwrap_err()
        .to_string()
        .starts_with("amin(): Expected reduction dim to be specified for input.numel() == 0."));
    assert_eq!(
        t.argmax(Some(-1), false).unwrap_err().to_string(),
        "argmax(): Expected reduction dim 1 to have non-zero size."
    );
    assert_eq!(
        t.argmin(None, false).unwrap_err().to_string(),
        "argmin(): Expected reduction dim to be specified for input.numel() == 0."
    );
    // Reducing the non-empty dim is fine: the result is empty.
    assert_eq!(t.amax(&[0], false).unwrap().sizes(), &[0]);
}

#[test]
fn mean_of_integers_is_an_error() {
    let t = Tensor::zeros(&[2], DType::I64).unwrap();
    assert_eq!(
        t.mean(&[], false).unwrap_err().to_string(),
        "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Long"
    );
}

#[test]
fn zero_dim_tensor_reduces_over_dim_zero_or_minus_one() {
    let t = Tensor::scalar(4.0f32);
    assert_eq!(t.sum(&[0], false).unwrap().item::<f32>().unwrap(), 4.0);
    assert_eq!(t.amax(&[-1], true).unwrap().sizes(), &[] as &[usize]);
    assert_eq!(t.argmax(Some(0), false).unwrap().item::<i64>().unwrap(), 0);
    assert!(t.sum(&[1], false).is_err());
}

#[test]
fn half_sum_accumulates_in_f32() {
    let v = vec![half::f16::from_f32(1.0); 4096];
    let t = Tensor::from_vec(v, &[4096]).unwrap();
    // f16 accumulation would stop at 2048.
    assert_eq!(
        t.sum(&[], false)
            .unwrap()
            .item::<half::f16>()
            .unwrap()
            .to_f32(),
        4096.0
    );
}

#[test]
fn geometry_puts_reduced_dims_first_and_coalesces() {
    let t = Tensor::zeros(&[4, 5, 6], DType::F32).unwrap();
    let g = Geometry::of(&t, &[true, false, false]).unwrap();
    assert_eq!(g.shape[0], 4);
    assert_eq!(g.out_strides[0], 0);
    assert_eq!(g.in_strides[0], 30);
    assert_eq!(g.shape.iter().product::<usize>(), 120);
    let g = Geometry::of(&t, &[false, true, true]).unwrap();
    assert_eq!(g.out_strides[0], 0);
    assert_eq!(g.in_strides[0], 1);
}

#[test]
fn results_do_not_depend_on_thread_count() {
    let t = strided(
        (0..1 << 17).map(|i| (i as f32).sin()).collect(),
        &[1 << 17],
        &[1],
        0,
    );
    let a = t.sum(&[], false).unwrap().item::<f32>().unwrap();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let b = pool.install(|| t.sum(&[], false).unwrap().item::<f32>().unwrap());
    assert_eq!(a.to_bits(), b.to_bits());
}

fn one_thread<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
        .install(f)
}

#[test]
fn sum_of_many_tenths_has_cascade_accuracy() {
    // 2^22 x 0.1 (2^24 in the ignored test below): sequential f32 accumulation is off
    // by ~1e-3 relative here, PyTorch's cascade sum by ~5e-7.
    let n = 1usize << 22;
    let t = Tensor::from_vec(vec![0.1f32; n], &[n]).unwrap();
    let s = t.sum(&[], false).unwrap().item::<f32>().unwrap() as f64;
    let want = n as f64 * 0.1f32 as f64;
    assert!(((s - want) / want).abs() < 1e-6, "{s} vs {want}");
}

#[test]
fn mean_of_strided_tenths_has_cascade_accuracy() {
    // full([16, 2^20], 0.1)[:, ::2]: a strided (not contiguous) reduction.
    let t = Tensor::from_vec(vec![0.1f32; 16 << 20], &[16, 1 << 20])
        .unwrap()
        .slice(1, None, None, 2)
        .unwrap();
    let m = t.mean(&[], false).unwrap().item::<f32>().unwrap();
    assert!((m as f64 / 0.1f32 as f64 - 1.0).abs() < 1e-6, "{m}");
    // Over dim 0 only (the outer loop) and dim 1 only (strided runs).
    let c = t.mean(&[0], false).unwrap().to_vec::<f32>().unwrap();
    assert!(c.iter().all(|&x| (x - 0.1).abs() < 1e-7));
    let r = t.sum(&[1], false).unwrap().to_vec::<f32>().unwrap();
    let want = (1 << 19) as f64 * 0.1f32 as f64;
    assert!(
        r.iter().all(|&x| ((x as f64 - want) / want).abs() < 1e-6),
        "{r:?}"
    );
}

#[test]
#[ignore = "16M and 128M elements, slow in a debug build"]
fn sums_of_16m_and_128m_elements_have_cascade_accuracy() {
    let n = 1usize << 24;
    let t = Tensor::from_vec(vec![0.1f32; n], &[n]).unwrap();
    let s = t.sum(&[], false).unwrap().item::<f32>().unwrap() as f64;
    let want = n as f64 * 0.1f32 as f64;
    assert!(((s - want) / want).abs() < 1e-6, "{s} vs {want}");
    let t = Tensor::from_vec(vec![0.1f32; 16 << 23], &[16, 1 << 23])
        .unwrap()
        .slice(1, None, None, 2)
        .unwrap();
    let m = t.mean(&[], false).unwrap().item::<f32>().unwrap();
    assert!((m - 0.099_999_91).abs() < 1e-6, "{m}");
}

#[test]
fn every_path_gives_the_same_bits_with_one_and_two_threads() {
    let n = 1 << 20;
    let v: Vec<f32> = (0..n).map(|i| ((i as f32) * 0.37).sin()).collect();
    let flat = strided(v.clone(), &[n], &[1], 0);
    let m = strided(v.clone(), &[1024, 1024], &[1024, 1], 0);
    let cases: Vec<(Tensor, Vec<i64>)> = vec![
        (flat.alias(), vec![]), // inner, split pieces
        (m.alias(), vec![1]),   // inner, many outputs
        (m.alias(), vec![0]),   // outer
        (strided(v.clone(), &[4, 1024], &[1, 1024], 0), vec![1]), // outer, few columns
        (strided(v.clone(), &[512, 1024], &[2, 1024], 0), vec![]), // strided
        (m.slice(1, None, None, 2).unwrap(), vec![1]), // strided runs
    ];
    for (t, dims) in cases {
        let two = t.sum(&dims, false).unwrap().to_vec::<f32>().unwrap();
        let one = one_thread(|| t.sum(&dims, false).unwrap().to_vec::<f32>().unwrap());
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(
            bits(&two),
            bits(&one),
            "dims {dims:?} sizes {:?}",
            t.sizes()
        );
        if dims.is_empty() {
            let want: f64 = t.to_vec_f64().unwrap().iter().sum();
            assert!((two[0] as f64 - want).abs() < 1e-3, "{} vs {want}", two[0]);
        }
    }
}

#[test]
fn sum_of_expanded_2_pow_26_ones_uses_no_per_element_memory() {
    // An offset table would take 16 bytes per element (1 GiB here).
    let t = Tensor::from_vec(vec![1.0f32], &[1])
        .unwrap()
        .expand(&[1 << 26])
        .unwrap();
    assert_eq!(
        t.sum(&[], false).unwrap().item::<f32>().unwrap(),
        (1u64 << 26) as f32
    );
}

#[test]
#[ignore = "2^31 elements: about 2 s on two cores in release"]
fn sum_of_expanded_2_pow_31_ones_is_exact() {
    let t = Tensor::from_vec(vec![1.0f32], &[1])
        .unwrap()
        .expand(&[1 << 31])
        .unwrap();
    assert_eq!(
        t.sum(&[], false).unwrap().item::<f32>().unwrap(),
        2147483648.0
    );
}

#[test]
fn amax_and_amin_keep_the_first_of_equal_zeros() {
    let mx = |v: Vec<f32>| {
        let n = v.len();
        let t = Tensor::from_vec(v, &[n]).unwrap();
        let a = t.amax(&[], false).unwrap().item::<f32>().unwrap();
        let b = t.amin(&[], false).unwrap().item::<f32>().unwrap();
        (a.to_bits(), b.to_bits())
    };
    let (neg, pos) = ((-0.0f32).to_bits(), 0.0f32.to_bits());
    assert_eq!(mx(vec![-0.0, 0.0]), (neg, neg));
    assert_eq!(mx(vec![0.0, -0.0]), (pos, pos));
    // Long enough for the vector lanes: the first zero is element 1, in lane 1; a +0 in
    // lane 0 comes later.
    let mut v = vec![-1.0f32; 1000];
    v[1] = -0.0;
    v[32] = 0.0;
    assert_eq!(mx(v.clone()).0, neg);
    v[1] = 0.0;
    v[32] = -0.0;
    assert_eq!(mx(v).0, pos);
}

#[test]
fn argmax_and_argmin_of_bool_are_errors() {
    let b = Tensor::from_vec(vec![true, false], &[2]).unwrap();
    assert_eq!(
        b.argmax(None, false).unwrap_err().to_string(),
        "argmax(): does not support bool input"
    );
    assert_eq!(
        b.argmin(Some(0), false).unwrap_err().to_string(),
        "argmin(): does not support bool input"
    );
}

#[test]
fn half_prod_rounds_each_product_to_half() {
    // PyTorch accumulates prod in the dtype: each product rounded to f16 / bf16. Of a
    // few 31-element inputs (sequential in the lanes), at least one must tell this
    // apart from accumulating in f32.
    let mut told_apart = false;
    for k in 1..40usize {
        let xs: Vec<f32> = (0..31)
            .map(|i| 0.95 + ((i * k) % 17) as f32 * 0.0137)
            .collect();
        let h: Vec<half::f16> = xs.iter().map(|&x| half::f16::from_f32(x)).collect();
        let want = h.iter().fold(half::f16::ONE, |a, &b| {
            half::f16::from_f32(a.to_f32() * b.to_f32())
        });
        let got = Tensor::from_vec(h.clone(), &[31])
            .unwrap()
            .prod(&[], false)
            .unwrap()
            .item::<half::f16>()
            .unwrap();
        assert_eq!(got.to_bits(), want.to_bits());
        let f32_acc = half::f16::from_f32(h.iter().map(|x| x.to_f32()).product());
        told_apart |= got.to_bits() != f32_acc.to_bits();
        let b: Vec<half::bf16> = xs.iter().map(|&x| half::bf16::from_f32(x)).collect();
        let want = b.iter().fold(half::bf16::ONE, |a, &x| {
            half::bf16::from_f32(a.to_f32() * x.to_f32())
        });
        let got = Tensor::from_vec(b, &[31])
            .unwrap()
            .prod(&[], false)
            .unwrap()
            .item::<half::bf16>()
            .unwrap();
        assert_eq!(got.to_bits(), want.to_bits());
    }
    assert!(told_apart);
}

#[test]
fn reductions_never_panic_on_odd_dims() {
    let t = Tensor::zeros(&[2, 0, 3], DType::F32).unwrap();
    let s = Tensor::scalar(1.0f32);
    for dims in [
        vec![],
        vec![0],
        vec![1],
        vec![-1, -3],
        vec![0, 0],
        vec![3],
        vec![-4],
        vec![i64::MAX],
        vec![i64::MIN],
    ] {
        for x in [&t, &s] {
            for keep in [false, true] {
                let _ = x.sum(&dims, keep);
                let _ = x.mean(&dims, keep);
                let _ = x.prod(&dims, keep);
                let _ = x.amax(&dims, keep);
                let _ = x.amin(&dims, keep);
            }
        }
    }
    for d in [None, Some(0), Some(1), Some(-1), Some(5), Some(i64::MIN)] {
        let _ = t.argmax(d, true);
        let _ = s.argmin(d, false);
    }
}

#[test]
fn rows_folded_together_match_each_row_alone_and_a_naive_sum() {
    // Many outputs, each one contiguous run: `fold_runs`. One output (fewer than
    // FEW_OUTPUTS): the general path, with the same order, so bit-identical sums.
    // Lengths around the lane width, a leaf (LANES * LEAF_STEPS = 512) and a piece.
    for n in [32usize, 33, 63, 511, 512, 513, 1000, 4096, 4097, 32768] {
        let rows = 9;
        let v: Vec<f32> = (0..rows * n)
            .map(|i| ((i * 7919) % 1013) as f32 / 97.0 - 5.0)
            .collect();
        let t = Tensor::from_vec(v, &[rows, n]).unwrap();
        let all = t.sum(&[1], false).unwrap().to_vec::<f32>().unwrap();
        let want = naive(&t, &[1], 0.0, |a, b| a + b);
        let got: Vec<f64> = all.iter().map(|&x| x as f64).collect();
        close(&got, &want);
        for (i, &x) in all.iter().enumerate() {
            let row = t.narrow(0, i as i64, 1).unwrap();
            let alone = row.sum(&[1], false).unwrap().to_vec::<f32>().unwrap();
            assert_eq!(x.to_bits(), alone[0].to_bits(), "n {n}, row {i}");
        }
        // amax with both zeros (an ambiguous result, folded again in order): the
        // same bits as each row alone.
        let z: Vec<f32> = (0..rows * n)
            .map(|i| if (i + i / n) % 2 == 0 { -0.0 } else { 0.0 })
            .collect();
        let z = Tensor::from_vec(z, &[rows, n]).unwrap();
        let all = z.amax(&[1], false).unwrap().to_vec::<f32>().unwrap();
        for (i, &x) in all.iter().enumerate() {
            let row = z.narrow(0, i as i64, 1).unwrap();
            let alone = row.amax(&[1], false).unwrap().to_vec::<f32>().unwrap();
            assert_eq!(x.to_bits(), alone[0].to_bits(), "amax n {n}, row {i}");
        }
    }
}

#[test]
fn outer_leaf_blocks_fold_each_column_in_row_order() {
    // An order-sensitive combine (a / 2 + b): the blocks folded in registers must give
    // each column what folding whole rows into the partials one by one gives, for
    // widths around the block sizes (32 and 64 columns) and partial leaves.
    use super::kernels::{fold_leaf, Reducer};
    let data: Vec<f64> = (0..32 * 150 + 140)
        .map(|i| ((i * 7919) % 1000) as f64 / 7.0)
        .collect();
    let r = Reducer {
        identity: 1.0,
        load: |x: f64| x,
        combine: |a: f64, b: f64| a * 0.5 + b,
        finish: |a: f64| a,
        ambiguous: |_: f64| false,
    };
    for w in [1, 31, 32, 33, 63, 64, 65, 96, 129, 131] {
        for nrows in [1, 5, 32] {
            let offs: Vec<usize> = (0..nrows).map(|i| i * 150 + i % 3).collect();
            let mut want = vec![1.0; w];
            for &s in &offs {
                for (a, &x) in want.iter_mut().zip(&data[s..s + w]) {
                    *a = *a * 0.5 + x;
                }
            }
            // A reused buffer: every partial must be overwritten.
            let mut leaf = vec![f64::NAN; w];
            fold_leaf(&data, &offs, &r, &mut leaf);
            assert_eq!(leaf, want, "w {w}, rows {nrows}");
        }
    }
}
