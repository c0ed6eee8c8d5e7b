// The pattern written as tokens: the error points at the axis `c` itself.
use tensor_typed::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let _y = layout!(x, h w -> h w c, rearrange);
}
