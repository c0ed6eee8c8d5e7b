//! The two collectives of data-parallel training (PyTorch's `DistributedDataParallel`,
//! OneFlow's broadcast parameters with split(0) batches): the parameters broadcast from
//! the first rank once, and every step the gradients, each rank's `PartialSum` share,
//! boxed to broadcast in *one* all-reduce of a bucket that holds them all (one
//! collective per step instead of one per tensor).

use super::chain;
use super::collective::{Comm, Group};
use super::global_tensor::GlobalTensor;
use super::placement::Placement;
use super::sbp::Sbp;
use crate::autograd::no_grad;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::tensor::Tensor;

/// The one dtype of `tensors` (F32 for none).
///
/// # Errors
/// [`Error::InvalidArgument`] naming `op` when two dtypes differ.
#[cfg_attr(unoptimized, inline)]
fn bucket_dtype(tensors: &[&Tensor], op: &'static str) -> Result<DType> {
    let dtype = tensors.first().map_or(DType::F32, |t| t.dtype());
    match tensors.iter().find(|t| t.dtype() != dtype) {
        Some(t) => Err(Error::InvalidArgument {
            op,
            message: format!(
                "{op}: a bucket holds one dtype, got {dtype} and {}",
                t.dtype()
            ),
        }),
        None => Ok(dtype),
    }
}

/// `tensors` flattened and joined into one contiguous 1-d tensor (out of the graph).
#[cfg_attr(unoptimized, inline)]
fn flatten(tensors: &[&Tensor], dtype: DType) -> Result<Tensor> {
    no_grad(|| {
        let flat = tensors
            .iter()
            .map(|t| t.detach().reshape(&[-1]))
            .collect::<Result<Vec<_>>>()?;
        if flat.is_empty() {
            return Tensor::zeros(&[0], dtype);
        }
        Tensor::cat(&flat.iter().collect::<Vec<_>>(), 0)
    })
}

/// The parts of the 1-d `flat` shaped as `tensors`, in order (views of `flat`).
#[cfg_attr(unoptimized, inline)]
fn unflatten(flat: &Tensor, tensors: &[&Tensor]) -> Result<Vec<Tensor>> {
    let mut start = 0usize;
    tensors
        .iter()
        .map(|t| {
            let n = t.numel();
            let sizes: Vec<i64> = t.sizes().iter().map(|&s| s as i64).collect();
            let part = flat.narrow(0, start as i64, n)?.view(&sizes)?;
            start += n;
            Ok(part)
        })
        .collect()
}

/// Copies the first rank's `tensors` (parallel index 0 of `placement`) into every
/// rank's, in place and out of the graph, passed down the chain of ranks in chunks
/// (each rank's memory and traffic a few times the tensors' bytes): the start of data-parallel
/// training, so that every replica begins from the same parameters
/// (`DistributedDataParallel`'s broadcast of the module's state).
///
/// # Errors
/// Different dtypes among `tensors`; [`Placement::check_in_world`]'s; a collective's
/// (a peer that stopped, or tensors whose sizes differ from the first rank's).
#[cfg_attr(unoptimized, inline)]
pub fn broadcast_from_first(comm: &Comm, placement: &Placement, tensors: &[&Tensor]) -> Result<()> {
    let dtype = bucket_dtype(tensors, "broadcast_from_first")?;
    let index = placement.check_in_world(comm.rank(), comm.world_size())?;
    let flat = flatten(tensors, dtype)?;
    let group = Group {
        comm: &**comm,
        ranks: placement.ranks(),
        index,
    };
    let first = chain::broadcast_first(&group, &flat)?;
    no_grad(|| {
        for (dst, src) in tensors.iter().zip(unflatten(&first, tensors)?) {
            dst.detach().copy_(&src)?;
        }
        Ok(())
    })
}

/// The sums over the ranks of `placement` of every rank's `tensors`, in one all-reduce:
/// the tensors are flattened into one bucket, wrapped as a `PartialSum` global tensor
/// and boxed to broadcast (reduced in rank order, so every rank gets the same bits),
/// then cut back into tensors of the inputs' sizes. Data parallelism calls it once per
/// step with every parameter's gradient (and any statistics to sum, such as the
/// batch's loss) in the bucket.
///
/// # Errors
/// Different dtypes among `tensors`; [`Placement::check_in_world`]'s; a collective's
/// (a peer that stopped, or a bucket whose size differs from another rank's).
#[cfg_attr(unoptimized, inline)]
pub fn all_reduce_sum(
    comm: &Comm,
    placement: &Placement,
    tensors: &[&Tensor],
) -> Result<Vec<Tensor>> {
    let dtype = bucket_dtype(tensors, "all_reduce_sum")?;
    let flat = flatten(tensors, dtype)?;
    let sizes = flat.sizes().to_vec();
    let summed = GlobalTensor::from_local(comm, flat, &sizes, placement, Sbp::PartialSum)?
        .to_sbp(Sbp::Broadcast)?;
    unflatten(summed.local(), tensors)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::global::run_ranks;

    #[test]
    fn one_all_reduce_sums_a_bucket_of_differently_shaped_tensors() {
        let out = run_ranks(3, |c| {
            let p = Placement::all(3)?;
            let r = c.rank() as f32;
            let a = Tensor::full(&[2, 3], r, DType::F32)?;
            let b = Tensor::full(&[4], 10.0 * r, DType::F32)?;
            let s = all_reduce_sum(&c, &p, &[&a, &b])?;
            Ok((
                s[0].to_vec::<f32>()?,
                s[1].sizes().to_vec(),
                s[1].to_vec::<f32>()?,
            ))
        })
        .unwrap();
        for (a, b_sizes, b) in out {
            assert_eq!(a, vec![3.0; 6]);
            assert_eq!((b_sizes, b), (vec![4], vec![30.0; 4]));
        }
    }

    #[test]
    fn broadcast_from_first_overwrites_every_rank_with_rank_0s_values() {
        let out = run_ranks(2, |c| {
            let p = Placement::all(2)?;
            let w =
                Tensor::full(&[2, 2], c.rank() as f32 + 1.0, DType::F32)?.requires_grad_(true)?;
            let b = Tensor::full(&[3], 5.0 * c.rank() as f32, DType::F32)?;
            broadcast_from_first(&c, &p, &[&w, &b])?;
            Ok((w.to_vec::<f32>()?, b.to_vec::<f32>()?, w.requires_grad()))
        })
        .unwrap();
        for (w, b, req) in out {
            assert_eq!((w, b, req), (vec![1.0; 4], vec![0.0; 3], true));
        }
    }

    #[test]
    fn a_bucket_of_two_dtypes_is_an_error() {
        let e = run_ranks(1, |c| {
            let p = Placement::all(1)?;
            let a = Tensor::zeros(&[1], DType::F32)?;
            let b = Tensor::zeros(&[1], DType::F64)?;
            all_reduce_sum(&c, &p, &[&a, &b])
        })
        .unwrap_err();
        assert!(e.to_string().contains("one dtype"), "{e}");
    }
}
