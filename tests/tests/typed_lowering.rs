//! Lowering: every typed op runs beside its dynamic twin (the same tensor-core op on
//! `tensor_core::Tensor`) and must give the same sizes, strides, dtype and values.

use tensor_core::{DType, Tensor as Core};
use tensor_typed::prelude::*;

fn same<T: tensor_core::Element, S: tensor_typed::Shape>(typed: &Tensor<T, S>, core: &Core) {
    let t = typed.as_dyn();
    assert_eq!(t.sizes(), core.sizes(), "sizes");
    assert_eq!(t.strides(), core.strides(), "strides");
    assert_eq!(t.dtype(), core.dtype(), "dtype");
    assert_eq!(
        t.to_vec_f64().unwrap(),
        core.to_vec_f64().unwrap(),
        "values"
    );
}

fn a() -> Tensor<f32, Shape![2, 3]> {
    tensor![[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]]
}
fn b() -> Tensor<f32, Shape![3]> {
    tensor![10.0, 20.0, 30.0]
}

#[test]
fn literal_matches_from_vec() {
    let core = Core::from_vec(vec![1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3]).unwrap();
    same(&a(), &core);
}

#[test]
fn broadcast_add_matches_core_add() {
    same(&(&a() + &b()), &a().as_dyn().add(b().as_dyn()).unwrap());
}

#[test]
fn promoted_add_matches_core_add() {
    let i: Tensor<i32, Shape![2, 3]> = tensor![[1, 2, 3], [4, 5, 6]];
    let typed: Tensor<f32, Shape![2, 3]> = &i + &a();
    same(&typed, &i.as_dyn().add(a().as_dyn()).unwrap());
}

#[test]
fn sub_mul_div_match_core() {
    same(&(&a() - &b()), &a().as_dyn().sub(b().as_dyn()).unwrap());
    same(&(&a() * &b()), &a().as_dyn().mul(b().as_dyn()).unwrap());
    same(&(&a() / &b()), &a().as_dyn().div(b().as_dyn()).unwrap());
}

#[test]
fn scalar_ops_match_core() {
    same(&(&a() * 0.5f32), &a().as_dyn().mul_scalar(0.5f32).unwrap());
    same(
        &a().add_scalar(2i64),
        &a().as_dyn().add_scalar(2i64).unwrap(),
    );
}

#[test]
fn comparisons_and_where_match_core() {
    let lt = a().lt(&b());
    same(&lt, &a().as_dyn().lt(b().as_dyn()).unwrap());
    let w = lt.where_(&a(), &b());
    same(
        &w,
        &Core::where_(lt.as_dyn(), a().as_dyn(), b().as_dyn()).unwrap(),
    );
}

#[test]
fn unary_ops_match_core() {
    same(&a().neg(), &a().as_dyn().neg().unwrap());
    same(&a().exp(), &a().as_dyn().exp().unwrap());
    same(&a().relu(), &a().as_dyn().relu().unwrap());
    same(&a().sigmoid(), &a().as_dyn().sigmoid().unwrap());
}

#[test]
fn expand_is_a_stride_zero_view_like_core() {
    let e = a().expand::<Shape![4, 2, 3]>();
    same(&e, &a().as_dyn().expand(&[4, 2, 3]).unwrap());
    assert_eq!(e.strides()[0], 0);
}

#[test]
fn repeat_matches_core_repeat() {
    same(
        &a().repeat::<Shape![2, 1, 2]>(),
        &a().as_dyn().repeat(&[2, 1, 2]).unwrap(),
    );
}

#[test]
fn reshape_matches_core_reshape() {
    same(
        &a().reshape::<Shape![3, 2]>(),
        &a().as_dyn().reshape(&[3, 2]).unwrap(),
    );
    let x = Tensor::<f32, Shape![Dyn, 3]>::from_vec((0..15).map(|i| i as f32).collect(), &[5, 3])
        .unwrap();
    same(
        &x.reshape::<Shape![3, Dyn]>(),
        &x.as_dyn().reshape(&[3, -1]).unwrap(),
    );
}

#[test]
fn permute_and_t_match_core() {
    same(
        &a().permute::<Axes![1, 0]>(),
        &a().as_dyn().permute(&[1, 0]).unwrap(),
    );
    same(&a().t(), &a().as_dyn().t().unwrap());
}

#[test]
fn matmul_matches_core_matmul() {
    let p = a().t();
    same(&a().matmul(&p), &a().as_dyn().matmul(p.as_dyn()).unwrap());
    same(&b().matmul(&p), &b().as_dyn().matmul(p.as_dyn()).unwrap());
}

#[test]
fn reductions_match_core() {
    same(
        &a().sum::<Axes![1]>(),
        &a().as_dyn().sum(&[1], false).unwrap(),
    );
    same(
        &a().sum_keepdim::<Axes![0]>(),
        &a().as_dyn().sum(&[0], true).unwrap(),
    );
    same(
        &a().mean::<Axes![0, 1]>(),
        &a().as_dyn().mean(&[0, 1], false).unwrap(),
    );
    same(
        &a().amax::<Axes![1]>(),
        &a().as_dyn().amax(&[1], false).unwrap(),
    );
    same(
        &a().amin::<Axes![0]>(),
        &a().as_dyn().amin(&[0], false).unwrap(),
    );
    same(
        &a().argmax::<1>(),
        &a().as_dyn().argmax(Some(1), false).unwrap(),
    );
}

#[test]
fn int_sum_is_i64_like_core() {
    let i: Tensor<i32, Shape![2, 2]> = tensor![[1, 2], [3, 4]];
    let s: Tensor<i64, Shape![2]> = i.sum::<Axes![0]>();
    same(&s, &i.as_dyn().sum(&[0], false).unwrap());
}

#[test]
fn inplace_add_writes_like_core_add_() {
    let typed = a();
    typed.add_(&b());
    let core = a().into_dyn();
    core.add_(b().as_dyn()).unwrap();
    same(&typed, &core);
}

#[test]
fn dyn_broadcast_mismatch_reports_pytorch_message() {
    let x = Tensor::<f32, Shape![Dyn]>::from_vec(vec![0.0; 5], &[5]).unwrap();
    let y = Tensor::<f32, Shape![4]>::zeros();
    let err = x.try_add(&y).unwrap_err().to_string();
    assert!(
        err.contains("The size of tensor a (5) must match the size of tensor b (4) at non-singleton dimension 0"),
        "{err}"
    );
}

#[test]
fn check_shape_checks_dyn_dims_at_run_time() {
    let x = Tensor::<f32, Shape![Dyn, 3]>::from_vec(vec![0.0; 15], &[5, 3]).unwrap();
    assert!(x.clone().check_shape::<Shape![5, 3]>().is_ok());
    assert!(x.check_shape::<Shape![4, 3]>().is_err());
}

#[test]
fn try_from_dyn_checks_dtype_and_static_dims() {
    let core = Core::zeros(&[2, 3], DType::F32).unwrap();
    assert!(Tensor::<f32, Shape![2, 3]>::try_from_dyn(core.alias()).is_ok());
    assert!(Tensor::<f32, Shape![3, 2]>::try_from_dyn(core.alias()).is_err());
    assert!(Tensor::<i64, Shape![2, 3]>::try_from_dyn(core).is_err());
}

#[test]
fn from_vec_rejects_sizes_that_do_not_fit() {
    assert!(Tensor::<f32, Shape![Dyn, 3]>::from_vec(vec![0.0; 8], &[2, 4]).is_err());
}

#[test]
fn try_amax_over_empty_dyn_axis_is_the_core_error() {
    let m: Tensor<f32, Shape![2, Dyn]> = Tensor::zeros_with(&[2, 0]).unwrap();
    let typed = m.try_amax::<Axes![1]>().unwrap_err();
    let core = m.as_dyn().amax(&[1], false).unwrap_err();
    assert_eq!(typed, core);
    assert!(m.try_amin_keepdim::<Axes![1]>().is_err());
    // Over the non-empty axis it is an ordinary result.
    let r = m.try_amax::<Axes![0]>().unwrap();
    same(&r, &m.as_dyn().amax(&[0], false).unwrap());
}

#[test]
fn try_argmax_over_empty_dyn_axis_is_the_core_error() {
    let m: Tensor<i32, Shape![Dyn, 3]> = Tensor::zeros_with(&[0, 3]).unwrap();
    let typed = m.try_argmax::<0>().unwrap_err();
    assert_eq!(typed, m.as_dyn().argmax(Some(0), false).unwrap_err());
    assert!(m.try_argmin::<0>().is_err());
    assert!(m.try_argmax_keepdim::<0>().is_err());
    let r = m.try_argmax::<1>().unwrap();
    same(&r, &m.as_dyn().argmax(Some(1), false).unwrap());
}

#[test]
fn argmax_over_empty_dyn_axis_panics_with_the_core_message() {
    let m: Tensor<f32, Shape![Dyn]> = Tensor::zeros_with(&[0]).unwrap();
    let p = std::panic::catch_unwind(|| m.argmax::<0>()).unwrap_err();
    let msg = p
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default();
    assert!(msg.contains("argmax"), "{msg}");
}

#[test]
fn rand_with_and_randn_with_take_run_time_dims() {
    let r: Tensor<f32, Shape![Dyn, 3]> = Tensor::rand_with(&[4, 3], 7).unwrap();
    assert_eq!(r.dims(), [4, 3]);
    assert!(r.to_vec().iter().all(|v| (0.0..1.0).contains(v)));
    let n: Tensor<f32, Shape![Dyn, 3]> = Tensor::randn_with(&[4, 3], 7).unwrap();
    assert_eq!(
        n.to_vec(),
        Tensor::<f32, Shape![Dyn, 3]>::randn_with(&[4, 3], 7)
            .unwrap()
            .to_vec()
    );
    let e = Tensor::<f32, Shape![Dyn, 3]>::rand_with(&[4, 5], 7)
        .unwrap_err()
        .to_string();
    assert!(e.contains("rand_with"), "{e}");
}

#[test]
fn static_dims_beyond_a_thousand_compute_their_results() {
    let a: Tensor<f32, Shape![Dyn, 50257]> = Tensor::zeros_with(&[2, 50257]).unwrap();
    let b: Tensor<f32, Shape![50257]> = Tensor::ones();
    let c: Tensor<f32, Shape![Dyn, 50257]> = &a + &b;
    assert_eq!(c.dims(), [2, 50257]);
    assert_eq!(c.to_vec().iter().sum::<f32>(), 2.0 * 50257.0);
    let r: Tensor<f32, Shape![Dyn, 100514]> = c.repeat::<Shape![1, 2]>();
    assert_eq!(r.dims(), [2, 100514]);
}
