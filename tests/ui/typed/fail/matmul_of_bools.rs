use tensor_typed::prelude::*;

fn main() {
    let a: Tensor<bool, Shape![2, 3]> = Tensor::zeros();
    let b: Tensor<bool, Shape![3, 4]> = Tensor::zeros();
    let _c = a.matmul(&b);
}
