//! `attention_block_b32` of `benches/CASES.md`, written as typed model code (the
//! counterpart of `attention_block` in `torch_bench.py`): x `[32, 16, 64]`; q, k, v =
//! x @ w split into 4 heads of 16; a = softmax(q @ kᵀ / 4, -1) @ v; y = layer_norm(x +
//! merge(a) @ wo, \[64\], gamma, beta, 1e-5).

use tensor_core::Result;
use tensor_typed::prelude::*;

/// The block's input and output: a batch of 16 positions of width 64.
pub type Seq = Tensor<f32, Shape![Dyn, 16, 64]>;
/// A 64 → 64 projection.
type Proj = Tensor<f32, Shape![64, 64]>;

/// The block's weights.
pub struct AttentionBlock {
    wq: Proj,
    wk: Proj,
    wv: Proj,
    wo: Proj,
    gamma: Tensor<f32, Shape![64]>,
    beta: Tensor<f32, Shape![64]>,
}

/// Uniform [0, 1) values (xorshift64*), as `torch.rand`.
fn rand<S: tensor_typed::Shape>(sizes: &[usize], state: &mut u64) -> Result<Tensor<f32, S>> {
    let n = sizes.iter().product();
    let v = (0..n)
        .map(|_| {
            *state ^= *state >> 12;
            *state ^= *state << 25;
            *state ^= *state >> 27;
            (state.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 40) as f32 / (1u64 << 24) as f32
        })
        .collect();
    Tensor::from_vec(v, sizes)
}

impl AttentionBlock {
    /// Weights as `torch_bench.py` makes them: projections `rand * 0.125`, gamma and
    /// beta `rand`.
    pub fn new(seed: u64) -> Result<AttentionBlock> {
        let mut s = seed | 1;
        let mut proj =
            || -> Result<Proj> { Ok(rand::<Shape![64, 64]>(&[64, 64], &mut s)?.mul_scalar(0.125)) };
        let (wq, wk, wv, wo) = (proj()?, proj()?, proj()?, proj()?);
        Ok(AttentionBlock {
            wq,
            wk,
            wv,
            wo,
            gamma: rand(&[64], &mut s)?,
            beta: rand(&[64], &mut s)?,
        })
    }

    /// The block on `x`.
    pub fn forward(&self, x: &Seq) -> Seq {
        let heads = |w: &Proj| {
            let t = x.matmul(w);
            layout!(t, "b s (h d) -> b h s d", h = 4) // [Dyn, 4, 16, 16]
        };
        let (q, k, v) = (heads(&self.wq), heads(&self.wk), heads(&self.wv));
        let p = q
            .matmul(&k.transpose::<-2, -1>())
            .mul_scalar(0.25)
            .softmax::<-1>();
        let a = p.matmul(&v);
        let merged: Seq = layout!(a, "b h s d -> b s (h d)");
        nn::layer_norm(
            &(x + &merged.matmul(&self.wo)),
            &self.gamma,
            &self.beta,
            1e-5,
        )
    }
}

/// A timing callback: `time(case, body)` runs and records `body` under `case`.
pub type Time<'a> = dyn FnMut(&str, &mut dyn FnMut() -> Result<()>) -> Result<()> + 'a;

/// Times `attention_block_b32` through `time` when `only` names it (or is empty).
pub fn run(only: &[String], time: &mut Time<'_>) -> Result<()> {
    if !(only.is_empty() || only.iter().any(|o| o == "attention_block_b32")) {
        return Ok(());
    }
    let block = AttentionBlock::new(0x9e37_79b9)?;
    let mut s = 0x2545_f491_u64;
    let x: Seq = rand(&[32, 16, 64], &mut s)?;
    time("attention_block_b32", &mut || {
        drop(block.forward(&x));
        Ok(())
    })
}
