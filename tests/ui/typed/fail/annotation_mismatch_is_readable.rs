use tensor_typed::prelude::*;

fn main() {
    let _a: Tensor<f32, Shape![3, 2]> = tensor![[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]];
}
