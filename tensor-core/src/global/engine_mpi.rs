//! The MPI engine (feature `mpi`): rsmpi over the system's MPI library (Open MPI on
//! Debian: `openmpi-bin`, `libopenmpi-dev`; the bindings need `libclang-dev`). Run an
//! SPMD program under `mpirun -np N`; each process is one rank.
//!
//! Deadlock safety: when a rank fails and exits, `mpirun` ends the job, so no rank
//! waits forever.

use super::collective::{comm_error, Comm};
use crate::error::Result;
#[cfg(feature = "mpi")]
pub use with_mpi::MpiComm;

/// The communicator over MPI's world, for a process started by `mpirun`: the one call a
/// program needs to pick the MPI engine, present in every build.
///
/// # Errors
/// [`crate::error::Error::InvalidArgument`] when tensor-core was built without the `mpi`
/// feature, or MPI was already initialised in this process.
#[cfg_attr(unoptimized, inline)]
pub fn mpi_comm() -> Result<Comm> {
    #[cfg(feature = "mpi")]
    {
        Ok(std::rc::Rc::new(MpiComm::init()?))
    }
    #[cfg(not(feature = "mpi"))]
    {
        Err(comm_error(
            "tensor-core was built without the `mpi` feature (cargo ... --features tensor-core/mpi)".into(),
        ))
    }
}

#[cfg(feature = "mpi")]
mod with_mpi {
    use super::comm_error;
    use crate::error::Result;
    use crate::global::collective::{check_group, Collective};
    use mpi::environment::Universe;
    use mpi::point_to_point::{Destination, Source};
    use mpi::topology::{Communicator, SimpleCommunicator};
    use mpi::Threading;

    /// This process's rank in `MPI_COMM_WORLD`. MPI is finalised when it is dropped; a
    /// process initialises MPI once, so it holds at most one.
    pub struct MpiComm {
        world: SimpleCommunicator,
        // Dropped after `world`: finalises MPI.
        _universe: Universe,
    }

    impl MpiComm {
        /// Initialises MPI (thread level `Serialized`: any one thread at a time may call
        /// it) and returns this process's communicator over the world.
        ///
        /// # Errors
        /// [`crate::error::Error::InvalidArgument`] when MPI was already initialised in this process.
        #[cfg_attr(unoptimized, inline)]
        pub fn init() -> Result<MpiComm> {
            let (universe, _) = mpi::initialize_with_threading(Threading::Serialized)
                .ok_or_else(|| comm_error("MPI is already initialised in this process".into()))?;
            Ok(MpiComm {
                world: universe.world(),
                _universe: universe,
            })
        }
    }

    impl Collective for MpiComm {
        #[cfg_attr(unoptimized, inline)]
        fn rank(&self) -> usize {
            self.world.rank() as usize
        }

        #[cfg_attr(unoptimized, inline)]
        fn world_size(&self) -> usize {
            self.world.size() as usize
        }

        /// Non-blocking sends to every peer, then one blocking receive from each, in group
        /// order (MPI keeps messages between two ranks in order, so successive exchanges
        /// cannot mix).
        #[cfg_attr(unoptimized, inline)]
        fn exchange(&self, group: &[usize], sends: Vec<Vec<u8>>) -> Result<Vec<Vec<u8>>> {
            let me = self.rank();
            check_group(group, sends.len(), me, self.world_size())?;
            let peer = |r: usize| self.world.process_at_rank(r as i32);
            let recvs = mpi::request::scope(|scope| {
                let requests: Vec<_> = group
                    .iter()
                    .zip(&sends)
                    .filter(|(&r, _)| r != me)
                    .map(|(&r, buf)| peer(r).immediate_send(scope, &buf[..]))
                    .collect();
                let recvs: Vec<Vec<u8>> = group
                    .iter()
                    .zip(&sends)
                    .map(|(&r, own)| {
                        if r == me {
                            own.clone()
                        } else {
                            peer(r).receive_vec::<u8>().0
                        }
                    })
                    .collect();
                for req in requests {
                    req.wait();
                }
                recvs
            });
            Ok(recvs)
        }
    }
}
