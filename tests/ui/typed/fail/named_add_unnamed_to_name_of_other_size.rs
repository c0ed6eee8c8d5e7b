// An unnamed dim on the left, a name on the right: the name prints with its size.
use tensor_typed::prelude::*;

dims! {
    pub Batch;
    pub Model = 64;
}

fn main() {
    let x = Tensor::<f32, Shape![Batch, Model]>::zeros_with(&[2, 64]).unwrap();
    let b = Tensor::<f32, Shape![32]>::zeros();
    let _y = &b + &x;
}
