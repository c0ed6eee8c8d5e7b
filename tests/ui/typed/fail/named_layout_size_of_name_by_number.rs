// layout! binds an axis to the input's dim: a number that is not the name's size is an
// error, which prints the name with its size.
use tensor_typed::prelude::*;

dims! {
    pub Batch;
    pub Seq;
    pub Model = 64;
}

fn main() {
    let x = Tensor::<f32, Shape![Batch, Seq, Model]>::zeros_with(&[2, 16, 64]).unwrap();
    let _y = layout!(x, "b s m -> b m s", m = 32);
}
