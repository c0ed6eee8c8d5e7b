//! The row-wise, activation and masking cases of `CASES.md`: `softmax_lastdim`,
//! `log_softmax_vocab`, `cross_entropy_vocab`, `layer_norm_768`, `gelu_tanh_4M`,
//! `masked_fill_causal`, `masked_fill_random`, each allocating its result as PyTorch's
//! functional call does.

use tensor_core::nn::{self, GeluApproximate, Reduction};
use tensor_core::{Result, Tensor};

/// A case runner: `time(name, f)` times `f` under `name` (the `cases` binary's
/// `Runner::case`).
pub type Time<'a> = dyn FnMut(&str, &mut dyn FnMut() -> Result<()>) -> Result<()> + 'a;

/// Uniform [0, 1) values (xorshift64*), as `torch.rand`; the values do not matter for
/// timing.
fn rand(sizes: &[usize], seed: u64) -> Result<Tensor> {
    let mut s = seed | 1;
    let n: usize = sizes.iter().product();
    let v: Vec<f32> = (0..n)
        .map(|_| {
            s ^= s >> 12;
            s ^= s << 25;
            s ^= s >> 27;
            (s.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 40) as f32 / (1u64 << 24) as f32
        })
        .collect();
    Tensor::from_vec(v, sizes)
}

/// Runs the seven cases through `time`.
pub fn run(time: &mut Time<'_>) -> Result<()> {
    let sm = rand(&[4096, 1024], 11)?;
    time("softmax_lastdim", &mut || nn::softmax(&sm, -1).map(drop))?;
    drop(sm);
    let lv = rand(&[64, 50257], 12)?;
    time("log_softmax_vocab", &mut || {
        nn::log_softmax(&lv, -1).map(drop)
    })?;
    let targets: Vec<i64> = (0..64).map(|i| (i * 7919 + 13) % 50257).collect();
    let t = Tensor::from_vec(targets, &[64])?;
    time("cross_entropy_vocab", &mut || {
        nn::cross_entropy(&lv, &t, Reduction::Mean).map(drop)
    })?;
    drop(lv);
    let (x, w, b) = (
        rand(&[2048, 768], 13)?,
        rand(&[768], 14)?,
        rand(&[768], 15)?,
    );
    time("layer_norm_768", &mut || {
        nn::layer_norm(&x, &[768], Some(&w), Some(&b), 1e-5).map(drop)
    })?;
    drop(x);
    let g = rand(&[4_194_304], 16)?;
    time("gelu_tanh_4M", &mut || {
        nn::gelu(&g, GeluApproximate::Tanh).map(drop)
    })?;
    drop(g);
    let scores = rand(&[1, 8, 128, 128], 17)?;
    let causal: Vec<bool> = (0..128 * 128).map(|i| i % 128 > i / 128).collect();
    let causal = Tensor::from_vec(causal, &[128, 128])?;
    time("masked_fill_causal", &mut || {
        scores.masked_fill(&causal, f32::NEG_INFINITY).map(drop)
    })?;
    let x = rand(&[8, 512, 512], 18)?;
    let mask = rand(&[8, 512, 512], 19)?.lt_scalar(0.5)?;
    time("masked_fill_random", &mut || {
        x.masked_fill(&mask, 0.0).map(drop)
    })?;
    Ok(())
}
