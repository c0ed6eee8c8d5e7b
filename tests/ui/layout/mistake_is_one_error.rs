// A layout! mistake is reported once: the use of its result adds no second error.
use tensor_typed::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![2, 16, 60]> = Tensor::zeros();
    let heads = layout!(x, "b s (h d) -> b h s d", h = 8);
    let _y: Tensor<f32, Shape![2, 8, 16, 8]> = heads;
}
