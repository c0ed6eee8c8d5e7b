//! `DataParallel` on in-process ranks with models of every float dtype: the gradients
//! are summed in the model's dtype, the step statistics in float64 whatever the model's
//! dtype, and every rank ends with the same values; a world too large for one process
//! is an error before any rank starts.

use std::time::Duration;
use tensor_core::global::{run_ranks, run_ranks_with_timeout, MAX_THREAD_RANKS};
use tensor_typed::autograd::GradElement;
use tensor_typed::data_parallel::DataParallel;
use tensor_typed::half::{bf16, f16};
use tensor_typed::num_traits::{Float, NumCast};
use tensor_typed::prelude::*;
use tensor_typed::Element;

/// Every wait for a peer is bounded: a broken collective fails the test, never hangs it.
const TIMEOUT: Duration = Duration::from_secs(20);

#[derive(Params)]
struct Model<T: Element> {
    w: Tensor<T, Shape![2, 2]>,
    b: Tensor<T, Shape![3]>,
}

fn cast<T: Element + Float>(v: f64) -> T {
    <T as NumCast>::from(v).expect("a small integer fits every float dtype")
}

/// Sets every rank's gradients to `rank + 1` (w) and `10 * (rank + 1)` (b), all-reduces
/// them with the statistics `[0.1 * rank, 1e12 + rank]` on `ranks` ranks, and checks the
/// sums on every rank: the gradients exact (small integers), the statistics the float64
/// sums in rank order.
fn all_reduce_on<T: GradElement + Float>(ranks: usize) {
    let out = run_ranks_with_timeout(ranks, TIMEOUT, |comm| {
        let dp = DataParallel::new(comm)?;
        let one: T = cast(1.0);
        let mut m = Model::<T> {
            w: Tensor::full(one).requires_grad_(true),
            b: Tensor::full(one).requires_grad_(true),
        };
        let r = dp.rank() as f64;
        m.w.set_grad(Some(Tensor::full(cast(r + 1.0))))?;
        m.b.set_grad(Some(Tensor::full(cast(10.0 * (r + 1.0)))))?;
        let stats = dp.all_reduce_grads(&mut m, &[0.1 * r, 1e12 + r])?;
        let w = m.w.grad().map(|g| g.to_vec());
        let b = m.b.grad().map(|g| g.to_vec());
        Ok((w, b, stats))
    })
    .unwrap_or_else(|e| panic!("{ranks} ranks of {:?}: {e}", T::DTYPE));
    let n = ranks as f64;
    let want_w = n * (n + 1.0) / 2.0;
    let (mut s0, mut s1) = (0.0f64, 0.0f64);
    for r in 0..ranks {
        s0 += 0.1 * r as f64;
        s1 += 1e12 + r as f64;
    }
    for (rank, (w, b, stats)) in out.into_iter().enumerate() {
        assert_eq!(
            w,
            Some(vec![cast::<T>(want_w); 4]),
            "rank {rank}: w's gradient"
        );
        assert_eq!(
            b,
            Some(vec![cast::<T>(10.0 * want_w); 3]),
            "rank {rank}: b's"
        );
        assert_eq!(stats, vec![s0, s1], "rank {rank}: the statistics");
    }
}

#[test]
fn an_f64_model_all_reduces_its_gradients_and_statistics() {
    all_reduce_on::<f64>(3);
}

#[test]
fn an_f32_model_sums_its_statistics_in_float64() {
    // 1e12 + rank is not an f32: the statistics must not pass through the model's dtype.
    all_reduce_on::<f32>(3);
}

#[test]
fn an_f16_model_all_reduces_its_gradients_and_statistics() {
    all_reduce_on::<f16>(2);
}

#[test]
fn a_bf16_model_all_reduces_its_gradients_and_statistics() {
    all_reduce_on::<bf16>(2);
}

#[test]
fn one_rank_returns_its_own_gradients_and_statistics() {
    all_reduce_on::<f64>(1);
}

#[test]
fn an_f64_model_on_128_ranks_gets_the_same_sums_on_every_rank() {
    all_reduce_on::<f64>(128);
}

#[test]
fn more_in_process_ranks_than_the_limit_are_an_error_before_any_starts() {
    let e = run_ranks(MAX_THREAD_RANKS + 1, |_| Ok(()))
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("run_ranks: 4097 ranks do not fit"), "{e}");
    assert!(!e.contains("run_ranks: run_ranks"), "one prefix: {e}");
    let e = run_ranks(100_000, |_| Ok(())).unwrap_err().to_string();
    assert!(e.contains("at most 4096"), "{e}");
}

#[test]
fn to_vec_of_the_wrong_dtype_names_the_tensors_dtype_as_found() {
    let t = tensor_core::Tensor::zeros(&[2], tensor_core::DType::F32).unwrap();
    let e = t.to_vec::<f64>().unwrap_err().to_string();
    assert!(e.contains("Found dtype Float but expected Double"), "{e}");
}
