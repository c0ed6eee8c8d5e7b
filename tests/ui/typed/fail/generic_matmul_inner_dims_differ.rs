// q·k without the transpose in code generic over its dims: the inner dims are two
// different type parameters, which never unify (rejected at the definition).
use tensor_typed::prelude::*;

fn scores<B: Dim, H: Dim, S: Dim, E: Dim>(
    q: &Tensor<f32, Shape![B, H, S, E]>,
    k: &Tensor<f32, Shape![B, H, S, E]>,
) -> Tensor<f32, Shape![B, H, S, S]> {
    q.matmul(k)
}

fn main() {}
