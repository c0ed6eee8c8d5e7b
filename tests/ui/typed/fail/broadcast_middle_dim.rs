use tensor_typed::prelude::*;

fn main() {
    let a: Tensor<f32, Shape![2, 3, 4]> = Tensor::zeros();
    let b: Tensor<f32, Shape![5, 1]> = Tensor::zeros();
    let _c = a.mul(&b);
}
