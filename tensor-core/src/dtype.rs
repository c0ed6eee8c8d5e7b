//! Data types (`torch.dtype`) and PyTorch's type-promotion lattice.

use std::fmt;

/// The element type of a tensor, mirroring `torch.dtype`.
///
/// Sizes are in bytes ([`DType::size`]). Complex and quantized types are not supported.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DType {
    /// `torch.bool`, one byte holding 0 or 1.
    Bool,
    /// `torch.uint8`.
    U8,
    /// `torch.int8`.
    I8,
    /// `torch.int16`.
    I16,
    /// `torch.int32`.
    I32,
    /// `torch.int64`, PyTorch's `Long`.
    I64,
    /// `torch.float16` (IEEE half), via the `half` crate.
    F16,
    /// `torch.bfloat16`, via the `half` crate.
    BF16,
    /// `torch.float32`, PyTorch's default float.
    F32,
    /// `torch.float64`.
    F64,
}

/// All dtypes, in the order of PyTorch's promotion table.
pub const ALL_DTYPES: [DType; 10] = [
    DType::Bool,
    DType::U8,
    DType::I8,
    DType::I16,
    DType::I32,
    DType::I64,
    DType::F16,
    DType::BF16,
    DType::F32,
    DType::F64,
];

impl DType {
    /// Bytes per element (`torch.dtype.itemsize`).
    pub const fn size(self) -> usize {
        match self {
            DType::Bool | DType::U8 | DType::I8 => 1,
            DType::I16 | DType::F16 | DType::BF16 => 2,
            DType::I32 | DType::F32 => 4,
            DType::I64 | DType::F64 => 8,
        }
    }

    /// `true` for the floating types (`torch.is_floating_point`).
    pub const fn is_floating(self) -> bool {
        matches!(self, DType::F16 | DType::BF16 | DType::F32 | DType::F64)
    }

    /// `true` for integral types; `include_bool` decides whether `Bool` counts
    /// (c10's `isIntegralType(t, includeBool)`).
    pub const fn is_integral(self, include_bool: bool) -> bool {
        match self {
            DType::Bool => include_bool,
            DType::U8 | DType::I8 | DType::I16 | DType::I32 | DType::I64 => true,
            _ => false,
        }
    }

    /// The Python name, as `str(torch.float32)` without the `torch.` prefix: `"float32"`.
    pub const fn name(self) -> &'static str {
        match self {
            DType::Bool => "bool",
            DType::U8 => "uint8",
            DType::I8 => "int8",
            DType::I16 => "int16",
            DType::I32 => "int32",
            DType::I64 => "int64",
            DType::F16 => "float16",
            DType::BF16 => "bfloat16",
            DType::F32 => "float32",
            DType::F64 => "float64",
        }
    }

    /// c10's `ScalarType` name used in PyTorch's error messages: `"Float"`, `"Long"`.
    pub const fn scalar_type_name(self) -> &'static str {
        match self {
            DType::Bool => "Bool",
            DType::U8 => "Byte",
            DType::I8 => "Char",
            DType::I16 => "Short",
            DType::I32 => "Int",
            DType::I64 => "Long",
            DType::F16 => "Half",
            DType::BF16 => "BFloat16",
            DType::F32 => "Float",
            DType::F64 => "Double",
        }
    }

    /// c10's `TypeMeta` name (the C++ type) that some PyTorch messages print:
    /// `"float"`, `"long int"` (`mm`'s dtype check, clamp's in-place cast check).
    pub const fn type_meta_name(self) -> &'static str {
        match self {
            DType::Bool => "bool",
            DType::U8 => "unsigned char",
            DType::I8 => "signed char",
            DType::I16 => "short int",
            DType::I32 => "int",
            DType::I64 => "long int",
            DType::F16 => "c10::Half",
            DType::BF16 => "c10::BFloat16",
            DType::F32 => "float",
            DType::F64 => "double",
        }
    }

    /// The legacy tensor type name PyTorch prints in some messages: `"torch.FloatTensor"`.
    pub fn legacy_type_name(self) -> String {
        format!("torch.{}Tensor", self.scalar_type_name())
    }

    /// Parses a Python dtype name (`"float32"`, with or without `torch.`).
    pub fn from_name(name: &str) -> Option<DType> {
        let name = name.strip_prefix("torch.").unwrap_or(name);
        ALL_DTYPES
            .iter()
            .copied()
            .find(|d| d.name() == name)
            .or(match name {
                "float" => Some(DType::F32),
                "double" => Some(DType::F64),
                "half" => Some(DType::F16),
                "long" => Some(DType::I64),
                "int" => Some(DType::I32),
                _ => None,
            })
    }

    fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for DType {
    /// Prints the Python name, e.g. `float32`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// `torch.promote_types(a, b)`: the smallest dtype both promote to (c10 `promoteTypes`).
///
/// ```
/// use tensor_core::{promote_types, DType};
/// assert_eq!(promote_types(DType::U8, DType::I8), DType::I16);
/// assert_eq!(promote_types(DType::F16, DType::BF16), DType::F32);
/// ```
pub fn promote_types(a: DType, b: DType) -> DType {
    use DType::*;
    // Rows and columns in the order of `ALL_DTYPES`.
    const T: [[DType; 10]; 10] = [
        [Bool, U8, I8, I16, I32, I64, F16, BF16, F32, F64],
        [U8, U8, I16, I16, I32, I64, F16, BF16, F32, F64],
        [I8, I16, I8, I16, I32, I64, F16, BF16, F32, F64],
        [I16, I16, I16, I16, I32, I64, F16, BF16, F32, F64],
        [I32, I32, I32, I32, I32, I64, F16, BF16, F32, F64],
        [I64, I64, I64, I64, I64, I64, F16, BF16, F32, F64],
        [F16, F16, F16, F16, F16, F16, F16, F32, F32, F64],
        [BF16, BF16, BF16, BF16, BF16, BF16, F32, BF16, F32, F64],
        [F32, F32, F32, F32, F32, F32, F32, F32, F32, F64],
        [F64, F64, F64, F64, F64, F64, F64, F64, F64, F64],
    ];
    T[a.index()][b.index()]
}

/// c10's `canCast(from, to)`: `false` for floating → integral and non-bool → bool.
///
/// Used for `enforce_safe_casting_to_output`: `result type Float can't be cast to the
/// desired output type Long`.
pub fn can_cast(from: DType, to: DType) -> bool {
    if from.is_floating() && to.is_integral(false) {
        return false;
    }
    if from != DType::Bool && to == DType::Bool {
        return false;
    }
    true
}

/// Runs `$body` with the type alias `$T` bound to the Rust element type of `$dtype`.
///
/// ```
/// use tensor_core::{dispatch_dtype, DType, Element};
/// let size = dispatch_dtype!(DType::F64, T, std::mem::size_of::<T>());
/// assert_eq!(size, 8);
/// ```
///
/// The form `dispatch_dtype!(@of $dtype, T, body; U8 u8, I8 i8; else i64)` dispatches
/// over the listed dtypes only, the rest to the `else` type (tensor-core's own use).
#[macro_export]
macro_rules! dispatch_dtype {
    ($dtype:expr, $T:ident, $body:expr) => {
        $crate::dispatch_dtype!(@of $dtype, $T, $body;
            Bool bool, U8 u8, I8 i8, I16 i16, I32 i32, I64 i64,
            F16 $crate::half::f16, BF16 $crate::half::bf16, F32 f32, F64 f64)
    };
    (@of $dtype:expr, $T:ident, $body:expr; $($D:ident $R:ty),+ $(; else $E:ty)?) => {
        match $dtype {
            $($crate::DType::$D => {
                type $T = $R;
                $body
            })+
            $(_ => {
                type $T = $E;
                $body
            })?
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn promote_table_is_symmetric() {
        for a in ALL_DTYPES {
            for b in ALL_DTYPES {
                assert_eq!(promote_types(a, b), promote_types(b, a), "{a} {b}");
            }
        }
    }

    #[test]
    fn float_cannot_cast_to_long() {
        assert!(!can_cast(DType::F32, DType::I64));
        assert!(can_cast(DType::I64, DType::F32));
        assert!(!can_cast(DType::I32, DType::Bool));
        assert!(can_cast(DType::Bool, DType::F16));
    }
}
