//! Reductions against a naive walk over logical indices, and PyTorch's errors.

use super::*;
use crate::{DType, Layout, Storage};

fn strided(data: Vec<f32>, sizes: &[usize], strides: &[isize], offset: usize) -> Tensor {
    Tensor::from_parts(
        Storage::from_vec(data).unwrap(),
        Layout::new(sizes.to_vec(), strides.to_vec(), offset),
        DType::F32,
    )
    .unwrap()
}

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
        let mut rem = flat;
        let mut o = 0;
        let mut mul = 1;
        for d in (0..sizes.len()).rev() {
            let i = rem % sizes[d];
            rem /= sizes[d];
            if !dims.contains(&d) {
                o += i * mul;
            }
            mul *= out_sizes[d];
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
