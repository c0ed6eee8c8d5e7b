// `Model` is declared `Heads * HeadDim`: heads merged as `(d h)` interleave the heads'
// features in another order, and the product of the merge says so.
use tensor_typed::prelude::*;

dims! {
    pub Batch;
    pub Seq;
    pub Heads = 4;
    pub HeadDim = 16;
    pub Model = Heads * HeadDim;
}

fn main() {
    let o = Tensor::<f32, Shape![Batch, Heads, Seq, HeadDim]>::zeros_with(&[2, 4, 3, 16]).unwrap();
    let _y: Tensor<f32, Shape![Batch, Seq, Model]> = layout!(o, "b h s d -> b s (d h)");
}
