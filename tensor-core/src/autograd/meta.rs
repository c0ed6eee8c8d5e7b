//! Per-tensor autograd state (PyTorch's `AutogradMeta`) and the `Tensor` methods that
//! read and change it: `requires_grad`, `grad`, `detach`, `is_leaf`, `grad_fn`.

use super::node::{Edge, GraphNode};
use crate::error::{Error, Result};
use crate::tensor::Tensor;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};

/// What a view's autograd state keeps of its base.
pub(crate) struct ViewInfo {
    /// The root base (a handle sharing its autograd state): for a view of a view, the
    /// first view's base.
    pub(crate) base: Tensor,
    /// The storage's version when the view's `grad_fn` was last set.
    pub(crate) version: AtomicU64,
}

/// Autograd state shared by the handles ([`Tensor::alias`]) of one tensor.
pub(crate) struct AutogradMeta {
    /// Set by `requires_grad_` on a leaf.
    requires_grad: AtomicBool,
    /// The node that produced the tensor (`None`: a leaf). Changes only when an
    /// in-place op rebases the tensor's history.
    grad_fn: Mutex<Option<Edge>>,
    /// `.grad` of a leaf.
    grad: Mutex<Option<Tensor>>,
    /// The leaf's `AccumulateGrad` node while some graph uses it.
    accumulator: Mutex<Weak<GraphNode>>,
    /// For the result of a view op: its root base and the storage version its
    /// `grad_fn` belongs to (`autograd/view.rs`).
    pub(crate) view: Option<ViewInfo>,
}

impl std::fmt::Debug for AutogradMeta {
    #[cfg_attr(unoptimized, inline)]
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "AutogradMeta")
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl AutogradMeta {
    /// Metadata of a leaf.
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn leaf(requires_grad: bool) -> AutogradMeta {
        AutogradMeta {
            requires_grad: AtomicBool::new(requires_grad),
            grad_fn: Mutex::new(None),
            grad: Mutex::new(None),
            accumulator: Mutex::new(Weak::new()),
            view: None,
        }
    }

    /// Metadata of an op's output produced by `edge`.
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn non_leaf(edge: Edge, view: Option<ViewInfo>) -> AutogradMeta {
        AutogradMeta {
            requires_grad: AtomicBool::new(false),
            grad_fn: Mutex::new(Some(edge)),
            grad: Mutex::new(None),
            accumulator: Mutex::new(Weak::new()),
            view,
        }
    }

    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn grad_fn(&self) -> Option<Edge> {
        lock(&self.grad_fn).clone()
    }

    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn set_grad_fn(&self, edge: Edge) {
        *lock(&self.grad_fn) = Some(edge);
    }

    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn requires_grad(&self) -> bool {
        self.requires_grad.load(Ordering::Relaxed) || lock(&self.grad_fn).is_some()
    }

    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn grad_slot(&self) -> MutexGuard<'_, Option<Tensor>> {
        lock(&self.grad)
    }

    /// The leaf's `AccumulateGrad` node, made by `make` when no graph holds one.
    pub(crate) fn accumulator(&self, make: impl FnOnce() -> Arc<GraphNode>) -> Arc<GraphNode> {
        let mut slot = lock(&self.accumulator);
        if let Some(n) = slot.upgrade() {
            return n;
        }
        let n = make();
        *slot = Arc::downgrade(&n);
        n
    }
}

impl Tensor {
    /// `Tensor.requires_grad`: `true` for a leaf marked with
    /// [`Tensor::requires_grad_`] and for every result of a recorded op.
    #[inline]
    pub fn requires_grad(&self) -> bool {
        self.autograd_meta().is_some_and(|m| m.requires_grad())
    }

    /// `Tensor.requires_grad_(requires_grad)`: marks a leaf whose gradient
    /// [`Tensor::backward`] should compute, and returns it.
    ///
    /// # Errors
    /// [`Error::RequiresGradDType`] (`only Tensors of floating point and complex dtype
    /// can require gradients`) for integral and bool tensors;
    /// [`Error::RequiresGradNonLeaf`] when turning it off on a non-leaf.
    ///
    /// ```
    /// use tensor_core::{DType, Tensor};
    /// let w = Tensor::ones(&[3], DType::F32)?.requires_grad_(true)?;
    /// w.mul(&w)?.sum(&[], false)?.backward()?;
    /// assert_eq!(w.grad().unwrap().to_vec::<f32>()?, vec![2.0; 3]);
    /// # Ok::<(), tensor_core::Error>(())
    /// ```
    #[cfg_attr(unoptimized, inline)]
    pub fn requires_grad_(mut self, requires_grad: bool) -> Result<Tensor> {
        self.set_requires_grad(requires_grad)?;
        Ok(self)
    }

    /// [`Tensor::requires_grad_`] through a mutable reference.
    ///
    /// # Errors
    /// As [`Tensor::requires_grad_`].
    #[cfg_attr(unoptimized, inline)]
    pub fn set_requires_grad(&mut self, requires_grad: bool) -> Result<()> {
        if requires_grad && !self.dtype().is_floating() {
            return Err(Error::RequiresGradDType);
        }
        match self.autograd_meta() {
            Some(m) => {
                if lock(&m.grad_fn).is_some() {
                    if !requires_grad {
                        return Err(Error::RequiresGradNonLeaf);
                    }
                    return Ok(());
                }
                m.requires_grad.store(requires_grad, Ordering::Relaxed);
            }
            None if requires_grad => {
                self.set_autograd_meta(Some(Arc::new(AutogradMeta::leaf(true))));
            }
            None => {}
        }
        Ok(())
    }

    /// `Tensor.grad`: the gradient accumulated into this leaf by
    /// [`Tensor::backward`], a handle to the stored tensor (in-place changes to it are
    /// seen by the next accumulation, as in PyTorch). `None` before any backward,
    /// after [`Tensor::set_grad`]`(None)`, and for non-leaves.
    #[cfg_attr(unoptimized, inline)]
    pub fn grad(&self) -> Option<Tensor> {
        self.autograd_meta()
            .and_then(|m| m.grad_slot().as_ref().map(Tensor::alias))
    }

    /// Sets `Tensor.grad` (`t.grad = g`; `None` is `t.grad = None`, the way
    /// optimisers' `zero_grad` clears it).
    ///
    /// # Errors
    /// [`Error::AssignedGrad`] when `grad`'s sizes or dtype differ from the tensor's
    /// (`assigned grad has data of a different size` / `... type`).
    #[cfg_attr(unoptimized, inline)]
    pub fn set_grad(&mut self, grad: Option<Tensor>) -> Result<()> {
        if let Some(g) = &grad {
            if g.sizes() != self.sizes() {
                return Err(Error::AssignedGrad { what: "size" });
            }
            if g.dtype() != self.dtype() {
                return Err(Error::AssignedGrad { what: "type" });
            }
        }
        match (self.autograd_meta(), grad) {
            (Some(m), g) => *m.grad_slot() = g.map(|g| g.alias_detached()),
            (None, None) => {}
            (None, Some(g)) => {
                let meta = AutogradMeta::leaf(false);
                *meta.grad_slot() = Some(g.alias_detached());
                self.set_autograd_meta(Some(Arc::new(meta)));
            }
        }
        Ok(())
    }

    /// `Tensor.detach()`: the same view (sharing storage and version counter) without
    /// graph: a leaf that does not require grad.
    #[cfg_attr(unoptimized, inline)]
    pub fn detach(&self) -> Tensor {
        self.alias_detached()
    }

    /// `Tensor._version`: in-place writes into the tensor's storage so far (shared
    /// with its views and detached handles).
    #[cfg_attr(unoptimized, inline)]
    pub fn version(&self) -> u64 {
        self.storage().version()
    }
}
