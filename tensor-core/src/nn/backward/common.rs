//! What the backward kernels share: values read in the accumulation type (a
//! [`crate::kernels::acc::Acc`]), results written back in a tensor's dtype, and the
//! `[outer, size, inner]` split of a dim.

use crate::dtype::DType;
use crate::error::Result;
use crate::kernels::acc::Acc;
use crate::tensor::Tensor;

/// The elements of `t` (any layout, any float dtype) in row-major order, converted to
/// `A` (exact for `f16`/`bf16` → `f32`).
pub(crate) fn load<A: Acc>(t: &Tensor) -> Result<Vec<A>> {
    if t.dtype() == A::DTYPE {
        // A strided tensor is first made contiguous by the copy kernel (a loop per
        // coalesced dim), far cheaper than visiting its elements one offset at a time.
        let dense;
        let t = if t.is_contiguous() {
            t
        } else {
            dense = t.alias_detached().contiguous()?;
            &dense
        };
        // One copy of the elements' span.
        crate::shape_ops::slices::read::<A, _>(t, |s| {
            let mut v = crate::alloc::try_with_capacity(s.len())?;
            v.extend_from_slice(s);
            Ok(v)
        })
    } else {
        t.to_dtype(A::DTYPE)?.to_vec::<A>()
    }
}

/// A contiguous tensor of `sizes` and `dtype` holding `v` (row-major, rounded once).
pub(crate) fn store<A: Acc>(v: Vec<A>, sizes: &[usize], dtype: DType) -> Result<Tensor> {
    Tensor::from_vec(v, sizes)?.to_dtype(dtype)
}

/// `(outer, size, inner)` of `sizes` around dim `d`: the element at `(o, i, j)` is at
/// `(o * size + i) * inner + j` in row-major order.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn split_at(sizes: &[usize], d: usize) -> (usize, usize, usize) {
    let outer = sizes[..d].iter().product();
    let inner = sizes[d + 1..].iter().product();
    (outer, sizes[d], inner)
}
