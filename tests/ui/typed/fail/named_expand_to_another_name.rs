// expand can only grow an unnamed 1: a named dim never becomes another name.
use tensor_typed::prelude::*;

dims! {
    pub Batch;
    pub Seq;
}

fn main() {
    let a = Tensor::<f32, Shape![Seq, 8]>::zeros_with(&[3, 8]).unwrap();
    let _b = a.expand::<Shape![Batch, 8]>();
}
