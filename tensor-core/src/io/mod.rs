//! Weights and arrays in and out: safetensors files (memory-mapped), NumPy's `.npy` and
//! `.npz`, and ndarray arrays.
//!
//! - [`save_safetensors`] / [`SafetensorsFile::open`] / [`load_safetensors`]: the format
//!   of Hugging Face's `safetensors` (PyTorch's `safetensors.torch.save_file`). Loading
//!   maps the file and builds each tensor over the mapped bytes without copying when
//!   they are aligned to the dtype's size (every file written by the `safetensors`
//!   packages is); otherwise, and for `bool`, it copies.
//! - [`read_npy`] / [`write_npy`], `read_npz` / `write_npz` (with the crate feature
//!   `npz`): `numpy.load` / `numpy.save` / `numpy.savez`. A Fortran-order array becomes a tensor with
//!   column-major strides over the file's bytes in file order (no transposing copy).
//! - ndarray (with the crate feature `ndarray`): `Tensor::as_array_view`,
//!   `Tensor::as_array_view_mut` (views of the tensor's memory), `Tensor::to_ndarray`
//!   (a copy), and `TryFrom<Array>` (moves the array's buffer into the tensor, no copy)
//!   / `TryFrom<ArrayView>` (a copy).
//!
//! Files are untrusted input: a truncated file, a header whose offsets overlap or point
//! past the end, a header that lies about dtype or shape, an element count that
//! overflows, a bad magic or descr, are each an [`enum@Error`] naming what is wrong; no
//! read goes outside the file.
//!
//! Writers write any layout (sliced, expanded, channels-last, ...) as the row-major
//! bytes of its elements, into a temporary file renamed over `path` at the end, so a
//! file that is memory-mapped (a tensor loaded from it is alive) is never truncated
//! under its mapping. Bytes are little-endian: on a big-endian host every reader and
//! writer returns an error.
//!
//! [`enum@Error`]: crate::error::Error

mod common;
#[cfg(feature = "ndarray")]
mod ndarray_interop;
mod npy;
#[cfg(feature = "npz")]
mod npz;
mod safetensors;
mod safetensors_header;
#[cfg(test)]
mod tests;

#[cfg(feature = "ndarray")]
pub use ndarray_interop::{ArrayViewGuard, ArrayViewMutGuard};
pub use npy::{read_npy, write_npy};
#[cfg(feature = "npz")]
pub use npz::{read_npz, write_npz};
pub use safetensors::{load_safetensors, save_safetensors, SafetensorsFile};
