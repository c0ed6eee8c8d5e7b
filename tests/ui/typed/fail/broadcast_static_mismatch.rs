use tensor_typed::prelude::*;

fn main() {
    let a: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let b: Tensor<f32, Shape![2]> = Tensor::zeros();
    let _c = &a + &b;
}
