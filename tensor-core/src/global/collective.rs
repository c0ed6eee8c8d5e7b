//! The `Collective` trait every engine implements, and the tensor collectives that
//! boxing is built from (all-gather, all-reduce, reduce-scatter, all-to-all), written
//! once over the trait's one primitive.

use super::infer::{physical_shape, split_range};
use super::sbp::{ReduceOp, Sbp};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::Layout;
use crate::storage::Storage;
use crate::tensor::Tensor;
use std::rc::Rc;

/// A communicator: this process's (or thread's) rank in a world of ranks, and one
/// exchange primitive. The engines are [`super::run_ranks`] (one thread per rank) and,
/// with the `mpi` feature, an MPI communicator.
///
/// Every rank of `group` must call the same collectives in the same order (SPMD); the
/// metadata that decides which collective runs is logical, hence the same on every rank.
pub trait Collective {
    /// This rank, in `0..world_size()`.
    fn rank(&self) -> usize;

    /// The number of ranks in the world.
    fn world_size(&self) -> usize;

    /// All-to-all of byte buffers among the world ranks `group` (distinct, containing
    /// this rank): `sends[i]` goes to `group[i]`; the result's element `i` is what
    /// `group[i]` sent to this rank. Every rank of `group` calls it with the same `group`.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `group` is malformed, or a peer stopped (returned,
    /// failed or timed out) before the exchange completed: an engine never hangs forever
    /// because another rank failed.
    fn exchange(&self, group: &[usize], sends: Vec<Vec<u8>>) -> Result<Vec<Vec<u8>>>;

    /// Sends `buf` to the world rank `peer` (not this rank), which takes it with
    /// [`Collective::recv`]; messages between two ranks arrive in the order they were
    /// sent, exchanges' included. The default is an [`exchange`](Collective::exchange)
    /// with `peer` alone (it waits for `peer`'s `recv`); an engine with buffered sends
    /// returns at once.
    ///
    /// # Errors
    /// As [`Collective::exchange`]: `peer` out of the world or this rank, or stopped.
    fn send(&self, peer: usize, buf: Vec<u8>) -> Result<()> {
        let me = self.rank();
        let (group, sends) = if me < peer {
            ([me, peer], vec![Vec::new(), buf])
        } else {
            ([peer, me], vec![buf, Vec::new()])
        };
        self.exchange(&group, sends).map(drop)
    }

    /// The next buffer the world rank `peer` sent to this rank with
    /// [`Collective::send`]. The default is an [`exchange`](Collective::exchange) with
    /// `peer` alone.
    ///
    /// # Errors
    /// As [`Collective::exchange`].
    fn recv(&self, peer: usize) -> Result<Vec<u8>> {
        let me = self.rank();
        let (group, theirs) = if me < peer {
            ([me, peer], 1)
        } else {
            ([peer, me], 0)
        };
        let mut got = self.exchange(&group, vec![Vec::new(), Vec::new()])?;
        Ok(std::mem::take(&mut got[theirs]))
    }
}

/// A shared handle to a communicator, as every [`super::GlobalTensor`] holds one.
pub type Comm = Rc<dyn Collective>;

/// The error of a collective: `op` is always `"collective"`, so a runner can tell
/// failures caused by another rank from a rank's own error.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn comm_error(message: String) -> Error {
    Error::InvalidArgument {
        op: "collective",
        message,
    }
}

/// Checks `group` and `sends` for [`Collective::exchange`]: distinct in-range ranks
/// including `rank`, one buffer per rank.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn check_group(group: &[usize], sends: usize, rank: usize, world: usize) -> Result<()> {
    // Distinct and in range, in one pass over a bitmap of the world (O(world + group)).
    let mut seen = vec![false; if group.len() <= world { world } else { 0 }];
    let distinct = group.len() <= world
        && group
            .iter()
            .all(|&r| r < world && !std::mem::replace(&mut seen[r], true));
    if !distinct || !group.contains(&rank) || sends != group.len() {
        return Err(comm_error(format!(
            "exchange: rank {rank} of {world} called with group {group:?} and {sends} buffers"
        )));
    }
    Ok(())
}

/// The contiguous bytes of `t` in row-major order (bool travels as `u8`).
#[cfg_attr(unoptimized, inline)]
pub(crate) fn to_bytes(t: &Tensor) -> Result<Vec<u8>> {
    if t.numel() == 0 {
        // An empty view may sit at any offset, even past its storage's end.
        return Ok(Vec::new());
    }
    let t = if t.dtype() == DType::Bool {
        t.to_dtype(DType::U8)?
    } else {
        t.contiguous()?
    };
    let size = t.dtype().size();
    let start = t.storage_offset() * size;
    let len = t.numel() * size;
    let buf = t.storage().read();
    let bytes = buf.as_slice::<u8>();
    bytes
        .get(start..start + len)
        .map(<[u8]>::to_vec)
        .ok_or_else(|| comm_error("to_bytes: tensor outside its storage".into()))
}

/// A contiguous tensor of `sizes` and `dtype` from bytes made by [`to_bytes`].
///
/// # Errors
/// An [`Error::InvalidArgument`] when the length does not match `sizes`.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn from_bytes(bytes: Vec<u8>, sizes: &[usize], dtype: DType) -> Result<Tensor> {
    let wire = if dtype == DType::Bool {
        DType::U8
    } else {
        dtype
    };
    let numel = crate::layout::checked_numel(sizes, "from_bytes")?;
    if numel.checked_mul(wire.size()) != Some(bytes.len()) {
        return Err(comm_error(format!(
            "received {} bytes for a {dtype} shard of sizes {sizes:?}",
            bytes.len()
        )));
    }
    let storage = Storage::from_vec::<u8>(bytes)?;
    let t = Tensor::from_parts(storage, Layout::contiguous(sizes)?, wire)?;
    if dtype == DType::Bool {
        t.to_dtype(DType::Bool)
    } else {
        Ok(t)
    }
}

/// `a op b` elementwise, keeping the dtype (`add`, `maximum`, `minimum`).
#[cfg_attr(unoptimized, inline)]
pub(crate) fn reduce_pair(a: &Tensor, b: &Tensor, op: ReduceOp) -> Result<Tensor> {
    match op {
        ReduceOp::Sum => a.add(b),
        ReduceOp::Max => a.maximum(b),
        ReduceOp::Min => a.minimum(b),
    }
}

/// Reduces `parts` in order: `((p0 op p1) op p2) ...`, so every rank gets the same bits.
#[cfg_attr(unoptimized, inline)]
fn reduce_in_order(parts: Vec<Tensor>, op: ReduceOp) -> Result<Tensor> {
    let mut it = parts.into_iter();
    let mut acc = it
        .next()
        .ok_or_else(|| comm_error("reduce of no shard".into()))?;
    for p in it {
        acc = reduce_pair(&acc, &p, op)?;
    }
    Ok(acc)
}

/// Concatenates `parts` (in order) along `dim` into a fresh tensor of `sizes`.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn concat(
    parts: &[Tensor],
    dim: usize,
    sizes: &[usize],
    dtype: DType,
) -> Result<Tensor> {
    let out = Tensor::empty(sizes, dtype)?;
    let mut start = 0usize;
    for p in parts {
        let len = p.sizes()[dim];
        out.narrow(dim as i64, start as i64, len)?.copy_(p)?;
        start += len;
    }
    Ok(out)
}

/// The group's part `index` of `t` cut along `dim` by the balanced rule.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn shard(t: &Tensor, dim: usize, parts: usize, index: usize) -> Result<Tensor> {
    let r = split_range(t.sizes()[dim], parts, index)?;
    t.narrow(dim as i64, r.start as i64, r.len())
}

/// One rank's view of a collective: the communicator, the placement's ranks and this
/// rank's parallel index in them.
pub(crate) struct Group<'a> {
    pub(crate) comm: &'a dyn Collective,
    pub(crate) ranks: &'a [usize],
    pub(crate) index: usize,
}

impl Group<'_> {
    #[cfg_attr(unoptimized, inline)]
    fn parts(&self) -> usize {
        self.ranks.len()
    }

    /// Sends `local` to every rank; returns every rank's buffer.
    #[cfg_attr(unoptimized, inline)]
    fn gather_bytes(&self, local: &Tensor) -> Result<Vec<Vec<u8>>> {
        let bytes = to_bytes(local)?;
        self.comm.exchange(self.ranks, vec![bytes; self.parts()])
    }

    /// All-gather: the shards of a tensor split along `dim` (logical `sizes`), joined
    /// into the whole tensor on every rank (S → B).
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn all_gather(&self, local: &Tensor, dim: usize, sizes: &[usize]) -> Result<Tensor> {
        let bufs = self.gather_bytes(local)?;
        let mut parts = Vec::with_capacity(bufs.len());
        for (j, b) in bufs.into_iter().enumerate() {
            let s = physical_shape(sizes, Sbp::Split(dim), self.parts(), j)?;
            parts.push(from_bytes(b, &s, local.dtype())?);
        }
        concat(&parts, dim, sizes, local.dtype())
    }

    /// Reduce-scatter: part `j` along `dim` of every rank's `local`, reduced by `op` in
    /// rank order, lands on rank `j` (P → S(dim)).
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn reduce_scatter(
        &self,
        local: &Tensor,
        op: ReduceOp,
        dim: usize,
    ) -> Result<Tensor> {
        let sends = (0..self.parts())
            .map(|j| to_bytes(&shard(local, dim, self.parts(), j)?))
            .collect::<Result<Vec<_>>>()?;
        let bufs = self.comm.exchange(self.ranks, sends)?;
        let mine = physical_shape(local.sizes(), Sbp::Split(dim), self.parts(), self.index)?;
        let parts = bufs
            .into_iter()
            .map(|b| from_bytes(b, &mine, local.dtype()))
            .collect::<Result<Vec<_>>>()?;
        reduce_in_order(parts, op)
    }

    /// All-to-all: a tensor (logical `sizes`) split along `from` becomes split along
    /// `to` (S(from) → S(to)).
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn all_to_all(
        &self,
        local: &Tensor,
        from: usize,
        to: usize,
        sizes: &[usize],
    ) -> Result<Tensor> {
        let n = self.parts();
        let sends = (0..n)
            .map(|q| to_bytes(&shard(local, to, n, q)?))
            .collect::<Result<Vec<_>>>()?;
        let bufs = self.comm.exchange(self.ranks, sends)?;
        let mine = physical_shape(sizes, Sbp::Split(to), n, self.index)?;
        let mut parts = Vec::with_capacity(n);
        for (p, b) in bufs.into_iter().enumerate() {
            let mut s = mine.clone();
            s[from] = split_range(sizes[from], n, p)?.len();
            parts.push(from_bytes(b, &s, local.dtype())?);
        }
        concat(&parts, from, &mine, local.dtype())
    }
}
