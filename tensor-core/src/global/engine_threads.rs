//! The in-process engine: one thread per rank, byte buffers over channels. The default
//! engine, used by the tests.
//!
//! Memory is O(ranks): each rank has one inbox (a channel every rank sends into, each
//! message tagged with its source), and messages that arrive before they are asked for
//! wait in a per-source queue. Messages between two ranks stay in order (one channel
//! per receiver keeps each sender's order).
//!
//! Deadlock safety: a rank that returns, fails or panics marks itself stopped, so a peer
//! waiting for it gets an error within one poll interval instead of hanging; a timeout
//! bounds every wait in case a peer is alive but never sends (a bug in an SPMD program).

use super::collective::{check_group, comm_error, Collective, Comm};
use super::rank_limits::check_world_size;
use crate::error::{Error, Result};
use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long a rank waits for one message before it gives up (see [`run_ranks_with_timeout`]).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// How often a waiting rank checks whether the peer it waits for has stopped.
const POLL: Duration = Duration::from_millis(20);

/// A message: the source rank and its bytes.
type Message = (usize, Vec<u8>);

/// What every rank of one world shares: each rank's inbox sender and whether it runs.
struct World {
    inboxes: Vec<Sender<Message>>,
    running: Vec<AtomicBool>,
}

/// One rank of an in-process world: its inbox, and the queues of messages that arrived
/// from each source before they were asked for.
pub struct ThreadComm {
    rank: usize,
    world: Arc<World>,
    inbox: Receiver<Message>,
    early: RefCell<HashMap<usize, VecDeque<Vec<u8>>>>,
    timeout: Duration,
}

impl Drop for ThreadComm {
    #[cfg_attr(unoptimized, inline)]
    fn drop(&mut self) {
        self.world.running[self.rank].store(false, Ordering::Release);
    }
}

impl ThreadComm {
    /// The next message from `peer`, waiting at most the timeout.
    #[cfg_attr(unoptimized, inline)]
    fn receive(&self, peer: usize) -> Result<Vec<u8>> {
        if let Some(buf) = self
            .early
            .borrow_mut()
            .get_mut(&peer)
            .and_then(VecDeque::pop_front)
        {
            return Ok(buf);
        }
        let start = Instant::now();
        loop {
            match self.inbox.recv_timeout(POLL) {
                Ok((src, buf)) if src == peer => return Ok(buf),
                Ok((src, buf)) => self
                    .early
                    .borrow_mut()
                    .entry(src)
                    .or_default()
                    .push_back(buf),
                Err(RecvTimeoutError::Disconnected) => {
                    unreachable!("a rank holds its own inbox's sender")
                }
                Err(RecvTimeoutError::Timeout) => {
                    if !self.world.running[peer].load(Ordering::Acquire) {
                        // It may have sent just before it stopped.
                        while let Ok((src, buf)) = self.inbox.try_recv() {
                            if src == peer {
                                return Ok(buf);
                            }
                            self.early
                                .borrow_mut()
                                .entry(src)
                                .or_default()
                                .push_back(buf);
                        }
                        return Err(comm_error(format!(
                            "rank {}: rank {peer} stopped before sending its part (it returned or failed)",
                            self.rank
                        )));
                    }
                    if start.elapsed() >= self.timeout {
                        return Err(comm_error(format!(
                            "rank {}: timed out after {:?} waiting for rank {peer}",
                            self.rank, self.timeout
                        )));
                    }
                }
            }
        }
    }
}

impl Collective for ThreadComm {
    #[cfg_attr(unoptimized, inline)]
    fn rank(&self) -> usize {
        self.rank
    }

    #[cfg_attr(unoptimized, inline)]
    fn world_size(&self) -> usize {
        self.world.inboxes.len()
    }

    #[cfg_attr(unoptimized, inline)]
    fn exchange(&self, group: &[usize], sends: Vec<Vec<u8>>) -> Result<Vec<Vec<u8>>> {
        check_group(group, sends.len(), self.rank, self.world_size())?;
        let mut own = None;
        for (&peer, buf) in group.iter().zip(sends) {
            if peer == self.rank {
                own = Some(buf);
            } else if !self.world.running[peer].load(Ordering::Acquire)
                || self.world.inboxes[peer].send((self.rank, buf)).is_err()
            {
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
            } else {
                recvs.push(self.receive(peer)?);
            }
        }
        Ok(recvs)
    }

    /// Queues `buf` in `peer`'s inbox and returns at once.
    #[cfg_attr(unoptimized, inline)]
    fn send(&self, peer: usize, buf: Vec<u8>) -> Result<()> {
        if peer == self.rank || peer >= self.world_size() {
            return Err(comm_error(format!(
                "send: rank {} of {} cannot send to rank {peer}",
                self.rank,
                self.world_size()
            )));
        }
        if !self.world.running[peer].load(Ordering::Acquire)
            || self.world.inboxes[peer].send((self.rank, buf)).is_err()
        {
            return Err(comm_error(format!(
                "rank {}: rank {peer} stopped before the send (it returned or failed)",
                self.rank
            )));
        }
        Ok(())
    }

    #[cfg_attr(unoptimized, inline)]
    fn recv(&self, peer: usize) -> Result<Vec<u8>> {
        if peer == self.rank || peer >= self.world_size() {
            return Err(comm_error(format!(
                "recv: rank {} of {} cannot receive from rank {peer}",
                self.rank,
                self.world_size()
            )));
        }
        self.receive(peer)
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
/// one with its own communicator; returns each rank's result in rank order. Memory is
/// O(`world_size`) besides the threads themselves.
///
/// # Errors
/// [`Error::InvalidArgument`] when `world_size` is 0, more than
/// [`MAX_THREAD_RANKS`](super::MAX_THREAD_RANKS), or more than the system's threads,
/// the process's address space (`ulimit -v`) or the available memory can hold (checked
/// before any rank starts), or when a rank's thread cannot be started; otherwise, when any rank fails, the error of
/// the lowest rank whose failure is its own (not a collective that failed because
/// another rank stopped), as [`Error::RankFailed`] naming that rank; a panicking rank
/// becomes an error naming it. A rank waits at
/// most `timeout` for any one message, so the call always returns.
pub fn run_ranks_with_timeout<T, F>(world_size: usize, timeout: Duration, f: F) -> Result<Vec<T>>
where
    T: Send,
    F: Fn(Comm) -> Result<T> + Sync,
{
    check_world_size(world_size)?;
    let (senders, inboxes): (Vec<_>, Vec<_>) = (0..world_size).map(|_| channel()).unzip();
    let world = Arc::new(World {
        inboxes: senders,
        running: (0..world_size).map(|_| AtomicBool::new(true)).collect(),
    });
    let f = &f;
    let results: Vec<Result<T>> = std::thread::scope(|s| {
        let mut handles = Vec::with_capacity(world_size);
        for (rank, inbox) in inboxes.into_iter().enumerate() {
            let comm = ThreadComm {
                rank,
                world: world.clone(),
                inbox,
                early: RefCell::new(HashMap::new()),
                timeout,
            };
            let spawned = std::thread::Builder::new()
                .name(format!("rank {rank}"))
                .spawn_scoped(s, move || f(Rc::new(comm)));
            match spawned {
                Ok(h) => handles.push(Ok(h)),
                Err(e) => {
                    // The comm moved into the failed closure was dropped: the rank is
                    // marked stopped, and so are the ones never started.
                    for r in rank..world_size {
                        world.running[r].store(false, Ordering::Release);
                    }
                    handles.push(Err(Error::InvalidArgument {
                        op: "run_ranks",
                        message: format!("run_ranks: cannot start the thread of rank {rank}: {e}"),
                    }));
                    break;
                }
            }
        }
        handles
            .into_iter()
            .enumerate()
            .map(|(rank, h)| {
                h?.join().unwrap_or_else(|p| {
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
    let own = results.iter().enumerate().find_map(|(rank, r)| {
        let e = r.as_ref().err().filter(|e| !is_comm_error(e))?;
        Some(name_rank(rank, e))
    });
    let any = results.iter().find_map(|r| r.as_ref().err().cloned());
    if let Some(e) = own.or(any) {
        return Err(e);
    }
    results.into_iter().collect()
}

/// `e`, the own error of `rank`, as [`Error::RankFailed`] naming it (a panic's error
/// and an error that already is one name their rank already).
#[cfg_attr(unoptimized, inline)]
fn name_rank(rank: usize, e: &Error) -> Error {
    match e {
        Error::RankFailed { .. }
        | Error::InvalidArgument {
            op: "run_ranks", ..
        } => e.clone(),
        _ => Error::RankFailed {
            rank,
            source: Box::new(e.clone()),
        },
    }
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
        assert!(
            matches!(e, Error::RankFailed { rank: 1, .. }),
            "names the failing rank: {e}"
        );
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

    #[test]
    fn two_thousand_ranks_cost_memory_linear_in_ranks() {
        // Was n² channels (764 MB at 1,024 ranks); now one inbox per rank. Each rank
        // exchanges with its neighbour, so messages cross while others are queued.
        let n = 2048;
        let out = run_ranks(n, |c| {
            let (r, next) = (c.rank(), (c.rank() + 1) % n);
            let prev = (r + n - 1) % n;
            let mut group = vec![r, next];
            if prev != next {
                group.push(prev);
            }
            group.sort_unstable();
            group.dedup();
            let sends = group.iter().map(|_| vec![r as u8]).collect();
            c.exchange(&group, sends).map(|v| v.len())
        })
        .unwrap();
        assert_eq!(out.len(), n);
    }

    #[test]
    fn messages_from_one_peer_arrive_in_order_across_exchanges() {
        let out = run_ranks(3, |c| {
            let mut got = Vec::new();
            for round in 0..5u8 {
                let r = c.exchange(&[0, 1, 2], vec![vec![round]; 3])?;
                got.push(r.iter().map(|b| b[0]).collect::<Vec<_>>());
            }
            Ok(got)
        })
        .unwrap();
        for rank in out {
            for (round, got) in rank.iter().enumerate() {
                assert_eq!(got, &vec![round as u8; 3]);
            }
        }
    }
}
