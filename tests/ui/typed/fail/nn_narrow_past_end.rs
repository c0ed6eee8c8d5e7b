use tensor_typed::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![2, 4]> = Tensor::zeros();
    let _n = x.narrow::<1, 2, 3>();
}
