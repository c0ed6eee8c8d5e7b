use tensor_typed::global::{Global, Max, P};
use tensor_typed::prelude::*;

fn f(y: &Global<f32, Shape![4, 6], P<Max>>) {
    let _ = y.mul_scalar(-1.0);
}

fn main() {}
