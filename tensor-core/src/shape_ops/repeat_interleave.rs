//! `repeat_interleave` with a count: each element repeated in place along a dim
//! (`[a, b]` → `[a, a, b, b]`), built as unsqueeze → expand → reshape, so the repeats
//! are a stride-0 view until the one copy of the reshape (and gradients flow through
//! those three ops).

use crate::error::{Error, Result};
use crate::layout::wrap_dim;
use crate::tensor::Tensor;

impl Tensor {
    /// Each element repeated `repeats` times along `dim`, next to itself: size `n` of
    /// `dim` becomes `n * repeats`. Mirrors `torch.repeat_interleave(self, repeats,
    /// dim)` with an integer `repeats` (PyTorch's `repeat_kv` is `repeat_interleave` of
    /// the heads dim). A fresh contiguous tensor.
    ///
    /// ```
    /// use tensor_core::Tensor;
    /// let t = Tensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0], &[2, 2])?;
    /// let r = t.repeat_interleave(2, 0)?;
    /// assert_eq!(r.sizes(), &[4, 2]);
    /// assert_eq!(r.to_vec::<f32>()?, vec![1.0, 2.0, 1.0, 2.0, 3.0, 4.0, 3.0, 4.0]);
    /// # Ok::<(), tensor_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] `repeats can not be negative` (PyTorch's message);
    /// [`Error::DimOutOfRange`]; an allocation failure or a size overflow.
    #[cfg_attr(unoptimized, inline)]
    pub fn repeat_interleave(&self, repeats: i64, dim: i64) -> Result<Tensor> {
        if repeats < 0 {
            return Err(Error::InvalidArgument {
                op: "repeat_interleave",
                message: "repeats can not be negative".into(),
            });
        }
        let d = wrap_dim(dim, self.dim())?;
        if self.dim() == 0 {
            return self.reshape(&[1])?.repeat_interleave(repeats, 0);
        }
        let mut expanded: Vec<i64> = self.sizes().iter().map(|&s| s as i64).collect();
        expanded.insert(d + 1, repeats);
        let mut out: Vec<i64> = self.sizes().iter().map(|&s| s as i64).collect();
        out[d] = out[d].checked_mul(repeats).ok_or(Error::NumelOverflow {
            op: "repeat_interleave",
        })?;
        let r = self
            .unsqueeze(d as i64 + 1)?
            .expand(&expanded)?
            .reshape(&out)?;
        if repeats <= 1 {
            // The reshape is a view of `self` then: the result is a fresh tensor.
            return r.clone(crate::layout::MemoryFormat::Contiguous);
        }
        r.contiguous()
    }
}

#[cfg(test)]
mod tests {
    use crate::dtype::DType;
    use crate::tensor::Tensor;

    #[test]
    fn repeat_interleave_repeats_each_element_next_to_itself() {
        let t = Tensor::from_vec(vec![1i64, 2, 3, 4, 5, 6], &[2, 3]).unwrap();
        let r = t.repeat_interleave(2, -1).unwrap();
        assert_eq!(r.sizes(), &[2, 6]);
        assert_eq!(
            r.to_vec::<i64>().unwrap(),
            [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]
        );
        assert!(r.is_contiguous());
    }

    #[test]
    fn repeat_interleave_of_heads_is_repeat_kv() {
        // [b, kv, t, d] -> [b, kv * rep, t, d]: head h of the result is kv head h / rep.
        let t = Tensor::arange(2 * 3 * 2, DType::F32)
            .unwrap()
            .reshape(&[1, 2, 3, 2])
            .unwrap();
        let r = t.repeat_interleave(3, 1).unwrap();
        assert_eq!(r.sizes(), &[1, 6, 3, 2]);
        for h in 0..6 {
            let got = r.select(1, h as i64).unwrap().to_vec::<f32>().unwrap();
            let want = t.select(1, h as i64 / 3).unwrap().to_vec::<f32>().unwrap();
            assert_eq!(got, want);
        }
    }

    #[test]
    fn one_repeat_is_a_fresh_copy() {
        let t = Tensor::ones(&[2, 3], DType::F32).unwrap();
        let r = t.repeat_interleave(1, 0).unwrap();
        r.add_(&t).unwrap();
        assert_eq!(t.to_vec::<f32>().unwrap(), vec![1.0; 6]);
    }

    #[test]
    fn zero_repeats_empty_the_dim_and_negative_ones_are_pytorchs_error() {
        let t = Tensor::ones(&[2, 3], DType::F32).unwrap();
        assert_eq!(t.repeat_interleave(0, 1).unwrap().sizes(), &[2, 0]);
        let e = t.repeat_interleave(-1, 0).unwrap_err().to_string();
        assert!(e.contains("repeats can not be negative"), "{e}");
        let e = t.repeat_interleave(2, 2).unwrap_err().to_string();
        assert!(e.contains("Dimension out of range"), "{e}");
    }
}
