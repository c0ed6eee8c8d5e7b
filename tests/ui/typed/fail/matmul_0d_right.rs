use tensor_typed::prelude::*;

fn main() {
    let a: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let b: Tensor<f32, Shape![]> = Tensor::zeros();
    let _m = a.try_matmul(&b);
}
