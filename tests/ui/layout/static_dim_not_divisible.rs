// einops rejects this too: Shape mismatch, can't divide axis of length 2 in chunks of 4
use tensor_typed::prelude::*;
use tensor_typed::Tensor;

fn main() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let _y = layout!(x, "(h d) w -> h d w", h = 4);
}
