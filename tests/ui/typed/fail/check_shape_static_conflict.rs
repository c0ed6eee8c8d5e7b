use tensor_typed::prelude::*;

fn main() {
    let a = Tensor::<f32, Shape![2, Dyn]>::zeros_with(&[2, 5]).unwrap();
    let _b: Tensor<f32, Shape![3, 5]> = a.check_shape().unwrap();
}
