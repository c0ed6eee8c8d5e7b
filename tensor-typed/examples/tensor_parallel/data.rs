//! The synthetic batch, target and initial parameters, drawn from a seed by SplitMix64
//! so that every rank (and the reference) builds the same logical tensors.

use crate::model::{Batch, Hidden, Model};
use tensor_core::Result;
use tensor_typed::prelude::*;

/// The logical tensors of a run, row-major.
#[derive(Clone, Debug)]
pub struct Data {
    /// Rows of the batch.
    pub rows: usize,
    x: Vec<f32>,
    target: Vec<f32>,
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: Vec<f32>,
}

/// SplitMix64 (Steele, Lea, Flood 2014).
struct SplitMix(u64);

impl SplitMix {
    /// Uniform in [-bound, bound), as f32.
    fn uniform(&mut self, bound: f64) -> f32 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        let u = (z >> 11) as f64 / (1u64 << 53) as f64;
        ((u * 2.0 - 1.0) * bound) as f32
    }

    /// `n` draws from U(-bound, bound).
    fn draws(&mut self, n: usize, bound: f64) -> Vec<f32> {
        (0..n).map(|_| self.uniform(bound)).collect()
    }
}

impl Data {
    /// A batch of `rows` rows in U(-1, 1), a target in U(-1, 1), and parameters drawn
    /// as PyTorch's `Linear` draws them (U(-1/√fan_in, 1/√fan_in)), from `seed`.
    pub fn new(seed: u64, rows: usize) -> Data {
        let (m, h) = (Model::SIZE, Hidden::SIZE);
        let mut rng = SplitMix(seed);
        let (in1, in2) = (1.0 / (m as f64).sqrt(), 1.0 / (h as f64).sqrt());
        Data {
            rows,
            x: rng.draws(rows * m, 1.0),
            target: rng.draws(rows * m, 1.0),
            w1: rng.draws(m * h, in1),
            b1: rng.draws(h, in1),
            w2: rng.draws(h * m, in2),
            b2: rng.draws(m, in2),
        }
    }

    /// Elements of the output (the mean squared error divides by it).
    pub fn numel(&self) -> usize {
        self.rows * Model::SIZE
    }

    /// The batch `[rows, Model]`.
    ///
    /// # Errors
    /// None in practice (the sizes are the data's).
    pub fn x(&self) -> Result<Tensor<f32, Shape![Batch, Model]>> {
        Tensor::from_vec(self.x.clone(), &[self.rows, Model::SIZE])
    }

    /// The target `[rows, Model]`.
    ///
    /// # Errors
    /// None in practice.
    pub fn target(&self) -> Result<Tensor<f32, Shape![Batch, Model]>> {
        Tensor::from_vec(self.target.clone(), &[self.rows, Model::SIZE])
    }

    /// The initial `w1` `[Model, Hidden]`.
    ///
    /// # Errors
    /// None in practice.
    pub fn w1(&self) -> Result<Tensor<f32, Shape![Model, Hidden]>> {
        Tensor::from_vec(self.w1.clone(), &[Model::SIZE, Hidden::SIZE])
    }

    /// The initial `b1` `[Hidden]`.
    ///
    /// # Errors
    /// None in practice.
    pub fn b1(&self) -> Result<Tensor<f32, Shape![Hidden]>> {
        Tensor::from_vec(self.b1.clone(), &[Hidden::SIZE])
    }

    /// The initial `w2` `[Hidden, Model]`.
    ///
    /// # Errors
    /// None in practice.
    pub fn w2(&self) -> Result<Tensor<f32, Shape![Hidden, Model]>> {
        Tensor::from_vec(self.w2.clone(), &[Hidden::SIZE, Model::SIZE])
    }

    /// The initial `b2` `[Model]`.
    ///
    /// # Errors
    /// None in practice.
    pub fn b2(&self) -> Result<Tensor<f32, Shape![Model]>> {
        Tensor::from_vec(self.b2.clone(), &[Model::SIZE])
    }
}
