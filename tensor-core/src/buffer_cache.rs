//! A small cache of freed storage buffers, so that the intermediates of a model step
//! (the same sizes every step) reuse memory instead of going back to the system.
//!
//! glibc serves blocks of 128 KiB and more with `mmap` (or trims the heap top after a
//! free), so a fresh output of that size costs a page fault per 4 KiB page on its first
//! write, every step: in an attention block of 128 KiB intermediates that was most of
//! its time. Freed buffers of [`MIN_BYTES`] to [`MAX_BYTES`] are kept here, most recent
//! first, up to [`CAP_BYTES`] in all; an uninitialised allocation of the same size takes
//! one back. (So up to 256 MiB of freed memory can stay with the process, as
//! PyTorch's caching allocators keep theirs; large outputs such as a 64 MiB `cat` then
//! stop paying a page fault per 4 KiB page every call.) Zero-filled storage does not use the cache (`calloc` gives lazily zeroed
//! pages, cheaper than clearing a reused block).
//!
//! The blocks are `[MaybeUninit<Line>]` (64-byte lines): a reused block's old bytes are never read, as
//! the contract of uninitialised storage requires its creator to write every byte first.

use crate::alloc::{Line, LINE};
use std::mem::MaybeUninit;
use std::sync::Mutex;

/// Smallest block kept (bytes): below this glibc's own free lists serve well.
pub(crate) const MIN_BYTES: usize = 64 << 10;
/// Largest block kept (bytes).
pub(crate) const MAX_BYTES: usize = 128 << 20;
/// Most bytes kept in all.
pub(crate) const CAP_BYTES: usize = 256 << 20;

type Block = Box<[MaybeUninit<Line>]>;

/// Freed blocks, oldest first, and their total size in bytes.
static CACHE: Mutex<(Vec<Block>, usize)> = Mutex::new((Vec::new(), 0));

fn cacheable(nwords: usize) -> bool {
    (MIN_BYTES..=MAX_BYTES).contains(&(nwords * LINE))
}

/// A freed block of exactly `nwords` words, the most recently freed one, if any.
pub(crate) fn take(nwords: usize) -> Option<Block> {
    if !cacheable(nwords) {
        return None;
    }
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    let i = cache.0.iter().rposition(|b| b.len() == nwords)?;
    let block = cache.0.remove(i);
    cache.1 -= nwords * LINE;
    Some(block)
}

/// Keeps `block` for a later [`take`] when its size is cacheable, dropping the oldest
/// blocks to stay within [`CAP_BYTES`]; frees it otherwise.
pub(crate) fn give(block: Block) {
    let nbytes = block.len() * LINE;
    if !cacheable(block.len()) {
        return;
    }
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    while cache.1 + nbytes > CAP_BYTES && !cache.0.is_empty() {
        let old = cache.0.remove(0);
        cache.1 -= old.len() * LINE;
    }
    cache.0.push(block);
    cache.1 += nbytes;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(nwords: usize) -> Block {
        vec![MaybeUninit::new(Line([0; 8])); nwords].into_boxed_slice()
    }

    #[test]
    fn freed_block_of_the_same_size_is_taken_back() {
        // A size no other test uses, so that tests running in parallel do not interfere.
        let nwords = (MIN_BYTES / LINE) + 12_345;
        let b = block(nwords);
        let addr = b.as_ptr() as usize;
        give(b);
        let again = take(nwords).expect("cached");
        assert_eq!(again.as_ptr() as usize, addr);
        assert!(take(nwords).is_none());
    }

    #[test]
    fn small_and_huge_blocks_are_not_kept() {
        give(block(16));
        assert!(take(16).is_none());
        assert!(!cacheable(MAX_BYTES / LINE + 1));
    }

    #[test]
    fn cache_stays_within_its_cap() {
        let nwords = MAX_BYTES / LINE - 7;
        for _ in 0..(CAP_BYTES / MAX_BYTES + 3) {
            give(block(nwords));
        }
        let total = CACHE.lock().unwrap().1;
        assert!(total <= CAP_BYTES, "{total}");
        while take(nwords).is_some() {}
    }
}
