use tensor_typed::prelude::*;

fn main() {
    let ids: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let w: Tensor<f32, Shape![10, 4]> = Tensor::zeros();
    let _h = nn::embedding(&ids, &w);
}
