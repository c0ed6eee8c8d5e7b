use tensor_typed::prelude::*;

fn main() {
    let a = Tensor::<f32, Shape![Dyn, 64]>::zeros_with(&[8, 64]).unwrap();
    let w: Tensor<f32, Shape![32, 10]> = Tensor::zeros();
    let _m = a.matmul(&w);
}
