use tensor_typed::prelude::*;

fn main() {
    let a: Tensor<bool, Shape![3]> = Tensor::zeros();
    let b: Tensor<f32, Shape![3]> = Tensor::zeros();
    let _d = b.sub(&a);
}
