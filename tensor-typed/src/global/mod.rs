//! Typed global tensors: [`Global<T, Shape![..], Sbp>`](Global), a tensor on the ranks of
//! a placement whose SBP (split, broadcast, partial) is a type, so that the compiler
//! deduces every op's output SBP and refuses an op whose inputs would need
//! communication. The program boxes explicitly ([`Global::to_sbp`],
//! [`Global::all_reduce`], [`Global::all_gather`], [`Global::reduce_scatter`]), and the
//! communication of a forward pass reads from its types.
//!
//! The signatures are the runtime's (`tensor_core::global`'s `*_signature` functions and
//! the op tables' `partial:` column), computed on types (`rules.rs`); the runtime runs
//! every typed op with implicit boxing refused. [`DynSbp`] is an SBP known only at run
//! time: ops on it box silently, as the untyped runtime does.
//!
//! ```
//! use tensor_core::global::{run_ranks, Placement};
//! use tensor_typed::global::{Global, B, S};
//! use tensor_typed::prelude::*;
//!
//! // Tensor parallelism (Megatron-LM's MLP): the first weight split by columns, the
//! // second by rows; one all-reduce per block.
//! let out = run_ranks(2, |comm| {
//!     let p = Placement::all(2)?;
//!     let x = Global::<f32, Shape![4, 8], B>::from_logical(&comm, &Tensor::ones(), &p)?;
//!     let w1 = Global::<f32, Shape![8, 6], S<1>>::from_logical(&comm, &Tensor::full(0.5), &p)?;
//!     let w2 = Global::<f32, Shape![6, 8], S<0>>::from_logical(&comm, &Tensor::full(0.25), &p)?;
//!     let h = x.matmul(&w1).relu(); // B·S<1> → S<1>
//!     let y = h.matmul(&w2); // S<1>·S<0> → P<Sum>
//!     let y = y.try_all_reduce()?; // P<Sum> → B: the one communication, by name
//!     Ok(y.to_logical()?.to_vec())
//! })?;
//! assert!(out.iter().all(|v| v.iter().all(|&e| e == 6.0))); // 8 · 0.5 = 4, 6 · 4 · 0.25 = 6
//! # Ok::<(), tensor_typed::Error>(())
//! ```
//!
//! Without the all-reduce, adding a `B` bias to the `P<Sum>` product does not compile:
//!
//! ```compile_fail
//! use tensor_typed::global::{Global, B, P, Sum};
//! use tensor_typed::prelude::*;
//! fn f(y: &Global<f32, Shape![4, 8], P<Sum>>, b: &Global<f32, Shape![8], B>) {
//!     let _ = y.add(b); // cannot add P<Sum> with B without communication: box one side with to_sbp
//! }
//! ```

mod check;
mod grad;
mod ops;
#[doc(hidden)]
pub mod rules;
mod sbp;
mod tensor;

pub use grad::{GradFor, Step};
pub use sbp::{Dual, DynSbp, Max, Min, Reduction, Sbp, Sum, B, P, S};
pub use tensor::{FitsShape, Global};
#[doc(hidden)]
pub use {ops::*, sbp::SbpOf, sbp::Verdict};
