//! `sum_to_size`: sums a gradient that broadcasting spread back to an input's shape.

use crate::error::{Error, Result};
use crate::Tensor;

/// `true` when `from` broadcasts to `to` (`is_expandable_to`).
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
        let shape: Vec<i64> = sizes.iter().map(|&s| s as i64).collect();
        if dims.is_empty() {
            return self.reshape(&shape);
        }
        self.sum(&dims, true)?.reshape(&shape)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DType;

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
}
