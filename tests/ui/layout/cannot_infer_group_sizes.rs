// einops rejects this too: Could not infer sizes for {'h', 'd'}
use tensor_typed::prelude::*;
use tensor_typed::Tensor;

fn main() {
    let x: Tensor<f32, Shape![6, 4]> = Tensor::zeros();
    let _y = layout!(x, "(h d) w -> h d w");
}
