//! `layout!` against einops 0.8: every positive case of `tests/data/pytorch/einops.json`
//! as a real `layout!` invocation on a typed tensor with static dims, its output type
//! spelled out (so the type-level shape computation is checked by the compiler), and its
//! sizes and values compared with einops' (input = arange(numel) as f64).
//!
//! The einops cases were generated from the JSON by a script, in the JSON's order
//! (`case(i)` is its `cases[i]`); the hand-written tests for `Dyn` dims, run-time sizes
//! and views follow them.

use serde_json::Value;
use std::sync::OnceLock;
use tensor_typed::prelude::*;
use tensor_typed::{Shape, Tensor};

/// `cases[i]` of einops.json.
fn case(i: usize) -> &'static Value {
    static FILE: OnceLock<Value> = OnceLock::new();
    let file = FILE.get_or_init(|| {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/pytorch/einops.json");
        let text = std::fs::read_to_string(path).expect("read einops.json");
        serde_json::from_str(&text).expect("parse einops.json")
    });
    &file["cases"][i]
}

fn usizes(v: &Value) -> Vec<usize> {
    v.as_array()
        .expect("a list")
        .iter()
        .map(|x| x.as_u64().expect("a size") as usize)
        .collect()
}

/// The input of the einops cases: arange(numel) as f64, with static shape `S`.
fn arange<S: Shape>() -> Tensor<f64, S> {
    let dims = S::all_static().expect("static shape");
    let data = (0..dims.iter().product::<usize>())
        .map(|i| i as f64)
        .collect();
    Tensor::from_vec(data, &dims).expect("arange")
}

/// `y` has einops' output sizes and values for case `i` (values within 1e-6 relative).
fn assert_case<S: Shape>(y: &Tensor<f64, S>, i: usize) {
    let c = case(i);
    assert_eq!(
        y.dims(),
        usizes(&c["output_shape"]).as_slice(),
        "sizes of {}",
        c["pattern"]
    );
    let want: Vec<f64> = c["values"]
        .as_array()
        .expect("values")
        .iter()
        .map(|v| v.as_f64().expect("a value"))
        .collect();
    let got = y.to_vec();
    assert_eq!(got.len(), want.len(), "numel of {}", c["pattern"]);
    for (k, (g, w)) in got.iter().zip(&want).enumerate() {
        assert!(
            (g - w).abs() <= 1e-6 * w.abs().max(1.0),
            "{}: element {k} is {g}, einops {w}",
            c["pattern"]
        );
    }
}

#[test]
fn rearrange_h_w_to_w_h() {
    let x: Tensor<f64, Shape![2, 3]> = arange();
    let y: Tensor<f64, Shape![3, 2]> = layout!(x, "h w -> w h");
    assert_case(&y, 0);
}

#[test]
fn rearrange_a_b_c_to_c_a_b() {
    let x: Tensor<f64, Shape![2, 3, 4]> = arange();
    let y: Tensor<f64, Shape![4, 2, 3]> = layout!(x, "a b c -> c a b");
    assert_case(&y, 1);
}

#[test]
fn rearrange_a_b_c_to_a_bxc() {
    let x: Tensor<f64, Shape![2, 3, 4]> = arange();
    let y: Tensor<f64, Shape![2, 12]> = layout!(x, "a b c -> a (b c)");
    assert_case(&y, 2);
}

#[test]
fn rearrange_a_b_c_to_axbxc() {
    let x: Tensor<f64, Shape![2, 3, 4]> = arange();
    let y: Tensor<f64, Shape![24]> = layout!(x, "a b c -> (a b c)");
    assert_case(&y, 3);
}

#[test]
fn rearrange_a_b_c_to_cxa_b() {
    let x: Tensor<f64, Shape![2, 3, 4]> = arange();
    let y: Tensor<f64, Shape![8, 3]> = layout!(x, "a b c -> (c a) b");
    assert_case(&y, 4);
}

#[test]
fn rearrange_hxd_w_to_h_d_w_heq2() {
    let x: Tensor<f64, Shape![6, 4]> = arange();
    let y: Tensor<f64, Shape![2, 3, 4]> = layout!(x, "(h d) w -> h d w", h = 2);
    assert_case(&y, 5);
}

#[test]
fn rearrange_hxd_w_to_d_h_w_deq2() {
    let x: Tensor<f64, Shape![6, 4]> = arange();
    let y: Tensor<f64, Shape![2, 3, 4]> = layout!(x, "(h d) w -> d h w", d = 2);
    assert_case(&y, 6);
}

#[test]
fn rearrange_hxd_w_to_w_dxh_heq3() {
    let x: Tensor<f64, Shape![6, 4]> = arange();
    let y: Tensor<f64, Shape![4, 6]> = layout!(x, "(h d) w -> w (d h)", h = 3);
    assert_case(&y, 7);
}

#[test]
fn rearrange_gxt_a_d_to_g_a_txd_teq7() {
    let x: Tensor<f64, Shape![42, 50, 6]> = arange();
    let y: Tensor<f64, Shape![6, 50, 42]> = layout!(x, "(g t) a d -> g a (t d)", t = 7);
    assert_case(&y, 8);
}

#[test]
fn rearrange_b_c_h_w_to_b_h_w_c() {
    let x: Tensor<f64, Shape![2, 3, 4, 5]> = arange();
    let y: Tensor<f64, Shape![2, 4, 5, 3]> = layout!(x, "b c h w -> b h w c");
    assert_case(&y, 9);
}

#[test]
fn rearrange_b_c_h_w_to_bxhxw_c() {
    let x: Tensor<f64, Shape![2, 3, 4, 5]> = arange();
    let y: Tensor<f64, Shape![40, 3]> = layout!(x, "b c h w -> (b h w) c");
    assert_case(&y, 10);
}

#[test]
fn rearrange_b_c_h_wxp_to_b_cxp_h_w_peq2() {
    let x: Tensor<f64, Shape![2, 3, 4, 6]> = arange();
    let y: Tensor<f64, Shape![2, 6, 4, 3]> = layout!(x, "b c h (w p) -> b (c p) h w", p = 2);
    assert_case(&y, 11);
}

#[test]
fn rearrange_b_c_hxp1_wxp2_to_b_hxw_p1xp2xc_p1eq2_p2eq3() {
    let x: Tensor<f64, Shape![2, 3, 4, 6]> = arange();
    let y: Tensor<f64, Shape![2, 4, 18]> =
        layout!(x, "b c (h p1) (w p2) -> b (h w) (p1 p2 c)", p1 = 2, p2 = 3);
    assert_case(&y, 12);
}

#[test]
fn rearrange_b_ellipsis_to_ellipsis_b() {
    let x: Tensor<f64, Shape![2, 3, 4]> = arange();
    let y: Tensor<f64, Shape![3, 4, 2]> = layout!(x, "b ... -> ... b");
    assert_case(&y, 13);
}

#[test]
fn rearrange_ellipsis_c_to_c_ellipsis() {
    let x: Tensor<f64, Shape![2, 3, 4]> = arange();
    let y: Tensor<f64, Shape![4, 2, 3]> = layout!(x, "... c -> c ...");
    assert_case(&y, 14);
}

#[test]
fn rearrange_b_ellipsis_c_to_b_c_ellipsis() {
    let x: Tensor<f64, Shape![2, 3, 4, 5]> = arange();
    let y: Tensor<f64, Shape![2, 5, 3, 4]> = layout!(x, "b ... c -> b c ...");
    assert_case(&y, 15);
}

#[test]
fn rearrange_b_ellipsis_to_b_ellipsis_merged() {
    let x: Tensor<f64, Shape![2, 3, 4, 5]> = arange();
    let y: Tensor<f64, Shape![2, 60]> = layout!(x, "b ... -> b (...)");
    assert_case(&y, 16);
}

#[test]
fn rearrange_h_w_to_h_1_w() {
    let x: Tensor<f64, Shape![2, 3]> = arange();
    let y: Tensor<f64, Shape![2, 1, 3]> = layout!(x, "h w -> h 1 w");
    assert_case(&y, 17);
}

#[test]
fn rearrange_h_1_w_to_h_w() {
    let x: Tensor<f64, Shape![2, 1, 3]> = arange();
    let y: Tensor<f64, Shape![2, 3]> = layout!(x, "h 1 w -> h w");
    assert_case(&y, 18);
}

#[test]
fn rearrange_h_w_to_h_unit_w_unit() {
    let x: Tensor<f64, Shape![2, 3]> = arange();
    let y: Tensor<f64, Shape![2, 1, 3, 1]> = layout!(x, "h w -> h () w ()");
    assert_case(&y, 19);
}

#[test]
fn rearrange_h_w_to_hxw() {
    let x: Tensor<f64, Shape![2, 3]> = arange();
    let y: Tensor<f64, Shape![6]> = layout!(x, "h w -> (h w)");
    assert_case(&y, 20);
}

#[test]
fn rearrange_axbxc_to_c_b_a_aeq2_beq3() {
    let x: Tensor<f64, Shape![12]> = arange();
    let y: Tensor<f64, Shape![2, 3, 2]> = layout!(x, "(a b c) -> c b a", a = 2, b = 3);
    assert_case(&y, 21);
}

#[test]
fn repeat_h_w_to_h_w_c_ceq4() {
    let x: Tensor<f64, Shape![2, 3]> = arange();
    let y: Tensor<f64, Shape![2, 3, 4]> = layout!(x, "h w -> h w c", c = 4);
    assert_case(&y, 22);
}

#[test]
fn repeat_h_w_to_c_h_w_ceq2() {
    let x: Tensor<f64, Shape![2, 3]> = arange();
    let y: Tensor<f64, Shape![2, 2, 3]> = layout!(x, "h w -> c h w", c = 2);
    assert_case(&y, 23);
}

#[test]
fn repeat_h_w_to_rxh_w_req2() {
    let x: Tensor<f64, Shape![2, 3]> = arange();
    let y: Tensor<f64, Shape![4, 3]> = layout!(x, "h w -> (r h) w", r = 2);
    assert_case(&y, 24);
}

#[test]
fn repeat_h_w_to_hxr_w_req2() {
    let x: Tensor<f64, Shape![2, 3]> = arange();
    let y: Tensor<f64, Shape![4, 3]> = layout!(x, "h w -> (h r) w", r = 2);
    assert_case(&y, 25);
}

#[test]
fn repeat_h_w_to_h_wx2() {
    let x: Tensor<f64, Shape![2, 3]> = arange();
    let y: Tensor<f64, Shape![2, 6]> = layout!(x, "h w -> h (w 2)");
    assert_case(&y, 26);
}

#[test]
fn repeat_h_w_to_2xh_wx3() {
    let x: Tensor<f64, Shape![2, 3]> = arange();
    let y: Tensor<f64, Shape![4, 9]> = layout!(x, "h w -> (2 h) (w 3)");
    assert_case(&y, 27);
}

#[test]
fn repeat_w_to_h_w_heq4() {
    let x: Tensor<f64, Shape![3]> = arange();
    let y: Tensor<f64, Shape![4, 3]> = layout!(x, "w -> h w", h = 4);
    assert_case(&y, 28);
}

#[test]
fn repeat_h_w_to_h_w_1() {
    let x: Tensor<f64, Shape![2, 3]> = arange();
    let y: Tensor<f64, Shape![2, 3, 1]> = layout!(x, "h w -> h w 1", repeat);
    assert_case(&y, 29);
}

#[test]
fn repeat_a_1_c_to_a_b_c_beq4() {
    let x: Tensor<f64, Shape![2, 1, 3]> = arange();
    let y: Tensor<f64, Shape![2, 4, 3]> = layout!(x, "a 1 c -> a b c", b = 4);
    assert_case(&y, 30);
}

#[test]
fn repeat_b_ellipsis_to_b_r_ellipsis_req2() {
    let x: Tensor<f64, Shape![2, 3, 4]> = arange();
    let y: Tensor<f64, Shape![2, 2, 3, 4]> = layout!(x, "b ... -> b r ...", r = 2);
    assert_case(&y, 31);
}

#[test]
fn reduce_mean_b_c_h_w_to_b_c() {
    let x: Tensor<f64, Shape![2, 3, 4, 5]> = arange();
    let y: Tensor<f64, Shape![2, 3]> = layout!(x, "b c h w -> b c", reduce = mean);
    assert_case(&y, 32);
}

#[test]
fn reduce_sum_b_c_h_w_to_b_c() {
    let x: Tensor<f64, Shape![2, 3, 4, 5]> = arange();
    let y: Tensor<f64, Shape![2, 3]> = layout!(x, "b c h w -> b c", reduce = sum);
    assert_case(&y, 33);
}

#[test]
fn reduce_max_b_c_h_w_to_c() {
    let x: Tensor<f64, Shape![2, 3, 4, 5]> = arange();
    // max/min over an input dim may reduce an empty axis: a `Result`.
    let y: Tensor<f64, Shape![3]> = layout!(x, "b c h w -> c", reduce = max).unwrap();
    assert_case(&y, 34);
}

#[test]
fn reduce_min_b_c_h_w_to_b() {
    let x: Tensor<f64, Shape![2, 3, 4, 5]> = arange();
    let y: Tensor<f64, Shape![2]> = layout!(x, "b c h w -> b", reduce = min).unwrap();
    assert_case(&y, 35);
}

#[test]
fn reduce_prod_a_b_c_to_a() {
    let x: Tensor<f64, Shape![2, 3, 4]> = arange();
    let y: Tensor<f64, Shape![2]> = layout!(x, "a b c -> a", reduce = prod);
    assert_case(&y, 36);
}

#[test]
fn reduce_max_b_c_hxh2_wxw2_to_b_c_h_w_h2eq2_w2eq2() {
    let x: Tensor<f64, Shape![2, 3, 4, 6]> = arange();
    let y: Tensor<f64, Shape![2, 3, 2, 3]> = layout!(
        x,
        "b c (h h2) (w w2) -> b c h w",
        h2 = 2,
        w2 = 2,
        reduce = max
    );
    assert_case(&y, 37);
}

#[test]
fn reduce_mean_b_c_hxh2_wxw2_to_b_h_w_c_h2eq2_w2eq3() {
    let x: Tensor<f64, Shape![2, 3, 4, 6]> = arange();
    let y: Tensor<f64, Shape![2, 2, 2, 3]> = layout!(
        x,
        "b c (h h2) (w w2) -> b h w c",
        h2 = 2,
        w2 = 3,
        reduce = mean
    );
    assert_case(&y, 38);
}

#[test]
fn reduce_sum_b_ellipsis_to_b() {
    let x: Tensor<f64, Shape![2, 3, 4]> = arange();
    let y: Tensor<f64, Shape![2]> = layout!(x, "b ... -> b", reduce = sum);
    assert_case(&y, 39);
}

#[test]
fn reduce_sum_a_b_c_to_a_1_c() {
    let x: Tensor<f64, Shape![2, 3, 4]> = arange();
    let y: Tensor<f64, Shape![2, 1, 4]> = layout!(x, "a b c -> a 1 c", reduce = sum);
    assert_case(&y, 40);
}

#[test]
fn reduce_max_a_b_c_to_c_a() {
    let x: Tensor<f64, Shape![2, 3, 4]> = arange();
    let y: Tensor<f64, Shape![4, 2]> = layout!(x, "a b c -> c a", reduce = max).unwrap();
    assert_case(&y, 41);
}

// ---- hand-written: Dyn dims, run-time sizes, views ---------------------------------

/// arange(numel) as f64 with run-time sizes `dims` and shape type `S`.
fn arange_with<S: Shape>(dims: &[usize]) -> Tensor<f64, S> {
    let data = (0..dims.iter().product::<usize>())
        .map(|i| i as f64)
        .collect();
    Tensor::from_vec(data, dims).expect("arange")
}

#[test]
fn dyn_batch_split_keeps_dyn_and_computes_static_dims() {
    let x: Tensor<f64, Shape![Dyn, 3]> = arange_with(&[4, 3]);
    let y: tensor_core::Result<Tensor<f64, Shape![Dyn, 3, 1]>> =
        layout!(x, "b (h d) -> b h d", h = 3);
    let y = y.expect("fits");
    assert_eq!(y.dims(), [4, 3, 1]);
    assert_eq!(y.to_vec(), (0..12).map(f64::from).collect::<Vec<_>>());
}

#[test]
fn dyn_split_of_einops_case_gives_static_merge() {
    let x: Tensor<f64, Shape![Dyn, 50, 6]> = arange_with(&[42, 50, 6]);
    let y: Tensor<f64, Shape![Dyn, 50, 42]> =
        layout!(x, "(g t) a d -> g a (t d)", t = 7).expect("fits");
    assert_case(&y.check_shape::<Shape![6, 50, 42]>().expect("sizes"), 8);
}

#[test]
fn dyn_dim_not_divisible_is_einops_error_at_run_time() {
    let x: Tensor<f64, Shape![Dyn, 3]> = arange_with(&[5, 3]);
    let e = layout!(x, "(h d) w -> h d w", h = 2).unwrap_err();
    assert!(
        e.to_string()
            .contains("Shape mismatch, can't divide axis of length 5 in chunks of 2"),
        "{e}"
    );
}

#[test]
fn dyn_dim_differing_from_given_size_is_einops_error() {
    let x: Tensor<f64, Shape![Dyn, 3]> = arange_with(&[5, 3]);
    let e = layout!(x, "h w -> w h", h = 4).unwrap_err();
    assert!(e.to_string().contains("Shape mismatch, 5 != 4"), "{e}");
}

#[test]
fn runtime_size_makes_dims_dyn_and_returns_result() {
    let n = 2;
    let x: Tensor<f64, Shape![6, 4]> = arange();
    let y: Tensor<f64, Shape![Dyn, Dyn, 4]> =
        layout!(x, "(h d) w -> h d w", h = { n }).expect("6 is divisible by 2");
    assert_case(&y.check_shape::<Shape![2, 3, 4]>().expect("sizes"), 5);
    let e = layout!(x, "(h d) w -> h d w", h = { n + 2 }).unwrap_err();
    assert!(
        e.to_string()
            .contains("can't divide axis of length 6 in chunks of 4"),
        "{e}"
    );
}

#[test]
fn ellipsis_with_dyn_dims_merges_to_dyn() {
    let x: Tensor<f64, Shape![2, Dyn, 4]> = arange_with(&[2, 3, 4]);
    let y: Tensor<f64, Shape![2, Dyn]> = layout!(x, "b ... -> b (...)").expect("fits");
    assert_eq!(y.dims(), [2, 12]);
}

#[test]
fn permutation_is_a_view() {
    let x: Tensor<f64, Shape![2, 3, 4]> = arange();
    let y: Tensor<f64, Shape![4, 2, 3]> = layout!(&x, "a b c -> c a b");
    assert!(y.as_dyn().shares_storage(x.as_dyn()));
    assert_eq!(y.strides(), [1, 12, 4]);
}

#[test]
fn new_axis_is_an_expand_view() {
    let x: Tensor<f64, Shape![2, 3]> = arange();
    let y: Tensor<f64, Shape![2, 3, 4]> = layout!(x, "h w -> h w c", c = 4);
    assert!(y.as_dyn().shares_storage(x.as_dyn()));
    assert_eq!(y.strides(), [3, 1, 0]);
}

#[test]
fn merging_an_expanded_axis_copies() {
    let x: Tensor<f64, Shape![2, 3]> = arange();
    let y: Tensor<f64, Shape![2, 6]> = layout!(x, "h w -> h (w c)", c = 2);
    assert!(!y.as_dyn().shares_storage(x.as_dyn()));
    assert_eq!(y.to_vec(), [0., 0., 1., 1., 2., 2., 3., 3., 4., 4., 5., 5.]);
}

#[test]
fn reduce_sum_of_integers_keeps_dtype() {
    let x: Tensor<i64, Shape![2, 3]> = Tensor::from_vec((0..6).collect(), &[2, 3]).unwrap();
    let y: Tensor<i64, Shape![3]> = layout!(x, "h w -> w", reduce = sum);
    assert_eq!(y.to_vec(), [3, 5, 7]);
}

#[test]
fn reduce_max_over_static_empty_axis_is_an_error_not_a_panic() {
    let x: Tensor<f64, Shape![2, 0]> = Tensor::zeros();
    let e = layout!(x, "a b -> a", reduce = max).unwrap_err();
    assert!(
        e.to_string()
            .contains("Expected reduction dim 1 to have non-zero size"),
        "{e}"
    );
    // Reducing the non-empty axis of an empty tensor is fine (PyTorch gives sizes [0]).
    let y: Tensor<f64, Shape![0]> = layout!(x, "a b -> b", reduce = min).expect("a is not empty");
    assert_eq!(y.dims(), [0]);
    let z: Tensor<f64, Shape![0, 2]> = Tensor::zeros();
    let e = layout!(z, "a b -> b", reduce = min).unwrap_err();
    assert!(e.to_string().contains("to have non-zero size"), "{e}");
}

#[test]
fn reduce_max_keeping_the_empty_axis_is_fine() {
    let x: Tensor<f64, Shape![0, 3]> = Tensor::zeros();
    let y: Tensor<f64, Shape![0]> = layout!(x, "a b -> a", reduce = max).expect("b is not empty");
    assert_eq!(y.dims(), [0]);
}

#[test]
fn reduce_max_over_anonymous_and_given_axes_returns_the_tensor() {
    // Every reduced axis is a non-zero literal: no run-time failure, no `Result`.
    let x: Tensor<f64, Shape![2, 4]> = arange();
    let y: Tensor<f64, Shape![2, 2]> = layout!(x, "a (b 2) -> a b", reduce = max);
    assert_eq!(y.to_vec(), [1.0, 3.0, 5.0, 7.0]);
    let z: Tensor<f64, Shape![2, 1]> = layout!(x, "a (b k) -> a b", k = 4, reduce = min);
    assert_eq!(z.to_vec(), [0.0, 4.0]);
}

#[test]
fn pattern_as_tokens_matches_the_string_pattern() {
    // `layout!(x, h w -> w h)`: the same grammar without quotes, so errors can point at
    // the axis itself (a string literal has no spans inside it on stable Rust).
    let x: Tensor<f64, Shape![4, 6]> = arange();
    let a: Tensor<f64, Shape![6, 4]> = layout!(x, w h -> h w);
    let b: Tensor<f64, Shape![6, 4]> = layout!(x, "w h -> h w");
    assert_eq!(a.to_vec(), b.to_vec());
    let a: Tensor<f64, Shape![2, 3, 4]> = layout!(x, h (g d) -> g d h, g = 2);
    let b: Tensor<f64, Shape![2, 3, 4]> = layout!(x, "h (g d) -> g d h", g = 2);
    assert_eq!(a.to_vec(), b.to_vec());
    let a: Tensor<f64, Shape![1, 4, 6]> = layout!(x, ... -> () ...);
    assert_eq!(a.dims(), [1, 4, 6]);
    let a: Tensor<f64, Shape![4]> = layout!(x, h (w 2) -> h, reduce = sum);
    let b: Tensor<f64, Shape![4]> = layout!(x, "h (w 2) -> h", reduce = sum);
    assert_eq!(a.to_vec(), b.to_vec());
    let n = 3;
    let a = layout!(x, h w -> h w c, c = { n }).expect("c = 3");
    assert_eq!(a.dims(), [4, 6, 3]);
    let a: Tensor<f64, Shape![4, 1, 6]> = layout!(x, h w -> h 1 w);
    assert_eq!(a.dims(), [4, 1, 6]);
}
