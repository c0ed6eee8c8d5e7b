//! The nn ops under the autograd engine beyond the golden cases: half precision, the
//! saved-tensor version check, in-place `masked_fill_`, `no_grad`, grad_fn names.

use crate::autograd::no_grad;
use crate::dtype::DType;
use crate::nn::{self, GeluApproximate, Reduction};
use crate::tensor::Tensor;

fn leaf(v: Vec<f32>, sizes: &[usize]) -> Tensor {
    Tensor::from_vec(v, sizes)
        .unwrap()
        .requires_grad_(true)
        .unwrap()
}

fn close(a: &[f64], b: &[f64], tol: f64) {
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(b) {
        assert!((x - y).abs() <= tol * y.abs().max(1.0), "{x} vs {y}");
    }
}

#[test]
fn bf16_and_f16_gradients_follow_the_f32_ones() {
    let v: Vec<f32> = (0..12).map(|i| (i as f32 - 5.0) / 4.0).collect();
    let x32 = leaf(v.clone(), &[3, 4]);
    nn::softmax(&nn::gelu(&x32, GeluApproximate::Tanh).unwrap(), 1)
        .unwrap()
        .mul(&Tensor::from_vec(v.clone(), &[3, 4]).unwrap())
        .unwrap()
        .sum(&[], false)
        .unwrap()
        .backward()
        .unwrap();
    let want = x32.grad().unwrap().to_vec_f64().unwrap();
    for dt in [DType::BF16, DType::F16] {
        let x = Tensor::from_vec(v.clone(), &[3, 4])
            .unwrap()
            .to_dtype(dt)
            .unwrap()
            .requires_grad_(true)
            .unwrap();
        let w = Tensor::from_vec(v.clone(), &[3, 4])
            .unwrap()
            .to_dtype(dt)
            .unwrap();
        nn::softmax(&nn::gelu(&x, GeluApproximate::Tanh).unwrap(), 1)
            .unwrap()
            .mul(&w)
            .unwrap()
            .sum(&[], false)
            .unwrap()
            .backward()
            .unwrap();
        let g = x.grad().unwrap();
        assert_eq!(g.dtype(), dt);
        close(&g.to_vec_f64().unwrap(), &want, 3e-2);
    }
}

#[test]
fn gelu_input_changed_in_place_fails_backward() {
    let x = leaf(vec![0.5, -1.0, 2.0], &[3]);
    let h = x.mul_scalar(1.0).unwrap();
    let y = nn::gelu(&h, GeluApproximate::None).unwrap();
    h.add_(&Tensor::from_vec(vec![1.0f32; 3], &[3]).unwrap())
        .unwrap();
    let e = y.sum(&[], false).unwrap().backward().unwrap_err();
    assert!(e
        .to_string()
        .contains("one of the variables needed for gradient computation has been modified by an inplace operation"));
}

#[test]
fn masked_fill_in_place_on_a_non_leaf_records_its_history() {
    let x = leaf(vec![1.0, 2.0, 3.0, 4.0], &[2, 2]);
    let h = x.mul_scalar(2.0).unwrap();
    let mask = Tensor::from_vec(vec![true, false], &[2]).unwrap();
    h.masked_fill_(&mask, f32::NEG_INFINITY).unwrap();
    assert_eq!(h.grad_fn_name(), Some("MaskedFillBackward0"));
    nn::softmax(&h, 1)
        .unwrap()
        .select(1, 1)
        .unwrap()
        .sum(&[], false)
        .unwrap()
        .backward()
        .unwrap();
    // The masked column gets no gradient; softmax of [-inf, a] is [0, 1]: d/da = 0.
    assert_eq!(x.grad().unwrap().to_vec::<f32>().unwrap(), vec![0.0; 4]);
    let e = x.masked_fill_(&mask, 0.0).unwrap_err();
    assert!(e
        .to_string()
        .contains("a leaf Variable that requires grad is being used in an in-place operation."));
}

#[test]
fn no_grad_records_nothing_and_names_follow_pytorch() {
    let x = leaf(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3]);
    let y = no_grad(|| nn::log_softmax(&x, 1).unwrap());
    assert!(!y.requires_grad());
    let t = Tensor::from_vec(vec![0i64, 2], &[2]).unwrap();
    let names = [
        (nn::softmax(&x, 1).unwrap(), "SoftmaxBackward0"),
        (nn::log_softmax(&x, 1).unwrap(), "LogSoftmaxBackward0"),
        (
            nn::cross_entropy(&x, &t, Reduction::Mean).unwrap(),
            "NllLossBackward0",
        ),
        (
            nn::layer_norm(&x, &[3], None, None, 1e-5).unwrap(),
            "NativeLayerNormBackward0",
        ),
        (x.var(&[1], 1, false).unwrap(), "VarBackward0"),
        (x.tril(0).unwrap(), "TrilBackward0"),
        (Tensor::cat(&[&x, &x], 0).unwrap(), "CatBackward0"),
    ];
    for (t, name) in names {
        assert_eq!(t.grad_fn_name(), Some(name));
    }
}
