use tensor_typed::global::{Global, S};
use tensor_typed::prelude::*;

fn forward(x: &Global<f32, Shape![Dyn, 64], S<0>>, w: &Global<f32, Shape![64, 32], S<0>>) {
    let _ = x.matmul(w);
}

fn main() {}
