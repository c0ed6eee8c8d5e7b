// A layout! merge is unnamed; an annotation may name it, but only at its size: `(h d)`
// is 64, not `HeadDim` (16).
use tensor_typed::prelude::*;

dims! {
    pub Batch;
    pub Seq;
    pub Heads = 4;
    pub HeadDim = 16;
}

fn main() {
    let o = Tensor::<f32, Shape![Batch, Heads, Seq, HeadDim]>::zeros_with(&[2, 4, 16, 16]).unwrap();
    let _y: Tensor<f32, Shape![Batch, Seq, HeadDim]> = layout!(o, "b h s d -> b s (h d)");
}
