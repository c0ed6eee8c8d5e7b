use tensor_typed::global::{Global, B, S};
use tensor_typed::prelude::*;

fn f(scores: &Global<f32, Shape![Dyn, 10], B>, target: &Global<i64, Shape![Dyn], S<0>>) {
    let _ = scores.cross_entropy(target);
}

fn main() {}
