//! The backward computations of the model ops, one family per file: given the gradient
//! of an op's output (and what the forward saved), the gradients of its inputs, with
//! PyTorch's formulas. Each returns fresh tensors (contiguous unless stated) in the
//! dtype of the input it differentiates; `f16`/`bf16` compute in `f32`.
//!
//! The ops that are folders keep their backward beside them (`cat/backward.rs`,
//! `conv/backward.rs`, `index/backward.rs`, `pool/backward.rs`); what every backward
//! shares is here: the graph node the ops record (`node.rs`) and the loads and stores
//! in the accumulation type (`common.rs`). The tests of the whole graph (engine, golden
//! values from PyTorch, gradcheck) are here too.

pub(crate) mod activation;
pub(crate) mod common;
pub(crate) mod loss;
pub(crate) mod mask;
pub(crate) mod moments;
pub(crate) mod node;
pub(crate) mod norm;
pub(crate) mod softmax;

#[cfg(test)]
mod engine_tests;
#[cfg(test)]
mod golden_tests;
#[cfg(test)]
mod gradcheck_tests;
