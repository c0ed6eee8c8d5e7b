// einops rejects this too: Ellipsis found in right side, but not left side of a pattern h w -> ... h w
use tensor_typed::prelude::*;
use tensor_typed::Tensor;

fn main() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let _y = layout!(x, "h w -> ... h w");
}
