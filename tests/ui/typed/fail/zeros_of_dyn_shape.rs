use tensor_typed::prelude::*;

fn main() {
    let _a: Tensor<f32, Shape![Dyn, 3]> = Tensor::zeros();
}
