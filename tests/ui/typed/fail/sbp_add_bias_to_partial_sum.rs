use tensor_typed::global::{Global, Sum, B, P, S};
use tensor_typed::prelude::*;

// Megatron's row-parallel linear: the product is P<Sum>, and the bias is added after
// the all-reduce. Adding it first would add it on every rank.
fn row_parallel(
    h: &Global<f32, Shape![Dyn, 128], S<1>>,
    w: &Global<f32, Shape![128, 64], S<0>>,
    b: &Global<f32, Shape![64], B>,
) {
    let y: Global<f32, Shape![Dyn, 64], P<Sum>> = h.matmul(w);
    let _ = y.add(b);
}

fn main() {}
