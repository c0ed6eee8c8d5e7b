use tensor_typed::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![1, 3, 2, 2]> = Tensor::zeros();
    let _p = x.max_pool2d::<3, 1, 0>();
}
