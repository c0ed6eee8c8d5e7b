use tensor_typed::prelude::*;

fn main() {
    let logits: Tensor<f32, Shape![8, 10]> = Tensor::zeros();
    let targets: Tensor<i64, Shape![4]> = Tensor::zeros();
    let _l = nn::cross_entropy(&logits, &targets);
}
