//! How many in-process ranks a world may have: checked before any thread starts, so that
//! too many ranks are an error naming the limit instead of an allocation failure that
//! aborts the process halfway through starting them.

use crate::error::{Error, Result};

/// The most ranks [`super::run_ranks`] starts in one process (one thread each); more
/// ranks belong on several processes (MPI, [`super::mpi_comm`]).
pub const MAX_THREAD_RANKS: usize = 4096;

/// The address space a rank's thread reserves: Rust's default stack (2 MiB, or
/// `RUST_MIN_STACK`) plus its guard page, thread-local storage and allocator arena
/// headroom.
#[cfg_attr(unoptimized, inline)]
fn reserved_per_rank() -> u64 {
    let stack = std::env::var("RUST_MIN_STACK")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .unwrap_or(2 << 20);
    stack.saturating_add(256 << 10)
}

/// The memory a rank's thread commits at least (the touched part of its stack, its
/// inbox and bookkeeping), before the program it runs allocates anything.
const COMMITTED_PER_RANK: u64 = 64 << 10;

/// The first number, in bytes, of the line of `text` that starts with `key` (`kB`
/// suffixes converted); `None` for "unlimited" or a missing line.
#[cfg_attr(unoptimized, inline)]
fn field(text: &str, key: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(key))?;
    let rest = &line[key.len()..];
    let mut words = rest.split_whitespace();
    let value = words.next()?.parse::<u64>().ok()?;
    Some(if words.next() == Some("kB") {
        value.saturating_mul(1024)
    } else {
        value
    })
}

/// The error of a world of `world_size` ranks that does not fit: `why`, and what to do.
#[cfg_attr(unoptimized, inline)]
fn too_many(world_size: usize, why: String) -> Error {
    Error::InvalidArgument {
        op: "run_ranks",
        message: format!(
            "run_ranks: {world_size} ranks do not fit in this process: {why}; use fewer \
             ranks, or MPI for more"
        ),
    }
}

/// Checks that `world_size` in-process ranks can start: at most [`MAX_THREAD_RANKS`],
/// within the system's thread limit (`/proc/sys/kernel/threads-max`), the process's
/// address-space limit (`ulimit -v`, against each thread's reserved stack) and the
/// available memory (`MemAvailable`). Where the system does not say (no `/proc`), only
/// the first bound is checked.
///
/// # Errors
/// [`Error::InvalidArgument`] (op `run_ranks`) naming the bound and the numbers.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn check_world_size(world_size: usize) -> Result<()> {
    if world_size == 0 {
        return Err(Error::InvalidArgument {
            op: "run_ranks",
            message: "run_ranks: a world needs at least one rank".into(),
        });
    }
    if world_size > MAX_THREAD_RANKS {
        return Err(too_many(
            world_size,
            format!("at most {MAX_THREAD_RANKS} in-process ranks (one thread each)"),
        ));
    }
    let n = world_size as u64;
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let threads_max = std::fs::read_to_string("/proc/sys/kernel/threads-max")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok());
    let threads = field(&status, "Threads:").unwrap_or(1);
    if let Some(max) = threads_max {
        if n.saturating_add(threads) > max {
            return Err(too_many(
                world_size,
                format!("the system allows {max} threads and this process runs {threads}"),
            ));
        }
    }
    let limits = std::fs::read_to_string("/proc/self/limits").unwrap_or_default();
    if let Some(limit) = field(&limits, "Max address space") {
        let used = field(&status, "VmSize:").unwrap_or(0);
        let need = n.saturating_mul(reserved_per_rank());
        let left = limit.saturating_sub(used);
        if need > left {
            return Err(too_many(
                world_size,
                format!(
                    "their threads' stacks reserve {} MiB of address space and the \
                     process may map {} MiB more (ulimit -v)",
                    need >> 20,
                    left >> 20
                ),
            ));
        }
    }
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    if let Some(available) = field(&meminfo, "MemAvailable:") {
        let need = n.saturating_mul(COMMITTED_PER_RANK);
        if need > available {
            return Err(too_many(
                world_size,
                format!(
                    "their threads need at least {} MiB and {} MiB of memory are available",
                    need >> 20,
                    available >> 20
                ),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_is_read_in_bytes_and_unlimited_is_none() {
        let limits = "Max address space         unlimited            unlimited            bytes\n\
                      Max processes             127431               127431               processes";
        assert_eq!(field(limits, "Max address space"), None);
        assert_eq!(field(limits, "Max processes"), Some(127431));
        assert_eq!(field("VmSize:\t  1000 kB\n", "VmSize:"), Some(1024000));
    }

    #[test]
    fn zero_and_too_many_ranks_are_errors_naming_the_bound() {
        assert!(check_world_size(0)
            .unwrap_err()
            .to_string()
            .contains("at least one rank"));
        let e = check_world_size(100_000).unwrap_err().to_string();
        assert!(e.contains("100000 ranks") && e.contains("4096"), "{e}");
        assert!(check_world_size(2).is_ok());
    }
}
