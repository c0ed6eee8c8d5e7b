// A layout! result keeps the input's names: swapping `Batch` and `Seq` and annotating
// the result in the old order is a compile error, though both are run-time dims.
use tensor_typed::prelude::*;

dims! {
    pub Batch;
    pub Seq;
    pub Model = 64;
}

fn main() {
    let x = Tensor::<f32, Shape![Batch, Seq, Model]>::zeros_with(&[2, 16, 64]).unwrap();
    let _y: Tensor<f32, Shape![Batch, Seq, Model]> = layout!(x, "b s m -> s b m");
}
