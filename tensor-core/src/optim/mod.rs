//! Fused optimiser steps: one pass over a parameter and its state per step, as
//! PyTorch's `_fused_adamw_`, instead of the ten or so in-place ops of the
//! single-tensor update rule (each its own kernel call and memory pass).
//!
//! The update rules, their defaults and their validation live with the optimisers of
//! `tensor-typed`; these kernels compute one rule, element by element, in the same
//! order of roundings as the unfused ops (see [`adamw_step_`]).

mod adamw;
mod lock;

pub use adamw::{adamw_step_, AdamWStep};
