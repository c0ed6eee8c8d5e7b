//! The element slices of a fused step's tensors, each storage locked once.

use crate::element::Element;
use crate::error::{Error, Result};
use crate::storage::Buffer;
use crate::tensor::Tensor;
use std::sync::{RwLockReadGuard, RwLockWriteGuard};

/// Checks that `t` is a dense, contiguous `T` tensor of `numel` elements and returns
/// the range of its elements in its storage (in elements).
fn span<T: Element>(op: &'static str, t: &Tensor, numel: usize) -> Result<std::ops::Range<usize>> {
    if t.dtype() != T::DTYPE || !t.is_contiguous() || t.numel() != numel {
        return Err(Error::InvalidArgument {
            op,
            message: format!(
                "every tensor of a fused step must be a contiguous {} tensor of {numel} elements",
                T::DTYPE.type_meta_name()
            ),
        });
    }
    Ok(t.storage_offset()..t.storage_offset() + numel)
}

/// Runs `f(read, written)` with the elements of `read` (one tensor) and of `written`
/// (several), each a contiguous `T` tensor of the same number of elements in its own
/// storage. The storages are locked in `Storage::id` order (the order every kernel
/// keeps), and each written tensor's version is bumped afterwards.
///
/// # Errors
/// [`Error::InvalidArgument`] when a tensor is not contiguous, not `T` or of another
/// size, when two written tensors share a storage (an update would read what it just
/// wrote; the read tensor may share one: it is copied first),
/// or when a span lies outside its storage; [`Error::LeafInplace`] or
/// [`Error::InplaceAutograd`] when a tensor requires grad in grad mode.
pub(super) fn with_slices<T: Element, R>(
    op: &'static str,
    read: &Tensor,
    written: &[&Tensor],
    f: impl FnOnce(&[T], &mut [&mut [T]]) -> R,
) -> Result<R> {
    // A read tensor that shares storage with a written one (a gradient that is a view of
    // its parameter) is read from a copy first, as PyTorch's step reads `grad` before it
    // writes `param`.
    let copy;
    let read = if written.iter().any(|w| w.storage().same(read.storage())) {
        copy = read
            .alias_detached()
            .clone(crate::layout::MemoryFormat::Contiguous)?;
        &copy
    } else {
        read
    };
    let numel = read.numel();
    let mut all: Vec<(usize, &Tensor)> = Vec::with_capacity(written.len() + 1);
    all.push((0, read));
    all.extend(written.iter().enumerate().map(|(i, t)| (i + 1, *t)));
    let mut spans = Vec::with_capacity(all.len());
    for (_, t) in &all {
        spans.push(span::<T>(op, t, numel)?);
    }
    for w in written {
        crate::autograd::check_writable(w)?;
    }
    let mut with_read = written.to_vec();
    with_read.push(read);
    if crate::autograd::needs_grad(&with_read) {
        return Err(Error::InplaceAutograd {
            reason: "a fused optimiser step runs outside the graph (under no_grad)",
        });
    }
    all.sort_by_key(|(_, t)| t.storage().id());
    if all
        .windows(2)
        .any(|p| p[0].1.storage().same(p[1].1.storage()))
    {
        return Err(Error::InvalidArgument {
            op,
            message: "the tensors of a fused step must not share storage".into(),
        });
    }
    // Lock in id order: the read tensor's storage for reading, the others for writing.
    enum Guard<'a> {
        R(RwLockReadGuard<'a, Buffer>),
        W(RwLockWriteGuard<'a, Buffer>),
    }
    let mut guards: Vec<(usize, Guard<'_>)> = all
        .iter()
        .map(|&(role, t)| {
            let g = if role == 0 {
                Guard::R(t.storage().read())
            } else {
                Guard::W(t.storage().write())
            };
            (role, g)
        })
        .collect();
    guards.sort_by_key(|(role, _)| *role);
    let out_of_bounds = || Error::InvalidArgument {
        op,
        message: "a tensor's elements reach outside its storage".into(),
    };
    let mut iter = guards.iter_mut();
    let input = match iter.next() {
        Some((_, Guard::R(g))) => g.as_slice::<T>().get(spans[0].clone()),
        _ => None,
    }
    .ok_or_else(out_of_bounds)?;
    let mut outputs: Vec<&mut [T]> = Vec::with_capacity(written.len());
    for ((_, g), span) in iter.zip(&spans[1..]) {
        let s = match g {
            Guard::W(g) => g.as_mut_slice::<T>().get_mut(span.clone()),
            Guard::R(_) => None,
        };
        outputs.push(s.ok_or_else(out_of_bounds)?);
    }
    let r = f(input, &mut outputs);
    drop(outputs);
    drop(guards);
    for w in written {
        crate::autograd::wrote(w);
    }
    Ok(r)
}
