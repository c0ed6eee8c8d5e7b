use tensor_typed::global::{Global, Step, B};
use tensor_typed::prelude::*;

// A data-parallel step that forgets to all-reduce the gradient of a B parameter.
fn step(w: &Global<f32, Shape![64, 10], B>, opt: &mut optim::Sgd) -> tensor_typed::Result<()> {
    let g = w.grad()?.expect("after backward");
    Step::new().grad(w, &g).apply(opt)
}

fn main() {}
