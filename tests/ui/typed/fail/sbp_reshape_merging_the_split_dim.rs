use tensor_typed::global::{Global, S};
use tensor_typed::prelude::*;

fn f(x: &Global<f32, Shape![4, 6, 8], S<1>>) {
    let _ = x.reshape::<Shape![4, 48]>();
}

fn main() {}
