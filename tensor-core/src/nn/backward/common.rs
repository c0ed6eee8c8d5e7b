//! What the backward kernels share: values read in the accumulation type, results
//! written back in a tensor's dtype, and the `[outer, size, inner]` split of a dim.

use crate::error::Result;
use crate::kernels::acc::{not_implemented, Acc};
use crate::{DType, Element, Tensor};

/// The accumulation type of a backward kernel: `f32` or `f64`.
pub(crate) trait Real: Acc + Element {}
impl Real for f32 {}
impl Real for f64 {}

/// The elements of `t` (any layout, any float dtype) in row-major order, converted to
/// `A` (exact for `f16`/`bf16` → `f32`).
pub(crate) fn load<A: Real>(t: &Tensor) -> Result<Vec<A>> {
    if t.dtype() == A::DTYPE {
        if t.is_contiguous() {
            // One copy of the elements' span.
            return crate::shape_ops::slices::read::<A, _>(t, |s| {
                let mut v = crate::alloc::try_with_capacity(s.len())?;
                v.extend_from_slice(s);
                Ok(v)
            });
        }
        t.to_vec::<A>()
    } else {
        t.to_dtype(A::DTYPE)?.to_vec::<A>()
    }
}

/// A contiguous tensor of `sizes` and `dtype` holding `v` (row-major, rounded once).
pub(crate) fn store<A: Real>(v: Vec<A>, sizes: &[usize], dtype: DType) -> Result<Tensor> {
    Tensor::from_vec(v, sizes)?.to_dtype(dtype)
}

/// Runs `$body` with `$A` the accumulation type of the float `$dtype` (`f64` for
/// `f64`, else `f32`); a non-float dtype is PyTorch's not-implemented error.
macro_rules! dispatch_acc {
    ($dtype:expr, $kernel:expr, $A:ident, $body:expr) => {
        match $dtype {
            $crate::DType::F64 => {
                type $A = f64;
                $body
            }
            $crate::DType::F32 | $crate::DType::F16 | $crate::DType::BF16 => {
                type $A = f32;
                $body
            }
            other => Err($crate::nn::backward::common::float_error($kernel, other)),
        }
    };
}
pub(crate) use dispatch_acc;

/// `"{kernel}" not implemented for '{dtype}'`.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn float_error(kernel: &str, dtype: DType) -> crate::Error {
    not_implemented(kernel, dtype)
}

/// `(outer, size, inner)` of `sizes` around dim `d`: the element at `(o, i, j)` is at
/// `(o * size + i) * inner + j` in row-major order.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn split_at(sizes: &[usize], d: usize) -> (usize, usize, usize) {
    let outer = sizes[..d].iter().product();
    let inner = sizes[d + 1..].iter().product();
    (outer, sizes[d], inner)
}
