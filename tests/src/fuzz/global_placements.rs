//! The global-tensor surface: in-process worlds of 1 to 4 ranks with a short timeout,
//! hostile placements (duplicate, huge, empty, out of the world), random SBP (split dims
//! out of range and past `i64` included), an op on the global tensor, and sometimes one
//! rank that fails (an error or a panic) before the collective. The run must end: with
//! the results, or with an error; a failing rank's error names it.

use super::gen::Gen;
use super::runner::Ctx;
use std::time::{Duration, Instant};
use tensor_core::global::{run_ranks_with_timeout, GlobalTensor, Placement, Sbp};
use tensor_core::{DType, Error, Tensor};

/// How a rank of the case fails.
#[derive(Clone, Copy, Debug)]
enum Failure {
    None,
    Error(usize),
    Panic(usize),
}

fn sbp(g: &mut Gen, ndim: usize) -> Sbp {
    match g.below(6) {
        0 => Sbp::Broadcast,
        1 => Sbp::PartialSum,
        2 => Sbp::PartialMax,
        3 => Sbp::PartialMin,
        4 => Sbp::Split(g.below(ndim + 2)),
        _ => Sbp::Split(g.pick(&[usize::MAX, 1 << 63, i64::MAX as usize, 64])),
    }
}

fn placement_ranks(g: &mut Gen, world: usize) -> Vec<usize> {
    match g.below(6) {
        0 => Vec::new(),
        1 => vec![0, 0],
        2 => vec![g.pick(&[usize::MAX, 1 << 40, world])],
        3 => (0..world).rev().collect(),
        4 => (0..world).filter(|_| g.chance(0.7)).collect(),
        _ => (0..world).collect(),
    }
}

/// One case: a world, a placement, an SBP, an op, maybe a failing rank.
pub fn run_case(g: &mut Gen, c: &mut Ctx) {
    let world = 1 + g.below(4);
    let timeout = Duration::from_millis(g.pick(&[20, 50, 200]));
    let ranks = placement_ranks(g, world);
    let sizes = g.small_sizes();
    let ndim = sizes.len();
    let (sbp_in, sbp_out) = (sbp(g, ndim), sbp(g, ndim));
    let dtype = g.pick(&[DType::F32, DType::I64, DType::Bool]);
    let op = g.below(6);
    let failure = match g.below(6) {
        0 => Failure::Error(g.below(world)),
        1 => Failure::Panic(g.below(world)),
        _ => Failure::None,
    };
    let desc = format!(
        "world {world}, timeout {timeout:?}, placement {ranks:?}, {sizes:?} {dtype:?}, {sbp_in:?} -> op {op} -> {sbp_out:?}, {failure:?}"
    );
    let t0 = Instant::now();
    let r = c.call(
        || format!("run_ranks_with_timeout({desc})"),
        || {
            run_ranks_with_timeout(world, timeout, |comm| {
                let rank = comm.rank();
                match failure {
                    Failure::Error(r) if r == rank => {
                        return Err(Error::InvalidArgument {
                            op: "fuzz",
                            message: format!("rank {rank} fails on purpose"),
                        })
                    }
                    Failure::Panic(r) if r == rank => panic!("a fuzzed rank panics on purpose"),
                    _ => {}
                }
                let placement = Placement::new(&ranks)?;
                let logical = Tensor::ones(&sizes, dtype)?;
                if placement.index_of(rank).is_none() {
                    // Not on the placement: from_logical must refuse it.
                    return GlobalTensor::from_logical(&comm, &logical, &placement, sbp_in)
                        .map(|_| (Vec::new(), None));
                }
                let x = GlobalTensor::from_logical(&comm, &logical, &placement, sbp_in)?;
                let rev: Vec<i64> = (0..ndim as i64).rev().collect();
                let y = match op {
                    0 => x.to_sbp(sbp_out)?,
                    1 => x.sum(&[], false)?,
                    2 => x.add(&x.to_sbp(sbp_out)?)?,
                    3 => x.amax(&[0], false)?,
                    4 => x.reshape(&[-1])?,
                    _ => x.matmul(&x.permute(&rev)?)?,
                };
                // The same op on the logical tensor, on this rank alone.
                let want = match op {
                    0 => Ok(logical.alias()),
                    1 => logical.sum(&[], false),
                    2 => logical.add(&logical),
                    3 => logical.amax(&[0], false),
                    4 => logical.reshape(&[-1]),
                    _ => logical.permute(&rev).and_then(|t| logical.matmul(&t)),
                };
                let want = want.and_then(|t| t.to_vec_f64()).ok();
                Ok((y.to_logical()?.to_vec_f64()?, want))
            })
        },
    );
    let took = t0.elapsed();
    // Every rank of the placement holds the logical result, that of the same op on the
    // logical tensor where that op succeeds.
    for (rank, (got, want)) in r.iter().flatten().enumerate() {
        if let Some(want) = want {
            c.check(got == want, || {
                format!("rank {rank}: global {got:?}, logical {want:?}")
            });
        }
    }
    // Every wait is bounded by the timeout; a run far past it is a hang.
    c.check(took < timeout * 20 + Duration::from_secs(5), || {
        format!("the run took {took:?} with a timeout of {timeout:?}")
    });
    match failure {
        Failure::None => {}
        Failure::Error(rank) | Failure::Panic(rank) => {
            c.check(r.is_none(), || {
                format!("rank {rank} failed, yet the run passed")
            });
            let e = run_error(world, timeout, failure);
            c.check(e.contains(&format!("rank {rank}")), || {
                format!("the error of a failing rank {rank} does not name it: {e}")
            });
        }
    }
}

/// The error of a world in which only the failing rank fails (it fails before any
/// collective, so its peers time out or see it stop).
fn run_error(world: usize, timeout: Duration, failure: Failure) -> String {
    let r = run_ranks_with_timeout(world, timeout, |comm| {
        let rank = comm.rank();
        match failure {
            Failure::Error(r) if r == rank => Err(Error::InvalidArgument {
                op: "fuzz",
                message: format!("rank {rank} fails on purpose"),
            }),
            Failure::Panic(r) if r == rank => panic!("a fuzzed rank panics on purpose"),
            _ => {
                let p = Placement::all(comm.world_size())?;
                let x = Tensor::ones(&[comm.world_size()], DType::F32)?;
                GlobalTensor::from_logical(&comm, &x, &p, Sbp::Split(0))?
                    .to_sbp(Sbp::Broadcast)?
                    .to_logical()?
                    .to_vec_f64()
            }
        }
    });
    match r {
        Ok(_) => "Ok".to_string(),
        Err(e) => e.to_string(),
    }
}
