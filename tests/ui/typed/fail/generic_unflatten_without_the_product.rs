// In generic code a dim is the product of two others only when the code says so: `E` is
// not known to be `H · D` (write the dim as `H * D`, or bound `E: ProductOf<H, D>`).
use tensor_typed::prelude::*;

fn split<B: Dim, H: Dim, D: Dim, E: Dim>(
    x: &Tensor<f32, Shape![B, E]>,
) -> Tensor<f32, Shape![B, H, D]> {
    x.unflatten::<1, H, D>()
}

fn main() {}
