//! The MLP block `y = relu(x w1 + b1) w2 + b2` trained on a mean squared error, twice:
//! with plain typed tensors on one process (the reference), and tensor-parallel as
//! Megatron-LM splits it (Shoeybi et al. 2019, §3), with the SBP of every tensor a type.
//!
//! Tensor-parallel, on the ranks of a placement: `w1` is split by columns (`S<1>`) and
//! `b1` alike (`S<0>`), so that `x w1 + b1` and its ReLU are split by columns (`S<1>`)
//! with no communication; `w2` is split by rows (`S<0>`), so that `h w2` is a partial sum
//! (`P<Sum>`); its one all-reduce gives the broadcast (`B`) output, to which the
//! broadcast `b2` is added. The compiler checks each step: adding `b2` before the
//! all-reduce, or a split `w2` of the wrong dim, does not compile.

use crate::data::Data;
use tensor_core::global::{Comm, Placement};
use tensor_core::Result;
use tensor_typed::global::{Global, Step, B, S};
use tensor_typed::prelude::*;

dims! {
    /// Rows of a batch (known at run time).
    pub Batch;
    /// The model's width (input and output features).
    pub Model = 8;
    /// The hidden width, split across the ranks (10: uneven on 3 or 4 ranks).
    pub Hidden = 10;
}

/// What a training run produced: the loss at every step and the final parameters (the
/// logical tensors, row-major).
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    /// The loss before each step's update.
    pub losses: Vec<f32>,
    /// `w1` `[Model, Hidden]`, `b1` `[Hidden]`, `w2` `[Hidden, Model]`, `b2` `[Model]`.
    pub params: [Vec<f32>; 4],
    /// The shard sizes of `w1` on this rank (the logical sizes on one process).
    pub w1_shard: Vec<usize>,
}

/// The names of [`Run::params`], in order.
pub const PARAM_NAMES: [&str; 4] = ["w1", "b1", "w2", "b2"];

/// The reference: the block on one process with plain typed tensors, `steps` SGD steps
/// of learning rate `lr` on the whole batch.
///
/// # Errors
/// A tensor-core error (a bug in the example).
pub fn reference(data: &Data, steps: usize, lr: f64) -> Result<Run> {
    let x = data.x()?;
    let t = data.target()?;
    let w1 = data.w1()?.requires_grad_(true);
    let b1 = data.b1()?.requires_grad_(true);
    let w2 = data.w2()?.requires_grad_(true);
    let b2 = data.b2()?.requires_grad_(true);
    let mut params = Params4 { w1, b1, w2, b2 };
    let mut opt = optim::Sgd::new(lr);
    let scale = 1.0 / data.numel() as f64;
    let mut losses = Vec::with_capacity(steps);
    for _ in 0..steps {
        let p = &params;
        let h = x.matmul(&p.w1).add(&p.b1).relu(); // [Batch, Hidden]
        let y = h.matmul(&p.w2).add(&p.b2); // [Batch, Model]
        let d = y.sub(&t);
        let loss = d.mul(&d).sum::<Axes![0, 1]>().mul_scalar(scale);
        losses.push(loss.item()?);
        loss.backward()?;
        opt.step(&mut params)?;
        params.zero_grad();
    }
    let w1_shard = params.w1.dims().to_vec();
    Ok(Run {
        losses,
        params: [
            params.w1.to_vec(),
            params.b1.to_vec(),
            params.w2.to_vec(),
            params.b2.to_vec(),
        ],
        w1_shard,
    })
}

/// The reference's parameters, stepped by its optimiser.
#[derive(Params)]
struct Params4 {
    w1: Tensor<f32, Shape![Model, Hidden]>,
    b1: Tensor<f32, Shape![Hidden]>,
    w2: Tensor<f32, Shape![Hidden, Model]>,
    b2: Tensor<f32, Shape![Model]>,
}

impl Params4 {
    /// Clears every gradient.
    fn zero_grad(&mut self) {
        self.w1.zero_grad();
        self.b1.zero_grad();
        self.w2.zero_grad();
        self.b2.zero_grad();
    }
}

/// The tensor-parallel block's parameters, each with its SBP as a type.
pub struct TpMlp {
    /// `[Model, Hidden]`, split by columns: each rank its share of the hidden units.
    pub w1: Global<f32, Shape![Model, Hidden], S<1>>,
    /// `[Hidden]`, split alike.
    pub b1: Global<f32, Shape![Hidden], S<0>>,
    /// `[Hidden, Model]`, split by rows: each rank the rows of its hidden units.
    pub w2: Global<f32, Shape![Hidden, Model], S<0>>,
    /// `[Model]`, on every rank.
    pub b2: Global<f32, Shape![Model], B>,
}

impl TpMlp {
    /// The block's output for the broadcast batch `x`: one all-reduce, by name.
    ///
    /// # Errors
    /// The all-reduce's (a collective that fails).
    pub fn forward(
        &self,
        x: &Global<f32, Shape![Batch, Model], B>,
    ) -> Result<Global<f32, Shape![Batch, Model], B>> {
        let h = x.matmul(&self.w1).add(&self.b1).relu(); // B·S<1> → S<1>, + S<0> bias → S<1>
        let partial = h.matmul(&self.w2); // S<1>·S<0> → P<Sum>
        let y = partial.try_all_reduce()?; // P<Sum> → B: the block's one all-reduce
        Ok(y.add(&self.b2)) // B + B → B
    }
}

/// The block tensor-parallel on `comm`'s world: every rank passes the same logical
/// tensors (`data`), and each keeps its shard; `steps` SGD steps of learning rate `lr`.
/// Every rank returns the same losses and logical parameters.
///
/// # Errors
/// A tensor-core error; a collective's.
pub fn tensor_parallel(comm: &Comm, data: &Data, steps: usize, lr: f64) -> Result<Run> {
    let placement = Placement::all(comm.world_size())?;
    let p = &placement;
    let x = Global::<f32, Shape![Batch, Model], B>::from_logical(comm, &data.x()?, p)?;
    let t = Global::<f32, Shape![Batch, Model], B>::from_logical(comm, &data.target()?, p)?;
    let mlp = TpMlp {
        w1: Global::from_logical(comm, &data.w1()?, p)?.requires_grad_(true)?,
        b1: Global::from_logical(comm, &data.b1()?, p)?.requires_grad_(true)?,
        w2: Global::from_logical(comm, &data.w2()?, p)?.requires_grad_(true)?,
        b2: Global::from_logical(comm, &data.b2()?, p)?.requires_grad_(true)?,
    };
    let mut opt = optim::Sgd::new(lr);
    let scale = 1.0 / data.numel() as f64;
    let mut losses = Vec::with_capacity(steps);
    for _ in 0..steps {
        let d = mlp.forward(&x)?.sub(&t); // B
        let loss = d.mul(&d).sum::<Axes![0, 1]>().mul_scalar(scale); // B, Shape![]
        losses.push(loss.local().item::<f32>()?);
        loss.backward()?;
        let missing = || tensor_core::Error::InvalidArgument {
            op: "tensor_parallel",
            message: "a parameter has no gradient after backward".into(),
        };
        // Split parameters get split gradients: each rank steps its shard as it is.
        let g_w1 = mlp.w1.grad()?.ok_or_else(missing)?; // S<1>
        let g_b1 = mlp.b1.grad()?.ok_or_else(missing)?; // S<0>
        let g_w2 = mlp.w2.grad()?.ok_or_else(missing)?; // S<0>
                                                        // The broadcast bias gets each rank's share of its gradient (P<Sum>).
        let g_b2 = mlp.b2.grad()?.ok_or_else(missing)?.try_all_reduce()?; // P<Sum> → B
        Step::new()
            .grad(&mlp.w1, &g_w1)
            .grad(&mlp.b1, &g_b1)
            .grad(&mlp.w2, &g_w2)
            .grad(&mlp.b2, &g_b2)
            .apply(&mut opt)?;
        mlp.w1.zero_grad()?;
        mlp.b1.zero_grad()?;
        mlp.w2.zero_grad()?;
        mlp.b2.zero_grad()?;
    }
    Ok(Run {
        losses,
        params: [
            mlp.w1.to_logical()?.to_vec(),
            mlp.b1.to_logical()?.to_vec(),
            mlp.w2.to_logical()?.to_vec(),
            mlp.b2.to_logical()?.to_vec(),
        ],
        w1_shard: mlp.w1.local().sizes().to_vec(),
    })
}
