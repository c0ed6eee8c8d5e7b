use tensor_typed::prelude::*;

fn main() {
    let a: Tensor<f32, Shape![3]> = Tensor::zeros();
    let _e = a.expand::<Shape![Dyn, 3]>();
}
