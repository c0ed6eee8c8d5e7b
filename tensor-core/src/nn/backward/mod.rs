//! What the backward computations of the model ops share. Each op keeps its backward
//! beside it, in its folder's `backward.rs` (`softmax/backward.rs`,
//! `conv/backward.rs`, ...): given the gradient of the op's output (and what the
//! forward saved), the gradients of its inputs, with PyTorch's formulas, as fresh
//! tensors (contiguous unless stated) in the dtype of the input each differentiates;
//! `f16`/`bf16` compute in `f32`. Here are the graph node the ops record (`node.rs`),
//! the loads and stores in the accumulation type (`common.rs`), and the tests of the
//! whole graph: engine, golden values from PyTorch, gradcheck.

pub(crate) mod common;
pub(crate) mod node;

#[cfg(test)]
mod engine_tests;
#[cfg(test)]
mod golden_tests;
#[cfg(test)]
mod gradcheck_tests;
