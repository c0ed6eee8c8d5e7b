// q·k without the transpose, at seq = head dim = 16 (both static): the sizes agree, the
// names do not.
use tensor_typed::prelude::*;

dims! {
    pub Batch;
    pub Heads = 4;
    pub Seq = 16;
    pub HeadDim = 16;
}

fn main() {
    let q = Tensor::<f32, Shape![Batch, Heads, Seq, HeadDim]>::zeros_with(&[2, 4, 16, 16]).unwrap();
    let k = q.clone();
    let _scores = q.matmul(&k);
}
