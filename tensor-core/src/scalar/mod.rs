//! Rust scalars used as operands: PyTorch's "wrapped numbers", and their checked
//! conversion to a kernel's element type (`cast.rs`).

pub(crate) mod cast;

use crate::dtype::DType;

/// A Rust number used as an operand (`t + 2.5`), which PyTorch calls a *wrapped number*.
///
/// A wrapped number takes part in type promotion in the lowest category
/// (`torch.result_type`): `Tensor<i32> + 2.5` is `float32`, not `float64`, while
/// `Tensor<bool> + 5` is `int64`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    /// A Python `bool` (dtype `bool`).
    Bool(bool),
    /// A Python `int` (dtype `int64`).
    Int(i64),
    /// A Python `float` (dtype `float64`, promoted as the default float `float32`).
    Float(f64),
}

impl Scalar {
    /// The dtype of the 0-d tensor PyTorch wraps this number in (`bool`, `int64`, `float64`).
    pub fn dtype(self) -> DType {
        match self {
            Scalar::Bool(_) => DType::Bool,
            Scalar::Int(_) => DType::I64,
            Scalar::Float(_) => DType::F64,
        }
    }

    /// The value as `f64`.
    pub fn to_f64(self) -> f64 {
        match self {
            Scalar::Bool(b) => b as u8 as f64,
            Scalar::Int(i) => i as f64,
            Scalar::Float(f) => f,
        }
    }
}

macro_rules! scalar_from {
    ($($t:ty => $v:ident),*) => {$(
        impl From<$t> for Scalar {
            fn from(x: $t) -> Self {
                Scalar::$v(x.into())
            }
        }
    )*};
}
scalar_from!(bool => Bool, i64 => Int, i32 => Int, i16 => Int, i8 => Int, u8 => Int, u32 => Int, f64 => Float, f32 => Float);
