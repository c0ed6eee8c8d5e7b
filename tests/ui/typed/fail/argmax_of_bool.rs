use tensor_typed::prelude::*;

fn main() {
    let m: Tensor<bool, Shape![2, Dyn]> = Tensor::zeros_with(&[2, 0]).unwrap();
    let _i = m.argmax::<1>();
}
