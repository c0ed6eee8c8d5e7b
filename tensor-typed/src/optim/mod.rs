//! Optimisers with PyTorch's update rules and defaults: [`Sgd`] (`torch.optim.SGD`) and
//! [`AdamW`] (`torch.optim.AdamW`).
//!
//! An optimiser updates every parameter of a model ([`Params`](crate::Params), in visit
//! order) in place, with grad mode off; a parameter without a gradient is skipped, as PyTorch
//! does. Per-parameter state (momentum buffers, moment estimates) lives in the
//! optimiser, keyed by the parameter's position in the visit order, so step the same
//! model (or one with the same parameters in the same order) each time.
//!
//! ```
//! use tensor_typed::prelude::*;
//!
//! #[derive(Params)]
//! struct Linear { w: Tensor<f32, Shape![3, 2]>, b: Tensor<f32, Shape![2]> }
//!
//! let mut model = Linear { w: Tensor::ones(), b: Tensor::zeros() };
//! model.requires_grad_(true)?;
//! let x = Tensor::<f32, Shape![4, 3]>::ones();
//! let mut opt = optim::Sgd::new(0.1).momentum(0.9);
//! let loss = (&x.matmul(&model.w) + &model.b).sum_all();
//! loss.backward()?;
//! opt.step(&mut model)?;
//! model.zero_grad();
//! assert_eq!(model.b.to_vec(), vec![-0.4, -0.4]);
//! # Ok::<(), tensor_typed::Error>(())
//! ```

#[macro_use]
mod shared;

mod adamw;
mod sgd;

pub use adamw::AdamW;
pub use sgd::Sgd;
pub use shared::Optimizer;
