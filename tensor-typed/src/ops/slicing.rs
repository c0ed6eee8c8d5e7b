//! Slices at a run-time position: `narrow_dyn` (`start` and `length` known at run time:
//! the dim's length becomes run-time, its name stays: `Dyn` for an unnamed dim, `Seq` for
//! the run-time name `Seq`, `Part<Model>` for the static name `Model`), `narrow_at` (a run-time `start`, a static `LEN`: the dim
//! becomes `D<LEN>`, e.g. 1), `select` (one index: the dim is removed), `copy_` (write
//! into such a slice), and `repeat_interleave` (a run-time count: the dim becomes `Dyn`). The dim is given as PyTorch gives it (`const A: isize`, `-1` the
//! last); a dim out of range is the usual compile error
//! (`narrow: Dimension out of range (expected to be in range of [-2, 1], but got 2)`),
//! a start past the end PyTorch's run-time error.
//!
//! ```
//! use tensor_typed::prelude::*;
//! let wpe = Tensor::<f32, Shape![128, 64]>::randn(0);
//! let past = 5;
//! let rows = wpe.narrow_dyn::<0>(past, 3);      // [Dyn, 64]: rows 5, 6, 7
//! let row = wpe.narrow_at::<0, 1>(past);        // [1, 64]
//! let last = wpe.select::<-1>(63);              // [128]
//! assert_eq!(rows.dims(), &[3, 64]);
//! assert_eq!(row.to_vec(), rows.narrow_at::<0, 1>(0).to_vec());
//! assert_eq!(last.dims(), &[128]);
//! assert!(wpe.try_narrow_dyn::<0>(127, 2).is_err()); // start (127) + length (2) exceeds dimension size (128)
//! ```

use crate::ops::dims::fit;
use crate::ops::inplace::InplaceBroadcast;
use crate::shape::dims::DimInRange;
use crate::shape::dims::{out, At, DimAt, DimOkOf, PosOf, RankOf, RemoveAt, SDim, SetAt, WrapDim};
use crate::shape::{IntoShape, ListOf, Shape, ShapeOf};
use crate::tensor::Tensor;
use crate::typelevel::dim::{Dim, Dyn, NarrowDim, D};
use crate::typelevel::named::Narrowed;
use crate::typelevel::op;
use tensor_core::{Element, Result};
use tensor_macros::plain_form;

/// The shape of `repeat_interleave::<A>` of `X`: dim `A` becomes `Dyn`.
pub type DynAt<X, const A: isize> = ShapeOf<<ListOf<X> as SetAt<PosOf<X, A>, Dyn>>::Output>;

/// The dim of shape `X` at signed dim `A`, narrowed to a run-time length
/// ([`Narrowed`]).
pub type NarrowedAt<X, const A: isize> = Narrowed<DimAt<X, PosOf<X, A>>>;

/// The shape of `narrow_dyn::<A>` of `X`: dim `A` gets a run-time length and keeps its
/// name ([`NarrowDim`]).
pub type NarrowedDyn<X, const A: isize> =
    ShapeOf<<ListOf<X> as SetAt<PosOf<X, A>, NarrowedAt<X, A>>>::Output>;

/// `start` as PyTorch's `int64_t`, saturating (a start past `i64::MAX` is past every end).
#[cfg_attr(unoptimized, inline)]
fn start_i64(start: usize) -> i64 {
    i64::try_from(start).unwrap_or(i64::MAX)
}

impl<T: Element, S: Shape> Tensor<T, S> {
    /// Elements `start..start + len` of dim `A` (a view), both known at run time, so
    /// the dim's length becomes run-time: an unnamed dim becomes `Dyn`, a name stays
    /// (a run-time name itself, a static name `Model` its [`Part<Model>`], which unifies
    /// with `Model` and with no other name). Mirrors `torch.narrow(x, A, start, len)`.
    ///
    /// [`Part<Model>`]: crate::typelevel::named::Part
    ///
    /// Compile error: `A` out of range.
    ///
    /// # Errors
    /// `start (5) + length (4) exceeds dimension size (8).` (PyTorch's message).
    #[plain_form]
    pub fn try_narrow_dyn<const A: isize>(
        &self,
        start: usize,
        len: usize,
    ) -> Result<Tensor<T, NarrowedDyn<S, A>>>
    where
        SDim<A>: WrapDim<RankOf<S>>,
        DimOkOf<S, A>: DimInRange<op::narrow, S, A>,
        ListOf<S>: At<PosOf<S, A>, Output: NarrowDim>,
        ListOf<S>: SetAt<PosOf<S, A>, NarrowedAt<S, A>>,
        <ListOf<S> as SetAt<PosOf<S, A>, NarrowedAt<S, A>>>::Output: IntoShape,
    {
        fit(self.inner.narrow(A as i64, start_i64(start), len))
    }

    /// Each element repeated `repeats` times along dim `A`, next to itself (`[a, b]` →
    /// `[a, a, b, b]`): the dim becomes `Dyn` (`n * repeats`). Mirrors
    /// `torch.repeat_interleave(x, repeats, dim=A)` with an integer count; a fresh
    /// contiguous tensor.
    ///
    /// ```
    /// use tensor_typed::prelude::*;
    /// let kv = Tensor::<f32, Shape![1, 2, 3, 4]>::randn(0); // [b, kv_heads, t, d]
    /// let repeated = kv.repeat_interleave::<1>(2);          // [1, Dyn, 3, 4]: transformers' repeat_kv
    /// assert_eq!(repeated.dims(), &[1, 4, 3, 4]);
    /// ```
    ///
    /// Compile error: `A` out of range.
    ///
    /// # Errors
    /// A size overflow; an allocation failure.
    #[plain_form]
    pub fn try_repeat_interleave<const A: isize>(
        &self,
        repeats: usize,
    ) -> Result<Tensor<T, DynAt<S, A>>>
    where
        SDim<A>: WrapDim<RankOf<S>>,
        DimOkOf<S, A>: DimInRange<op::narrow, S, A>,
        ListOf<S>: SetAt<PosOf<S, A>, Dyn>,
        <ListOf<S> as SetAt<PosOf<S, A>, Dyn>>::Output: IntoShape,
    {
        let repeats = i64::try_from(repeats).map_err(|_| tensor_core::Error::NumelOverflow {
            op: "repeat_interleave",
        })?;
        fit(self.inner.repeat_interleave(repeats, A as i64))
    }

    /// `LEN` elements of dim `A` from the run-time `start` (a view): the dim becomes
    /// `D<LEN>` (`narrow_at::<1, 1>(t)` keeps one position as a dim of size 1). Mirrors
    /// `torch.narrow(x, A, start, LEN)`. `LEN` is at most 999.
    ///
    /// Compile error: `A` out of range.
    ///
    /// # Errors
    /// PyTorch's narrow error when `start + LEN` exceeds the dim.
    #[plain_form]
    pub fn try_narrow_at<const A: isize, const LEN: usize>(
        &self,
        start: usize,
    ) -> Result<Tensor<T, out::Narrowed<S, A, LEN>>>
    where
        SDim<A>: WrapDim<RankOf<S>>,
        DimOkOf<S, A>: DimInRange<op::narrow, S, A>,
        ListOf<S>: SetAt<PosOf<S, A>, D<LEN>>,
        <ListOf<S> as SetAt<PosOf<S, A>, D<LEN>>>::Output: IntoShape,
    {
        fit(self.inner.narrow(A as i64, start_i64(start), LEN))
    }

    /// Element `index` of dim `A`, removing the dim (a view). Mirrors
    /// `Tensor.select(A, index)` (`x[..., index]`).
    ///
    /// Compile error: `A` out of range.
    ///
    /// # Errors
    /// `select(): index 5 out of range for tensor of size [3] at dimension 0`.
    #[plain_form]
    pub fn try_select<const A: isize>(&self, index: usize) -> Result<Tensor<T, out::Squeezed<S, A>>>
    where
        SDim<A>: WrapDim<RankOf<S>>,
        DimOkOf<S, A>: DimInRange<op::select, S, A>,
        ListOf<S>: RemoveAt<PosOf<S, A>>,
        <ListOf<S> as RemoveAt<PosOf<S, A>>>::Output: IntoShape,
    {
        fit(self.inner.select(A as i64, start_i64(index)))
    }

    /// Copies `src` into `self` (and every view of it), broadcasting `src` and casting
    /// its elements to `T`. Mirrors `Tensor.copy_(src)`; with
    /// [`narrow_dyn`](Self::narrow_dyn) it writes a slice of a larger tensor in place (a
    /// KV cache).
    ///
    /// Compile error: `src` does not broadcast to this shape.
    ///
    /// # Errors
    /// PyTorch's broadcast error when a `Dyn` dim does not fit; overlap errors.
    #[plain_form]
    pub fn try_copy_<T2: Element, S2: Shape>(&self, src: &Tensor<T2, S2>) -> Result<()>
    where
        S: InplaceBroadcast<S2, op::copy_>,
    {
        self.inner.copy_(&src.inner)
    }
}

impl<T: Element, N: Dim> Tensor<T, (N,)> {
    /// `[0, 1, ..., end - 1]` as a 1-d tensor of `T`. Mirrors `torch.arange(end,
    /// dtype=T)`: `Tensor::<i64, Shape![Dyn]>::arange(n)`, or with a static length,
    /// `Tensor::<i64, Shape![16]>::arange(16)`.
    ///
    /// # Errors
    /// `InvalidArgument` naming both sizes when a static length is not `end`;
    /// `OutOfMemory`.
    #[plain_form]
    pub fn try_arange(end: usize) -> Result<Self> {
        fit(tensor_core::Tensor::arange(end, T::DTYPE))
    }
}

#[cfg(test)]
mod tests {
    use crate::prelude::*;

    #[test]
    fn narrow_dyn_at_a_run_time_start_is_a_view_of_those_rows() {
        let x = Tensor::<i64, Shape![12]>::arange(12).reshape::<Shape![4, 3]>();
        let r: Tensor<i64, Shape![Dyn, 3]> = x.narrow_dyn::<0>(1, 2);
        assert_eq!(r.to_vec(), vec![3, 4, 5, 6, 7, 8]);
        let c: Tensor<i64, Shape![4, Dyn]> = x.narrow_dyn::<-1>(2, 1);
        assert_eq!(c.to_vec(), vec![2, 5, 8, 11]);
        let e = x.try_narrow_dyn::<0>(3, 2).unwrap_err().to_string();
        assert!(
            e.contains("start (3) + length (2) exceeds dimension size (4)"),
            "{e}"
        );
    }

    #[test]
    fn narrow_at_gives_a_static_length_and_select_removes_the_dim() {
        let x = Tensor::<i64, Shape![Dyn]>::arange(12).reshape::<Shape![2, 3, 2]>();
        let one: Tensor<i64, Shape![2, 1, 2]> = x.narrow_at::<1, 1>(2);
        assert_eq!(one.to_vec(), vec![4, 5, 10, 11]);
        let s: Tensor<i64, Shape![2, 2]> = x.select::<1>(2);
        assert_eq!(s.to_vec(), one.to_vec());
        let s: Tensor<i64, Shape![3, 2]> = x.select::<0>(1);
        assert_eq!(s.to_vec(), vec![6, 7, 8, 9, 10, 11]);
        assert!(x.try_select::<-1>(2).is_err());
        assert!(x.try_narrow_at::<0, 2>(1).is_err());
    }

    #[test]
    fn copy_into_a_narrowed_view_writes_the_larger_tensor() {
        let cache = Tensor::<f32, Shape![2, 5]>::zeros();
        let rows = Tensor::<f32, Shape![2, Dyn]>::ones_with(&[2, 2]).unwrap();
        cache.narrow_dyn::<1>(3, 2).copy_(&rows);
        assert_eq!(
            cache.to_vec(),
            vec![0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 1.0]
        );
        let wrong = Tensor::<f32, Shape![2, Dyn]>::ones_with(&[2, 3]).unwrap();
        assert!(cache.narrow_dyn::<1>(3, 2).try_copy_(&wrong).is_err());
    }

    #[test]
    fn arange_checks_a_static_length() {
        assert_eq!(Tensor::<i64, Shape![3]>::arange(3).to_vec(), vec![0, 1, 2]);
        assert_eq!(
            Tensor::<f32, Shape![Dyn]>::arange(2).to_vec(),
            vec![0.0, 1.0]
        );
        let e = Tensor::<i64, Shape![3]>::try_arange(4)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("expected a tensor of shape [3], got sizes [4]"),
            "{e}"
        );
    }
}
