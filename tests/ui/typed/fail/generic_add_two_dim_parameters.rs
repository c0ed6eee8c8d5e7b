// Two different dim type parameters never broadcast, whatever they are instantiated with.
use tensor_typed::prelude::*;

fn add<N: Dim, H: Dim, W: Dim>(
    x: &Tensor<f32, Shape![N, H]>,
    y: &Tensor<f32, Shape![N, W]>,
) -> Tensor<f32, Shape![N, H]> {
    x.add(y)
}

fn main() {}
