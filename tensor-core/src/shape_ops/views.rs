//! Movement ops that return views (metadata only, never a copy), plus `reshape`, which
//! copies when no view exists: view, reshape, permute, transpose, t, squeeze, unsqueeze,
//! flatten, expand, expand_as, as_strided (TensorShape.cpp).

use crate::error::{Error, Result};
use crate::layout::infer_expand_geometry;
use crate::layout::wrap_dim;
use crate::layout::{compute_stride, infer_size};
use crate::layout::{contiguous_strides, Layout};
use crate::tensor::Tensor;

impl Tensor {
    /// A view with sizes and strides, keeping the storage offset, checked against the
    /// [`Tensor`] invariant.
    #[cfg_attr(unoptimized, inline)]
    fn view_with(&self, sizes: Vec<usize>, strides: Vec<isize>) -> Result<Tensor> {
        self.try_with_layout(Layout::new(sizes, strides, self.storage_offset()))
    }

    /// `Tensor.view(shape)`: the same elements seen with `shape` (one `-1` is inferred),
    /// strides from PyTorch's `computeStride`. Never copies.
    ///
    /// # Errors
    /// Those of [`crate::layout::infer_size`]; [`Error::ViewIncompatible`] when a new dim
    /// would span two non-contiguous chunks (`view size is not compatible with input
    /// tensor's size and stride ... Use .reshape(...) instead.`).
    #[cfg_attr(unoptimized, inline)]
    pub fn view(&self, shape: &[i64]) -> Result<Tensor> {
        crate::autograd::apply_view(
            &[self],
            || self.view_impl(shape),
            |_| crate::autograd::ReshapeBackward {
                name: "ViewBackward0",
                sizes: self.sizes().to_vec(),
            },
        )
    }

    #[cfg_attr(unoptimized, inline)]
    fn view_impl(&self, shape: &[i64]) -> Result<Tensor> {
        let sizes = infer_size(shape, self.numel())?;
        let strides =
            compute_stride(self.sizes(), self.strides(), &sizes)?.ok_or(Error::ViewIncompatible)?;
        self.view_with(sizes, strides)
    }

    /// `Tensor.reshape(shape)`: a view when one exists, else a row-major copy.
    ///
    /// # Errors
    /// Those of [`crate::layout::infer_size`].
    #[cfg_attr(unoptimized, inline)]
    pub fn reshape(&self, shape: &[i64]) -> Result<Tensor> {
        Ok(self.reshape_with_kind(shape)?.0)
    }

    /// `reshape` that also says whether the result is a view (`true`) or a fresh
    /// contiguous copy (`false`, PyTorch's `_unsafe_view(clone(contiguous_format))`).
    ///
    /// # Errors
    /// Those of [`crate::layout::infer_size`].
    #[cfg_attr(unoptimized, inline)]
    pub fn reshape_with_kind(&self, shape: &[i64]) -> Result<(Tensor, bool)> {
        let (t, is_view) = if crate::autograd::needs_grad(&[self]) {
            crate::autograd::no_grad(|| self.reshape_with_kind_impl(shape))?
        } else {
            self.reshape_with_kind_impl(shape)?
        };
        let name = if is_view {
            "ViewBackward0"
        } else {
            "UnsafeViewBackward0"
        };
        let node = |_: &Tensor| crate::autograd::ReshapeBackward {
            name,
            sizes: self.sizes().to_vec(),
        };
        let t = if is_view {
            crate::autograd::apply_view(&[self], || Ok(t), node)?
        } else {
            crate::autograd::apply(&[self], || Ok(t), node)?
        };
        Ok((t, is_view))
    }

    #[cfg_attr(unoptimized, inline)]
    fn reshape_with_kind_impl(&self, shape: &[i64]) -> Result<(Tensor, bool)> {
        let sizes = infer_size(shape, self.numel())?;
        if let Some(strides) = compute_stride(self.sizes(), self.strides(), &sizes)? {
            return Ok((self.view_with(sizes, strides)?, true));
        }
        let copy = Tensor::fresh_copy(self, &contiguous_strides(self.sizes()), self.dtype())?;
        let layout = Layout::contiguous(&sizes)?;
        Ok((copy.try_with_layout(layout)?, false))
    }

    /// `Tensor.permute(dims)`: dim `i` of the result is dim `dims[i]` of `self`.
    ///
    /// # Errors
    /// [`Error::PermuteRank`] when `dims.len() != self.dim()`; [`Error::DimOutOfRange`];
    /// [`Error::PermuteDuplicate`] (`permute(): duplicate dims are not allowed.`).
    #[cfg_attr(unoptimized, inline)]
    pub fn permute(&self, dims: &[i64]) -> Result<Tensor> {
        crate::autograd::apply_view(
            &[self],
            || self.permute_impl(dims),
            |_| crate::autograd::PermuteBackward::new(dims, self.dim()),
        )
    }

    #[cfg_attr(unoptimized, inline)]
    fn permute_impl(&self, dims: &[i64]) -> Result<Tensor> {
        let ndim = self.dim();
        if dims.len() != ndim {
            return Err(Error::PermuteRank {
                ndim,
                len: dims.len(),
            });
        }
        let mut seen = vec![false; ndim];
        let (mut sizes, mut strides) = (Vec::with_capacity(ndim), Vec::with_capacity(ndim));
        for &d in dims {
            let d = wrap_dim(d, ndim)?;
            if seen[d] {
                return Err(Error::PermuteDuplicate);
            }
            seen[d] = true;
            sizes.push(self.sizes()[d]);
            strides.push(self.strides()[d]);
        }
        self.view_with(sizes, strides)
    }

    /// `Tensor.transpose(dim0, dim1)`: swaps two dims (a 0-d tensor accepts 0 and -1).
    ///
    /// # Errors
    /// [`Error::DimOutOfRange`].
    #[cfg_attr(unoptimized, inline)]
    pub fn transpose(&self, dim0: i64, dim1: i64) -> Result<Tensor> {
        crate::autograd::apply_view(
            &[self],
            || self.transpose_impl(dim0, dim1),
            |_| crate::autograd::TransposeBackward { dim0, dim1 },
        )
    }

    #[cfg_attr(unoptimized, inline)]
    fn transpose_impl(&self, dim0: i64, dim1: i64) -> Result<Tensor> {
        let (d0, d1) = (wrap_dim(dim0, self.dim())?, wrap_dim(dim1, self.dim())?);
        if d0 == d1 {
            return Ok(self.alias());
        }
        let (mut sizes, mut strides) = (self.sizes().to_vec(), self.strides().to_vec());
        sizes.swap(d0, d1);
        strides.swap(d0, d1);
        self.view_with(sizes, strides)
    }

    /// `Tensor.t()`: transposes a 2-d tensor; 0-d and 1-d tensors come back as they are.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for more than 2 dims
    /// (`t() expects a tensor with <= 2 dimensions, but self is 3D`).
    #[cfg_attr(unoptimized, inline)]
    pub fn t(&self) -> Result<Tensor> {
        if self.dim() > 2 {
            return Err(Error::InvalidArgument {
                op: "t",
                message: format!(
                    "t() expects a tensor with <= 2 dimensions, but self is {}D",
                    self.dim()
                ),
            });
        }
        self.transpose(0, if self.dim() < 2 { 0 } else { 1 })
    }

    /// `Tensor.squeeze()`: removes every size-1 dim.
    #[cfg_attr(unoptimized, inline)]
    pub fn squeeze(&self) -> Tensor {
        let node = |_: &Tensor| crate::autograd::ReshapeBackward {
            name: "SqueezeBackward0",
            sizes: self.sizes().to_vec(),
        };
        // The forward cannot fail, so neither can recording it.
        crate::autograd::apply_view(&[self], || Ok(self.squeeze_impl()), node)
            .unwrap_or_else(|_| self.squeeze_impl())
    }

    #[cfg_attr(unoptimized, inline)]
    fn squeeze_impl(&self) -> Tensor {
        // Removing size-1 dims leaves every element's offset unchanged: the invariant
        // holds for the result exactly when it holds for `self`.
        let (sizes, strides) = self
            .sizes()
            .iter()
            .zip(self.strides())
            .filter(|(&s, _)| s != 1)
            .map(|(&s, &st)| (s, st))
            .unzip();
        self.with_layout(Layout::new(sizes, strides, self.storage_offset()))
    }

    /// `Tensor.squeeze(dim)`: removes `dim` if its size is 1, else returns an alias.
    ///
    /// # Errors
    /// [`Error::DimOutOfRange`] (a 0-d tensor accepts 0 and -1).
    #[cfg_attr(unoptimized, inline)]
    pub fn squeeze_dim(&self, dim: i64) -> Result<Tensor> {
        crate::autograd::apply_view(
            &[self],
            || self.squeeze_dim_impl(dim),
            |_| crate::autograd::ReshapeBackward {
                name: "SqueezeBackward1",
                sizes: self.sizes().to_vec(),
            },
        )
    }

    #[cfg_attr(unoptimized, inline)]
    fn squeeze_dim_impl(&self, dim: i64) -> Result<Tensor> {
        let d = wrap_dim(dim, self.dim())?;
        if self.dim() == 0 || self.sizes()[d] != 1 {
            return Ok(self.alias());
        }
        let (mut sizes, mut strides) = (self.sizes().to_vec(), self.strides().to_vec());
        sizes.remove(d);
        strides.remove(d);
        self.view_with(sizes, strides)
    }

    /// `Tensor.unsqueeze(dim)`: inserts a size-1 dim at `dim` (in `[-ndim-1, ndim]`), with
    /// stride `size*stride` of the dim it precedes, or 1 at the end
    /// (`inferUnsqueezeGeometry`).
    ///
    /// # Errors
    /// [`Error::DimOutOfRange`].
    #[cfg_attr(unoptimized, inline)]
    pub fn unsqueeze(&self, dim: i64) -> Result<Tensor> {
        crate::autograd::apply_view(
            &[self],
            || self.unsqueeze_impl(dim),
            |_| crate::autograd::ReshapeBackward {
                name: "UnsqueezeBackward0",
                sizes: self.sizes().to_vec(),
            },
        )
    }

    #[cfg_attr(unoptimized, inline)]
    fn unsqueeze_impl(&self, dim: i64) -> Result<Tensor> {
        let d = wrap_dim(dim, self.dim() + 1)?;
        let (mut sizes, mut strides) = (self.sizes().to_vec(), self.strides().to_vec());
        // A size-1 dim's stride takes no part in any offset; it saturates (sizes fit in
        // isize by the tensor invariant) instead of wrapping.
        let stride = if d >= self.dim() {
            1
        } else {
            (sizes[d] as isize).saturating_mul(strides[d])
        };
        sizes.insert(d, 1);
        strides.insert(d, stride);
        self.view_with(sizes, strides)
    }

    /// `Tensor.flatten(start_dim, end_dim)`: merges dims `start..=end` into one through
    /// `reshape` (so it copies when no view exists). A 0-d tensor becomes shape `[1]`.
    ///
    /// # Errors
    /// [`Error::DimOutOfRange`]; [`Error::InvalidArgument`] when start comes after end
    /// (`flatten() has invalid args: start_dim cannot come after end_dim`);
    /// [`Error::NumelOverflow`] when the merged size passes `i64` (an empty tensor's
    /// huge dims).
    #[cfg_attr(unoptimized, inline)]
    pub fn flatten(&self, start_dim: i64, end_dim: i64) -> Result<Tensor> {
        let start = wrap_dim(start_dim, self.dim())?;
        let end = wrap_dim(end_dim, self.dim())?;
        if start > end {
            return Err(Error::InvalidArgument {
                op: "flatten",
                message: "flatten() has invalid args: start_dim cannot come after end_dim".into(),
            });
        }
        if self.dim() == 0 {
            return self.reshape(&[1]);
        }
        if start == end {
            return Ok(self.alias());
        }
        let sizes = self.sizes();
        // The merged size of an empty tensor's huge dims can pass i64 (PyTorch's product
        // wraps there and its view then fails): an error, not an overflow.
        let merged = sizes[start..=end]
            .iter()
            .try_fold(1i64, |acc, &s| acc.checked_mul(i64::try_from(s).ok()?))
            .ok_or(Error::NumelOverflow { op: "flatten" })?;
        let shape: Vec<i64> = sizes[..start]
            .iter()
            .map(|&s| s as i64)
            .chain(std::iter::once(merged))
            .chain(sizes[end + 1..].iter().map(|&s| s as i64))
            .collect();
        self.reshape(&shape)
    }

    /// `Tensor.unflatten(dim, sizes)`: dim `dim` viewed as the dims `sizes` (one of them
    /// may be `-1`, inferred), the other dims kept. Mirrors `torch.unflatten`; a view.
    ///
    /// # Errors
    /// [`Error::DimOutOfRange`]; [`Error::InvalidArgument`] for empty `sizes`
    /// (`unflatten: sizes must be non-empty`) or sizes whose product is not the dim's size
    /// (`unflatten: Provided sizes [4, 8] don't multiply up to the size of dim 2 (30) in
    /// the input tensor`); those of [`crate::layout::infer_size`] for two `-1`s.
    #[cfg_attr(unoptimized, inline)]
    pub fn unflatten(&self, dim: i64, sizes: &[i64]) -> Result<Tensor> {
        let d = wrap_dim(dim, self.dim())?;
        if sizes.is_empty() {
            return Err(Error::InvalidArgument {
                op: "unflatten",
                message: "sizes must be non-empty".into(),
            });
        }
        if self.dim() == 0 {
            return Err(Error::InvalidArgument {
                op: "unflatten",
                message: format!("Dimension specified as {dim} but tensor has no dimensions"),
            });
        }
        let size = self.sizes()[d];
        let inferred = infer_size(sizes, size).map_err(|e| match e {
            Error::ShapeInvalid { .. } => Error::InvalidArgument {
                op: "unflatten",
                message: format!(
                    "Provided sizes [{}] don't multiply up to the size of dim {d} ({size}) in the input tensor",
                    sizes.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
                ),
            },
            e => e,
        })?;
        let old = self.sizes();
        let shape: Vec<i64> = old[..d]
            .iter()
            .chain(&inferred)
            .chain(&old[d + 1..])
            .map(|&s| s as i64)
            .collect();
        self.view(&shape)
    }

    /// `Tensor.expand(sizes)`: a view with size-1 dims (and new leading dims) repeated
    /// through stride 0; `-1` keeps a size (`inferExpandGeometry`).
    ///
    /// # Errors
    /// [`Error::ExpandTooFewSizes`] (`expand(torch.FloatTensor{[3, 4]}, size=[4]): the
    /// number of sizes provided (1) must be greater or equal to the number of dimensions in
    /// the tensor (2)`), and those of [`crate::layout::infer_expand_geometry`].
    #[cfg_attr(unoptimized, inline)]
    pub fn expand(&self, sizes: &[i64]) -> Result<Tensor> {
        crate::autograd::apply_view(
            &[self],
            || self.expand_impl(sizes),
            |_| crate::autograd::ExpandBackward,
        )
    }

    #[cfg_attr(unoptimized, inline)]
    fn expand_impl(&self, sizes: &[i64]) -> Result<Tensor> {
        if sizes.len() < self.dim() {
            return Err(Error::ExpandTooFewSizes {
                dtype: self.dtype(),
                sizes: self.sizes().to_vec(),
                target_sizes: sizes.to_vec(),
            });
        }
        let (sizes, strides) = infer_expand_geometry(self.sizes(), self.strides(), sizes)?;
        self.view_with(sizes, strides)
    }

    /// `Tensor.expand_as(other)`: [`Tensor::expand`] to `other`'s sizes.
    ///
    /// # Errors
    /// As [`Tensor::expand`].
    #[cfg_attr(unoptimized, inline)]
    pub fn expand_as(&self, other: &Tensor) -> Result<Tensor> {
        let sizes: Vec<i64> = other.sizes().iter().map(|&s| s as i64).collect();
        self.expand(&sizes)
    }

    /// `Tensor.as_strided(sizes, strides, storage_offset)`: any view of this tensor's
    /// storage (strides and offset in elements), checked to stay inside the storage.
    ///
    /// # Errors
    /// [`Error::StorageBounds`] for negative strides (`as_strided: Negative strides are
    /// not supported at the moment`) or a view past the end of the storage
    /// (`setStorage: ... out of bounds for storage of size ...`);
    /// [`Error::InvalidArgument`] when the lengths differ;
    /// [`Error::StorageSizeOverflow`] when the extent overflows (as
    /// `as_strided(&[9], &[1 << 61], 0)` or a storage offset near `usize::MAX`).
    #[cfg_attr(unoptimized, inline)]
    pub fn as_strided(
        &self,
        sizes: &[usize],
        strides: &[isize],
        storage_offset: usize,
    ) -> Result<Tensor> {
        crate::autograd::apply_view(
            &[self],
            || {
                let layout = Layout::checked(sizes.to_vec(), strides.to_vec(), storage_offset)?;
                self.try_with_layout(layout)
            },
            |out| crate::autograd::AsStridedBackward {
                base: crate::autograd::Geometry::of(self),
                view: crate::autograd::Geometry::of(out),
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dtype::DType;
    use crate::test_util::arange;

    /// The naive reference: element `i` of the result in row-major order.
    fn values(t: &Tensor) -> Vec<f64> {
        t.to_vec_f64().unwrap()
    }

    fn sliced_2_3_8() -> Tensor {
        arange(&[2, 3, 8]).slice(2, None, Some(4), 1).unwrap()
    }

    #[test]
    fn view_of_sliced_2_3_8_as_6_4() {
        let x = sliced_2_3_8();
        let v = x.view(&[6, 4]).unwrap();
        assert_eq!(v.strides(), &[8, 1]);
        assert!(v.shares_storage(&x));
        assert_eq!(values(&v), values(&x));
        assert!(matches!(x.view(&[2, 12]), Err(Error::ViewIncompatible)));
    }

    #[test]
    fn permute_201_of_sliced_keeps_strides() {
        let p = sliced_2_3_8().permute(&[2, 0, 1]).unwrap();
        assert_eq!(p.sizes(), &[4, 2, 3]);
        assert_eq!(p.strides(), &[1, 24, 8]);
    }

    #[test]
    fn permute_errors_follow_pytorch_order() {
        let x = arange(&[2, 3]);
        assert!(matches!(
            x.permute(&[0]),
            Err(Error::PermuteRank { ndim: 2, len: 1 })
        ));
        assert!(matches!(
            x.permute(&[0, 2]),
            Err(Error::DimOutOfRange { .. })
        ));
        assert_eq!(
            x.permute(&[1, -1]).unwrap_err().to_string(),
            "permute(): duplicate dims are not allowed."
        );
    }

    #[test]
    fn reshape_of_transposed_copies() {
        let x = arange(&[2, 3]).t().unwrap();
        let (r, is_view) = x.reshape_with_kind(&[6]).unwrap();
        assert!(!is_view && !r.shares_storage(&x));
        assert_eq!(r.strides(), &[1]);
        assert_eq!(values(&r), vec![0.0, 3.0, 1.0, 4.0, 2.0, 5.0]);
        let (same, is_view) = x.reshape_with_kind(&[3, 2]).unwrap();
        assert!(is_view);
        assert_eq!(same.strides(), &[1, 3]);
    }

    #[test]
    fn scalar_view_1_1_has_unit_strides() {
        let v = Tensor::scalar(3.0f32).view(&[1, 1]).unwrap();
        assert_eq!(
            (v.sizes(), v.strides()),
            (&[1usize, 1][..], &[1isize, 1][..])
        );
    }

    #[test]
    fn empty_view_3_2_0_strides() {
        let v = Tensor::zeros(&[2, 0, 3], DType::F32)
            .unwrap()
            .view(&[3, 2, 0])
            .unwrap();
        assert_eq!(v.strides(), &[2, 1, 1]);
    }

    #[test]
    fn t_of_3d_is_an_error() {
        let e = arange(&[1, 2, 3]).t().unwrap_err();
        assert!(e
            .to_string()
            .contains("t() expects a tensor with <= 2 dimensions, but self is 3D"));
    }

    #[test]
    fn squeeze_and_unsqueeze_round_trip() {
        let x = arange(&[2, 1, 3]);
        assert_eq!(x.squeeze().sizes(), &[2, 3]);
        assert_eq!(x.squeeze_dim(0).unwrap().sizes(), &[2, 1, 3]);
        let s = x.squeeze_dim(-2).unwrap();
        assert_eq!(s.sizes(), &[2, 3]);
        let u = s.unsqueeze(1).unwrap();
        assert_eq!(
            (u.sizes(), u.strides()),
            (&[2usize, 1, 3][..], &[3isize, 3, 1][..])
        );
        let u = s.unsqueeze(-1).unwrap();
        assert_eq!(u.strides(), &[3, 1, 1]);
    }

    #[test]
    fn flatten_merges_a_range() {
        let x = arange(&[2, 3, 4]);
        assert_eq!(x.flatten(1, -1).unwrap().sizes(), &[2, 12]);
        assert_eq!(Tensor::scalar(1.0f32).flatten(0, -1).unwrap().sizes(), &[1]);
        assert!(x.flatten(2, 1).is_err());
    }

    #[test]
    fn unflatten_views_one_dim_as_several_and_infers_a_minus_one() {
        let x = arange(&[2, 12, 3]);
        let u = x.unflatten(1, &[3, -1]).unwrap();
        assert_eq!(
            (u.sizes(), u.strides()),
            (&[2usize, 3, 4, 3][..], &[36isize, 12, 3, 1][..])
        );
        assert_eq!(values(&u), values(&x));
        assert_eq!(x.unflatten(-1, &[3]).unwrap().sizes(), &[2, 12, 3]);
    }

    #[test]
    fn unflatten_to_sizes_of_another_product_is_pytorchs_error() {
        let x = arange(&[2, 30]);
        assert_eq!(
            x.unflatten(1, &[4, 8]).unwrap_err().to_string(),
            "unflatten: Provided sizes [4, 8] don't multiply up to the size of dim 1 (30) in the input tensor"
        );
        assert!(x
            .unflatten(1, &[])
            .unwrap_err()
            .to_string()
            .contains("sizes must be non-empty"));
        assert!(x.unflatten(1, &[-1, -1]).is_err());
        assert!(x.unflatten(2, &[30]).is_err());
        assert!(Tensor::scalar(1.0f32)
            .unflatten(0, &[1])
            .unwrap_err()
            .to_string()
            .contains("Dimension specified as 0 but tensor has no dimensions"));
    }

    #[test]
    fn flatten_of_empty_dims_whose_product_passes_i64_is_an_error_not_an_overflow() {
        let x = Tensor::empty_strided(&[0, 1 << 61, 3, 4], &[0, 0, 0, 1], DType::F64).unwrap();
        let e = x.flatten(1, -1).unwrap_err();
        assert_eq!(
            e.to_string(),
            "flatten: numel: integer multiplication overflow"
        );
    }

    #[test]
    fn expand_of_column_reads_each_row_value() {
        let x = arange(&[3, 1]);
        let e = x.expand(&[2, -1, 4]).unwrap();
        assert_eq!(e.strides(), &[0, 1, 0]);
        assert_eq!(values(&e)[..8], [0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0]);
        let too_few = arange(&[3, 4]).expand(&[4]).unwrap_err().to_string();
        assert_eq!(
            too_few,
            "expand(torch.FloatTensor{[3, 4]}, size=[4]): the number of sizes provided (1) must be greater or equal to the number of dimensions in the tensor (2)"
        );
    }

    #[test]
    fn as_strided_checks_bounds_and_negative_strides() {
        let x = arange(&[6]);
        let v = x.as_strided(&[2, 2], &[1, 2], 1).unwrap();
        assert_eq!(values(&v), vec![1.0, 3.0, 2.0, 4.0]);
        assert!(x.as_strided(&[2, 2], &[1, 3], 2).is_err());
        assert!(x.as_strided(&[2], &[-1], 2).is_err());
    }

    #[test]
    fn as_strided_9_by_stride_2_pow_61_then_neg_is_an_error() {
        let x = arange(&[1]);
        let e = x.as_strided(&[9], &[1 << 61], 0).unwrap_err();
        assert_eq!(
            e.to_string(),
            "Storage size calculation overflowed with sizes=[9] and strides=[2305843009213693952]"
        );
    }

    #[test]
    fn as_strided_offset_usize_max_then_item_is_an_error() {
        let x = arange(&[1]);
        assert!(x.as_strided(&[1], &[1], usize::MAX).is_err());
        assert!(x.as_strided(&[1], &[1], usize::MAX - 1).is_err());
        assert!(x.as_strided(&[1], &[1], 1).is_err());
        assert_eq!(
            x.as_strided(&[1], &[1], 0).unwrap().item::<f32>().unwrap(),
            0.0
        );
    }

    #[test]
    fn as_strided_size_one_dim_may_have_a_huge_stride() {
        let x = arange(&[3]);
        let v = x.as_strided(&[1, 3], &[isize::MAX, 1], 0).unwrap();
        assert_eq!(values(&v), vec![0.0, 1.0, 2.0]);
        let u = v.unsqueeze(0).unwrap();
        assert_eq!(u.strides(), &[isize::MAX, isize::MAX, 1]);
        assert_eq!(values(&u.contiguous().unwrap()), vec![0.0, 1.0, 2.0]);
    }

    #[test]
    fn as_strided_mismatched_lengths_is_an_error() {
        let e = arange(&[6]).as_strided(&[2, 3], &[1], 0).unwrap_err();
        assert!(e
            .to_string()
            .contains("mismatch in length of strides and shape"));
    }
}
