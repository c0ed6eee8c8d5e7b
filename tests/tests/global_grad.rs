//! Gradients through global tensors equal the single-process ones (OneFlow's SBP
//! rules: a gradient has the dual SBP of its tensor, a boxing's backward is the dual
//! boxing) on 1-4 in-process ranks: the data-parallel MLP with cross-entropy, every
//! boxing, every matmul signature, and the refused partial_max backward. The cases
//! and their tolerance are in `tests/src/global_grad.rs`; `scripts/mpi_test.sh` runs
//! them under `mpirun` too (`mpi_suite` in `global.rs`).

use std::time::Duration;
use tensor_core::global::run_ranks_with_timeout;
use tensor_tests::global_grad::{boxing_case, matmul_case, mlp_case, refused_case, Case};

/// Every wait for a peer is bounded: a broken collective fails the test, never hangs it.
const TIMEOUT: Duration = Duration::from_secs(20);

/// Runs `case` on 1-4 in-process ranks and fails with the first rank's message.
fn on_1_to_4_ranks(case: Case) {
    for n in 1..=4 {
        let out = run_ranks_with_timeout(n, TIMEOUT, |c| Ok(case(&c)))
            .unwrap_or_else(|e| panic!("{n} ranks: {e}"));
        for (rank, r) in out.into_iter().enumerate() {
            if let Err(m) = r {
                panic!("{n} ranks, rank {rank}: {m}");
            }
        }
    }
}

#[test]
fn data_parallel_mlp_gradients_equal_the_single_process_ones() {
    on_1_to_4_ranks(mlp_case);
}

#[test]
fn every_boxing_backward_is_the_dual_boxing() {
    on_1_to_4_ranks(boxing_case);
}

#[test]
fn matmul_gradients_under_every_signature_equal_the_single_process_ones() {
    on_1_to_4_ranks(matmul_case);
}

#[test]
fn a_partial_max_loss_has_no_gradient_and_says_so() {
    on_1_to_4_ranks(refused_case);
}
