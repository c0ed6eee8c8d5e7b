//! Pipelined chain collectives: the all-reduce and the broadcast of a whole tensor, whose
//! memory and traffic per rank do not grow with the number of ranks.
//!
//! The group's ranks form a chain in parallel-index order. The tensor is cut into
//! chunks (the balanced split rule, at least [`MIN_CHUNK_BYTES`] each, at most one per
//! rank); each chunk travels down the chain while the next one follows it, as NCCL's
//! pipelined chain (its tree algorithm's degenerate case) does. An all-reduce sends
//! every chunk down the chain, each rank reducing its own part into it (so the
//! reduction runs in rank order, `((p0 op p1) op p2) ...`, and every rank gets the same
//! bits, as before a tree or ring changed the order), then back up from the last rank.
//! Every rank sends and receives the tensor's bytes at most twice, and holds its own
//! tensor, the result and the chunks in flight: a few times the tensor's bytes, at 2
//! ranks as at 1,000 (an exchange of every rank's whole buffer with every rank held the
//! number of ranks times that).

use super::collective::{from_bytes, reduce_pair, to_bytes, Group};
use super::infer::split_range;
use super::sbp::ReduceOp;
use crate::error::Result;
use crate::tensor::Tensor;
use std::ops::Range;

/// The smallest chunk a tensor is cut into, in bytes (smaller messages cost more in
/// latency than they gain in pipelining).
pub(crate) const MIN_CHUNK_BYTES: usize = 64 * 1024;

/// The chunks, as element ranges of the flattened tensor, of a tensor of `numel`
/// elements of `elem_bytes` bytes on a chain of `ranks`: at least one (an empty tensor
/// still sends one empty chunk, so that ranks whose sizes differ see an error), at most
/// one per rank.
#[cfg_attr(unoptimized, inline)]
fn chunks(numel: usize, elem_bytes: usize, ranks: usize) -> Result<Vec<Range<usize>>> {
    let bytes = numel.saturating_mul(elem_bytes.max(1));
    let count = bytes.div_ceil(MIN_CHUNK_BYTES).clamp(1, ranks.max(1));
    (0..count).map(|j| split_range(numel, count, j)).collect()
}

/// Every rank's `local` reduced by `op` in rank order, on every rank of `group`, along
/// the chain (see the module's doc). The result is a fresh contiguous tensor of
/// `local`'s sizes and dtype.
///
/// # Errors
/// A collective's: a peer that stopped, or whose tensor has another number of elements.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn all_reduce(group: &Group<'_>, local: &Tensor, op: ReduceOp) -> Result<Tensor> {
    let (n, i) = (group.ranks.len(), group.index);
    let dtype = local.dtype();
    let numel = local.numel();
    let flat = local.reshape(&[numel as i64])?;
    if n == 1 {
        return from_bytes(to_bytes(&flat)?, local.sizes(), dtype);
    }
    let parts = chunks(numel, dtype.size(), n)?;
    let (prev, next) = (
        i.checked_sub(1).map(|p| group.ranks[p]),
        group.ranks.get(i + 1),
    );
    let mut result = Vec::new();
    // Down the chain: rank 0 starts each chunk, every next rank reduces its part into it,
    // the last one keeps the whole reduction.
    for r in &parts {
        let mine = flat.narrow(0, r.start as i64, r.len())?;
        let acc = match prev {
            None => mine,
            Some(p) => {
                let before = from_bytes(group.comm.recv(p)?, &[r.len()], dtype)?;
                reduce_pair(&before, &mine, op)?
            }
        };
        let bytes = to_bytes(&acc)?;
        match next {
            Some(&q) => group.comm.send(q, bytes)?,
            None => result.extend_from_slice(&bytes),
        }
    }
    // Back up: the last rank sends each reduced chunk, every rank keeps and forwards it.
    let elem = dtype.size();
    for r in &parts {
        let bytes = match next {
            None => result[r.start * elem..r.end * elem].to_vec(),
            Some(&q) => {
                let got = group.comm.recv(q)?;
                result.extend_from_slice(&got);
                got
            }
        };
        if let Some(p) = prev {
            group.comm.send(p, bytes)?;
        }
    }
    from_bytes(result, local.sizes(), dtype)
}

/// The bytes of the first rank's (parallel index 0) `local` on every rank of `group`,
/// passed down the chain in chunks; `local`'s sizes and dtype on every rank tell how
/// many bytes to expect.
///
/// # Errors
/// A collective's: a peer that stopped, or whose tensor has another number of elements.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn broadcast_first(group: &Group<'_>, local: &Tensor) -> Result<Tensor> {
    let (n, i) = (group.ranks.len(), group.index);
    let dtype = local.dtype();
    let numel = local.numel();
    let flat = local.reshape(&[numel as i64])?;
    let (prev, next) = (
        i.checked_sub(1).map(|p| group.ranks[p]),
        group.ranks.get(i + 1),
    );
    let mut result = Vec::new();
    for r in &chunks(numel, dtype.size(), n)? {
        let bytes = match prev {
            None => to_bytes(&flat.narrow(0, r.start as i64, r.len())?)?,
            Some(p) => group.comm.recv(p)?,
        };
        result.extend_from_slice(&bytes);
        if let Some(&q) = next {
            group.comm.send(q, bytes)?;
        }
    }
    from_bytes(result, local.sizes(), dtype)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dtype::DType;
    use crate::global::run_ranks;

    #[test]
    fn chunks_are_at_least_one_and_at_most_one_per_rank() {
        assert_eq!(chunks(0, 4, 8).unwrap(), vec![0..0]);
        assert_eq!(chunks(10, 4, 8).unwrap(), vec![0..10]);
        assert_eq!(chunks(1 << 20, 4, 2).unwrap().len(), 2);
        assert_eq!(chunks(1 << 20, 4, 1000).unwrap().len(), 64);
    }

    #[test]
    fn an_all_reduce_on_a_chain_equals_the_reduction_in_rank_order() {
        // Values whose float sum depends on the order: the chain must keep rank order.
        for n in [1usize, 2, 3, 5] {
            let numel = 3 * MIN_CHUNK_BYTES / 4 + 7;
            let value = |rank: usize, k: usize| ((rank * 7919 + k) % 1013) as f32 * 0.1 + 1e-3;
            let out = run_ranks(n, |c| {
                let ranks: Vec<usize> = (0..n).collect();
                let g = Group {
                    comm: &*c,
                    ranks: &ranks,
                    index: c.rank(),
                };
                let mine: Vec<f32> = (0..numel).map(|k| value(c.rank(), k)).collect();
                let t = Tensor::from_vec(mine, &[numel])?;
                let sum = all_reduce(&g, &t, ReduceOp::Sum)?.to_vec::<f32>()?;
                let max = all_reduce(&g, &t, ReduceOp::Max)?.to_vec::<f32>()?;
                Ok((sum, max))
            })
            .unwrap();
            let mut want = vec![0.0f32; numel];
            let mut want_max = vec![f32::MIN; numel];
            for (k, (w, m)) in want.iter_mut().zip(&mut want_max).enumerate() {
                *w = value(0, k);
                *m = value(0, k);
                for r in 1..n {
                    *w += value(r, k);
                    *m = m.max(value(r, k));
                }
            }
            for (sum, max) in out {
                assert!(
                    sum.iter()
                        .zip(&want)
                        .all(|(a, b)| a.to_bits() == b.to_bits()),
                    "{n} ranks"
                );
                assert_eq!(max, want_max, "{n} ranks");
            }
        }
    }

    #[test]
    fn an_empty_tensor_all_reduces_to_an_empty_tensor() {
        let out = run_ranks(3, |c| {
            let ranks = [0, 1, 2];
            let g = Group {
                comm: &*c,
                ranks: &ranks,
                index: c.rank(),
            };
            let t = Tensor::zeros(&[0, 4], DType::F64)?;
            Ok(all_reduce(&g, &t, ReduceOp::Sum)?.sizes().to_vec())
        })
        .unwrap();
        assert_eq!(out, vec![vec![0, 4]; 3]);
    }

    #[test]
    fn tensors_of_different_sizes_on_two_ranks_are_an_error() {
        let e = run_ranks(2, |c| {
            let ranks = [0, 1];
            let g = Group {
                comm: &*c,
                ranks: &ranks,
                index: c.rank(),
            };
            let t = Tensor::zeros(&[3 + c.rank()], DType::F32)?;
            all_reduce(&g, &t, ReduceOp::Sum)
        })
        .unwrap_err()
        .to_string();
        // The rank that receives the wrong size says so; its peer sees it stop.
        assert!(e.contains("bytes") || e.contains("stopped"), "{e}");
    }

    #[test]
    fn a_broadcast_on_a_chain_gives_every_rank_the_first_ranks_tensor() {
        let out = run_ranks(4, |c| {
            let ranks = [0, 1, 2, 3];
            let g = Group {
                comm: &*c,
                ranks: &ranks,
                index: c.rank(),
            };
            let t = Tensor::full(&[2, 3], c.rank() as f64 + 1.0, DType::F64)?;
            broadcast_first(&g, &t)?.to_vec::<f64>()
        })
        .unwrap();
        assert_eq!(out, vec![vec![1.0; 6]; 4]);
    }
}
