//! `sum_to_size`: sums a gradient that broadcasting spread back to an input's shape.

use crate::error::{Error, Result};
use crate::tensor::Tensor;

/// `true` when `from` broadcasts to `to` (`is_expandable_to`).
#[cfg_attr(unoptimized, inline)]
pub(crate) fn is_expandable_to(from: &[usize], to: &[usize]) -> bool {
    if from.len() > to.len() {
        return false;
    }
    let lead = to.len() - from.len();
    from.iter()
        .zip(&to[lead..])
        .all(|(&f, &t)| f == t || f == 1)
}

impl Tensor {
    /// `Tensor.sum_to_size(sizes)`: sums over the leading dims the tensor has beyond
    /// `sizes` and over the dims where `sizes` is 1 and the tensor is not, giving a
    /// tensor of `sizes` (the reverse of broadcasting it to its own sizes). Returns an
    /// alias when the sizes already match.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] (`size {..} is not expandable to size {..}.`) when
    /// `sizes` does not broadcast to the tensor's sizes.
    #[cfg_attr(unoptimized, inline)]
    pub fn sum_to_size(&self, sizes: &[usize]) -> Result<Tensor> {
        if self.sizes() == sizes {
            return Ok(self.alias());
        }
        if !is_expandable_to(sizes, self.sizes()) {
            return Err(Error::InvalidArgument {
                op: "sum_to_size",
                message: format!(
                    "size {:?} is not expandable to size {:?}.",
                    sizes,
                    self.sizes()
                ),
            });
        }
        let lead = self.dim() - sizes.len();
        let mut dims: Vec<i64> = (0..lead as i64).collect();
        for (i, &s) in sizes.iter().enumerate() {
            if s == 1 && self.sizes()[lead + i] != 1 {
                dims.push((lead + i) as i64);
            }
        }
        if dims.len() == lead && !crate::autograd::needs_grad(&[self]) {
            if let Some(t) = sum_leading_rows(self, sizes)? {
                return Ok(t);
            }
        }
        let shape: Vec<i64> = sizes.iter().map(|&s| s as i64).collect();
        if dims.is_empty() {
            return self.reshape(&shape);
        }
        self.sum(&dims, true)?.reshape(&shape)
    }
}

/// The sum over the leading dims of a contiguous non-empty `f32`/`f64` tensor into
/// `sizes` (its trailing dims), row after row in order (a bias's gradient in a
/// backward pass: one pass, no reduction plan); `None` when another path is needed.
#[cfg_attr(unoptimized, inline)]
fn sum_leading_rows(t: &Tensor, sizes: &[usize]) -> Result<Option<Tensor>> {
    fn rows<T: crate::element::Element + std::ops::Add<Output = T>>(
        t: &Tensor,
        n: usize,
        sizes: &[usize],
    ) -> Result<Tensor> {
        let acc = crate::shape_ops::slices::read::<T, _>(t, |s| {
            let mut acc = s[..n].to_vec();
            for row in s[n..].chunks_exact(n) {
                for (a, &x) in acc.iter_mut().zip(row) {
                    *a = *a + x;
                }
            }
            acc
        });
        Tensor::from_vec(acc, sizes)
    }
    let n = crate::layout::numel_of(sizes.iter().copied());
    if n == 0 || t.numel() == 0 || !t.is_contiguous() {
        return Ok(None);
    }
    match t.dtype() {
        crate::dtype::DType::F32 => rows::<f32>(t, n, sizes).map(Some),
        crate::dtype::DType::F64 => rows::<f64>(t, n, sizes).map(Some),
        _ => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dtype::DType;

    #[test]
    fn sum_to_size_2x3_to_3_and_2x1() {
        let t = Tensor::from_vec((0..6).map(f64::from).collect(), &[2, 3]).unwrap();
        assert_eq!(
            t.sum_to_size(&[3]).unwrap().to_vec::<f64>().unwrap(),
            vec![3.0, 5.0, 7.0]
        );
        let r = t.sum_to_size(&[2, 1]).unwrap();
        assert_eq!(r.sizes(), &[2, 1]);
        assert_eq!(r.to_vec::<f64>().unwrap(), vec![3.0, 12.0]);
        assert!(t.sum_to_size(&[4]).is_err());
        let s = Tensor::ones(&[1, 4], DType::F32)
            .unwrap()
            .sum_to_size(&[4])
            .unwrap();
        assert_eq!(s.sizes(), &[4]);
    }

    #[test]
    fn sum_to_size_over_leading_rows_of_a_contiguous_and_a_strided_tensor() {
        let t = Tensor::from_vec((0..24).map(|v| v as f32).collect(), &[2, 3, 4]).unwrap();
        let fast = t.sum_to_size(&[4]).unwrap();
        let slow = t.sum(&[0, 1], false).unwrap();
        assert_eq!(fast.to_vec::<f32>().unwrap(), slow.to_vec::<f32>().unwrap());
        let tt = t.transpose(1, 2).unwrap(); // not contiguous: the reduction path
        let r = tt.sum_to_size(&[4, 3]).unwrap();
        assert_eq!(
            r.to_vec::<f32>().unwrap(),
            tt.sum(&[0], false).unwrap().to_vec::<f32>().unwrap()
        );
    }
}
