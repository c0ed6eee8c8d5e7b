use tensor_typed::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![8, 4, 28, 28]> = Tensor::zeros();
    let w: Tensor<f32, Shape![16, 3, 3, 3]> = Tensor::zeros();
    let _y = x.conv2d::<1, 1, 1, 1>(&w, None);
}
