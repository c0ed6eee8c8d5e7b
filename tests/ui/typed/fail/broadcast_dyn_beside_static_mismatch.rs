use tensor_typed::prelude::*;

fn main() {
    let x = Tensor::<f32, Shape![Dyn, 3]>::zeros_with(&[5, 3]).unwrap();
    let b: Tensor<f32, Shape![4]> = Tensor::zeros();
    let _y = &x + &b;
}
