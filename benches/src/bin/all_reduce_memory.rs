//! The memory an all-reduce costs each in-process rank: `all_reduce_memory --ranks N
//! [--elems M] [--steps S] [--mode chain|exchange|idle]` starts N ranks (threads), each
//! holding a bucket of M f32 (default 262,144: 1 MiB), runs S all-reduces (default 3) and
//! prints the process's peak resident memory (`VmHWM`) and that peak per rank.
//!
//! - `chain`: `tensor_core::global::all_reduce_sum`, the data-parallel all-reduce;
//! - `exchange`: every rank's whole bucket sent to every rank through
//!   `Collective::exchange` and summed in rank order (an all-to-all all-reduce, the
//!   number of ranks times the bucket per rank), for comparison;
//! - `idle`: the buckets alone and an all-reduce of one element (the baseline: threads,
//!   buckets, the binary).
//!
//! Each mode runs in its own process, so `VmHWM` is that mode's peak; a mode's cost per
//! rank is its peak minus `idle`'s, divided by N.

use std::time::Instant;
use tensor_core::global::{all_reduce_sum, run_ranks, Placement};
use tensor_core::{DType, Tensor};

/// A field of `/proc/self/status` in KiB (`VmHWM:`, `VmRSS:`), 0 where absent.
fn status_kib(key: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .find(|l| l.starts_with(key))
        .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        .unwrap_or(0)
}

/// The value of `--flag` in `args`, parsed, or `default`.
fn flag<T: std::str::FromStr>(args: &[String], name: &str, default: T) -> T {
    match args.iter().position(|a| a == name) {
        Some(i) => args
            .get(i + 1)
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("{name} needs a value")),
        None => default,
    }
}

fn main() -> tensor_core::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let ranks: usize = flag(&args, "--ranks", 2);
    let elems: usize = flag(&args, "--elems", 1 << 18);
    let steps: usize = flag(&args, "--steps", 3);
    let mode: String = flag(&args, "--mode", "chain".to_string());
    let start = Instant::now();
    let sums = run_ranks(ranks, |comm| {
        let placement = Placement::all(ranks)?;
        let bucket = Tensor::full(&[elems], 1.0, DType::F32)?;
        let mut last = 0.0f32;
        for _ in 0..steps {
            last = match mode.as_str() {
                "chain" => all_reduce_sum(&comm, &placement, &[&bucket])?[0]
                    .narrow(0, 0, 1)?
                    .to_vec::<f32>()?[0],
                "exchange" => {
                    let group: Vec<usize> = (0..ranks).collect();
                    let bytes: Vec<u8> = bucket
                        .to_vec::<f32>()?
                        .iter()
                        .flat_map(|x| x.to_le_bytes())
                        .collect();
                    let got = comm.exchange(&group, vec![bytes; ranks])?;
                    let mut sum = vec![0.0f32; elems];
                    for buf in &got {
                        for (s, c) in sum.iter_mut().zip(buf.chunks_exact(4)) {
                            *s += f32::from_le_bytes([c[0], c[1], c[2], c[3]]);
                        }
                    }
                    sum[0]
                }
                _ => {
                    let one = bucket.narrow(0, 0, 1)?;
                    all_reduce_sum(&comm, &placement, &[&one])?[0].to_vec::<f32>()?[0]
                }
            };
        }
        Ok(last)
    })?;
    assert!(
        sums.iter().all(|&s| s == ranks as f32),
        "every rank sums to {ranks}"
    );
    let peak = status_kib("VmHWM:");
    println!(
        "mode {mode}: {ranks} ranks, bucket {} KiB, {steps} all-reduces in {:.2} s: peak RSS {} KiB, {:.1} KiB per rank",
        elems * 4 / 1024,
        start.elapsed().as_secs_f64(),
        peak,
        peak as f64 / ranks as f64
    );
    Ok(())
}
