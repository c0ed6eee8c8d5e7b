//! Backward formulas, one file per op family. Each is a [`Node`](super::Node) built
//! from ordinary tensor ops (grad mode is off in backward), so it serves every dtype
//! and layout; the formulas are PyTorch's (`derivatives.yaml`).

mod common;
mod elementwise;
mod matmul;
mod reduce;
mod views;

pub(crate) use common::{first, zero_of};
pub(crate) use elementwise::*;
#[allow(unused_imports)]
pub(crate) use matmul::*;
#[allow(unused_imports)]
pub(crate) use reduce::*;
#[allow(unused_imports)]
pub(crate) use views::*;
