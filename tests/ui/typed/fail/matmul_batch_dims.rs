use tensor_typed::prelude::*;

fn main() {
    let a: Tensor<f32, Shape![2, 3, 4]> = Tensor::zeros();
    let b: Tensor<f32, Shape![5, 4, 6]> = Tensor::zeros();
    let _m = a.matmul(&b);
}
