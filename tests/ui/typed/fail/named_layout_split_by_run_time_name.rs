// A name that sizes part of a group must be static: nothing would check a run-time one.
use tensor_typed::prelude::*;

dims! {
    pub Batch;
    pub Seq;
    pub Model = 64;
}

fn main() {
    let x = Tensor::<f32, Shape![Batch, Seq, Model]>::zeros_with(&[2, 16, 64]).unwrap();
    let _y = layout!(x, "b s (h d) -> b h s d", d = Seq);
}
