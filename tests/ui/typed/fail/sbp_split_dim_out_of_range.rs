use tensor_core::global::{Comm, Placement};
use tensor_typed::global::{Global, S};
use tensor_typed::prelude::*;

fn f(comm: &Comm, p: &Placement, t: &Tensor<f32, Shape![4, 6]>) {
    let _ = Global::<f32, Shape![4, 6], S<2>>::from_logical(comm, t, p);
}

fn main() {}
