use tensor_typed::global::{Global, B, S};
use tensor_typed::prelude::*;

fn f(a: &Global<f32, Shape![4, 6], B>, b: &Global<f32, Shape![4, 6], S<1>>) {
    let _ = a.add(b);
}

fn main() {}
