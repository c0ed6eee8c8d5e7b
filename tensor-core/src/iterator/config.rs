//! `TensorIteratorConfig`: the operands and flags of one iterator, with PyTorch's
//! defaults and presets (aten/src/ATen/TensorIterator.h).

use crate::dtype::DType;
use crate::scalar::Scalar;
use crate::tensor::Tensor;

/// One operand as given to the config.
#[derive(Debug)]
pub(crate) struct ConfigOperand {
    /// `None` for an output the iterator allocates.
    pub tensor: Option<Tensor>,
    /// A wrapped number (a Rust scalar turned into a 0-d tensor).
    pub is_wrapped_number: bool,
}

/// The operands and flags of a [`TensorIterator`](super::TensorIterator), mirroring
/// `at::TensorIteratorConfig`.
///
/// Defaults as PyTorch: `check_mem_overlap=true`, `allow_cpu_scalars=false`,
/// `is_reduction=false`, `resize_outputs=true`, `check_all_same_dtype=true`,
/// `enforce_safe_casting_to_output=false`, `enforce_linear_iteration=false`,
/// `promote_inputs_to_common_dtype=false`, `promote_integer_inputs_to_float=false`,
/// `cast_common_dtype_to_outputs=false`. Outputs must be added before inputs.
#[derive(Debug)]
pub struct TensorIteratorConfig {
    pub(crate) outputs: Vec<ConfigOperand>,
    pub(crate) inputs: Vec<ConfigOperand>,
    pub(crate) check_mem_overlap: bool,
    pub(crate) allow_cpu_scalars: bool,
    pub(crate) is_reduction: bool,
    pub(crate) resize_outputs: bool,
    pub(crate) check_all_same_dtype: bool,
    pub(crate) enforce_safe_casting_to_output: bool,
    pub(crate) enforce_linear_iteration: bool,
    pub(crate) promote_inputs_to_common_dtype: bool,
    pub(crate) promote_integer_inputs_to_float: bool,
    pub(crate) cast_common_dtype_to_outputs: bool,
    pub(crate) static_shape: Option<Vec<usize>>,
    pub(crate) static_dtype: Option<DType>,
    /// Outputs the iterator allocates get uninitialised storage (see
    /// [`TensorIteratorConfig::kernel_writes_every_output`]).
    pub(crate) uninit_outputs: bool,
    /// An output was added after an input: `TensorIterator::build` refuses the config.
    pub(crate) output_after_input: bool,
}

impl Default for TensorIteratorConfig {
    #[cfg_attr(unoptimized, inline)]
    fn default() -> Self {
        TensorIteratorConfig {
            outputs: Vec::new(),
            inputs: Vec::new(),
            check_mem_overlap: true,
            allow_cpu_scalars: false,
            is_reduction: false,
            resize_outputs: true,
            check_all_same_dtype: true,
            enforce_safe_casting_to_output: false,
            enforce_linear_iteration: false,
            promote_inputs_to_common_dtype: false,
            promote_integer_inputs_to_float: false,
            cast_common_dtype_to_outputs: false,
            static_shape: None,
            static_dtype: None,
            uninit_outputs: false,
            output_after_input: false,
        }
    }
}

impl TensorIteratorConfig {
    /// Outputs that the iterator allocates (undefined or resized ones, and temporaries
    /// of the common dtype) get storage that is not zero-filled first, as `at::empty`:
    /// one write pass instead of two.
    ///
    /// # Safety
    /// The caller must run an elementwise kernel over the built iterator that writes
    /// every element of every output (then [`TensorIterator::cast_outputs`]) before
    /// any output is read or handed out; if it stops early, it must drop the iterator.
    /// [`TensorIterator::build_and_run`] is the caller.
    #[inline]
    pub(super) unsafe fn kernel_writes_every_output(mut self) -> Self {
        self.uninit_outputs = true;
        self
    }

    /// A config with PyTorch's defaults and no operands.
    #[cfg_attr(unoptimized, inline)]
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds an output the iterator writes (`add_output`). A handle to the same view is
    /// kept; the caller's tensor is written in place.
    ///
    /// Outputs come first: adding one after an input makes [`super::TensorIterator::build`]
    /// return [`crate::error::Error::InvalidArgument`].
    #[inline]
    pub fn add_output(mut self, out: &Tensor) -> Self {
        self.output_after_input |= !self.inputs.is_empty();
        self.outputs.push(ConfigOperand {
            tensor: Some(out.alias()),
            is_wrapped_number: false,
        });
        self
    }

    /// Adds an output that the iterator allocates (an undefined tensor in PyTorch),
    /// with the dtype computed by `compute_types` and strides from the perm. As
    /// [`TensorIteratorConfig::add_output`], it must come before the inputs.
    #[inline]
    pub fn add_undefined_output(mut self) -> Self {
        self.output_after_input |= !self.inputs.is_empty();
        self.outputs.push(ConfigOperand {
            tensor: None,
            is_wrapped_number: false,
        });
        self
    }

    /// Adds an output that is either given (`Some`) or allocated (`None`).
    #[inline]
    pub fn add_maybe_output(self, out: Option<&Tensor>) -> Self {
        match out {
            Some(t) => self.add_output(t),
            None => self.add_undefined_output(),
        }
    }

    /// Adds an input (`add_input`).
    #[inline]
    pub fn add_input(mut self, input: &Tensor) -> Self {
        self.inputs.push(ConfigOperand {
            tensor: Some(input.alias()),
            is_wrapped_number: false,
        });
        self
    }

    /// Adds an input that is only read (`add_const_input`).
    #[inline]
    pub fn add_const_input(mut self, input: &Tensor) -> Self {
        self.inputs.push(ConfigOperand {
            tensor: Some(input.alias()),
            is_wrapped_number: false,
        });
        self
    }

    /// Adds a Rust number as a 0-d input that promotes as a wrapped number
    /// (`wrapped_scalar_tensor`): `Int` is int64, `Float` float64, `Bool` bool.
    #[inline]
    pub fn add_scalar_input(mut self, value: Scalar) -> Self {
        self.inputs.push(ConfigOperand {
            tensor: Some(Tensor::scalar_of(value, value.dtype())),
            is_wrapped_number: true,
        });
        self
    }

    /// Adds an input that promotes as a wrapped number (a 0-d tensor made from a Rust
    /// scalar by the caller).
    #[inline]
    pub fn add_wrapped_number_input(mut self, input: &Tensor) -> Self {
        self.inputs.push(ConfigOperand {
            tensor: Some(input.alias()),
            is_wrapped_number: true,
        });
        self
    }

    /// Checks outputs for internal overlap and inputs for partial overlap with outputs.
    #[inline]
    pub fn set_check_mem_overlap(mut self, v: bool) -> Self {
        self.check_mem_overlap = v;
        self
    }

    /// Allows 0-d CPU tensors among non-CPU operands (no effect on a CPU-only runtime).
    #[inline]
    pub fn allow_cpu_scalars(mut self, v: bool) -> Self {
        self.allow_cpu_scalars = v;
        self
    }

    /// Reduction mode: outputs keep their shape (size 1 on reduced dims), get stride 0
    /// there, and reduced dims are iterated innermost. See the module docs.
    #[inline]
    pub fn is_reduction(mut self, v: bool) -> Self {
        self.is_reduction = v;
        self
    }

    /// Whether outputs of the wrong shape are resized (default true).
    #[inline]
    pub fn resize_outputs(mut self, v: bool) -> Self {
        self.resize_outputs = v;
        self
    }

    /// Whether all operands must share one dtype (`Found dtype X but expected Y`).
    #[inline]
    pub fn check_all_same_dtype(mut self, v: bool) -> Self {
        self.check_all_same_dtype = v;
        self
    }

    /// Whether the common dtype must cast safely to each output (`can_cast`).
    #[inline]
    pub fn enforce_safe_casting_to_output(mut self, v: bool) -> Self {
        self.enforce_safe_casting_to_output = v;
        self
    }

    /// Iterates in plain row-major order: no stride sorting, fast setup only when
    /// everything is contiguous.
    #[inline]
    pub fn enforce_linear_iteration(mut self, v: bool) -> Self {
        self.enforce_linear_iteration = v;
        self
    }

    /// Computes a common dtype over the inputs and converts inputs to it; also clears
    /// `check_all_same_dtype` when set.
    #[inline]
    pub fn promote_inputs_to_common_dtype(mut self, v: bool) -> Self {
        self.promote_inputs_to_common_dtype = v;
        if v {
            self.check_all_same_dtype = false;
        }
        self
    }

    /// Turns an integral (or bool) common dtype into the default float, `float32`.
    #[inline]
    pub fn promote_integer_inputs_to_float(mut self, v: bool) -> Self {
        self.promote_integer_inputs_to_float = v;
        self
    }

    /// Computes into temporaries of the common dtype and copies them to outputs of
    /// another dtype; also clears `check_all_same_dtype` when set.
    #[inline]
    pub fn cast_common_dtype_to_outputs(mut self, v: bool) -> Self {
        self.cast_common_dtype_to_outputs = v;
        if v {
            self.check_all_same_dtype = false;
        }
        self
    }

    /// Fixes the iteration shape instead of broadcasting the operands
    /// (`declare_static_shape`); every defined operand must have exactly this shape
    /// (`TensorIterator::build` returns [`crate::error::Error::OutputShape`] otherwise).
    #[inline]
    pub fn declare_static_shape(mut self, shape: &[usize]) -> Self {
        self.static_shape = Some(shape.to_vec());
        self
    }

    /// Fixes the dtype of allocated outputs (`declare_static_dtype`, e.g. bool for
    /// comparisons).
    #[inline]
    pub fn declare_static_dtype(mut self, dtype: DType) -> Self {
        self.static_dtype = Some(dtype);
        self
    }

    // ---- presets ----------------------------------------------------------------------

    /// `build_binary_op`: overlap check, CPU scalars, promote inputs, cast to outputs,
    /// safe casting. `out` `None` allocates the output.
    #[cfg_attr(unoptimized, inline)]
    pub fn binary_op(out: Option<&Tensor>, a: &Tensor, b: &Tensor) -> Self {
        Self::new()
            .set_check_mem_overlap(true)
            .allow_cpu_scalars(true)
            .promote_inputs_to_common_dtype(true)
            .cast_common_dtype_to_outputs(true)
            .enforce_safe_casting_to_output(true)
            .add_maybe_output(out)
            .add_const_input(a)
            .add_const_input(b)
    }

    /// `build_binary_float_op`: [`binary_op`](Self::binary_op) that also promotes
    /// integral inputs to the default float (true division).
    #[cfg_attr(unoptimized, inline)]
    pub fn binary_float_op(out: Option<&Tensor>, a: &Tensor, b: &Tensor) -> Self {
        Self::binary_op(out, a, b).promote_integer_inputs_to_float(true)
    }

    /// `build_unary_op`: overlap check and one dtype for all operands.
    #[cfg_attr(unoptimized, inline)]
    pub fn unary_op(out: Option<&Tensor>, a: &Tensor) -> Self {
        Self::new()
            .set_check_mem_overlap(true)
            .cast_common_dtype_to_outputs(false)
            .enforce_safe_casting_to_output(false)
            .check_all_same_dtype(true)
            .add_maybe_output(out)
            .add_const_input(a)
    }

    /// `build_unary_float_op`: promotes integral inputs to float, casts to outputs,
    /// safe casting (exp, log, sqrt, sigmoid, tanh).
    #[cfg_attr(unoptimized, inline)]
    pub fn unary_float_op(out: Option<&Tensor>, a: &Tensor) -> Self {
        Self::new()
            .set_check_mem_overlap(true)
            .promote_inputs_to_common_dtype(true)
            .cast_common_dtype_to_outputs(true)
            .enforce_safe_casting_to_output(true)
            .promote_integer_inputs_to_float(true)
            .add_maybe_output(out)
            .add_const_input(a)
    }

    /// `nullary_op`: one output, no inputs, no dtype check (fills).
    #[cfg_attr(unoptimized, inline)]
    pub fn nullary_op(out: &Tensor) -> Self {
        Self::new()
            .set_check_mem_overlap(true)
            .check_all_same_dtype(false)
            .resize_outputs(false)
            .add_output(out)
    }

    /// `reduce_op`: no overlap check, no resizing, reduction mode, promote inputs.
    /// `out` is the reduction result viewed with the input's ndim (size 1 on reduced
    /// dims, see [`super::reduce::reduction_output_view`]).
    #[cfg_attr(unoptimized, inline)]
    pub fn reduce_op(out: &Tensor, input: &Tensor) -> Self {
        Self::new()
            .set_check_mem_overlap(false)
            .add_output(out)
            .add_const_input(input)
            .promote_inputs_to_common_dtype(true)
            .resize_outputs(false)
            .is_reduction(true)
    }

    /// `build_ternary_op` (addcmul): like [`binary_op`](Self::binary_op) with three inputs.
    #[cfg_attr(unoptimized, inline)]
    pub fn ternary_op(out: Option<&Tensor>, a: &Tensor, b: &Tensor, c: &Tensor) -> Self {
        Self::new()
            .allow_cpu_scalars(true)
            .promote_inputs_to_common_dtype(true)
            .cast_common_dtype_to_outputs(true)
            .enforce_safe_casting_to_output(true)
            .add_maybe_output(out)
            .add_const_input(a)
            .add_const_input(b)
            .add_const_input(c)
    }
}
