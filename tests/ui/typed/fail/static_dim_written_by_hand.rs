// `D<N>` holds 0..=999; larger sizes are written inside `Shape![..]`.
use tensor_typed::prelude::*;

fn main() {
    let a: Tensor<f32, (D<5000>,)> = Tensor::zeros();
    let b: Tensor<f32, Shape![5000]> = Tensor::zeros();
    let _c = &a + &b;
}
