use tensor_typed::prelude::*;

fn main() {
    let a: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let b: Tensor<f32, Shape![4, 5]> = Tensor::zeros();
    let _c = Tensor::cat::<1>((&a, &b));
}
