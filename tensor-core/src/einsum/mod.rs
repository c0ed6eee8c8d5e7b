//! `einsum`: `torch.einsum` on strided tensors, lowered to views, sums and batched
//! matrix products.
//!
//! `parse.rs` reads the equation against the operands' ranks into the aligned order of
//! dims (output dims, then the dims summed out); `lower.rs` aligns each operand (a
//! diagonal per repeated label, a size-1 dim per missing label, a permute) and
//! multiplies the operands pairwise from left to right; `pair.rs` computes one pair's
//! product and sum as one batched matrix product; `direct.rs` computes an equation that
//! is one `matmul` as written (`"bhsd,bhtd->bhst"`) as that `matmul`. The operands are contracted left to
//! right, as `torch.einsum` does when `torch.backends.opt_einsum` is disabled or not
//! installed (with opt_einsum, PyTorch may pick another order for three or more
//! operands: the same values up to rounding, possibly other dtype errors).

mod direct;
mod lower;
mod pair;
mod parse;

#[cfg(test)]
mod tests;

use crate::error::{Error, Result};
use crate::tensor::Tensor;

impl Tensor {
    /// Sums the product of `operands` over the dims the Einstein-summation `equation`
    /// names, as `torch.einsum(equation, *operands)`.
    ///
    /// The equation names each operand's dims with letters (`a-z`, `A-Z`), operands
    /// separated by `,`, optionally followed by `->` and the output's letters; spaces are
    /// ignored. `"bij,bjk->bik"` on `[b, i, j]` and `[b, j, k]` is a batched matrix
    /// product `[b, i, k]`.
    ///
    /// - A letter absent from the output is summed out; a letter repeated within one
    ///   operand takes that operand's diagonal (`"ii->i"`, `"ii"` is the trace).
    /// - Without `->`, the output is the letters that appear exactly once in the
    ///   equation, uppercase before lowercase, each in alphabetical order
    ///   (`"aB"` on `[2, 3]` gives `[3, 2]`).
    /// - `...` stands for the dims no letter names; the ellipsis dims of all operands
    ///   broadcast (aligned from the right), and come first in an implicit output.
    ///   An explicit output without `...` sums them out.
    /// - A dim of size 1 broadcasts against the same letter's size in other operands.
    ///
    /// The result's sizes are the output letters' sizes; its dtype is the operands'
    /// (a product of several operands needs them all of one dtype, except where no dim
    /// is summed inside a product, which promotes as `mul` does; a single operand summed
    /// over a dim gives `sum`'s dtype: integers and bool become int64). The result may
    /// be a view of a single operand (`"ij->ji"`). Operands are contracted from left to
    /// right, each pair as one batched matrix product (never materialising broadcasts),
    /// so gradients flow through views, sums and matrix products when an operand
    /// requires grad.
    ///
    /// # Errors
    /// - [`Error::Einsum`] with PyTorch's message for a malformed equation or one that
    ///   does not fit the operands: no operand (`einsum(): must specify the equation
    ///   string and at least one operand, ...`), a character that is not a letter
    ///   (`einsum(): invalid subscript given at index 1 in the equation string,
    ///   subscripts must be in [a-zA-Z]`), more or fewer operands than the equation
    ///   names, a rank that does not match (`einsum(): the number of subscripts in the
    ///   equation (2) does not match the number of dimensions (3) for operand 0 and no
    ///   ellipsis was given`), a repeated or unknown output letter, sizes of a letter
    ///   or of ellipsis dims that do not broadcast, a repeated letter over dims of
    ///   different sizes;
    /// - [`Error::UnsupportedDType`] for bool operands of a matrix product (`"bmm" not
    ///   implemented for 'Bool'`), [`Error::InvalidArgument`] for operands of different
    ///   dtypes there (`expected scalar type Float but found Double`);
    /// - [`Error::OutOfMemory`], [`Error::NumelOverflow`] for results too large.
    ///
    /// # Example
    /// ```
    /// use tensor_core::Tensor;
    ///
    /// let a = Tensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3])?;
    /// let b = Tensor::from_vec(vec![1.0f32, 0.0, 0.0, 1.0, 1.0, 1.0], &[3, 2])?;
    /// let c = Tensor::einsum("ij,jk->ik", &[&a, &b])?; // a matrix product
    /// assert_eq!(c.to_vec::<f32>()?, vec![4.0, 5.0, 10.0, 11.0]);
    /// let trace = Tensor::einsum("ii", &[&c])?;
    /// assert_eq!(trace.item::<f32>()?, 15.0);
    /// let err = Tensor::einsum("ij,jk", &[&a]).unwrap_err();
    /// assert!(err.to_string().contains("fewer operands were provided than specified"));
    /// # Ok::<(), tensor_core::Error>(())
    /// ```
    #[cfg_attr(unoptimized, inline)]
    pub fn einsum(equation: &str, operands: &[&Tensor]) -> Result<Tensor> {
        if operands.is_empty() {
            return Err(Error::Einsum {
                message: "einsum(): must specify the equation string and at least one operand, or at least one operand and its subscripts list".into(),
            });
        }
        let ranks: Vec<usize> = operands.iter().map(|t| t.dim()).collect();
        let eq = parse::parse(equation, &ranks)?;
        if let Some(result) = direct::as_matmul(&eq, operands) {
            return result;
        }
        let (aligned, counts) = lower::align(&eq, operands)?;
        lower::contract(&eq, aligned, counts)
    }
}
