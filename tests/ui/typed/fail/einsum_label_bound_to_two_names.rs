// Keys not transposed: label `d` is HeadDim in the queries but Seq in the keys.
use tensor_typed::prelude::*;

dims! {
    pub Heads = 2;
    pub Seq = 16;
    pub HeadDim = 16;
}

fn main() {
    let q = Tensor::<f32, Shape![Heads, Seq, HeadDim]>::zeros();
    let k = Tensor::<f32, Shape![Heads, HeadDim, Seq]>::zeros();
    let _s = einsum!("h s d, h t d -> h s t", q, k);
}
