// A pattern with `...` accepts every rank from its named dims up (one impl per rank):
// the error is the rank message alone, with no list of the ranks' impls.
// einops: Expected at least 3 dimensions, got 2.
use tensor_typed::prelude::*;
use tensor_typed::Tensor;

fn main() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let _y = layout!(x, "a b c ... -> ... c b a");
}
