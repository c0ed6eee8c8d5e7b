//! Hand-written `layout!` tests beyond the einops cases: `Dyn` dims, run-time sizes,
//! views, reductions over empty axes, token patterns.

use super::{arange, assert_case};
use tensor_typed::prelude::*;
use tensor_typed::{Shape, Tensor};

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
    // Only the static dim is split: nothing to check at run time, so no `Result`.
    let y: Tensor<f64, Shape![Dyn, 3, 1]> = layout!(x, "b (h d) -> b h d", h = 3);
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
    let y: Tensor<f64, Shape![2, Dyn]> = layout!(x, "b ... -> b (...)");
    assert_eq!(y.dims(), [2, 12]);
}

#[test]
fn dyn_dims_that_only_move_or_merge_need_no_result() {
    let x: Tensor<f64, Shape![Dyn, 16, 64]> = arange_with(&[2, 16, 64]);
    let h: Tensor<f64, Shape![Dyn, 4, 16, 16]> = layout!(x, "b s (h d) -> b h s d", h = 4);
    let back: Tensor<f64, Shape![Dyn, 16, 64]> = layout!(h, "b h s d -> b s (h d)");
    assert_eq!(back.to_vec(), x.to_vec());
    let flat: Tensor<f64, Shape![Dyn]> = layout!(x, "b s e -> (b s e)");
    assert_eq!(flat.dims(), [2 * 16 * 64]);
}

#[test]
fn a_split_or_given_size_of_a_dyn_dim_returns_result() {
    let x: Tensor<f64, Shape![Dyn, 3]> = arange_with(&[4, 3]);
    let y: tensor_core::Result<Tensor<f64, Shape![2, Dyn, 3]>> =
        layout!(x, "(g b) d -> g b d", g = 2);
    assert_eq!(y.expect("4 splits by 2").dims(), [2, 2, 3]);
    let e = layout!(x, "(g b) d -> g b d", g = 3)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("can't divide axis of length 4 in chunks of 3"),
        "{e}"
    );
    let z: tensor_core::Result<Tensor<f64, Shape![3, 5]>> = layout!(x, "b d -> d b", b = 5);
    assert!(z.is_err());
}

#[test]
fn static_dims_of_a_thousand_and_more_split_and_merge() {
    let x: Tensor<f64, Shape![Dyn, 2048]> = arange_with(&[2, 2048]);
    let y: Tensor<f64, Shape![Dyn, 2, 1024]> = layout!(x, "b (h d) -> b h d", h = 2);
    assert_eq!(y.dims(), [2, 2, 1024]);
    let z: Tensor<f64, Shape![Dyn, 2048]> = layout!(y, "b h d -> b (h d)");
    assert_eq!(z.to_vec(), x.to_vec());
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
