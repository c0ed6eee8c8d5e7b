// q·k without the transpose with a run-time `Seq`: `Dyn` would defer the check to run
// time; a named run-time dim is still a name.
use tensor_typed::prelude::*;

dims! {
    pub Batch;
    pub Seq;
    pub Heads = 4;
    pub HeadDim = 16;
}

fn main() {
    let q = Tensor::<f32, Shape![Batch, Heads, Seq, HeadDim]>::zeros_with(&[2, 4, 16, 16]).unwrap();
    let k = q.clone();
    let _scores = q.matmul(&k);
}
