use tensor_typed::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![4, 16, 16]> = Tensor::zeros();
    let mask: Tensor<bool, Shape![16, 8]> = Tensor::zeros();
    let _m = x.masked_fill(&mask, f32::NEG_INFINITY);
}
