//! The f32 products of `tensor_benches::gemm_shapes` timed on our `matmul`, on
//! `matrixmultiply` called directly, and (with `--features gemm-crate`) on the `gemm`
//! crate, each on the same rayon pool; printed as ms, GFLOP/s and the fraction of the FMA
//! peak timed in the same process, after the vector instruction set the run-time
//! dispatch picked (`tensor_core::cpu_capability`).
//!
//! ```sh
//! cargo run --release -p tensor-benches --bin gemm_shapes [--features gemm-crate] -- \
//!     [--threads N] [--torch FILE] [--only PREFIX]..
//! python3 benches/gemm_shapes.py --threads N > FILE   # PyTorch's side of the same list
//! ```
//!
//! `--torch FILE` adds PyTorch's column from the JSON `gemm_shapes.py` printed. Each
//! figure is the median of repetitions after two warm-ups, as many as fit in about
//! 0.2 s (at least 10), the rule `gemm_shapes.py` follows. `matrixmultiply` runs as our
//! matmul splits a large product: one block of rows per thread.

use std::time::Instant;

use rayon::prelude::*;
use tensor_benches::gemm_shapes::{shapes, GemmShape, Rhs};
use tensor_benches::peak::{fma_lanes, fma_peak, fma_peak_flops};
use tensor_core::Tensor;

/// Median of repetitions in ms: two warm-ups, then as many runs as fit in ~0.2 s.
fn median_ms(mut f: impl FnMut()) -> f64 {
    f();
    let t = Instant::now();
    f();
    let once = t.elapsed().as_secs_f64().max(1e-7);
    let reps = ((0.2 / once) as usize).clamp(10, 5000);
    let mut ts: Vec<f64> = (0..reps)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .collect();
    ts.sort_by(f64::total_cmp);
    ts[ts.len() / 2] * 1e3
}

/// Row-major random data of `len` values in [-1, 1).
fn data(len: usize, seed: u64) -> Vec<f32> {
    let mut s = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
    (0..len)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 40) as f32 / (1u64 << 23) as f32) - 1.0
        })
        .collect()
}

/// The operands of a shape: `a` `[batch, m, k]`, `b` `[batch, k, n]` (or one `[n, k]`
/// read transposed), row-major.
struct Operands {
    a: Vec<f32>,
    b: Vec<f32>,
}

impl Operands {
    fn new(s: &GemmShape) -> Operands {
        Operands {
            a: data(s.batch * s.m * s.k, 1),
            b: data(s.batch * s.k * s.n, 2),
        }
    }

    /// `b`'s (row stride, column stride) in elements.
    fn b_strides(s: &GemmShape) -> (isize, isize) {
        match s.rhs {
            Rhs::Rows => (s.n as isize, 1),
            Rhs::Transposed => (1, s.k as isize),
        }
    }
}

/// Our `matmul` on tensors holding the operands (a fresh result each call).
fn ours(s: &GemmShape, ops: &Operands) -> Result<f64, String> {
    let e = |e: tensor_core::Error| e.to_string();
    let (a, b) = if s.batch == 1 {
        let a = Tensor::from_vec(ops.a.clone(), &[s.m, s.k]).map_err(e)?;
        let b = match s.rhs {
            Rhs::Rows => Tensor::from_vec(ops.b.clone(), &[s.k, s.n]).map_err(e)?,
            Rhs::Transposed => Tensor::from_vec(ops.b.clone(), &[s.n, s.k])
                .and_then(|w| w.t())
                .map_err(e)?,
        };
        (a, b)
    } else {
        (
            Tensor::from_vec(ops.a.clone(), &[s.batch, s.m, s.k]).map_err(e)?,
            Tensor::from_vec(ops.b.clone(), &[s.batch, s.k, s.n]).map_err(e)?,
        )
    };
    let mut err = None;
    let ms = median_ms(|| {
        if let Err(x) = a.matmul(&b) {
            err = Some(x.to_string());
        }
    });
    err.map_or(Ok(ms), Err)
}

/// Splits `m` rows into one block per thread when the product is large (as our matmul
/// does), calling `f(first_row, rows)` for each.
fn by_rows(s: &GemmShape, f: impl Fn(usize, usize) + Sync) {
    let threads = rayon::current_num_threads();
    let blocks = if s.m * s.k * s.n < 64 * 64 * 64 {
        1
    } else {
        threads.min(s.m.div_ceil(8))
    };
    let rows = s.m.div_ceil(blocks).next_multiple_of(8);
    (0..s.m.div_ceil(rows)).into_par_iter().for_each(|i| {
        let first = i * rows;
        f(first, rows.min(s.m - first));
    });
}

/// The products of a batch split across threads by whole matrices, or one product
/// split by rows: `f(matrix, first_row, rows)`.
fn schedule(s: &GemmShape, f: impl Fn(usize, usize, usize) + Sync) {
    if s.batch == 1 {
        by_rows(s, |first, rows| f(0, first, rows));
    } else {
        (0..s.batch).into_par_iter().for_each(|i| f(i, 0, s.m));
    }
}

/// A raw pointer shared by the threads that write disjoint rows of one output.
#[derive(Clone, Copy)]
struct Out(*mut f32);
// SAFETY: each thread writes its own rows (disjoint ranges) of the buffer behind it.
unsafe impl Sync for Out {}
// SAFETY: as above.
unsafe impl Send for Out {}

impl Out {
    /// The pointer (a method, so that a closure captures the whole `Out`, which is
    /// `Sync`, rather than its raw-pointer field).
    fn ptr(self) -> *mut f32 {
        self.0
    }
}

/// `matrixmultiply::sgemm` on raw operands.
fn matrixmultiply(s: &GemmShape, ops: &Operands) -> f64 {
    let mut c = vec![0.0f32; s.batch * s.m * s.n];
    let out = Out(c.as_mut_ptr());
    let (rsb, csb) = Operands::b_strides(s);
    median_ms(|| {
        schedule(s, |i, first, rows| {
            let a = &ops.a[(i * s.m + first) * s.k..];
            let b = &ops.b[i * s.k * s.n..];
            // SAFETY: `a` holds rows `first..first + rows` of matrix `i` (k values each),
            // `b` matrix `i` with the strides given, and `out` rows `first..first + rows`
            // of matrix `i`, which no other task writes.
            unsafe {
                matrixmultiply::sgemm(
                    rows,
                    s.k,
                    s.n,
                    1.0,
                    a.as_ptr(),
                    s.k as isize,
                    1,
                    b.as_ptr(),
                    rsb,
                    csb,
                    0.0,
                    out.ptr().add((i * s.m + first) * s.n),
                    s.n as isize,
                    1,
                );
            }
        })
    })
}

/// The `gemm` crate on raw operands: one call per matrix, threaded by the crate itself
/// (`Parallelism::Rayon`) for a single product.
#[cfg(feature = "gemm-crate")]
fn gemm_crate(s: &GemmShape, ops: &Operands) -> f64 {
    let mut c = vec![0.0f32; s.batch * s.m * s.n];
    let out = Out(c.as_mut_ptr());
    let (rsb, csb) = Operands::b_strides(s);
    median_ms(|| {
        let one = |i: usize, par: gemm::Parallelism| {
            // SAFETY: as in `matrixmultiply`, for whole matrices.
            unsafe {
                gemm::gemm(
                    s.m,
                    s.n,
                    s.k,
                    out.ptr().add(i * s.m * s.n),
                    1,
                    s.n as isize,
                    false,
                    ops.a[i * s.m * s.k..].as_ptr(),
                    1,
                    s.k as isize,
                    ops.b[i * s.k * s.n..].as_ptr(),
                    csb,
                    rsb,
                    0.0,
                    1.0,
                    false,
                    false,
                    false,
                    par,
                )
            }
        };
        if s.batch == 1 {
            one(0, gemm::Parallelism::Rayon(0));
        } else {
            (0..s.batch)
                .into_par_iter()
                .for_each(|i| one(i, gemm::Parallelism::None));
        }
    })
}

struct Opts {
    threads: usize,
    torch: Option<String>,
    only: Vec<String>,
}

fn parse() -> Result<Opts, String> {
    let mut opts = Opts {
        threads: 2,
        torch: None,
        only: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg}: expected a value"));
        match arg.as_str() {
            "--threads" => {
                let v = value()?;
                opts.threads = v
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or(format!("--threads: expected a positive integer, got '{v}'"))?;
            }
            "--torch" => opts.torch = Some(value()?),
            "--only" => opts.only.push(value()?),
            other => {
                return Err(format!(
                    "unknown argument '{other}' (usage: gemm_shapes [--threads N] [--torch FILE] [--only PREFIX]..)"
                ))
            }
        }
    }
    Ok(opts)
}

/// `{name: ms}` from `gemm_shapes.py`'s output.
fn torch_times(path: &str) -> Result<serde_json::Map<String, serde_json::Value>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    match serde_json::from_str(&text).map_err(|e| format!("{path}: {e}"))? {
        serde_json::Value::Object(map) => Ok(map),
        _ => Err(format!("{path}: expected a JSON object")),
    }
}

fn run(opts: &Opts) -> Result<(), String> {
    let torch = opts.torch.as_deref().map(torch_times).transpose()?;
    let threads = opts.threads;
    let peak_ms = median_ms(|| {
        std::hint::black_box(fma_peak(threads));
    });
    let peak = fma_peak_flops(threads, fma_lanes()) as f64 / (peak_ms * 1e6);
    println!(
        "threads {threads}, cpu capability {}, FMA peak {peak:.1} GFLOP/s ({} f32 lanes); cells: ms / GFLOP/s / fraction of peak",
        tensor_core::cpu_capability(),
        fma_lanes()
    );
    let mut header = "| shape | batch×m×k×n | ours | matrixmultiply |".to_string();
    if cfg!(feature = "gemm-crate") {
        header.push_str(" gemm crate |");
    }
    if torch.is_some() {
        header.push_str(" PyTorch | ours / PyTorch |");
    }
    println!("{header}");
    let cell = |s: &GemmShape, ms: f64| {
        let gf = s.flops() / (ms * 1e6);
        format!(" {ms:.4} / {gf:.1} / {:.2} |", gf / peak)
    };
    for s in shapes() {
        if !opts.only.is_empty() && !opts.only.iter().any(|p| s.name.starts_with(p.as_str())) {
            continue;
        }
        let ops = Operands::new(&s);
        let t = if s.rhs == Rhs::Transposed { "ᵀ" } else { "" };
        let mut row = format!("| {} | {}×{}×{}×{}{t} |", s.name, s.batch, s.m, s.k, s.n);
        let our_ms = ours(&s, &ops)?;
        row.push_str(&cell(&s, our_ms));
        row.push_str(&cell(&s, matrixmultiply(&s, &ops)));
        #[cfg(feature = "gemm-crate")]
        row.push_str(&cell(&s, gemm_crate(&s, &ops)));
        if let Some(map) = &torch {
            match map.get(s.name).and_then(|v| v.as_f64()) {
                Some(ms) => row.push_str(&format!("{} {:.2} |", cell(&s, ms), our_ms / ms)),
                None => row.push_str(" | |"),
            }
        }
        println!("{row}");
    }
    Ok(())
}

fn main() {
    let opts = match parse() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("gemm_shapes: {e}");
            std::process::exit(2);
        }
    };
    if let Err(e) = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads)
        .build_global()
    {
        eprintln!("gemm_shapes: cannot build a rayon pool: {e}");
        std::process::exit(1);
    }
    if let Err(e) = run(&opts) {
        eprintln!("gemm_shapes: {e}");
        std::process::exit(1);
    }
}
