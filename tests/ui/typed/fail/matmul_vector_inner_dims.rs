use tensor_typed::prelude::*;

fn main() {
    let a: Tensor<f32, Shape![3]> = Tensor::zeros();
    let b: Tensor<f32, Shape![4]> = Tensor::zeros();
    let _m = a.matmul(&b);
}
