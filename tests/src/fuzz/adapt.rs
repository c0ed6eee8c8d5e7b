//! One adapter per public function whose signature is about to change (issue 9 makes
//! them fallible): each returns `Result`, so when a function starts returning `Result`
//! only the body here changes (`Ok(f(..))` becomes `f(..)`).

use tensor_core::{DType, Layout, Result, Storage, Tensor};

/// `Tensor::arange(end, dtype)`.
pub fn arange(end: usize, dtype: DType) -> Result<Tensor> {
    Ok(Tensor::arange(end, dtype))
}

/// `Tensor::randperm(n, seed)` (and the free `random::randperm`).
pub fn randperm(n: usize, seed: u64) -> Result<Tensor> {
    Ok(Tensor::randperm(n, seed))
}

/// `Storage::zeroed(nbytes)`.
pub fn storage_zeroed(nbytes: usize) -> Result<Storage> {
    Ok(Storage::zeroed(nbytes))
}

/// `Layout::new(sizes, strides, storage_offset)`.
pub fn layout_new(sizes: Vec<usize>, strides: Vec<isize>, offset: usize) -> Result<Layout> {
    Ok(Layout::new(sizes, strides, offset))
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
    Ok(tensor_core::view::compute_stride(
        old_sizes,
        old_strides,
        new_sizes,
    ))
}

/// `memory_format::infer_dense_strides(sizes, strides)`.
pub fn infer_dense_strides(sizes: &[usize], strides: &[isize]) -> Result<Vec<isize>> {
    Ok(tensor_core::memory_format::infer_dense_strides(
        sizes, strides,
    ))
}

/// `Layout::required_storage_len()` (elements).
pub fn required_storage_len(layout: &Layout) -> Result<usize> {
    Ok(layout.required_storage_len())
}
