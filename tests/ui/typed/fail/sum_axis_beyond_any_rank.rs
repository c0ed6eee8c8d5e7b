use tensor_typed::prelude::*;

fn main() {
    // No typed shape has 71 dims: the axis is rejected before any shape is consulted.
    let a: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let _s = a.sum::<Axes![70]>();
}
