use tensor_typed::global::{Global, Max, P};
use tensor_typed::prelude::*;

fn f(loss: &Global<f32, Shape![], P<Max>>) -> tensor_typed::Result<()> {
    loss.backward()
}

fn main() {}
