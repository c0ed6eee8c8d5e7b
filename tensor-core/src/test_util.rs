//! Helpers shared by the unit tests: strided views over known data and the pieces of a
//! naive index walk (the reference every kernel is compared with).

use crate::element::Element;
use crate::error::Result;
use crate::layout::Layout;
use crate::storage::Storage;
use crate::tensor::Tensor;

/// A view of `data` (as `T`) with the given sizes, strides and storage offset (elements).
/// Panics when the layout does not fit `data`: a test's own mistake.
pub(crate) fn strided<T: Element>(
    data: Vec<T>,
    sizes: &[usize],
    strides: &[isize],
    offset: usize,
) -> Tensor {
    let layout = Layout::checked(sizes.to_vec(), strides.to_vec(), offset).expect("layout");
    Tensor::from_parts(Storage::from_vec(data).expect("storage"), layout, T::DTYPE)
        .expect("the layout fits the data")
}

/// A contiguous f32 tensor of `sizes` holding `0, 1, 2, ...`.
pub(crate) fn arange(sizes: &[usize]) -> Tensor {
    let n: usize = sizes.iter().product();
    Tensor::from_vec((0..n).map(|i| i as f32).collect(), sizes).unwrap()
}

/// A strided f32 view, offset 0, over a fresh storage just long enough for it, holding
/// `0, 1, 2, ...`.
pub(crate) fn arange_strided(sizes: &[usize], strides: &[isize]) -> Tensor {
    let layout = Layout::checked(sizes.to_vec(), strides.to_vec(), 0).expect("layout");
    let len = layout.required_storage_len().expect("length").max(1);
    strided((0..len).map(|x| x as f32).collect(), sizes, strides, 0)
}

/// The row-major multi-index of linear position `flat` in `sizes` (last dim fastest).
pub(crate) fn unravel(mut flat: usize, sizes: &[usize]) -> Vec<usize> {
    let mut idx = vec![0; sizes.len()];
    for d in (0..sizes.len()).rev() {
        idx[d] = flat % sizes[d].max(1);
        flat /= sizes[d].max(1);
    }
    idx
}

/// The value of `t` at the multi-index `idx` of a shape `t` broadcasts to (`idx` may be
/// longer than `t.dim()`: dims align from the right and size-1 dims read index 0),
/// found by walking the strides.
pub(crate) fn value_at(t: &Tensor, idx: &[usize]) -> f64 {
    let lead = idx.len() - t.dim();
    let mut pos = t.storage_offset() as isize;
    for d in 0..t.dim() {
        let i = if t.sizes()[d] == 1 { 0 } else { idx[lead + d] };
        pos += i as isize * t.strides()[d];
    }
    let one = t
        .as_strided(&[], &[], pos as usize)
        .expect("inside the storage");
    one.to_vec_f64().expect("one element")[0]
}

/// A 1-d int64 tensor holding `v`.
pub(crate) fn longs(v: &[i64]) -> Tensor {
    Tensor::from_vec(v.to_vec(), &[v.len()]).unwrap()
}

/// The message of the error `r` must hold.
pub(crate) fn err(r: Result<impl Sized>) -> String {
    match r {
        Ok(_) => panic!("expected an error"),
        Err(e) => e.to_string(),
    }
}

/// `a @ b` by the definition, in f64, for 2-d `a` `[m, k]` and `b` `[k, n]` (row-major
/// values of the `[m, n]` product).
pub(crate) fn naive_matmul(a: &Tensor, b: &Tensor) -> Vec<f64> {
    let (av, bv) = (a.to_vec_f64().unwrap(), b.to_vec_f64().unwrap());
    let (m, k, n) = (a.sizes()[0], a.sizes()[1], b.sizes()[1]);
    let mut out = Vec::with_capacity(m * n);
    for i in 0..m {
        for j in 0..n {
            out.push((0..k).map(|p| av[i * k + p] * bv[p * n + j]).sum());
        }
    }
    out
}

/// Panics unless every value of `got` is within `rel` (relative, absolute below 1) of
/// `want`, naming the first that is not.
pub(crate) fn assert_close(got: &Tensor, want: &[f64], rel: f64) {
    let got = got.to_vec_f64().unwrap();
    assert_eq!(got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!((g - w).abs() <= rel * w.abs().max(1.0), "[{i}] {g} vs {w}");
    }
}

/// Checks `a @ b` against [`naive_matmul`] (within `rel`, see [`assert_close`]) for each
/// `(m, k, n)` and each operand layout a GEMM backend reads differently: both
/// row-major; `b` transposed (`[n, k]` viewed as `bᵀ`); `b`'s columns sliced at an
/// offset (step 1) and with a step of 2; `a` transposed; `a`'s columns sliced at an
/// offset. `seed` starts the operands' random values.
pub(crate) fn assert_matmul_layouts(shapes: &[(usize, usize, usize)], mut seed: u64, rel: f64) {
    let check =
        |a: &Tensor, b: &Tensor| assert_close(&a.matmul(b).unwrap(), &naive_matmul(a, b), rel);
    for &(m, k, n) in shapes {
        let a = Tensor::randn(&[m, k], seed).unwrap();
        let b = Tensor::randn(&[k, n], seed + 1).unwrap();
        check(&a, &b);
        let bt = Tensor::randn(&[n, k], seed + 2).unwrap().t().unwrap();
        check(&a, &bt);
        let wide = Tensor::randn(&[k, 2 * n + 2], seed + 3).unwrap();
        check(&a, &wide.slice(1, Some(2), Some(n as i64 + 2), 1).unwrap());
        check(&a, &wide.slice(1, None, Some(2 * n as i64), 2).unwrap());
        let at = Tensor::randn(&[k, m], seed + 4).unwrap().t().unwrap();
        check(&at, &b);
        let tall = Tensor::randn(&[m, k + 3], seed + 5).unwrap();
        check(&tall.slice(1, Some(3), None, 1).unwrap(), &b);
        seed += 6;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unravel_is_row_major() {
        assert_eq!(unravel(5, &[2, 3]), vec![1, 2]);
        assert_eq!(unravel(0, &[]), Vec::<usize>::new());
    }

    #[test]
    fn value_at_broadcasts_from_the_right() {
        let t = strided(vec![1.0f32, 2.0, 3.0], &[3], &[1], 0);
        assert_eq!(value_at(&t, &[4, 2]), 3.0);
        let col = arange_strided(&[2, 1], &[1, 1]);
        assert_eq!(value_at(&col, &[1, 7]), 1.0);
    }
}
