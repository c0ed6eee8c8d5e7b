//! Operations over shared tensors on several threads never deadlock: every operation
//! that holds more than one storage lock takes them in `Storage::id` order.
//!
//! The work runs on spawned threads; the test waits for them with a deadline and fails
//! (instead of hanging CI) when they do not finish in time. A stuck thread is left
//! behind and ends with the test process.

use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};
use tensor_core::{DType, Tensor};

/// How long the whole run may take before it counts as a deadlock (normally < 2 s):
/// 20 s, or `$TENSOR_CONCURRENCY_DEADLINE_SECS` (scripts/asan.sh gives instrumented
/// builds longer).
fn deadline() -> Duration {
    let secs = std::env::var("TENSOR_CONCURRENCY_DEADLINE_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    Duration::from_secs(secs)
}

/// Rounds of each worker's operation (enough for the old argument-order locking in
/// `matmul` to deadlock in almost every run).
const ROUNDS: usize = 100_000;

/// A named job run `ROUNDS` times on its own thread.
type Job = (&'static str, Box<dyn Fn() + Send>);

fn square(n: usize, v: f32) -> Tensor {
    Tensor::full(&[n, n], v, DType::F32).unwrap()
}

/// Runs every job on its own thread, `ROUNDS` times, and waits for all of them with
/// [`deadline`]. Returns the names of the jobs that did not finish.
fn run_all(jobs: Vec<Job>) -> Vec<&'static str> {
    let (tx, rx) = mpsc::channel();
    let names: Vec<&'static str> = jobs.iter().map(|(n, _)| *n).collect();
    for (i, (_, job)) in jobs.into_iter().enumerate() {
        let tx = tx.clone();
        thread::spawn(move || {
            for _ in 0..ROUNDS {
                job();
            }
            let _ = tx.send(i);
        });
    }
    drop(tx);
    let deadline = deadline();
    let start = Instant::now();
    let mut done = vec![false; names.len()];
    while done.iter().any(|d| !d) {
        let left = deadline.saturating_sub(start.elapsed());
        match rx.recv_timeout(left) {
            Ok(i) => done[i] = true,
            // Timeout, or a worker panicked (its sender dropped without sending).
            Err(_) => break,
        }
    }
    names
        .into_iter()
        .zip(done)
        .filter(|(_, d)| !d)
        .map(|(n, _)| n)
        .collect()
}

#[test]
fn matmul_binary_inplace_and_copy_in_both_orders_do_not_deadlock() {
    let x = square(8, 1.0);
    let y = square(8, 1.0);
    let mut jobs: Vec<Job> = Vec::new();
    macro_rules! job {
        ($name:literal, |$a:ident, $b:ident| $body:expr) => {{
            let ($a, $b) = (x.alias(), y.alias());
            jobs.push((
                $name,
                Box::new(move || {
                    let _ = $body;
                }),
            ));
        }};
    }
    job!("x.matmul(y)", |a, b| a.matmul(&b).unwrap());
    job!("y.matmul(x)", |a, b| b.matmul(&a).unwrap());
    job!("x.mul_(1)", |a, _b| a.mul_scalar_(1).unwrap());
    job!("y.mul_(1)", |_a, b| b.mul_scalar_(1).unwrap());
    job!("x.copy_(y)", |a, b| a.copy_(&b).unwrap());
    job!("y.copy_(x)", |a, b| b.copy_(&a).unwrap());
    job!("x.mul(y)", |a, b| a.mul(&b).unwrap());
    job!("y.mul_(x)", |a, b| {
        b.mul_(&a).unwrap();
    });
    let stuck = run_all(jobs);
    assert!(
        stuck.is_empty(),
        "no progress within {:?} (deadlock or panic) in: {stuck:?}",
        deadline()
    );
    // Every value stayed 1 (x·y of ones is 8 but is never written back).
    assert!(x.to_vec::<f32>().unwrap().iter().all(|&v| v == 1.0));
    assert!(y.to_vec::<f32>().unwrap().iter().all(|&v| v == 1.0));
}

#[test]
fn matmul_of_views_of_one_storage_beside_writers_does_not_deadlock() {
    // Both operands on one storage: matmul must lock it once (a second read lock while
    // a writer waits would block forever).
    let x = square(8, 1.0);
    let xt = x.t().unwrap();
    let mut jobs: Vec<Job> = Vec::new();
    for name in ["x.matmul(x.t()) #1", "x.matmul(x.t()) #2"] {
        let (a, b) = (x.alias(), xt.alias());
        jobs.push((name, Box::new(move || drop(a.matmul(&b).unwrap()))));
    }
    let a = x.alias();
    jobs.push(("x.mul_(1)", Box::new(move || a.mul_scalar_(1).unwrap())));
    let stuck = run_all(jobs);
    assert!(
        stuck.is_empty(),
        "no progress within {:?} in: {stuck:?}",
        deadline()
    );
}
