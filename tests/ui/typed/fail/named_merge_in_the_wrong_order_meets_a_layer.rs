// Without an annotation, the wrong merge order is caught where the merge meets a dim
// declared as the product in the other order.
use tensor_typed::prelude::*;

dims! {
    pub Batch;
    pub Seq;
    pub KvHeads = 2;
    pub Rep = 4;
    pub Heads = KvHeads * Rep;
}

fn main() {
    let q = Tensor::<f32, Shape![Batch, KvHeads, Rep, Seq]>::zeros_with(&[1, 2, 4, 3]).unwrap();
    let grouped = layout!(q, "b g r s -> b s (r g)");
    let w = Tensor::<f32, Shape![Heads, 8]>::zeros();
    let _y = grouped.matmul(&w);
}
