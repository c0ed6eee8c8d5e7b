use tensor_typed::global::{Global, Sum, P};
use tensor_typed::prelude::*;

fn f(y: &Global<f32, Shape![4, 6], P<Sum>>) {
    let _ = y.exp();
}

fn main() {}
