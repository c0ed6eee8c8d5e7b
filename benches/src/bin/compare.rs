//! Turns JSON results of `torch_bench.py` and of `cases` into a Markdown table: per case
//! the best (smallest) median of each side, the ratio ours/torch, and for streaming cases
//! the effective bandwidth as a fraction of `bandwidth_16M`.
//!
//! ```sh
//! cargo run --release -p tensor-benches --bin compare -- \
//!     --torch t1.json t2.json --ours o1.json o2.json
//! ```

use serde_json::{Map, Value};
use std::process::ExitCode;
use tensor_benches::{case_bytes, CASE_ORDER};

fn load(path: &str) -> Result<Map<String, Value>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    match serde_json::from_str(&text) {
        Ok(Value::Object(m)) => Ok(m),
        Ok(_) => Err(format!("{path}: expected one JSON object")),
        Err(e) => Err(format!("{path}: {e}")),
    }
}

/// The smallest value of `case` over `runs`, if any run has it.
fn best(runs: &[Map<String, Value>], case: &str) -> Option<f64> {
    runs.iter()
        .filter_map(|r| r.get(case).and_then(Value::as_f64))
        .min_by(f64::total_cmp)
}

fn fmt(v: Option<f64>, digits: usize) -> String {
    v.map_or("–".to_string(), |v| format!("{v:.digits$}"))
}

fn run() -> Result<String, String> {
    let (mut torch, mut ours) = (Vec::new(), Vec::new());
    let mut side = None;
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--torch" => side = Some(true),
            "--ours" => side = Some(false),
            path => match side {
                Some(true) => torch.push(load(path)?),
                Some(false) => ours.push(load(path)?),
                None => return Err("usage: compare --torch FILE... --ours FILE...".into()),
            },
        }
    }
    let first = ours.first().ok_or("no --ours results")?;
    let bw_ms = best(&ours, "bandwidth_16M");
    let bw = bw_ms.and_then(|ms| case_bytes("bandwidth_16M").map(|b| b as f64 / ms));
    let mut out = String::from(
        "| case | torch ms | ours ms | ours/torch | ours GB/s | ours / bandwidth_16M | torch / bandwidth_16M |\n|---|---:|---:|---:|---:|---:|---:|\n",
    );
    let mut cases: Vec<&String> = first.keys().collect();
    let rank = |c: &str| {
        CASE_ORDER
            .iter()
            .position(|&k| k == c)
            .unwrap_or(usize::MAX)
    };
    cases.sort_by_key(|c| rank(c));
    for case in cases {
        let (t, o) = (best(&torch, case), best(&ours, case));
        let ratio = t.zip(o).map(|(t, o)| o / t);
        let bytes = case_bytes(case).map(|b| b as f64);
        let gbs = |ms: Option<f64>| bytes.zip(ms).map(|(b, ms)| b / ms / 1e6);
        let frac = |ms: Option<f64>| gbs(ms).zip(bw).map(|(g, bw)| g * 1e6 / bw);
        out += &format!(
            "| {case} | {} | {} | {} | {} | {} | {} |\n",
            fmt(t, 3),
            fmt(o, 3),
            fmt(ratio, 2),
            fmt(gbs(o), 1),
            fmt(frac(o), 2),
            fmt(frac(t), 2)
        );
    }
    Ok(out)
}

fn main() -> ExitCode {
    match run() {
        Ok(table) => {
            print!("{table}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("compare: {e}");
            ExitCode::FAILURE
        }
    }
}
