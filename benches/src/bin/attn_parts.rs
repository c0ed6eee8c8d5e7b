//! Times each op of `attention_block_b32` on its own (median of 2000 runs, µs), to see
//! where the block's time goes: `cargo run --release -p tensor-benches --bin attn_parts`.

use tensor_benches::attention::Seq;
use tensor_benches::median_ms;
use tensor_typed::prelude::*;

fn main() {
    rayon::ThreadPoolBuilder::new()
        .num_threads(
            std::env::var("ATTN_THREADS")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(2),
        )
        .build_global()
        .expect("pool");
    let x = Seq::randn_with(&[32, 16, 64], 1).expect("x");
    let w = Tensor::<f32, Shape![64, 64]>::randn(2);
    let g: Tensor<f32, Shape![64]> = Tensor::ones();
    let b: Tensor<f32, Shape![64]> = Tensor::zeros();
    let q = layout!(x, "b s (h d) -> b h s d", h = 4);
    let kt = q.transpose::<-2, -1>();
    let s = q.matmul(&kt);
    let p = s.softmax::<-1>();
    let a = p.matmul(&q);
    let reps = 2000;
    let only_block = std::env::args().any(|a| a == "--block");
    let filter = std::env::var("ATTN_ONLY").unwrap_or_default();
    let t = |name: &str, f: &mut dyn FnMut()| {
        if !name.contains(filter.as_str()) {
            return;
        }
        let med = median_ms(&mut *f, reps) * 1e3;
        let best = (0..reps)
            .map(|_| {
                let t = std::time::Instant::now();
                f();
                t.elapsed().as_secs_f64() * 1e6
            })
            .fold(f64::INFINITY, f64::min);
        println!("{name:>28}: median {med:8.2} us, best {best:8.2} us");
    };
    if only_block {
        let block = tensor_benches::attention::AttentionBlock::new(3).expect("block");
        for _ in 0..5 {
            t("whole block", &mut || drop(block.forward(&x)));
        }
        return;
    }
    t("x @ w [512,64]x[64,64]", &mut || drop(x.matmul(&w)));
    t("split heads (view)", &mut || {
        drop(layout!(x, "b s (h d) -> b h s d", h = 4))
    });
    t("q @ kT 128x(16x16x16)", &mut || drop(q.matmul(&kt)));
    t("scores * 0.25", &mut || drop(s.mul_scalar(0.25)));
    t("softmax [2048,16]", &mut || drop(s.softmax::<-1>()));
    t("p @ v 128x(16x16x16)", &mut || drop(p.matmul(&q)));
    t("merge heads (copy)", &mut || {
        let m: Seq = layout!(a, "b h s d -> b s (h d)");
        drop(m)
    });
    t("x + y", &mut || drop(&x + &x));
    t("layer_norm [512,64]", &mut || {
        drop(nn::layer_norm(&x, &g, &b, 1e-5))
    });
    let block = tensor_benches::attention::AttentionBlock::new(3).expect("block");
    t("whole block", &mut || drop(block.forward(&x)));
}
