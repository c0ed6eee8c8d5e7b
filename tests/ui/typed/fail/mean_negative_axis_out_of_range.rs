use tensor_typed::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let _m = x.mean::<Axes![-3]>();
}
