//! One adapter per public function whose signature changed when it became fallible
//! (or crate-private): the fuzz cases call these, so a further change of
//! signature touches only this file.

use tensor_core::{DType, Layout, Result, Storage, Tensor};

/// `Tensor::arange(end, dtype)`.
pub fn arange(end: usize, dtype: DType) -> Result<Tensor> {
    Tensor::arange(end, dtype)
}

/// `Tensor::randperm(n, seed)` (and the free `random::randperm`).
pub fn randperm(n: usize, seed: u64) -> Result<Tensor> {
    Tensor::randperm(n, seed)
}

/// `Storage::zeroed(nbytes, dtype)`.
pub fn storage_zeroed(nbytes: usize, dtype: DType) -> Result<Storage> {
    Storage::zeroed(nbytes, dtype)
}

/// `Layout::checked(sizes, strides, storage_offset)` (`Layout::new` is crate-private).
pub fn layout_new(sizes: Vec<usize>, strides: Vec<isize>, offset: usize) -> Result<Layout> {
    Layout::checked(sizes, strides, offset)
}

/// `tensor_core::infer_expand_geometry(sizes, strides, target)`.
pub fn infer_expand_geometry(
    sizes: &[usize],
    strides: &[isize],
    target: &[i64],
) -> Result<(Vec<usize>, Vec<isize>)> {
    tensor_core::infer_expand_geometry(sizes, strides, target)
}

/// `view::compute_stride(old_sizes, old_strides, new_sizes)`.
pub fn compute_stride(
    old_sizes: &[usize],
    old_strides: &[isize],
    new_sizes: &[usize],
) -> Result<Option<Vec<isize>>> {
    tensor_core::compute_stride(old_sizes, old_strides, new_sizes)
}

/// `memory_format::infer_dense_strides(sizes, strides)`.
pub fn infer_dense_strides(sizes: &[usize], strides: &[isize]) -> Result<Vec<isize>> {
    tensor_core::infer_dense_strides(sizes, strides)
}

/// `Layout::required_storage_len()` (elements).
pub fn required_storage_len(layout: &Layout) -> Result<usize> {
    layout.required_storage_len()
}
