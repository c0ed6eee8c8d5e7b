//! Global tensors: one logical tensor over the ranks of a placement, each rank holding a
//! shard described by an SBP (split, broadcast, partial), as OneFlow's global
//! ("consistent") view. See the README's "Global tensors" section.
//!
//! Programs are SPMD: every rank runs the same code on its own [`GlobalTensor`]s. Ops
//! deduce an SBP signature from the logical metadata (the `*_signature` functions),
//! box inputs with collectives when needed, and run the ordinary runtime op on each
//! shard. Gradients flow through global ops (`grad.rs`, `boxing_grad.rs`: a gradient has
//! the dual SBP of its tensor, a boxing's backward is the dual boxing), and data-parallel
//! training has its bucketed all-reduce (`data_parallel.rs`). Collectives go through the [`Collective`] trait: in-process ranks
//! ([`run_ranks`], one thread per rank) or MPI ([`mpi_comm`], feature `mpi`).

mod apply;
mod boxing;
mod boxing_grad;
mod chain;
mod collective;
mod data_parallel;
mod engine_mpi;
mod engine_threads;
mod global_tensor;
mod grad;
mod infer;
mod loss;
mod norm;
mod ops;
mod placement;
mod policy;
mod rank_limits;
mod sbp;

pub use boxing::{boxing_kind, BoxingKind};
pub use boxing_grad::grad_sbp;
pub use collective::{Collective, Comm};
pub use data_parallel::{all_reduce_sum, broadcast_from_first};
pub use engine_mpi::mpi_comm;
#[cfg(feature = "mpi")]
pub use engine_mpi::MpiComm;
pub use engine_threads::{run_ranks, run_ranks_with_timeout, ThreadComm, DEFAULT_TIMEOUT};
pub use global_tensor::GlobalTensor;
pub use infer::{
    broadcast_split_dim, infer_expand, logical_shape, permute_sbp, physical_shape,
    reduce_split_dim, reshape_split_dim, split_range, ExpandInference,
};
pub use norm::{layer_norm_signature, softmax_signature};
pub use ops::{
    binary_partial, elementwise_signature, expand_signature, has_empty_shard, matmul_signature,
    permute_signature, reduce_signature, reshape_signature, unary_signature, ReduceKind, Signature,
};
pub use placement::Placement;
pub use policy::without_implicit_boxing;
pub use rank_limits::MAX_THREAD_RANKS;
pub use sbp::{ReduceOp, Sbp};
