use tensor_typed::prelude::*;

fn main() {
    let a: Tensor<f32, Shape![1, 3]> = Tensor::zeros();
    let b: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    a.add_(&b);
}
