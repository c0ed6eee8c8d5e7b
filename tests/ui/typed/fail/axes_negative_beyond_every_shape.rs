use tensor_typed::prelude::*;

fn main() {
    let a: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let _p = a.permute::<Axes![-9, 0]>();
}
