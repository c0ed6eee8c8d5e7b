use tensor_typed::global::{Global, S};
use tensor_typed::prelude::*;

fn f(x: &Global<f32, Shape![4, 1, 6], S<1>>) {
    let _ = x.expand::<Shape![4, 3, 6]>();
}

fn main() {}
