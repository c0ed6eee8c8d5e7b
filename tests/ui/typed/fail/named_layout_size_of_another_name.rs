// layout! binds an axis to the input's dim: sizing it by another name is an error.
use tensor_typed::prelude::*;

dims! {
    pub Batch;
    pub Seq;
    pub Model = 64;
}

fn main() {
    let x = Tensor::<f32, Shape![Batch, Seq, Model]>::zeros_with(&[2, 16, 64]).unwrap();
    let _y = layout!(x, "b s m -> b m s", s = Batch);
}
