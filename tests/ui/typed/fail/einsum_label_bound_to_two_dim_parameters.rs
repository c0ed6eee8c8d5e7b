// In generic code two different dim parameters are never one label's dim.
use tensor_typed::prelude::*;

fn project<B: Dim, H: Dim, W: Dim, O: Dim>(
    x: &Tensor<f32, Shape![B, H]>,
    w: &Tensor<f32, Shape![W, O]>,
) -> Tensor<f32, Shape![B, O]> {
    einsum!("b h, h o -> b o", x, w)
}

fn main() {}
