// PyTorch rejects this too: mean(): could not infer output dtype. Input dtype must be
// either a floating point or complex dtype.
use tensor_typed::prelude::*;
use tensor_typed::Tensor;

fn main() {
    let x: Tensor<i64, Shape![2, 3]> = Tensor::zeros();
    let _y = layout!(x, "h w -> h", reduce = mean);
}
