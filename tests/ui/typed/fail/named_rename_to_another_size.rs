// rename changes names, never sizes: a merge of 64 cannot be named `Hidden` (128).
use tensor_typed::prelude::*;

dims! {
    pub Batch;
    pub Seq;
    pub Heads = 4;
    pub HeadDim = 16;
    pub Hidden = 128;
}

fn main() {
    let o = Tensor::<f32, Shape![Batch, Heads, Seq, HeadDim]>::zeros_with(&[2, 4, 16, 16]).unwrap();
    let merged = layout!(o, "b h s d -> b s (h d)");
    let _y = merged.rename::<Shape![Batch, Seq, Hidden]>();
}
