//! `tril` and `triu`: the lower or upper triangle of the last two dims (a batch of
//! matrices), as PyTorch's `tril_cpu` / `triu_cpu`, into a fresh contiguous tensor.

pub(super) mod backward;

use super::backward::node::node;
use crate::autograd;
use crate::dispatch_dtype;
use crate::element::Element;
use crate::error::{Error, Result};
use crate::tensor::Tensor;

/// Copies the kept part of each row of each matrix of the contiguous `src` into the
/// zero-filled `dst`: columns `j` with `j - i <= diagonal` (`lower`) or
/// `j - i >= diagonal` (upper).
fn copy_triangle<T: Element>(
    src: &[T],
    dst: &mut [T],
    rows: usize,
    cols: usize,
    diagonal: i64,
    lower: bool,
) {
    if cols == 0 {
        return;
    }
    for (m, (s, d)) in src
        .chunks_exact(cols)
        .zip(dst.chunks_exact_mut(cols))
        .enumerate()
    {
        let i = (m % rows.max(1)) as i128;
        // Kept columns: [0, i + diagonal] (lower) or [i + diagonal, cols) (upper).
        let edge = i + diagonal as i128;
        let (lo, hi) = if lower {
            (0, (edge + 1).clamp(0, cols as i128) as usize)
        } else {
            (edge.clamp(0, cols as i128) as usize, cols)
        };
        d[lo..hi].copy_from_slice(&s[lo..hi]);
    }
}

#[cfg_attr(unoptimized, inline)]
fn triangle(input: &Tensor, diagonal: i64, lower: bool) -> Result<Tensor> {
    let op = if lower { "tril" } else { "triu" };
    let nd = input.dim();
    if nd < 2 {
        return Err(Error::InvalidArgument {
            op,
            message: "input tensor must have at least 2 dimensions".into(),
        });
    }
    let out = Tensor::zeros(input.sizes(), input.dtype())?;
    if input.numel() == 0 {
        return Ok(out);
    }
    let (rows, cols) = (input.sizes()[nd - 2], input.sizes()[nd - 1]);
    let src = input.contiguous()?;
    dispatch_dtype!(input.dtype(), T, {
        let s = src.storage().read();
        let off = src.storage_offset();
        let xs = &s.as_slice::<T>()[off..off + src.numel()];
        let mut d = out.storage().write();
        copy_triangle(xs, d.as_mut_slice::<T>(), rows, cols, diagonal, lower);
    });
    Ok(out)
}

/// [`triangle`], recorded for autograd (`TrilBackward0`, `TriuBackward0`).
#[cfg_attr(unoptimized, inline)]
fn recorded(input: &Tensor, diagonal: i64, lower: bool) -> Result<Tensor> {
    let name = if lower {
        "TrilBackward0"
    } else {
        "TriuBackward0"
    };
    autograd::apply(
        &[input],
        || triangle(input, diagonal, lower),
        |_| {
            node(name, vec![], 1, move |g, _| {
                Ok(vec![Some(backward::triangle_backward(g, diagonal, lower)?)])
            })
        },
    )
}

impl Tensor {
    /// `torch.tril(self, diagonal)`: the elements on and below the `diagonal`-th
    /// diagonal of each matrix of the last two dims (`j - i <= diagonal`; 0 is the main
    /// diagonal, positive above it), zeros elsewhere. Any dtype; the result is
    /// contiguous.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for fewer than 2 dims (`tril: input tensor must have
    /// at least 2 dimensions`).
    #[cfg_attr(unoptimized, inline)]
    pub fn tril(&self, diagonal: i64) -> Result<Tensor> {
        recorded(self, diagonal, true)
    }

    /// `torch.triu(self, diagonal)`: the elements on and above the `diagonal`-th
    /// diagonal (`j - i >= diagonal`), zeros elsewhere; as [`tril`](Tensor::tril).
    ///
    /// # Errors
    /// As [`tril`](Tensor::tril), naming `triu`.
    #[cfg_attr(unoptimized, inline)]
    pub fn triu(&self, diagonal: i64) -> Result<Tensor> {
        recorded(self, diagonal, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dtype::DType;

    fn m3() -> Tensor {
        Tensor::from_vec((1..=9).map(|i| i as f32).collect(), &[3, 3]).unwrap()
    }

    #[test]
    fn tril_and_triu_diagonals() {
        let v = |t: Tensor| t.to_vec::<f32>().unwrap();
        assert_eq!(
            v(m3().tril(0).unwrap()),
            [1., 0., 0., 4., 5., 0., 7., 8., 9.]
        );
        assert_eq!(
            v(m3().tril(-1).unwrap()),
            [0., 0., 0., 4., 0., 0., 7., 8., 0.]
        );
        assert_eq!(
            v(m3().triu(1).unwrap()),
            [0., 2., 3., 0., 0., 6., 0., 0., 0.]
        );
        assert_eq!(v(m3().triu(-5).unwrap()), v(m3()));
        assert_eq!(v(m3().tril(i64::MAX).unwrap()), v(m3()));
        assert_eq!(v(m3().triu(i64::MIN).unwrap()), v(m3()));
    }

    #[test]
    fn tril_of_transposed_batch_is_contiguous() {
        let x = Tensor::from_vec((0..12).map(|i| i as i64).collect(), &[2, 3, 2])
            .unwrap()
            .transpose(1, 2)
            .unwrap();
        let y = x.tril(0).unwrap();
        assert_eq!(y.strides(), &[6, 3, 1]);
        assert_eq!(
            y.to_vec::<i64>().unwrap(),
            vec![0, 0, 0, 1, 3, 0, 6, 0, 0, 7, 9, 0]
        );
    }

    #[test]
    fn tril_of_1d_is_an_error() {
        let x = Tensor::zeros(&[4], DType::F16).unwrap();
        assert!(x
            .tril(0)
            .unwrap_err()
            .to_string()
            .contains("tril: input tensor must have at least 2 dimensions"));
    }
}
