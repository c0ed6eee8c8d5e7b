// A broadcast mistake is reported once: the code that uses the result does not add a
// second, misleading error.
use tensor_typed::prelude::*;

fn main() {
    let q: Tensor<f32, Shape![4, 16, 16]> = Tensor::zeros();
    let mask: Tensor<f32, Shape![16, 8]> = Tensor::zeros();
    let scores = &q + &mask;
    let probs: Tensor<f32, Shape![4, 16, 16]> = &scores * &q;
    let _ = probs;
}
