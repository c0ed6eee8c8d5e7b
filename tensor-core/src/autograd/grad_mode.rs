//! Grad mode: whether ops record the graph on this thread (`torch.is_grad_enabled`,
//! `torch.no_grad`). Thread-local, as PyTorch's: a `no_grad` scope on one thread does
//! not affect graphs recorded on another.

use std::cell::Cell;

thread_local! {
    static GRAD_ENABLED: Cell<bool> = const { Cell::new(true) };
}

/// `torch.is_grad_enabled()`: `true` unless a [`NoGradGuard`] (or [`no_grad`]) is
/// active on this thread.
#[inline]
pub fn is_grad_enabled() -> bool {
    GRAD_ENABLED.with(Cell::get)
}

/// `torch.set_grad_enabled(enabled)` for this thread. Prefer [`NoGradGuard`], which
/// restores the previous mode.
#[cfg_attr(unoptimized, inline)]
pub fn set_grad_enabled(enabled: bool) {
    GRAD_ENABLED.with(|g| g.set(enabled));
}

/// A scope in which no graph is recorded (`with torch.no_grad():`): grad mode is off
/// on this thread until the guard drops, then back to what it was.
///
/// ```
/// use tensor_core::{DType, NoGradGuard, Tensor};
/// let w = Tensor::ones(&[2], DType::F32)?.requires_grad_(true)?;
/// {
///     let _guard = NoGradGuard::new();
///     assert!(!w.mul_scalar(2.0)?.requires_grad());
/// }
/// assert!(w.mul_scalar(2.0)?.requires_grad());
/// # Ok::<(), tensor_core::Error>(())
/// ```
#[must_use = "grad mode is restored when the guard drops"]
#[derive(Debug)]
pub struct NoGradGuard {
    previous: bool,
    // Not Send: the guard restores the mode of the thread that made it.
    _not_send: std::marker::PhantomData<*const ()>,
}

impl NoGradGuard {
    /// Turns grad mode off on this thread until the guard drops.
    #[cfg_attr(unoptimized, inline)]
    pub fn new() -> NoGradGuard {
        let previous = is_grad_enabled();
        set_grad_enabled(false);
        NoGradGuard {
            previous,
            _not_send: std::marker::PhantomData,
        }
    }
}

impl Default for NoGradGuard {
    #[cfg_attr(unoptimized, inline)]
    fn default() -> Self {
        NoGradGuard::new()
    }
}

impl Drop for NoGradGuard {
    #[cfg_attr(unoptimized, inline)]
    fn drop(&mut self) {
        set_grad_enabled(self.previous);
    }
}

/// Runs `f` with grad mode off on this thread (`with torch.no_grad(): f()`), then
/// restores the previous mode (also when `f` panics).
pub fn no_grad<R>(f: impl FnOnce() -> R) -> R {
    let _guard = NoGradGuard::new();
    f()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_grad_restores_previous_mode_even_nested() {
        assert!(is_grad_enabled());
        no_grad(|| {
            assert!(!is_grad_enabled());
            no_grad(|| assert!(!is_grad_enabled()));
            assert!(!is_grad_enabled());
        });
        assert!(is_grad_enabled());
    }

    #[test]
    fn grad_mode_is_per_thread() {
        let _g = NoGradGuard::new();
        let other = std::thread::spawn(is_grad_enabled).join().unwrap();
        assert!(other);
        assert!(!is_grad_enabled());
    }
}
