//! The tensor_parallel example's tests (run by `cargo test`: the example is built with
//! `test = true`): the block on 1, 2, 3 and 4 in-process ranks against the one-process
//! reference.

use super::{compare, run_in_process, Flags, TOLERANCE};
use crate::model::Hidden;
use clap::Parser;
use tensor_typed::prelude::*;

/// The default flags with `--ranks ranks`.
fn flags(ranks: usize) -> Flags {
    Flags::parse_from(["tensor_parallel", "--ranks", &ranks.to_string()])
}

/// Trains on `ranks` in-process ranks; asserts every rank equals the reference within
/// [`TOLERANCE`] and that the loss went down; each rank's `w1` shard width.
fn check_ranks(ranks: usize) -> Vec<usize> {
    let (reference, runs) = run_in_process(&flags(ranks)).unwrap();
    assert_eq!(runs.len(), ranks);
    assert_eq!(reference.losses.len(), 20);
    let (first, last) = (reference.losses[0], reference.losses[19]);
    assert!(last < 0.9 * first, "the loss went from {first} to {last}");
    for (rank, run) in runs.iter().enumerate() {
        let c = compare(run, &reference);
        assert!(
            c.ok(),
            "rank {rank} of {ranks}: {c:?} (tolerance {TOLERANCE})"
        );
    }
    runs.iter().map(|r| r.w1_shard[1]).collect()
}

#[test]
fn one_rank_equals_the_one_process_run() {
    assert_eq!(check_ranks(1), [10]);
}

#[test]
fn two_ranks_equal_the_one_process_run() {
    assert_eq!(check_ranks(2), [5, 5]);
}

#[test]
fn three_ranks_equal_the_one_process_run() {
    assert_eq!(check_ranks(3), [4, 3, 3]);
}

#[test]
fn a_hidden_width_the_ranks_do_not_divide_splits_balanced() {
    // 10 hidden units on 4 ranks: 3 + 3 + 2 + 2.
    assert_eq!(Hidden::SIZE % 4, 2);
    assert_eq!(check_ranks(4), [3, 3, 2, 2]);
}

#[test]
fn a_wrong_reference_is_a_mismatch() {
    // The comparison can fail: a reference of another seed is far off.
    let (_, runs) = run_in_process(&flags(2)).unwrap();
    let other = Flags {
        seed: 1,
        ..flags(1)
    };
    let (reference, _) = run_in_process(&other).unwrap();
    assert!(!compare(&runs[0], &reference).ok());
}
