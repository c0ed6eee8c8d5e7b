//! Runs every case of `benches/CASES.md` on tensor-core and prints one JSON object
//! `{case: median milliseconds}` on stdout, in the order of `torch_bench.py`.
//!
//! ```sh
//! cargo run --release -p tensor-benches --bin cases -- --threads 2 [--case NAME]...
//! ```
//! `--threads N` (default 2) builds rayon's global pool with N threads, like
//! `torch.set_num_threads(N)`. `--case NAME` (repeatable) runs only the named cases and
//! `--reps N` overrides the repetitions, for profiling (`perf record ... --case
//! add_outer --reps 300`). `--diag` adds diagnostic cases (`diag_*`) that time
//! alternative implementations of slow cases. Besides the cases of `torch_bench.py`, `bandwidth_16M` times the plain
//! `c[i] = a[i] + b[i]` loop over 16M f32 on slices: the physical limit of the streaming
//! cases, and `fma_peak` times fused multiply-adds alone on every thread: the limit of
//! the compute-bound ones. `--work` prints each case's least bytes or FLOPs instead.

use std::process::ExitCode;
use tensor_benches::{add_slices, median_ms, reps_for, Results};
use tensor_core::{DType, MemoryFormat, Result, Tensor};

/// Command-line options.
struct Options {
    threads: usize,
    only: Vec<String>,
    reps: Option<usize>,
    diag: bool,
    work: bool,
}

fn parse_args() -> std::result::Result<Options, String> {
    let mut opts = Options {
        threads: 2,
        only: Vec::new(),
        reps: None,
        diag: false,
        work: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--threads" => {
                let v = value("--threads")?;
                opts.threads = v
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or(format!("--threads: expected a positive integer, got '{v}'"))?;
            }
            "--case" => opts.only.push(value("--case")?),
            "--diag" => opts.diag = true,
            "--work" => opts.work = true,
            "--reps" => {
                let v = value("--reps")?;
                let n = v.parse().ok().filter(|&n| n > 0);
                opts.reps = Some(n.ok_or(format!("--reps: expected a positive integer, got '{v}'"))?);
            }
            other => {
                return Err(format!(
                    "unknown argument '{other}' (usage: cases [--threads N] [--case NAME]... [--reps N] [--diag] [--work])"
                ))
            }
        }
    }
    Ok(opts)
}

/// Uniform [0, 1) f32 values from a xorshift64* generator (the inputs' distribution in
/// `torch_bench.py`; the values themselves do not matter for timing).
struct Rng(u64);

impl Rng {
    fn next_f32(&mut self) -> f32 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let bits = self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 40;
        bits as f32 / (1u64 << 24) as f32
    }

    fn vec(&mut self, n: usize) -> Vec<f32> {
        (0..n).map(|_| self.next_f32()).collect()
    }

    /// A contiguous f32 tensor of `sizes` (`torch.rand(sizes)`).
    fn tensor(&mut self, sizes: &[usize]) -> Result<Tensor> {
        Tensor::from_vec(self.vec(sizes.iter().product()), sizes)
    }
}

/// Times the cases that `opts.only` selects (all when empty) and collects the medians.
struct Runner<'a> {
    only: &'a [String],
    reps: Option<usize>,
    results: Results,
}

impl Runner<'_> {
    fn wants(&self, case: &str) -> bool {
        self.only.is_empty() || self.only.iter().any(|c| c == case)
    }

    /// Times `f` under `case` (2 warm-ups, median of `reps_for(case)` runs); the first
    /// error `f` returns stops the run.
    fn case<T>(&mut self, case: &str, mut f: impl FnMut() -> Result<T>) -> Result<()> {
        if !self.wants(case) {
            return Ok(());
        }
        let mut failed = None;
        let ms = median_ms(
            || {
                if let Err(e) = f() {
                    failed.get_or_insert(e);
                }
            },
            self.reps.unwrap_or_else(|| reps_for(case)),
        );
        if let Some(e) = failed {
            return Err(e);
        }
        eprintln!("{case:>20}: {ms:10.4} ms");
        self.results.push(case, ms);
        Ok(())
    }
}

/// A `[n, c, h, w]` f32 tensor laid out channels_last (strides `[hwc, 1, wc, c]`),
/// allocated once as an `out=` target.
fn empty_channels_last(sizes: [usize; 4]) -> Result<Tensor> {
    let [_, c, h, w] = sizes;
    let strides = [(h * w * c) as isize, 1, (w * c) as isize, c as isize];
    Tensor::empty_strided(&sizes, &strides, DType::F32)
}

fn run(opts: &Options) -> Result<Results> {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut run = Runner {
        only: &opts.only,
        reps: opts.reps,
        results: Results::default(),
    };
    let f32 = DType::F32;
    let cl = MemoryFormat::ChannelsLast;

    let (a, b, o) = (
        rng.tensor(&[1 << 24])?,
        rng.tensor(&[1 << 24])?,
        Tensor::empty(&[1 << 24], f32)?,
    );
    run.case("add_contig_16M", || a.add_out(&b, &o))?;
    let (a1, b1, o1) = (
        rng.tensor(&[1 << 20])?,
        rng.tensor(&[1 << 20])?,
        Tensor::empty(&[1 << 20], f32)?,
    );
    run.case("add_contig_1M", || a1.add_out(&b1, &o1))?;

    let nchw = [32, 64, 56, 56];
    let x = rng.tensor(&nchw)?.to_memory_format(cl)?;
    let y = rng.tensor(&nchw)?.to_memory_format(cl)?;
    let ocl = empty_channels_last(nchw)?;
    run.case("add_cl_cl", || x.add_out(&y, &ocl))?;
    let z = rng.tensor(&[64, 56, 56])?;
    run.case("add_cl_ct_bcast", || x.add_out(&z, &ocl))?;
    let (n, bias, on) = (
        rng.tensor(&nchw)?,
        rng.tensor(&[64, 1, 1])?,
        Tensor::empty(&nchw, f32)?,
    );
    run.case("add_nchw_bias", || n.add_out(&bias, &on))?;

    let (m, m2, om) = (
        rng.tensor(&[4096, 4096])?,
        rng.tensor(&[4096, 4096])?,
        Tensor::empty(&[4096, 4096], f32)?,
    );
    let mt = m.t()?;
    run.case("add_transposed", || mt.add_out(&m2, &om))?;
    let perm = [3, 0, 1, 2];
    let p1 = rng.tensor(&[64, 56, 56, 32])?.permute(&perm)?;
    let p2 = rng.tensor(&[64, 56, 56, 32])?.permute(&perm)?;
    let op = Tensor::empty(&[64, 56, 56, 32], f32)?.permute(&perm)?;
    run.case("add_permuted_dense", || p1.add_out(&p2, &op))?;
    let s = rng.tensor(&[4096, 8192])?.slice(1, None, None, 2)?;
    run.case("add_sliced", || s.add_out(&m2, &om))?;
    let (col, row) = (rng.tensor(&[4096, 1])?, rng.tensor(&[1, 4096])?);
    run.case("add_outer", || col.add_out(&row, &om))?;
    let (t1, t2, to) = (
        rng.tensor(&[64])?,
        rng.tensor(&[64])?,
        Tensor::empty(&[64], f32)?,
    );
    run.case("add_small_64", || t1.add_out(&t2, &to))?;

    // Functional sums: tensor-core has no `sum_out`, so each repetition also allocates
    // its (small) result, [4096] or [32, 64] f32.
    run.case("sum_lastdim", || m.sum(&[1], false))?;
    run.case("sum_firstdim", || m.sum(&[0], false))?;
    run.case("sum_cl_hw", || x.sum(&[2, 3], false))?;
    run.case("copy_cl_to_contig", || on.copy_(&x))?;
    run.case("copy_transposed", || om.copy_(&mt))?;
    let rp = rng.tensor(&[64, 56, 56])?;
    run.case("repeat_4x", || rp.repeat(&[4, 1, 1, 1]))?;
    run.case("expand_materialize", || {
        col.expand(&[4096, 4096])?.contiguous()
    })?;
    // Matrix products (CASES.md): one GEMM, and attention's batched scores.
    let (mm_a, mm_b) = (rng.tensor(&[1024, 1024])?, rng.tensor(&[1024, 1024])?);
    run.case("matmul_1024", || mm_a.matmul(&mm_b))?;
    let (q, k) = (rng.tensor(&[128, 128, 64])?, rng.tensor(&[128, 64, 128])?);
    run.case("bmm_attention", || q.matmul(&k))?;
    // Attention's batched scores at GPT-2's head size: [B·H, S, 64] @ [B·H, 64, S] for
    // batch 8 × 12 heads.
    for s_len in [16, 64, 128] {
        let (q, k) = (rng.tensor(&[96, s_len, 64])?, rng.tensor(&[96, 64, s_len])?);
        run.case(&format!("bmm_scores_s{s_len}"), || q.matmul(&k))?;
    }
    // GPT-2's one-row products against a transposed weight (`F.linear`, a GEMV): the
    // tied unembedding of one position, and one position's MLP input.
    let (row, wte) = (rng.tensor(&[1, 768])?, rng.tensor(&[50257, 768])?);
    run.case("linear_gemv_vocab", || row.matmul(&wte.t()?))?;
    let wfc = rng.tensor(&[3072, 768])?;
    run.case("linear_gemv_768x3072", || row.matmul(&wfc.t()?))?;
    {
        // einsum (CASES.md): attention scores, a projection, a bilinear form and a
        // batched outer product, each contracted as torch.einsum does (left to right).
        let (eq_q, eq_k) = (
            rng.tensor(&[2, 12, 128, 64])?,
            rng.tensor(&[2, 12, 128, 64])?,
        );
        run.case("einsum_attn_scores", || {
            Tensor::einsum("bhsd,bhtd->bhst", &[&eq_q, &eq_k])
        })?;
        let (px, pw) = (rng.tensor(&[2, 128, 768])?, rng.tensor(&[768, 768])?);
        run.case("einsum_proj", || Tensor::einsum("bsh,hd->bsd", &[&px, &pw]))?;
        let (bx, bw) = (rng.tensor(&[256, 512])?, rng.tensor(&[512, 512])?);
        let by = rng.tensor(&[256, 512])?;
        run.case("einsum_bilinear", || {
            Tensor::einsum("bi,ij,bj->b", &[&bx, &bw, &by])
        })?;
        let (oa, ob) = (rng.tensor(&[64, 256])?, rng.tensor(&[64, 256])?);
        run.case("einsum_outer", || Tensor::einsum("bi,bj->bij", &[&oa, &ob]))?;
    }
    if opts.diag {
        // What `repeat` and `contiguous` would cost if they materialised through the
        // iterator's `copy_` (a fresh contiguous output each time, as those ops do).
        run.case("diag_repeat_4x_via_copy", || {
            let out = Tensor::empty(&[256, 56, 56], f32)?;
            out.view(&[4, 64, 56, 56])?
                .copy_(&rp.unsqueeze(0)?.expand(&[4, 64, 56, 56])?)?;
            Ok(out)
        })?;
        run.case("diag_expand_materialize_via_copy", || {
            let out = Tensor::empty(&[4096, 4096], f32)?;
            out.copy_(&col.expand(&[4096, 4096])?)?;
            Ok(out)
        })?;
        run.case("diag_alloc_4096x4096", || Tensor::empty(&[4096, 4096], f32))?;
        // The reductions at sizes that stay in the L3 cache (6.4 and 4 MiB): their
        // speed when memory is not the limit.
        let xs = rng.tensor(&[8, 64, 56, 56])?.contiguous_format(cl)?;
        run.case("diag_sum_cl_hw_b8", || xs.sum(&[2, 3], false))?;
        let ms = rng.tensor(&[1024, 1024])?;
        run.case("diag_sum_lastdim_1024", || ms.sum(&[1], false))?;
    }
    drop((
        a1, b1, o1, s, p1, p2, op, m, m2, om, mt, n, on, x, y, ocl, mm_a, mm_b, q, k,
    ));
    tensor_benches::index_conv_pool::run(&opts.only, &mut |name, f| run.case(name, f))?;
    tensor_benches::rowwise::run(&mut |name, f| run.case(name, f))?;
    tensor_benches::attention::run(&opts.only, &mut |name, f| run.case(name, f))?;

    // The physical limit: the same work as add_contig_16M on plain slices.
    let (va, vb) = (a.to_vec::<f32>()?, b.to_vec::<f32>()?);
    let mut vc = o.to_vec::<f32>()?;
    run.case("bandwidth_16M", || {
        add_slices(&va, &vb, &mut vc);
        Ok(())
    })?;
    // The other limit: fused multiply-adds alone, on every thread.
    let threads = opts.threads;
    run.case("fma_peak", || {
        std::hint::black_box(tensor_benches::peak::fma_peak(threads));
        Ok(())
    })?;
    Ok(run.results)
}

/// `--work`: per case, the least bytes it moves or FLOPs it computes (`null` where not
/// bandwidth- or compute-bound), as JSON, for the roofline column of
/// `benches/interleave.py`.
fn work_json(threads: usize) -> String {
    let mut cases: Vec<String> = tensor_benches::CASE_ORDER
        .iter()
        .map(|c| c.to_string())
        .collect();
    cases.extend(
        [
            "softmax_lastdim",
            "log_softmax_vocab",
            "cross_entropy_vocab",
            "layer_norm_768",
            "gelu_tanh_4M",
            "masked_fill_causal",
            "masked_fill_random",
            "embedding_gpt2",
            "cat_dim1",
            "max_pool2d_2x2",
            "linear_gemv_vocab",
            "linear_gemv_768x3072",
            "einsum_outer",
            "matmul_1024",
            "bmm_attention",
            "bmm_scores_s16",
            "bmm_scores_s64",
            "bmm_scores_s128",
            "einsum_attn_scores",
            "einsum_proj",
            "einsum_bilinear",
            "conv2d_3x3",
        ]
        .map(String::from),
    );
    let num = |v: Option<u64>| v.map_or("null".to_string(), |v| v.to_string());
    let peak = tensor_benches::peak::fma_peak_flops(threads, tensor_benches::peak::fma_lanes());
    let mut rows: Vec<String> = cases
        .iter()
        .map(|c| {
            let (b, f) = (tensor_benches::case_bytes(c), tensor_benches::case_flops(c));
            format!(" \"{c}\": {{\"bytes\": {}, \"flops\": {}}}", num(b), num(f))
        })
        .collect();
    rows.push(format!(
        " \"fma_peak\": {{\"bytes\": null, \"flops\": {peak}}}"
    ));
    // The instruction set the kernels dispatch on (not a case: a string).
    rows.push(format!(
        " \"cpu_capability\": \"{}\"",
        tensor_core::cpu_capability()
    ));
    format!("{{\n{}\n}}", rows.join(",\n"))
}

fn main() -> ExitCode {
    let opts = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("cases: {e}");
            return ExitCode::from(2);
        }
    };
    if let Err(e) = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads)
        .build_global()
    {
        eprintln!(
            "cases: cannot build a rayon pool of {} threads: {e}",
            opts.threads
        );
        return ExitCode::FAILURE;
    }
    if opts.work {
        println!("{}", work_json(opts.threads));
        return ExitCode::SUCCESS;
    }
    match run(&opts) {
        Ok(results) => {
            println!("{}", results.to_json());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("cases: {e}");
            ExitCode::FAILURE
        }
    }
}
