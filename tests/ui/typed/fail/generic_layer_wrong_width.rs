use tensor_typed::prelude::*;
use tensor_typed::shape::matmul_dims::{CanMatmul, MatmulOut};

fn project<S, I: Dim, O: Dim>(x: &Tensor<f32, S>, w: &Tensor<f32, (I, O)>) -> Tensor<f32, MatmulOut<S, (I, O)>>
where
    S: CanMatmul<(I, O)>,
{
    x.matmul(w)
}

fn main() {
    let x: Tensor<f32, Shape![Dyn, 3]> = Tensor::zeros_with(&[2, 3]).unwrap();
    let w: Tensor<f32, Shape![4, 5]> = Tensor::zeros();
    let _y = project(&x, &w);
}
