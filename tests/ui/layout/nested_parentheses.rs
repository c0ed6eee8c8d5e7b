// einops rejects this too: Axis composition is one-level (brackets inside brackets not allowed)
use tensor_typed::prelude::*;
use tensor_typed::Tensor;

fn main() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let _y = layout!(x, "((h w)) -> h w");
}
