// einops rejects this too: Ellipsis inside parenthesis in the left side is not allowed: (a ...) c -> a c
use tensor_typed::prelude::*;
use tensor_typed::Tensor;

fn main() {
    let x: Tensor<f32, Shape![2, 3, 4]> = Tensor::zeros();
    let _y = layout!(x, "(a ...) c -> a c");
}
