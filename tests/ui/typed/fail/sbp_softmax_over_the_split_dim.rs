use tensor_typed::global::{Global, S};
use tensor_typed::prelude::*;

fn f(scores: &Global<f32, Shape![Dyn, 16, 16], S<2>>) {
    let _ = scores.softmax::<-1>();
}

fn main() {}
