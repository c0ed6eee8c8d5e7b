//! The paths the digits MLP uses: [Dyn, 64] x [64, 64], bias add, relu, softmax-style
//! ops, transposes, scalar ops, SGD in place, argmax / eq.
use tensor_typed::prelude::*;

fn main() -> tensor_core::Result<()> {
    let w1: Tensor<f32, Shape![64, 64]> = Tensor::randn(0);
    let b1: Tensor<f32, Shape![64]> = Tensor::zeros();
    let w2: Tensor<f32, Shape![64, 10]> = Tensor::randn(1);
    let x = Tensor::<f32, Shape![Dyn, 64]>::zeros_with(&[32, 64])?;
    let h: Tensor<f32, Shape![Dyn, 64]> = (&x.matmul(&w1) + &b1).relu();
    let logits: Tensor<f32, Shape![Dyn, 10]> = h.matmul(&w2);
    let max: Tensor<f32, Shape![Dyn, 1]> = logits.amax_keepdim::<Axes![1]>();
    let e = (&logits - &max).exp();
    let probs: Tensor<f32, Shape![Dyn, 10]> = &e / &e.sum_keepdim::<Axes![1]>();
    let labels = Tensor::<i64, Shape![Dyn]>::from_vec(vec![3; 32], &[32])?;
    let onehot_dyn = tensor_core::Tensor::zeros(&[32, 10], tensor_core::DType::F32)?;
    let onehot: Tensor<f32, Shape![Dyn, 10]> = Tensor::try_from_dyn(onehot_dyn)?;
    let grad_logits = (&probs - &onehot).mul_scalar(1.0f32 / 32.0);
    let grad_w2: Tensor<f32, Shape![64, 10]> = h.t().matmul(&grad_logits);
    let grad_b: Tensor<f32, Shape![64]> = h.sum::<Axes![0]>();
    w2.sub_(&(&grad_w2 * 0.1f32));
    b1.sub_(&grad_b.mul_scalar(0.1f32));
    let pred: Tensor<i64, Shape![Dyn]> = probs.argmax::<1>();
    let correct: Tensor<bool, Shape![Dyn]> = pred.eq(&labels);
    let _acc: Tensor<f32, Shape![]> = correct.cast::<f32>().mean_all();
    Ok(())
}
