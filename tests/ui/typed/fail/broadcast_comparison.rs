use tensor_typed::prelude::*;

fn main() {
    let a: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let b: Tensor<i64, Shape![3, 2]> = Tensor::zeros();
    let _c = a.lt(&b);
}
