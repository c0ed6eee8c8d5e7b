use tensor_typed::prelude::*;

fn main() {
    let a: Tensor<bool, Shape![3]> = Tensor::zeros();
    let b: Tensor<i32, Shape![3]> = Tensor::zeros();
    a.mul_(&b);
}
