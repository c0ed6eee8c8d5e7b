use tensor_typed::prelude::*;

fn main() {
    let fc: nn::Linear<Dim![4], Dim![3]> = nn::Linear::zeros();
    let x: Tensor<f32, Shape![Dyn, 5]> = Tensor::zeros_with(&[2, 5]).unwrap();
    let _y = fc.forward(&x);
}
