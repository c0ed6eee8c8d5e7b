use tensor_typed::global::{Global, B, S};
use tensor_typed::prelude::*;

fn f(
    x: &Global<f32, Shape![Dyn, 64], S<1>>,
    w: &Global<f32, Shape![64], B>,
    b: &Global<f32, Shape![64], B>,
) {
    let _ = x.layer_norm(w, b, 1e-5);
}

fn main() {}
