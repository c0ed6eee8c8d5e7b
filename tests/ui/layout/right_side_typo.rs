use tensor_typed::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![2, 16, 64]> = Tensor::zeros();
    let _y = layout!(x, "b s (h d) -> b h s e", h = 4);
}
