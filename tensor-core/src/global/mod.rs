//! Global tensors: one logical tensor over the ranks of a placement, each rank holding a
//! shard described by an SBP (split, broadcast, partial), as OneFlow's global
//! ("consistent") view. See the README's "Global tensors" section.
//!
//! Programs are SPMD: every rank runs the same code on its own [`GlobalTensor`]s. Ops
//! deduce an SBP signature from the logical metadata (the `*_signature` functions),
//! box inputs with collectives when needed, and run the ordinary runtime op on each
//! shard. Collectives go through the [`Collective`] trait: in-process ranks
//! ([`run_ranks`], one thread per rank) or MPI ([`mpi_comm`], feature `mpi`).

mod apply;
mod boxing;
mod collective;
mod engine_mpi;
mod engine_threads;
mod global_tensor;
mod infer;
mod ops;
mod placement;
mod sbp;

pub use boxing::{boxing_kind, BoxingKind};
pub use collective::{Collective, Comm};
pub use engine_mpi::mpi_comm;
#[cfg(feature = "mpi")]
pub use engine_mpi::MpiComm;
pub use engine_threads::{run_ranks, run_ranks_with_timeout, ThreadComm, DEFAULT_TIMEOUT};
pub use global_tensor::GlobalTensor;
pub use infer::{
    broadcast_split_dim, infer_expand, logical_shape, permute_sbp, physical_shape,
    reduce_split_dim, reshape_split_dim, split_range, ExpandInference,
};
pub use ops::{
    binary_partial, elementwise_signature, expand_signature, has_empty_shard, matmul_signature,
    permute_signature, reduce_signature, reshape_signature, unary_signature, ReduceKind, Signature,
};
pub use placement::Placement;
pub use sbp::{ReduceOp, Sbp};
