use tensor_typed::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![Dyn, 16, 64]> = Tensor::zeros_with(&[2, 16, 64]).unwrap();
    let g: Tensor<f32, Shape![63]> = Tensor::ones();
    let b: Tensor<f32, Shape![63]> = Tensor::zeros();
    let _y = nn::layer_norm(&x, &g, &b, 1e-5);
}
