use tensor_typed::prelude::*;

#[derive(Params)]
enum Model {
    Small(Tensor<f32, Shape![2]>),
    Large(Tensor<f32, Shape![4]>),
}

#[derive(Params)]
struct Bad {
    #[params(frozen)]
    w: Tensor<f32, Shape![2]>,
}

fn main() {}
