// A name against an unnamed dim of another size: the name prints with its size, the
// unnamed dim as itself.
use tensor_typed::prelude::*;

dims! {
    pub Batch;
    pub HeadDim = 16;
}

fn main() {
    let x = Tensor::<f32, Shape![Batch, HeadDim]>::zeros_with(&[2, 16]).unwrap();
    let w = Tensor::<f32, Shape![32, 8]>::zeros();
    let _y = x.matmul(&w);
}
