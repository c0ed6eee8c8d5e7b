//! The one error type of the runtime. Each message contains PyTorch's message for the
//! same mistake, so a user can search for it.

use crate::dtype::DType;
use std::fmt;

/// `Result` with the runtime's [`enum@Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Formats a list like c10's `ArrayRef` printing: `[2, 3]`.
pub(crate) fn list<T: std::fmt::Display>(v: &[T]) -> String {
    let items: Vec<String> = v.iter().map(|x| x.to_string()).collect();
    format!("[{}]", items.join(", "))
}

/// Everything that can go wrong in the runtime. Messages name the operation and the
/// values involved and contain PyTorch's own message.
///
/// `Debug` prints the same message as `Display` (not the variant's fields), so
/// `fn main() -> Result<()>` and `unwrap()` show a readable message; match on the
/// variant to read its fields.
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    // ---- shapes and broadcasting -------------------------------------------------
    /// Broadcasting two shapes failed (`infer_size`). `dim` indexes the broadcast shape.
    Broadcast {
        /// Size of the left operand at `dim`.
        a: usize,
        /// Size of the right operand at `dim`.
        b: usize,
        /// Dim of the broadcast shape.
        dim: usize,
    },
    /// `expand` to a size that differs from an existing non-1 size.
    ExpandMismatch {
        /// The requested size at `dim`.
        target: i64,
        /// The tensor's size at `dim`.
        existing: usize,
        /// Dim of the target shape.
        dim: usize,
        /// All requested sizes.
        target_sizes: Vec<i64>,
        /// The tensor's sizes.
        sizes: Vec<usize>,
    },
    /// `expand` with `-1` (or another negative size) at a new leading dim.
    ExpandLeadingNegative {
        /// The offending requested size.
        size: i64,
        /// Dim of the target shape.
        dim: usize,
    },
    /// `expand` with fewer sizes than the tensor has dims.
    ExpandTooFewSizes {
        /// The tensor's dtype (PyTorch prints its legacy type name).
        dtype: DType,
        /// The tensor's sizes.
        sizes: Vec<usize>,
        /// The requested sizes.
        target_sizes: Vec<i64>,
    },
    /// `view` cannot express the new shape over these strides.
    ViewIncompatible,
    /// A target shape whose element count differs from the tensor's.
    ShapeInvalid {
        /// The requested shape, as given (may hold -1).
        shape: Vec<i64>,
        /// The tensor's element count.
        numel: usize,
    },
    /// `-1` in a shape for a tensor of zero elements where the rest multiplies to 0.
    InferAmbiguous {
        /// The requested shape.
        shape: Vec<i64>,
    },
    /// More than one `-1` in a shape.
    MultipleInferred,
    /// A negative size other than `-1` in a view/reshape shape.
    InvalidShapeDimension {
        /// The negative size.
        size: i64,
        /// Its index in `shape`.
        index: usize,
        /// The requested shape.
        shape: Vec<i64>,
    },
    /// A negative size where a tensor is created (`empty`, `repeat`, `zeros`).
    NegativeDimension {
        /// The first negative size.
        size: i64,
        /// All sizes.
        sizes: Vec<i64>,
    },
    /// A dim index outside `[-ndim, ndim-1]` (a 0-d tensor accepts `[-1, 0]`).
    DimOutOfRange {
        /// The dim given.
        dim: i64,
        /// Smallest valid dim.
        min: i64,
        /// Largest valid dim.
        max: i64,
    },
    /// The same dim twice in a list of dims.
    DuplicateDim {
        /// The repeated dim (wrapped to be non-negative).
        dim: usize,
    },
    /// Sizes whose product does not fit in 64 bits.
    NumelOverflow {
        /// The operation that multiplied the sizes.
        op: &'static str,
    },
    /// `from_vec` with a length that does not match the sizes.
    DataLength {
        /// The sizes given.
        sizes: Vec<usize>,
        /// The length of the data given.
        len: usize,
    },
    /// `repeat` with fewer repeats than the tensor has dims.
    RepeatDims {
        /// The repeats given.
        repeats: Vec<i64>,
        /// The tensor's sizes.
        sizes: Vec<usize>,
    },
    /// `permute` with a wrong number of dims.
    PermuteRank {
        /// The tensor's ndim.
        ndim: usize,
        /// The number of dims given.
        len: usize,
    },
    /// `permute` naming a dim twice.
    PermuteDuplicate,
    /// An index or range outside a dim (select, narrow, slice).
    IndexOutOfRange {
        /// The operation, e.g. `select()`.
        op: &'static str,
        /// PyTorch's message, e.g. `index 5 out of range for tensor of size [3] at dimension 0`.
        message: String,
    },
    /// `as_strided` geometry that reads outside the storage, or negative strides.
    StorageBounds {
        /// PyTorch's message (`setStorage: sizes [3], strides [2], ...`).
        message: String,
    },

    // ---- dtypes -------------------------------------------------------------------
    /// The common dtype cannot be cast safely to an output's dtype.
    UnsafeCast {
        /// The computed (common) dtype.
        from: DType,
        /// The output's dtype.
        to: DType,
    },
    /// An operand of the wrong dtype where all must match (or a typed access mismatch).
    DTypeMismatch {
        /// The operation.
        op: &'static str,
        /// The dtype found.
        found: DType,
        /// The dtype expected.
        expected: DType,
    },
    /// An operation that does not support a dtype (`neg` of bool, `-` on bools).
    UnsupportedDType {
        /// PyTorch's message for it.
        message: String,
    },

    // ---- outputs and memory overlap -------------------------------------------------
    /// An `out=` tensor of the wrong shape that may not be resized.
    OutputShape {
        /// The output's sizes.
        sizes: Vec<usize>,
        /// The broadcast shape of the inputs.
        broadcast: Vec<usize>,
    },
    /// A written-to tensor whose elements alias each other (e.g. an expanded tensor).
    InternalOverlap,
    /// An input that partially overlaps the written-to tensor.
    PartialOverlap,

    // ---- values ---------------------------------------------------------------------
    /// `item()` on a tensor that does not hold exactly one element.
    ItemNumel {
        /// The tensor's element count.
        numel: usize,
    },
    /// A reduction with no identity (amax, amin) over an empty dim, naming the dim as
    /// the caller wrote it (PyTorch prints `-1` for `dim=-1`).
    EmptyReductionDim {
        /// The reduction.
        op: &'static str,
        /// The empty dim, as given (may be negative).
        dim: i64,
    },
    /// A reduction with no identity over all dims of a tensor with no elements
    /// (`argmax(): Expected reduction dim to be specified for input.numel() == 0.`).
    ReductionDimRequired {
        /// The reduction.
        op: &'static str,
        /// PyTorch's extra sentence for amax/amin (empty for argmax/argmin).
        hint: &'static str,
    },
    /// Matrix product of incompatible shapes.
    MatmulShape {
        /// PyTorch's message (`mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)`).
        message: String,
    },
    /// An einsum equation that is malformed or does not fit its operands.
    Einsum {
        /// PyTorch's message (`einsum(): output subscript i appears more than once in
        /// the output`).
        message: String,
    },
    /// Any other invalid argument; the message contains PyTorch's for the same mistake.
    InvalidArgument {
        /// The operation.
        op: &'static str,
        /// What was wrong.
        message: String,
    },
    /// One rank of a multi-rank program failed with `source` (its own error, not one
    /// caused by another rank stopping): the error the whole world ends with, naming
    /// the rank (`rank 1: ...`).
    RankFailed {
        /// The world rank that failed.
        rank: usize,
        /// Its error.
        source: Box<Error>,
    },
    /// An allocation failed (c10's `DefaultCPUAllocator` message); the process goes on.
    OutOfMemory {
        /// The size asked for, in bytes.
        nbytes: usize,
    },
    /// The bytes a layout needs do not fit in `isize` (c10's `computeStorageNbytes`):
    /// `Storage size calculation overflowed with sizes=[..]` for a contiguous
    /// allocation, `... and strides=[..]` for a strided layout.
    StorageSizeOverflow {
        /// The sizes given.
        sizes: Vec<usize>,
        /// The strides given (elements), or `None` for a contiguous allocation.
        strides: Option<Vec<isize>>,
    },
    /// A tensor of a dtype over a storage created for a dtype whose bytes it may not
    /// reinterpret (`Bool` pairs only with `Bool`: any other byte than 0 or 1 would be
    /// an invalid `bool`).
    StorageDType {
        /// The operation.
        op: &'static str,
        /// The dtype the storage was created for.
        storage: DType,
        /// The dtype asked for.
        dtype: DType,
    },
    // ---- autograd -------------------------------------------------------------------
    /// `backward()` without a gradient on a tensor of more than one element.
    ImplicitGradNonScalar,
    /// `backward` on a tensor that does not require grad.
    NoGradFn,
    /// `backward_with` a gradient whose sizes are not the output's.
    GradShapeMismatch {
        /// The gradient's sizes.
        grad: Vec<usize>,
        /// The output's sizes.
        output: Vec<usize>,
    },
    /// A second backward through a graph whose saved tensors were freed.
    SavedTensorFreed,
    /// A tensor saved for backward was changed in place since.
    SavedTensorModified {
        /// PyTorch's legacy type name (`torch.FloatTensor`).
        type_name: String,
        /// The saved tensor's sizes.
        sizes: Vec<usize>,
        /// The op (without `Backward0`) and output number that produced it, if any.
        producer: Option<(String, usize)>,
        /// Its version now.
        version: u64,
        /// Its version when saved.
        expected: u64,
    },
    /// An in-place op on a leaf that requires grad, with grad mode on.
    LeafInplace,
    /// An in-place op on a view of a leaf that requires grad, with grad mode on.
    ViewOfLeafInplace,
    /// An `_out` op whose inputs require grad, with grad mode on.
    OutRequiresGrad {
        /// The operation.
        op: &'static str,
    },
    /// An in-place op under autograd that this runtime does not rebase (PyTorch would).
    InplaceAutograd {
        /// Why.
        reason: &'static str,
    },
    /// `requires_grad_(true)` on an integral or bool tensor.
    RequiresGradDType,
    /// `requires_grad_(false)` on a tensor an op produced.
    RequiresGradNonLeaf,
    /// `set_grad` with a gradient of other sizes or dtype.
    AssignedGrad {
        /// `"size"` or `"type"`.
        what: &'static str,
    },
    /// A backward function returned a number of gradients other than its inputs'.
    WrongGradientCount {
        /// The node's name.
        node: String,
        /// Its number of inputs.
        expected: usize,
        /// The number of gradients it returned.
        got: usize,
    },
    /// A backward function returned a gradient of a shape its input cannot take.
    InvalidGradient {
        /// The node's name.
        node: String,
        /// The input's index.
        index: usize,
        /// The gradient's sizes.
        got: Vec<usize>,
        /// The input's sizes.
        expected: Vec<usize>,
    },
}

/// The message, as [`Display`](fmt::Display) prints it.
impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The message of each error: PyTorch's own message for the same mistake, with the
/// values involved.
impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Broadcast { a, b, dim } => write!(f, "The size of tensor a ({a}) must match the size of tensor b ({b}) at non-singleton dimension {dim}"),
            Error::ExpandMismatch { target, existing, dim, target_sizes, sizes } => write!(f, "The expanded size of the tensor ({target}) must match the existing size ({existing}) at non-singleton dimension {dim}.  Target sizes: {}.  Tensor sizes: {}", list(target_sizes), list(sizes)),
            Error::ExpandLeadingNegative { size, dim } => write!(f, "The expanded size of the tensor ({size}) isn't allowed in a leading, non-existing dimension {dim}"),
            Error::ExpandTooFewSizes { dtype, sizes, target_sizes } => write!(f, "expand({}{{{}}}, size={}): the number of sizes provided ({}) must be greater or equal to the number of dimensions in the tensor ({})", dtype.legacy_type_name(), list(sizes), list(target_sizes), target_sizes.len(), sizes.len()),
            Error::ViewIncompatible => f.write_str("view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead."),
            Error::ShapeInvalid { shape, numel } => write!(f, "shape '{}' is invalid for input of size {numel}", list(shape)),
            Error::InferAmbiguous { shape } => write!(f, "cannot reshape tensor of 0 elements into shape {} because the unspecified dimension size -1 can be any value and is ambiguous", list(shape)),
            Error::MultipleInferred => f.write_str("only one dimension can be inferred"),
            Error::InvalidShapeDimension { size, index, shape } => write!(f, "invalid shape dimension {size} at index {index} of shape {}", list(shape)),
            Error::NegativeDimension { size, sizes } => write!(f, "Trying to create tensor with negative dimension {size}: {}", list(sizes)),
            Error::DimOutOfRange { dim, min, max } => write!(f, "Dimension out of range (expected to be in range of [{min}, {max}], but got {dim})"),
            Error::DuplicateDim { dim } => write!(f, "dim {dim} appears multiple times in the list of dims"),
            Error::NumelOverflow { op } => write!(f, "{op}: numel: integer multiplication overflow"),
            Error::DataLength { sizes, len } => write!(f, "from_vec: shape '{}' is invalid for input of size {len}", list(sizes)),
            Error::RepeatDims { repeats, sizes } => write!(f, "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor (repeats {}, tensor sizes {})", list(repeats), list(sizes)),
            Error::PermuteRank { ndim, len } => write!(f, "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired ordering of dimensions i.e. input.dim() = {ndim} is not equal to len(dims) = {len}"),
            Error::PermuteDuplicate => f.write_str("permute(): duplicate dims are not allowed."),
            Error::IndexOutOfRange { op, message } => write!(f, "{op}: {message}"),
            Error::StorageBounds { message } => write!(f, "{message}"),
            Error::UnsafeCast { from, to } => write!(f, "result type {} can't be cast to the desired output type {}", from.scalar_type_name(), to.scalar_type_name()),
            Error::DTypeMismatch { op, found, expected } => write!(f, "{op}: Found dtype {} but expected {}", found.scalar_type_name(), expected.scalar_type_name()),
            Error::UnsupportedDType { message } => write!(f, "{message}"),
            Error::OutputShape { sizes, broadcast } => write!(f, "output with shape {} doesn't match the broadcast shape {}", list(sizes), list(broadcast)),
            Error::InternalOverlap => f.write_str("unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation."),
            Error::PartialOverlap => f.write_str("unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation."),
            Error::ItemNumel { numel } => write!(f, "a Tensor with {numel} elements cannot be converted to Scalar"),
            Error::EmptyReductionDim { op, dim } => write!(f, "{op}(): Expected reduction dim {dim} to have non-zero size."),
            Error::ReductionDimRequired { op, hint } => write!(f, "{op}(): Expected reduction dim to be specified for input.numel() == 0.{hint}"),
            Error::MatmulShape { message } => write!(f, "{message}"),
            Error::Einsum { message } => write!(f, "{message}"),
            // One prefix: a message that already starts with its op's name is printed as is.
            Error::InvalidArgument { op, message } if message.strip_prefix(op).is_some_and(|rest| rest.starts_with(':')) => write!(f, "{message}"),
            Error::InvalidArgument { op, message } => write!(f, "{op}: {message}"),
            Error::RankFailed { rank, source } => write!(f, "rank {rank}: {source}"),
            Error::OutOfMemory { nbytes } => write!(f, "DefaultCPUAllocator: not enough memory: you tried to allocate {nbytes} bytes."),
            Error::StorageSizeOverflow { sizes, strides } => write!(f, "Storage size calculation overflowed with sizes={}{}", list(sizes), strides.as_ref().map(|s| format!(" and strides={}", list(s))).unwrap_or_default()),
            Error::StorageDType { op, storage, dtype } => write!(f, "{op}: a storage created for {} cannot be viewed as {}: only dtypes that accept every bit pattern may share bytes, and bool storage is bool only", storage.scalar_type_name(), dtype.scalar_type_name()),
            Error::ImplicitGradNonScalar => f.write_str("grad can be implicitly created only for scalar outputs"),
            Error::NoGradFn => f.write_str("element 0 of tensors does not require grad and does not have a grad_fn"),
            Error::GradShapeMismatch { grad, output } => write!(f, "Mismatch in shape: grad_output[0] has a shape of torch.Size({}) and output[0] has a shape of torch.Size({}).", list(grad), list(output)),
            Error::SavedTensorFreed => f.write_str("Trying to backward through the graph a second time (or directly access saved tensors after they have already been freed). Saved intermediate values of the graph are freed when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if you need to access saved tensors after calling backward."),
            Error::SavedTensorModified { type_name, sizes, producer, version, expected } => write!(f, "one of the variables needed for gradient computation has been modified by an inplace operation: [{type_name} {}]{} is at version {version}; expected version {expected} instead. Hint: enable anomaly detection to find the operation that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).", list(sizes), producer.as_ref().map(|(n, i)| format!(", which is output {i} of {n},")).unwrap_or_default()),
            Error::LeafInplace => f.write_str("a leaf Variable that requires grad is being used in an in-place operation."),
            Error::ViewOfLeafInplace => f.write_str("a view of a leaf Variable that requires grad is being used in an in-place operation."),
            Error::OutRequiresGrad { op } => write!(f, "{op}(): functions with out=... arguments don't support automatic differentiation, but one of the arguments requires grad."),
            Error::InplaceAutograd { reason } => write!(f, "in-place operation not supported under autograd: {reason}; use the out-of-place op"),
            Error::RequiresGradDType => f.write_str("only Tensors of floating point and complex dtype can require gradients"),
            Error::RequiresGradNonLeaf => f.write_str("you can only change requires_grad flags of leaf variables. If you want to use a computed variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach()."),
            Error::AssignedGrad { what } => write!(f, "assigned grad has data of a different {what}"),
            Error::WrongGradientCount { node, expected, got } => write!(f, "function {node} returned an incorrect number of gradients (expected {expected}, got {got})"),
            Error::InvalidGradient { node, index, got, expected } => write!(f, "Function {node} returned an invalid gradient at index {index} - got {} but expected shape compatible with {}", list(got), list(expected)),
        }
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::Error;

    #[test]
    fn debug_prints_the_same_message_as_display_so_main_returning_result_reads_well() {
        let e = Error::InvalidArgument {
            op: "narrow",
            message: "start (5) + length (2) exceeds dimension size (6).".into(),
        };
        assert_eq!(format!("{e:?}"), format!("{e}"));
        assert_eq!(
            format!("{e:?}"),
            "narrow: start (5) + length (2) exceeds dimension size (6)."
        );
        let r: Result<(), Error> = Err(Error::ItemNumel { numel: 3 });
        let prefixed = Error::InvalidArgument {
            op: "run_ranks",
            message: "run_ranks: a world needs at least one rank".into(),
        };
        assert_eq!(
            prefixed.to_string(),
            "run_ranks: a world needs at least one rank",
            "a message that names its op is prefixed once"
        );
        assert_eq!(
            format!("{r:?}"),
            "Err(a Tensor with 3 elements cannot be converted to Scalar)"
        );
    }
}
