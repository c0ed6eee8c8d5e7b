use tensor_typed::prelude::*;

fn main() {
    let _a: Tensor<f32, Shape![-1, 3]> = Tensor::zeros();
}
