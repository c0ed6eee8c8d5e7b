//! Per-operation overhead on tiny tensors (`add_small_64` and its allocating form),
//! median of many runs in nanoseconds, for profiling the setup path:
//! `cargo run --release -p tensor-benches --bin overhead [-- REPS [FILTER]]`.

use std::time::Instant;
use tensor_core::{DType, Tensor};

fn main() {
    rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build_global()
        .expect("pool");
    let mut args = std::env::args().skip(1);
    let reps: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(200_000);
    let filter = args.next().unwrap_or_default();
    let v: Vec<f32> = (0..64).map(|i| i as f32 * 0.5).collect();
    let a = Tensor::from_vec(v.clone(), &[64]).expect("a");
    let b = Tensor::from_vec(v, &[64]).expect("b");
    let out = Tensor::empty(&[64], DType::F32).expect("out");
    let m = Tensor::zeros(&[8, 8], DType::F32).expect("m");
    let t = |name: &str, f: &mut dyn FnMut()| {
        if !name.contains(filter.as_str()) {
            return;
        }
        for _ in 0..1000 {
            f();
        }
        let mut ts: Vec<f64> = (0..reps)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed().as_secs_f64() * 1e9
            })
            .collect();
        ts.sort_by(f64::total_cmp);
        println!(
            "{name:>24}: median {:7.1} ns, p10 {:7.1} ns",
            ts[ts.len() / 2],
            ts[ts.len() / 10]
        );
    };
    t("add_out [64]", &mut || {
        a.add_out(&b, &out).map(drop).expect("add")
    });
    t("add [64]", &mut || drop(a.add(&b).expect("add")));
    t("add [64] (operator)", &mut || drop(&a + &b));
    t("mul_scalar [64]", &mut || {
        drop(a.mul_scalar(0.25).expect("mul"))
    });
    t("add [8,8] + [64]view", &mut || {
        drop(m.add(&b.view(&[8, 8]).expect("view")).expect("add"))
    });
    t("empty [64]", &mut || {
        drop(Tensor::empty(&[64], DType::F32).expect("e"))
    });
    t("alias", &mut || drop(a.alias()));
    // Attention heads of 8 positions (the digits transformer): q @ kᵀ, n = 8.
    let q = Tensor::zeros(&[128, 8, 16], DType::F32).expect("q");
    let kt = Tensor::zeros(&[128, 8, 16], DType::F32)
        .expect("k")
        .transpose(-2, -1)
        .expect("kT");
    t("bmm [128,8,16]x[128,16,8]", &mut || {
        drop(q.matmul(&kt).expect("mm"))
    });
    // One token's row through a norm (RMSNorm's mean of squares, over 576).
    let row = Tensor::zeros(&[1, 1, 576], DType::F32).expect("row");
    t("mean [1,1,576] dim -1 keepdim", &mut || {
        drop(row.mean(&[-1], true).expect("mean"))
    });
    t("sum [64]", &mut || drop(a.sum(&[], false).expect("sum")));
}
