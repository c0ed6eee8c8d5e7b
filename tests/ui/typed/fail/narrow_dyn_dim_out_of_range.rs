use tensor_typed::prelude::*;

fn main() {
    let a: Tensor<f32, Shape![Dyn, 3]> = Tensor::zeros_with(&[4, 3]).unwrap();
    let _r = a.narrow_dyn::<-3>(1, 2);
}
