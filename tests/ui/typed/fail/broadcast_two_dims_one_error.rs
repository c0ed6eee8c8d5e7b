use tensor_typed::prelude::*;

// Two mismatching dims make one error, naming the last one (as PyTorch's infer_size).
fn main() {
    let a: Tensor<f32, Shape![4, 2, 3]> = Tensor::zeros();
    let b: Tensor<f32, Shape![5, 2, 7]> = Tensor::zeros();
    let _c = &a * &b;
}
