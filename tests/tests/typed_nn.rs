//! The typed model ops: output shapes computed by the compiler, values from the runtime
//! (each compared with a direct runtime call or a hand-computed value).

use tensor_typed::prelude::*;

fn arange<S: tensor_typed::Shape>(dims: &[usize]) -> Tensor<f32, S> {
    let n: usize = dims.iter().product();
    Tensor::from_vec((0..n).map(|i| i as f32).collect(), dims).expect("arange")
}

#[test]
fn transpose_unsqueeze_squeeze_narrow_with_signed_dims() {
    let x: Tensor<f32, Shape![2, 3, 4]> = arange(&[2, 3, 4]);
    let t: Tensor<f32, Shape![2, 4, 3]> = x.transpose::<-2, -1>();
    assert_eq!(
        t.to_vec(),
        x.as_dyn()
            .transpose(1, 2)
            .unwrap()
            .contiguous()
            .unwrap()
            .to_vec::<f32>()
            .unwrap()
    );
    let u: Tensor<f32, Shape![2, 3, 4, 1]> = x.unsqueeze::<-1>();
    let q: Tensor<f32, Shape![2, 3, 4]> = u.squeeze::<3>();
    assert_eq!(q.to_vec(), x.to_vec());
    let n: Tensor<f32, Shape![2, 3, 2]> = x.narrow::<-1, 1, 2>();
    assert_eq!(n.to_vec()[..2], [1.0, 2.0]);
}

#[test]
fn squeeze_of_a_dyn_dim_that_is_not_one_is_an_error() {
    let x: Tensor<f32, Shape![Dyn, 3]> = arange(&[2, 3]);
    let e = x.try_squeeze::<0>();
    assert!(e.is_err());
    let y: Tensor<f32, Shape![Dyn, 3]> = arange(&[1, 3]);
    let s: Tensor<f32, Shape![3]> = y.try_squeeze::<0>().unwrap();
    assert_eq!(s.to_vec(), [0.0, 1.0, 2.0]);
}

#[test]
fn cat_and_stack_compute_their_shapes() {
    let a: Tensor<f32, Shape![2, 3]> = arange(&[2, 3]);
    let b: Tensor<f32, Shape![2, 5]> = arange(&[2, 5]);
    let c: Tensor<f32, Shape![2, 8]> = Tensor::cat::<1>((&a, &b));
    assert_eq!(c.to_vec()[..4], [0.0, 1.0, 2.0, 0.0]);
    let d: Tensor<f32, Shape![2, 11]> = Tensor::cat::<-1>((&a, &b, &a));
    assert_eq!(d.dims(), [2, 11]);
    let s: Tensor<f32, Shape![3, 2, 3]> = Tensor::stack::<0>([&a, &a, &a]);
    assert_eq!(s.dims(), [3, 2, 3]);
    let x: Tensor<f32, Shape![Dyn, 3]> = arange(&[4, 3]);
    let y: Tensor<f32, Shape![Dyn, 3]> = Tensor::cat::<0>((&x, &a.widen::<Shape![Dyn, 3]>()));
    assert_eq!(y.dims(), [6, 3]);
    let z: Tensor<f32, Shape![Dyn, 3]> = arange(&[4, 3]);
    let short: Tensor<f32, Shape![Dyn, 3]> = arange(&[2, 3]);
    assert!(Tensor::<f32, Shape![2, Dyn, 3]>::try_stack::<0>([&short, &z]).is_err());
}

#[test]
fn conv2d_and_pools_compute_output_sizes() {
    let x = Tensor::<f32, Shape![Dyn, 3, 8, 8]>::zeros_with(&[2, 3, 8, 8]).unwrap();
    let w: Tensor<f32, Shape![4, 3, 3, 3]> = Tensor::ones();
    let y: Tensor<f32, Shape![Dyn, 4, 8, 8]> = x.conv2d::<1, 1, 1, 1>(&w, None);
    assert_eq!(y.dims(), [2, 4, 8, 8]);
    let s: Tensor<f32, Shape![Dyn, 4, 3, 3]> =
        nn::conv2d::<2, 0, 1, 1, _, _, _>(&x, &w, Some(&Tensor::ones()));
    assert!(s.to_vec().iter().all(|&v| v == 1.0));
    let m: Tensor<f32, Shape![Dyn, 4, 4, 4]> = y.max_pool2d::<2, 2, 0>();
    let a: Tensor<f32, Shape![Dyn, 4, 4, 4]> = nn::avg_pool2d::<3, 2, 1, _, _>(&y);
    assert_eq!(m.dims(), a.dims());
}

#[test]
fn embedding_appends_the_embedding_dim() {
    let ids: Tensor<i64, Shape![2, 3]> = Tensor::from_vec(vec![0, 1, 2, 2, 1, 0], &[2, 3]).unwrap();
    let w: Tensor<f32, Shape![3, 4]> = arange(&[3, 4]);
    let h: Tensor<f32, Shape![2, 3, 4]> = nn::embedding(&ids, &w);
    assert_eq!(h.to_vec()[4..8], [4.0, 5.0, 6.0, 7.0]);
    let bad: Tensor<i64, Shape![1]> = Tensor::from_vec(vec![3], &[1]).unwrap();
    let e = nn::try_embedding(&bad, &w).unwrap_err().to_string();
    assert!(e.contains("index out of range in self"), "{e}");
}

#[test]
fn softmax_activations_and_norms_keep_the_shape() {
    let x: Tensor<f32, Shape![Dyn, 4]> = arange(&[2, 4]);
    let p: Tensor<f32, Shape![Dyn, 4]> = x.softmax::<-1>();
    let row: f32 = p.to_vec()[..4].iter().sum();
    assert!((row - 1.0).abs() < 1e-6);
    let lp = x.log_softmax::<1>();
    assert!((lp.to_vec()[3] - p.to_vec()[3].ln()).abs() < 1e-5);
    assert_eq!(x.gelu().dims(), [2, 4]);
    assert_eq!(x.gelu_tanh().dims(), [2, 4]);
    assert!((x.silu().to_vec()[1] - 1.0 / (1.0 + (-1.0f32).exp())).abs() < 1e-6);
    let g: Tensor<f32, Shape![4]> = Tensor::ones();
    let b: Tensor<f32, Shape![4]> = Tensor::zeros();
    let y: Tensor<f32, Shape![Dyn, 4]> = nn::layer_norm(&x, &g, &b, 1e-5);
    assert!(y.to_vec()[..4].iter().sum::<f32>().abs() < 1e-5);
    let v: Tensor<f32, Shape![Dyn]> = x.var::<Axes![1]>(1);
    assert!((v.to_vec()[0] - 5.0 / 3.0).abs() < 1e-5);
    let vk: Tensor<f32, Shape![Dyn, 1]> = x.var_keepdim::<Axes![1]>(0);
    assert!((vk.to_vec()[0] - 1.25).abs() < 1e-5);
}

#[test]
fn causal_mask_and_cross_entropy() {
    let s: Tensor<f32, Shape![3, 3]> = Tensor::ones();
    let lower: Tensor<f32, Shape![3, 3]> = s.tril::<0>();
    assert_eq!(
        lower.to_vec(),
        [1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0]
    );
    let zero: Tensor<f32, Shape![3, 3]> = Tensor::zeros();
    let mask: Tensor<bool, Shape![3, 3]> = lower.eq(&zero);
    let m = s.masked_fill(&mask, f32::NEG_INFINITY);
    assert_eq!(m.to_vec()[1], f32::NEG_INFINITY);
    assert_eq!(s.triu::<1>().to_vec()[1], 1.0);
    let logits: Tensor<f32, Shape![Dyn, 3]> = Tensor::zeros_with(&[2, 3]).unwrap();
    let t: Tensor<i64, Shape![Dyn]> = Tensor::from_vec(vec![0, 2], &[2]).unwrap();
    let l: Tensor<f32, Shape![]> = nn::cross_entropy(&logits, &t);
    assert!((l.item().unwrap() - 3f32.ln()).abs() < 1e-6);
    let bad: Tensor<i64, Shape![Dyn]> = Tensor::from_vec(vec![0, 3], &[2]).unwrap();
    assert!(nn::try_cross_entropy(&logits, &bad).is_err());
}
