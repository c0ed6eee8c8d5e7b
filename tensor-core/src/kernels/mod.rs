//! Elementwise kernels: one generic loop per arity, monomorphised per (op, dtype), that
//! classifies each inner loop once and then runs a plain slice loop (so LLVM
//! vectorises it) or a strided pointer walk.
//!
//! Inner-loop kinds ([`InnerKind`], `inner.rs`):
//! - `Contiguous`: every operand steps by its element size. When the output's bytes are
//!   disjoint from every input's (or are exactly an input's, in place), the loop runs on
//!   slices; otherwise it falls back to the strided walk, which reads and writes in
//!   order like PyTorch's scalar loop.
//! - `ScalarBroadcast`: the output and all but one input are contiguous and one input
//!   has stride 0; its value is read once per inner loop (as PyTorch's vectorised loop
//!   does) and the rest runs on slices.
//! - `Strided`: anything else: byte-strided pointer walk.
//!
//! All `unsafe` of the elementwise path lives in this module.
//!
//! Why the pointers are in bounds ("the plan's geometry" in the SAFETY comments): every
//! operand is a [`crate::tensor::Tensor`], whose invariant puts each element's byte offset
//! inside its storage (a storage is at most `isize::MAX` bytes); the iterator's byte
//! strides are the tensors' strides times the element size (or 0 for a broadcast dim),
//! and a 2-D loop call covers elements `i0 < size0`, `i1 < size1` of the iteration
//! shape, each of which is an element of every operand. Pointers are advanced with
//! `wrapping_offset`, so the step past the last element is never undefined behaviour.
//! Element reads and writes are of the operand's own dtype, which its storage accepts
//! (`Storage::can_view_as`), so no invalid value (e.g. a `bool` other than 0/1) is made.

pub(crate) mod acc;
pub(crate) mod arith;
mod copy;
mod elementwise;
mod inner;
pub(crate) mod rows;
pub(crate) mod simd;
mod stream;
mod unoptimized;

pub(crate) use copy::copy_kernel;
pub(crate) use elementwise::{binary, binary_fma, nullary_fill, ternary, unary};
pub(crate) use unoptimized::{dispatch_integral, erased, per_op};
