//! The f32 matrix products the benchmarked models run, by shape: GPT-2 small's
//! projections and tied unembedding at several sequence lengths, its batched attention
//! scores, a square product, the digits transformer's narrow layers, and a small
//! Llama's projections with `Linear`'s transposed weights. Shared by
//! `gemm_shapes` (ours, `matrixmultiply` and optionally the `gemm` crate) and
//! `gemm_shapes.py` (PyTorch), which time the same list in the same order.

/// How the right operand is laid out in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rhs {
    /// `b` `[k, n]` row-major (a Conv1D weight `[in, out]`).
    Rows,
    /// `b = wᵀ` for a row-major `w` `[n, k]`, read in place (`F.linear`'s weight).
    Transposed,
}

/// One product: `batch` of `[m, k] @ [k, n]`, `a` row-major.
#[derive(Clone, Copy, Debug)]
pub struct GemmShape {
    /// The name printed and used as the JSON key.
    pub name: &'static str,
    /// Matrices in the batch (1: one 2-d product).
    pub batch: usize,
    /// Rows of `a` and of the result.
    pub m: usize,
    /// The inner dim.
    pub k: usize,
    /// Columns of `b` and of the result.
    pub n: usize,
    /// `b`'s layout.
    pub rhs: Rhs,
}

impl GemmShape {
    /// Floating-point operations (2 per multiply-add).
    pub fn flops(&self) -> f64 {
        2.0 * (self.batch * self.m * self.k * self.n) as f64
    }
}

const fn mm(name: &'static str, m: usize, k: usize, n: usize, rhs: Rhs) -> GemmShape {
    GemmShape {
        name,
        batch: 1,
        m,
        k,
        n,
        rhs,
    }
}

const fn bmm(name: &'static str, batch: usize, m: usize, k: usize, n: usize) -> GemmShape {
    GemmShape {
        name,
        batch,
        m,
        k,
        n,
        rhs: Rhs::Rows,
    }
}

/// GPT-2 small's products at one sequence length `t` (rows `t`): c_attn, c_proj, c_fc,
/// the MLP's c_proj (weights `[in, out]`), and the tied unembedding `x @ wteᵀ`.
macro_rules! gpt2_at {
    ($t:literal) => {
        [
            mm(concat!("gpt2_qkv_t", $t), $t, 768, 2304, Rhs::Rows),
            mm(concat!("gpt2_attn_proj_t", $t), $t, 768, 768, Rhs::Rows),
            mm(concat!("gpt2_fc_t", $t), $t, 768, 3072, Rhs::Rows),
            mm(concat!("gpt2_mlp_proj_t", $t), $t, 3072, 768, Rhs::Rows),
            mm(
                concat!("gpt2_unembed_t", $t),
                $t,
                768,
                50257,
                Rhs::Transposed,
            ),
        ]
    };
}

/// Every shape, in table order.
pub fn shapes() -> Vec<GemmShape> {
    let mut all = Vec::new();
    all.extend(gpt2_at!(1));
    all.extend(gpt2_at!(9));
    all.extend(gpt2_at!(32));
    all.extend(gpt2_at!(64));
    all.extend(gpt2_at!(128));
    all.extend([
        mm("square_1024", 1024, 1024, 1024, Rhs::Rows),
        bmm("bmm_scores_s16", 96, 16, 64, 16),
        bmm("bmm_scores_s64", 96, 64, 64, 64),
        bmm("bmm_scores_s128", 96, 128, 64, 128),
        // The digits transformer, batch 32 of 8 tokens of width 32 (256 rows).
        mm("digits_embed", 256, 8, 32, Rhs::Rows),
        mm("digits_qkv", 256, 32, 96, Rhs::Rows),
        mm("digits_proj", 256, 32, 32, Rhs::Rows),
        mm("digits_fc1", 256, 32, 64, Rhs::Rows),
        mm("digits_fc2", 256, 64, 32, Rhs::Rows),
        bmm("digits_scores", 128, 8, 8, 8),
        // SmolLM2-135M's (Llama) projections, `Linear` weights `[out, in]` read
        // transposed: q/o, k/v, gate/up, down, at 9 and 64 rows.
        mm("llama_q_t9", 9, 576, 576, Rhs::Transposed),
        mm("llama_kv_t9", 9, 576, 192, Rhs::Transposed),
        mm("llama_up_t9", 9, 576, 1536, Rhs::Transposed),
        mm("llama_down_t9", 9, 1536, 576, Rhs::Transposed),
        mm("llama_q_t64", 64, 576, 576, Rhs::Transposed),
        mm("llama_kv_t64", 64, 576, 192, Rhs::Transposed),
        mm("llama_up_t64", 64, 576, 1536, Rhs::Transposed),
        mm("llama_down_t64", 64, 1536, 576, Rhs::Transposed),
    ]);
    all
}
