use tensor_typed::prelude::*;

fn main() {
    let a: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let _e = a.expand::<Shape![3]>();
}
