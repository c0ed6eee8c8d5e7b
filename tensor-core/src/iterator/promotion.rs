//! `torch.result_type` (aten/src/ATen/native/TypeProperties.cpp): the three-slot
//! promotion of tensors with dims, 0-d tensors and wrapped numbers.

use crate::dtype::{promote_types, DType};
use crate::scalar::Scalar;
use crate::tensor::Tensor;

/// One operand of [`result_type`]: a tensor (its dtype and whether it has dims matter)
/// or a Rust number (a *wrapped number*, PyTorch's Python scalar).
#[derive(Clone, Copy, Debug)]
pub enum Operand<'a> {
    /// A tensor; 0-d tensors promote in a lower category than tensors with dims.
    Tensor(&'a Tensor),
    /// A wrapped number: `Int` is `int64`, `Float` counts as the default float
    /// (`float32`), `Bool` is `bool`, all in the lowest category.
    Scalar(Scalar),
}

/// The running state of `torch.result_type`: one promoted dtype per category
/// (`ResultTypeState`: dimResult, zeroResult, wrappedResult).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ResultTypeState {
    /// Promotion of the tensors with at least one dim.
    pub dim_result: Option<DType>,
    /// Promotion of the 0-d tensors that are not wrapped numbers.
    pub zero_result: Option<DType>,
    /// Promotion of the wrapped numbers (floats counted as the default float).
    pub wrapped_result: Option<DType>,
}

#[cfg_attr(unoptimized, inline)]
fn promote_skip_undefined(a: Option<DType>, b: Option<DType>) -> Option<DType> {
    match (a, b) {
        (None, x) | (x, None) => x,
        (Some(a), Some(b)) => Some(promote_types(a, b)),
    }
}

/// `combine_categories(higher, lower)` (no complex types here): a floating higher
/// category wins; a bool higher category or a floating lower one promotes; otherwise
/// the higher category wins when it is defined.
#[cfg_attr(unoptimized, inline)]
fn combine_categories(higher: Option<DType>, lower: Option<DType>) -> Option<DType> {
    match higher {
        Some(h) if h.is_floating() => Some(h),
        Some(DType::Bool) => promote_skip_undefined(higher, lower),
        _ if lower.is_some_and(|l| l.is_floating()) => promote_skip_undefined(higher, lower),
        Some(_) => higher,
        None => lower,
    }
}

impl ResultTypeState {
    /// Adds one operand described by its dtype, its number of dims and whether it is a
    /// wrapped number (`update_result_type_state`).
    #[cfg_attr(unoptimized, inline)]
    pub fn update(&mut self, dtype: DType, ndim: usize, is_wrapped_number: bool) {
        let current = if is_wrapped_number && dtype.is_floating() {
            DType::F32 // the default dtype
        } else {
            dtype
        };
        if is_wrapped_number {
            self.wrapped_result = promote_skip_undefined(self.wrapped_result, Some(current));
        } else if ndim > 0 {
            self.dim_result = promote_skip_undefined(self.dim_result, Some(current));
        } else {
            self.zero_result = promote_skip_undefined(self.zero_result, Some(current));
        }
    }

    /// Adds a tensor or wrapped number.
    #[cfg_attr(unoptimized, inline)]
    pub fn update_operand(&mut self, op: &Operand<'_>) {
        match op {
            Operand::Tensor(t) => self.update(t.dtype(), t.dim(), false),
            Operand::Scalar(s) => self.update(s.dtype(), 0, true),
        }
    }

    /// The promoted dtype: `combine(dim, combine(zero, wrapped))`; `None` when no
    /// operand was added.
    #[cfg_attr(unoptimized, inline)]
    pub fn result(&self) -> Option<DType> {
        combine_categories(
            self.dim_result,
            combine_categories(self.zero_result, self.wrapped_result),
        )
    }
}

/// `torch.result_type(*operands)`: the dtype an elementwise op computes in.
///
/// Tensors with dims outrank 0-d tensors, which outrank wrapped numbers, except that a
/// lower category of a higher *kind* (bool < integral < floating) still promotes:
/// `i32[] + 2.5 -> float32`, `i8[] + i64 0-d -> int8`, `bool[] + 5 -> int64`,
/// `f16[] + f64 0-d -> float16`. With no operands it returns the default dtype
/// `float32`.
///
/// ```
/// use tensor_core::{result_type, DType, Operand, Scalar, Tensor};
/// let a = Tensor::zeros(&[2], DType::I32)?;
/// assert_eq!(result_type(&[Operand::Tensor(&a), Operand::Scalar(Scalar::Float(2.5))]), DType::F32);
/// # Ok::<(), tensor_core::Error>(())
/// ```
#[cfg_attr(unoptimized, inline)]
pub fn result_type(operands: &[Operand<'_>]) -> DType {
    let mut state = ResultTypeState::default();
    for op in operands {
        state.update_operand(op);
    }
    state.result().unwrap_or(DType::F32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use DType::*;

    fn t(d: DType, ndim: usize) -> Tensor {
        Tensor::zeros(&vec![1; ndim], d).unwrap()
    }

    fn rt(a: &Tensor, b: Operand<'_>) -> DType {
        result_type(&[Operand::Tensor(a), b])
    }

    #[test]
    fn spec_examples_of_result_type() {
        assert_eq!(rt(&t(I32, 1), Operand::Tensor(&t(F64, 0))), F64);
        assert_eq!(rt(&t(I32, 1), Operand::Scalar(Scalar::Float(2.5))), F32);
        assert_eq!(rt(&t(I8, 1), Operand::Tensor(&t(I64, 0))), I8);
        assert_eq!(rt(&t(I8, 1), Operand::Scalar(Scalar::Int(1000))), I8);
        assert_eq!(rt(&t(Bool, 1), Operand::Scalar(Scalar::Int(5))), I64);
        assert_eq!(rt(&t(Bool, 1), Operand::Scalar(Scalar::Bool(true))), Bool);
        assert_eq!(rt(&t(U8, 1), Operand::Tensor(&t(I8, 0))), U8);
        assert_eq!(rt(&t(U8, 1), Operand::Scalar(Scalar::Int(-1))), U8);
        assert_eq!(rt(&t(F16, 1), Operand::Tensor(&t(F64, 0))), F16);
        assert_eq!(rt(&t(F16, 0), Operand::Scalar(Scalar::Float(2.5))), F16);
        assert_eq!(rt(&t(I32, 0), Operand::Tensor(&t(F16, 0))), F16);
        assert_eq!(rt(&t(Bool, 0), Operand::Scalar(Scalar::Float(2.5))), F32);
    }
}
