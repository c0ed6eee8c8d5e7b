//! Timing rules of `torch_bench.py`: 2 warm-ups, then the median of N repetitions.

use std::time::Instant;

/// Repetitions for a case, as `torch_bench.py` chooses them: 300 for the per-operation
/// overhead case (`add_small_64`, any name containing `small`), 15 otherwise.
pub fn reps_for(case: &str) -> usize {
    if case.contains("small") {
        300
    } else {
        15
    }
}

/// Runs `f` twice untimed, then `reps` times timed; returns the median in milliseconds
/// (the upper median `ts[len / 2]` of the sorted times, as `torch_bench.py` takes it).
pub fn median_ms(mut f: impl FnMut(), reps: usize) -> f64 {
    f();
    f();
    let mut ts: Vec<f64> = (0..reps.max(1))
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .collect();
    ts.sort_by(f64::total_cmp);
    ts[ts.len() / 2] * 1e3
}

/// The cases of `torch_bench.py` in its order, then `bandwidth_16M`: the row order of
/// tables.
pub const CASE_ORDER: &[&str] = &[
    "add_contig_16M",
    "add_contig_1M",
    "add_cl_cl",
    "add_cl_ct_bcast",
    "add_nchw_bias",
    "add_transposed",
    "add_permuted_dense",
    "add_sliced",
    "add_outer",
    "add_small_64",
    "sum_lastdim",
    "sum_firstdim",
    "sum_cl_hw",
    "copy_cl_to_contig",
    "copy_transposed",
    "repeat_4x",
    "expand_materialize",
    "bandwidth_16M",
];

/// Case results in the order they were measured.
#[derive(Debug, Default)]
pub struct Results {
    entries: Vec<(String, f64)>,
}

impl Results {
    /// Records `ms` (milliseconds) for `case`.
    pub fn push(&mut self, case: &str, ms: f64) {
        self.entries.push((case.to_string(), ms));
    }

    /// The results as one JSON object `{case: median ms}`, in measuring order, formatted
    /// like `json.dumps(res, indent=1)` with values rounded to 6 decimals (1 ns).
    pub fn to_json(&self) -> String {
        let body: Vec<String> = self
            .entries
            .iter()
            .map(|(k, v)| format!(" {}: {}", serde_json::Value::from(k.as_str()), round6(*v)))
            .collect();
        format!("{{\n{}\n}}", body.join(",\n"))
    }
}

fn round6(v: f64) -> f64 {
    (v * 1e6).round() / 1e6
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_case_gets_300_reps() {
        assert_eq!(reps_for("add_small_64"), 300);
        assert_eq!(reps_for("add_contig_16M"), 15);
    }

    #[test]
    fn json_keeps_case_order() {
        let mut r = Results::default();
        r.push("b", 1.0);
        r.push("a", 0.123456789);
        let v: serde_json::Value = serde_json::from_str(&r.to_json()).unwrap();
        assert_eq!(v["a"].as_f64(), Some(0.123457));
        assert!(r.to_json().find("\"b\"") < r.to_json().find("\"a\""));
    }

    #[test]
    fn median_counts_every_call() {
        let mut n = 0;
        median_ms(|| n += 1, 15);
        assert_eq!(n, 17);
    }
}
