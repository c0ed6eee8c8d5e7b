// einops rejects this too: Unexpected identifiers on the right side of reduce sum: {'x'}
use tensor_typed::prelude::*;
use tensor_typed::Tensor;

fn main() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let _y = layout!(x, "h w -> h x", reduce = sum);
}
