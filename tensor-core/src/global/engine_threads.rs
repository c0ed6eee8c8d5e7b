//! The in-process engine: one thread per rank, byte buffers over channels. The default
//! engine, used by the tests.
//!
//! Deadlock safety: a rank that returns, fails or panics drops its channel ends, so a
//! peer waiting for it gets an error at once instead of hanging; a timeout bounds every
//! wait in case a peer is alive but never sends (a bug in an SPMD program).

use super::collective::{check_group, comm_error, Collective, Comm};
use crate::error::{Error, Result};
use std::rc::Rc;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::time::Duration;

/// How long a rank waits for one message before it gives up (see [`run_ranks_with_timeout`]).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// One rank of an in-process world: a sender to every rank and a receiver from every
/// rank.
pub struct ThreadComm {
    rank: usize,
    to: Vec<Sender<Vec<u8>>>,
    from: Vec<Receiver<Vec<u8>>>,
    timeout: Duration,
}

impl Collective for ThreadComm {
    #[cfg_attr(unoptimized, inline)]
    fn rank(&self) -> usize {
        self.rank
    }

    #[cfg_attr(unoptimized, inline)]
    fn world_size(&self) -> usize {
        self.to.len()
    }

    #[cfg_attr(unoptimized, inline)]
    fn exchange(&self, group: &[usize], sends: Vec<Vec<u8>>) -> Result<Vec<Vec<u8>>> {
        check_group(group, sends.len(), self.rank, self.world_size())?;
        let mut own = None;
        for (&peer, buf) in group.iter().zip(sends) {
            if peer == self.rank {
                own = Some(buf);
            } else if self.to[peer].send(buf).is_err() {
                return Err(comm_error(format!(
                    "rank {}: rank {peer} stopped before the exchange (it returned or failed)",
                    self.rank
                )));
            }
        }
        let mut recvs = Vec::with_capacity(group.len());
        for &peer in group {
            if peer == self.rank {
                recvs.push(own.take().unwrap_or_default());
                continue;
            }
            match self.from[peer].recv_timeout(self.timeout) {
                Ok(buf) => recvs.push(buf),
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(comm_error(format!(
                    "rank {}: rank {peer} stopped before sending its part (it returned or failed)",
                    self.rank
                )))
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(comm_error(format!(
                        "rank {}: timed out after {:?} waiting for rank {peer}",
                        self.rank, self.timeout
                    )))
                }
            }
        }
        Ok(recvs)
    }
}

/// Runs `f` on `world_size` ranks, one thread each, with [`DEFAULT_TIMEOUT`]; see
/// [`run_ranks_with_timeout`].
///
/// # Errors
/// As [`run_ranks_with_timeout`].
pub fn run_ranks<T, F>(world_size: usize, f: F) -> Result<Vec<T>>
where
    T: Send,
    F: Fn(Comm) -> Result<T> + Sync,
{
    run_ranks_with_timeout(world_size, DEFAULT_TIMEOUT, f)
}

/// Runs the SPMD program `f` on `world_size` in-process ranks, one thread each, every
/// one with its own communicator; returns each rank's result in rank order.
///
/// # Errors
/// [`Error::InvalidArgument`] when `world_size` is 0; otherwise, when any rank fails,
/// the error of the lowest rank whose failure is its own (not a collective that failed
/// because another rank stopped); a panicking rank becomes an error naming it. A rank
/// waits at most `timeout` for any one message, so the call always returns.
pub fn run_ranks_with_timeout<T, F>(world_size: usize, timeout: Duration, f: F) -> Result<Vec<T>>
where
    T: Send,
    F: Fn(Comm) -> Result<T> + Sync,
{
    if world_size == 0 {
        return Err(Error::InvalidArgument {
            op: "run_ranks",
            message: "run_ranks: a world needs at least one rank".into(),
        });
    }
    // to[src][dst] sends what from[dst][src] receives.
    let mut to: Vec<Vec<Sender<Vec<u8>>>> = (0..world_size).map(|_| Vec::new()).collect();
    let mut from: Vec<Vec<Receiver<Vec<u8>>>> = (0..world_size).map(|_| Vec::new()).collect();
    for senders in to.iter_mut() {
        for receivers in from.iter_mut() {
            let (tx, rx) = channel();
            senders.push(tx);
            receivers.push(rx);
        }
    }
    let comms: Vec<ThreadComm> = to
        .into_iter()
        .zip(from)
        .enumerate()
        .map(|(rank, (to, from))| ThreadComm {
            rank,
            to,
            from,
            timeout,
        })
        .collect();
    let f = &f;
    let results: Vec<Result<T>> = std::thread::scope(|s| {
        let handles: Vec<_> = comms
            .into_iter()
            .map(|c| s.spawn(move || f(Rc::new(c))))
            .collect();
        handles
            .into_iter()
            .enumerate()
            .map(|(rank, h)| {
                h.join().unwrap_or_else(|p| {
                    let what = p
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .or_else(|| p.downcast_ref::<String>().cloned())
                        .unwrap_or_default();
                    Err(Error::InvalidArgument {
                        op: "run_ranks",
                        message: format!("rank {rank} panicked: {what}"),
                    })
                })
            })
            .collect()
    });
    let own = results
        .iter()
        .find_map(|r| r.as_ref().err().filter(|e| !is_comm_error(e)).cloned());
    let any = results.iter().find_map(|r| r.as_ref().err().cloned());
    if let Some(e) = own.or(any) {
        return Err(e);
    }
    results.into_iter().collect()
}

#[cfg_attr(unoptimized, inline)]
fn is_comm_error(e: &Error) -> bool {
    matches!(
        e,
        Error::InvalidArgument {
            op: "collective",
            ..
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exchange_delivers_each_buffer_to_its_rank() {
        let out = run_ranks(3, |c| {
            let r = c.rank() as u8;
            c.exchange(&[0, 1, 2], vec![vec![r, 0], vec![r, 1], vec![r, 2]])
        })
        .unwrap();
        assert_eq!(out[1], vec![vec![0, 1], vec![1, 1], vec![2, 1]]);
    }

    #[test]
    fn a_failing_rank_does_not_hang_the_others() {
        let e = run_ranks_with_timeout(3, Duration::from_secs(30), |c| {
            if c.rank() == 1 {
                return Err(Error::InvalidArgument {
                    op: "test",
                    message: "rank 1 fails".into(),
                });
            }
            c.exchange(&[0, 1, 2], vec![vec![]; 3])?;
            c.exchange(&[0, 1, 2], vec![vec![]; 3])
        })
        .unwrap_err();
        assert!(e.to_string().contains("rank 1 fails"), "{e}");
    }

    #[test]
    fn a_panicking_rank_is_an_error() {
        let e = run_ranks(2, |c| {
            if c.rank() == 0 {
                panic!("boom");
            }
            c.exchange(&[0, 1], vec![vec![]; 2])
        })
        .unwrap_err();
        assert!(e.to_string().contains("rank 0 panicked: boom"), "{e}");
    }

    #[test]
    fn a_silent_peer_times_out() {
        let done = std::sync::atomic::AtomicBool::new(false);
        let e = run_ranks_with_timeout(2, Duration::from_millis(50), |c| {
            if c.rank() == 0 {
                // Alive but never sends, until rank 1 has given up (bounded: 10 s).
                for _ in 0..1000 {
                    if done.load(std::sync::atomic::Ordering::SeqCst) {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(10));
                }
                return Ok(Vec::new());
            }
            let r = c.exchange(&[0, 1], vec![vec![]; 2]);
            done.store(true, std::sync::atomic::Ordering::SeqCst);
            r
        })
        .unwrap_err();
        assert!(e.to_string().contains("timed out"), "{e}");
    }

    #[test]
    fn malformed_group_is_an_error() {
        let e = run_ranks(2, |c| c.exchange(&[0, 0], vec![vec![]; 2])).unwrap_err();
        assert!(e.to_string().contains("exchange"), "{e}");
        assert!(run_ranks(0, |_| Ok(())).is_err());
    }
}
