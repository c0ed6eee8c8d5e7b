// The pattern written as tokens: a static check points at the group it concerns.
use tensor_typed::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![6, 4]> = Tensor::zeros();
    let _y = layout!(x, (h d) w -> h d w, h = 4);
}
