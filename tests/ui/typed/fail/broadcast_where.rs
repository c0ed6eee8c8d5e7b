use tensor_typed::prelude::*;

fn main() {
    let c: Tensor<bool, Shape![2, 3]> = Tensor::zeros();
    let x: Tensor<f32, Shape![3]> = Tensor::zeros();
    let y: Tensor<f32, Shape![2]> = Tensor::zeros();
    let _w = c.where_(&x, &y);
}
