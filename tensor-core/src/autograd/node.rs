//! The graph: a [`Node`] (a backward function) wrapped in a [`GraphNode`] with the
//! [`Edge`]s to the nodes that produced its inputs (PyTorch's `Node` and
//! `next_edges`). Nodes are reference counted and hang off the tensors they produced
//! (`grad_fn`); the graph lives as long as some tensor refers to it.

use crate::dtype::DType;
use crate::error::Result;
use crate::tensor::Tensor;
use std::sync::Arc;

/// A backward function (PyTorch's `torch::autograd::Node`): given the gradients of the
/// outputs of the op that recorded it, computes the gradients of its inputs.
///
/// `apply` runs with grad mode off (the engine's [`NoGradGuard`](crate::autograd::NoGradGuard)),
/// so it may use any tensor op. It returns one entry per input of the op, in the order
/// of the `inputs` given to `record`; `None` where an input needs no
/// gradient (or the gradient is zero and may be skipped). A returned gradient may have
/// a broadcast shape or another dtype than its input: the engine sums it to the
/// input's shape (`sum_to_size`) and casts it, as PyTorch's `validate_outputs`.
pub trait Node: Send + Sync {
    /// PyTorch's name of the node, as `grad_fn` prints it (`"MulBackward0"`).
    fn name(&self) -> &'static str;

    /// The gradients of the inputs from `grads`, the gradients of the outputs (one per
    /// output; `None` for an output no gradient reached).
    ///
    /// # Errors
    /// [`Error::SavedTensorFreed`](crate::error::Error::SavedTensorFreed) /
    /// [`Error::SavedTensorModified`](crate::error::Error::SavedTensorModified) from
    /// [`SavedTensor::unpack`]; any error of the ops it runs.
    fn apply(&self, grads: &[Option<Tensor>]) -> Result<Vec<Option<Tensor>>>;

    /// Frees the tensors saved for backward (called after `apply` unless the graph is
    /// retained). A node holding [`SavedTensor`]s must release each of them, so that a
    /// second backward fails as PyTorch's does.
    fn release(&self) {}
}

/// What the engine must know about one input of a node: the shape and dtype its
/// gradient must have (PyTorch's `InputMetadata`).
#[derive(Clone, Debug)]
pub(crate) struct InputMeta {
    pub(crate) sizes: Vec<usize>,
    pub(crate) dtype: DType,
}

/// A [`Node`] in the graph with its edges: `next[i]` leads to the producer of input
/// `i` (`None` for an input that does not require grad).
pub(crate) struct GraphNode {
    pub(crate) node: Box<dyn Node>,
    pub(crate) next: Vec<Option<Edge>>,
    pub(crate) inputs: Vec<InputMeta>,
    pub(crate) num_outputs: usize,
}

impl std::fmt::Debug for GraphNode {
    #[cfg_attr(unoptimized, inline)]
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "<{}>", self.node.name())
    }
}

impl Drop for GraphNode {
    /// Frees the chain of producers iteratively: a graph as deep as a long loop of ops
    /// must not overflow the stack when its last tensor goes.
    #[cfg_attr(unoptimized, inline)]
    fn drop(&mut self) {
        let mut stack: Vec<Arc<GraphNode>> =
            self.next.drain(..).flatten().map(|e| e.node).collect();
        while let Some(n) = stack.pop() {
            if let Ok(mut owned) = Arc::try_unwrap(n) {
                stack.extend(owned.next.drain(..).flatten().map(|e| e.node));
            }
        }
    }
}

/// A reference to output `output_nr` of a graph node (PyTorch's `Edge`, whose
/// `input_nr` is the node's input = the op's output number).
#[derive(Clone, Debug)]
pub(crate) struct Edge {
    pub(crate) node: Arc<GraphNode>,
    pub(crate) output_nr: usize,
}

/// A tensor saved for backward (PyTorch's `SavedVariable`): the data (without its
/// graph, so an output saved by its own node makes no cycle), the version of its
/// storage when saved, and who produced it, for the error messages.
pub struct SavedTensor {
    data: std::sync::Mutex<Option<Tensor>>,
    version: u64,
    /// `(op name, output number)` of the node that produced the tensor, if any.
    producer: Option<(&'static str, usize)>,
    dtype: DType,
    sizes: Vec<usize>,
}

impl std::fmt::Debug for SavedTensor {
    #[cfg_attr(unoptimized, inline)]
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SavedTensor({:?}, version {})", self.sizes, self.version)
    }
}

/// `"MulBackward0"` → `"Mul"`: the op name PyTorch prints in the version message.
#[cfg_attr(unoptimized, inline)]
fn op_name(node_name: &'static str) -> &'static str {
    match node_name.rfind("Backward") {
        Some(i) => &node_name[..i],
        None => node_name,
    }
}

impl SavedTensor {
    /// Saves an input of the op (records the node that produced it, if any).
    #[cfg_attr(unoptimized, inline)]
    pub fn input(t: &Tensor) -> SavedTensor {
        let producer = t
            .grad_fn_edge()
            .map(|e| (op_name(e.node.node.name()), e.output_nr));
        SavedTensor::with_producer(t, producer)
    }

    /// Saves output `output_nr` of the op whose node is named `node_name`
    /// (`"TanhBackward0"`).
    #[cfg_attr(unoptimized, inline)]
    pub fn output(t: &Tensor, node_name: &'static str, output_nr: usize) -> SavedTensor {
        SavedTensor::with_producer(t, Some((op_name(node_name), output_nr)))
    }

    #[cfg_attr(unoptimized, inline)]
    fn with_producer(t: &Tensor, producer: Option<(&'static str, usize)>) -> SavedTensor {
        SavedTensor {
            data: std::sync::Mutex::new(Some(t.detach())),
            version: t.storage().version(),
            producer,
            dtype: t.dtype(),
            sizes: t.sizes().to_vec(),
        }
    }

    /// The saved tensor (without graph), checked as PyTorch's `SavedVariable::unpack`.
    ///
    /// # Errors
    /// [`Error::SavedTensorFreed`](crate::error::Error::SavedTensorFreed) after
    /// [`SavedTensor::release`] ("Trying to backward through the graph a second
    /// time ..."); [`Error::SavedTensorModified`](crate::error::Error::SavedTensorModified)
    /// when an in-place op changed it since it was saved ("one of the variables needed
    /// for gradient computation has been modified by an inplace operation ...").
    #[cfg_attr(unoptimized, inline)]
    pub fn unpack(&self) -> Result<Tensor> {
        let guard = self.data.lock().unwrap_or_else(|e| e.into_inner());
        let Some(t) = guard.as_ref() else {
            return Err(crate::error::Error::SavedTensorFreed);
        };
        let now = t.storage().version();
        if now != self.version {
            return Err(crate::error::Error::SavedTensorModified {
                type_name: self.dtype.legacy_type_name(),
                sizes: self.sizes.clone(),
                producer: self.producer.map(|(n, i)| (n.to_string(), i)),
                version: now,
                expected: self.version,
            });
        }
        Ok(t.alias())
    }

    /// Frees the saved data (the graph was used and not retained).
    #[cfg_attr(unoptimized, inline)]
    pub fn release(&self) {
        *self.data.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }
}

impl Node for Box<dyn Node> {
    #[cfg_attr(unoptimized, inline)]
    fn name(&self) -> &'static str {
        (**self).name()
    }
    #[cfg_attr(unoptimized, inline)]
    fn apply(&self, grads: &[Option<Tensor>]) -> Result<Vec<Option<Tensor>>> {
        (**self).apply(grads)
    }
    #[cfg_attr(unoptimized, inline)]
    fn release(&self) {
        (**self).release()
    }
}
