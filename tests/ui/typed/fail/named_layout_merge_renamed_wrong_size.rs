// A layout! merge is unnamed; naming it with a name of another size is an error.
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
