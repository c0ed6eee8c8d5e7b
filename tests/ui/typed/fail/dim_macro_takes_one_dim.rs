use tensor_typed::prelude::*;

type Embd = Dim![768, 2];

fn main() {
    let _x: Tensor<f32, Shape![Dyn, Embd]> = Tensor::zeros_with(&[1, 768]).unwrap();
}
