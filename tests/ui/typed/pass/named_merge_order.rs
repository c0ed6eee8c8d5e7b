// A merge of two names is their product in order (`Merged<Heads, HeadDim>`): it is the
// dim declared `Heads * HeadDim`, meets a name declared by its size (`Embd = 64`) and an
// unnamed 64 by size, and an annotation by its size drops its name.
use tensor_typed::prelude::*;

dims! {
    pub Batch;
    pub Seq;
    pub Heads = 4;
    pub HeadDim = 16;
    pub Model = Heads * HeadDim;
    pub Embd = 64;
}

fn main() {
    let o = Tensor::<f32, Shape![Batch, Heads, Seq, HeadDim]>::zeros_with(&[2, 4, 3, 16]).unwrap();
    let y: Tensor<f32, Shape![Batch, Seq, Model]> = layout!(o, "b h s d -> b s (h d)");
    let w = Tensor::<f32, Shape![Model, 8]>::zeros();
    let _: Tensor<f32, Shape![Batch, Seq, 8]> = y.matmul(&w);
    let e = Tensor::<f32, Shape![Embd, 8]>::zeros();
    let _: Tensor<f32, Shape![Batch, Seq, 8]> = y.matmul(&e);
    let b = Tensor::<f32, Shape![64]>::zeros();
    let _: Tensor<f32, Shape![Batch, Seq, Model]> = &y + &b;
    let _u: Tensor<f32, Shape![Batch, Seq, 64]> = layout!(o, "b h s d -> b s (d h)");
    let split: Tensor<f32, Shape![Batch, Seq, Heads, HeadDim]> =
        layout!(y, "b s (h d) -> b s h d", h = Heads, d = HeadDim);
    assert_eq!(split.dims(), &[2, 3, 4, 16]);
    assert_eq!(<Model as NamedDim>::SIZE, 64);
}
