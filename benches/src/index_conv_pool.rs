//! The model-op cases of `benches/CASES.md` that index, join, convolve and pool:
//! `embedding_gpt2`, `cat_dim1`, `conv2d_3x3`, `max_pool2d_2x2` (each a new tensor per
//! repetition, as `torch_bench.py` times them).

use tensor_core::{nn, DType, Result, Tensor};

/// Uniform [0, 1) f32 values (xorshift64*); the values do not matter for timing.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn tensor(&mut self, sizes: &[usize]) -> Result<Tensor> {
        let n = sizes.iter().product();
        let v: Vec<f32> = (0..n)
            .map(|_| (self.next() >> 40) as f32 / (1u64 << 24) as f32)
            .collect();
        Tensor::from_vec(v, sizes)
    }
}

/// A timing callback: `time(case, body)` runs and records `body` under `case`.
pub type Time<'a> = dyn FnMut(&str, &mut dyn FnMut() -> Result<()>) -> Result<()> + 'a;

/// Times the cases `only` names (all when empty) through `time`; inputs of a case are
/// built only when it is wanted.
pub fn run(only: &[String], time: &mut Time<'_>) -> Result<()> {
    let wants = |c: &str| only.is_empty() || only.iter().any(|o| o == c);
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    if wants("embedding_gpt2") {
        let w = rng.tensor(&[50257, 768])?;
        let ids: Vec<i64> = (0..32 * 128).map(|_| (rng.next() % 50257) as i64).collect();
        let ids = Tensor::from_vec(ids, &[32, 128])?;
        time("embedding_gpt2", &mut || nn::embedding(&ids, &w).map(drop))?;
    }
    if wants("cat_dim1") {
        let (a, b) = (rng.tensor(&[64, 512, 256])?, rng.tensor(&[64, 512, 256])?);
        time("cat_dim1", &mut || Tensor::cat(&[&a, &b], 1).map(drop))?;
    }
    if wants("conv2d_3x3") {
        let (x, w, b) = (
            rng.tensor(&[16, 64, 28, 28])?,
            rng.tensor(&[64, 64, 3, 3])?,
            rng.tensor(&[64])?,
        );
        time("conv2d_3x3", &mut || {
            nn::conv2d(&x, &w, Some(&b), [1, 1], [1, 1], [1, 1], 1).map(drop)
        })?;
    }
    if wants("max_pool2d_2x2") {
        let x = rng.tensor(&[32, 64, 56, 56])?;
        debug_assert_eq!(x.dtype(), DType::F32);
        time("max_pool2d_2x2", &mut || {
            nn::max_pool2d(&x, [2, 2], [2, 2], [0, 0]).map(drop)
        })?;
    }
    Ok(())
}
