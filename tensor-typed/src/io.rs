//! Typed weights: a safetensors file whose tensors load as [`Tensor<T, S>`], each
//! load checking the dtype and every static dim against the file's header.
//!
//! ```
//! use tensor_typed::io::Weights;
//! use tensor_typed::{Shape, Tensor};
//! # let dir = std::env::temp_dir().join(format!("doc_weights_{}", std::process::id()));
//! # std::fs::create_dir_all(&dir).unwrap();
//! # let path = dir.join("model.safetensors");
//! # let w = tensor_core::Tensor::zeros(&[4, 3], tensor_core::DType::F32)?;
//! # tensor_core::io::save_safetensors(&path, &[("wte.weight", &w)])?;
//! let st = Weights::open(&path)?; // memory-mapped
//! let w: Tensor<f32, Shape![4, 3]> = st.load("wte.weight")?;
//! assert_eq!(w.dims(), &[4, 3]);
//! let wrong = st.load::<f32, Shape![3, 4]>("wte.weight").unwrap_err();
//! assert!(wrong.to_string().contains("expected dtype float32 and shape [3, 4]"));
//! let any: tensor_core::Tensor = st.load_dyn("wte.weight")?;
//! # std::fs::remove_dir_all(&dir).unwrap();
//! # Ok::<(), tensor_core::Error>(())
//! ```

use crate::shape::Shape;
use crate::tensor::Tensor;
use std::path::Path;
use tensor_core::io::SafetensorsFile;
use tensor_core::{Element, Error, Result};

/// An opened safetensors file of weights (`safetensors.safe_open`), memory-mapped: see
/// [`SafetensorsFile`] for what is copied, what is shared and the rule every
/// memory-mapped file brings (the file must not be modified by another process while
/// tensors over it live).
#[derive(Debug)]
pub struct Weights {
    file: SafetensorsFile,
}

impl Weights {
    /// Maps the safetensors file at `path`.
    ///
    /// # Errors
    /// As [`SafetensorsFile::open`]: an I/O error naming the path, a header that is
    /// malformed or lies about the data.
    pub fn open(path: impl AsRef<Path>) -> Result<Weights> {
        Ok(Weights {
            file: SafetensorsFile::open(path)?,
        })
    }

    /// Tensor `name` as a `Tensor<T, S>`, after checking the header's dtype is `T`'s and
    /// its shape fits `S` (same rank, every static dim equal). Shares the mapped bytes
    /// (see [`SafetensorsFile::get`]).
    ///
    /// # Errors
    /// `Weights::load: tensor 'wte.weight' has dtype float32 and shape [50257, 768],
    /// expected dtype float32 and shape [768, 50257]` when the dtype or shape differs;
    /// `File does not contain tensor {name}` when there is none; a dtype tensor-core
    /// does not have.
    pub fn load<T: Element, S: Shape>(&self, name: &str) -> Result<Tensor<T, S>> {
        let (dtype, sizes) = self.file.info(name)?;
        if dtype != T::DTYPE || !S::matches(sizes) {
            return Err(Error::InvalidArgument {
                op: "Weights::load",
                message: format!(
                    "tensor '{name}' of {} has dtype {dtype} and shape {sizes:?}, expected dtype {} and shape {}",
                    self.file.path().display(),
                    T::DTYPE,
                    S::describe()
                ),
            });
        }
        Tensor::try_from_dyn(self.file.get(name)?)
    }

    /// Tensor `name` as a runtime tensor, whatever its dtype and shape.
    ///
    /// # Errors
    /// As [`SafetensorsFile::get`].
    #[cfg_attr(unoptimized, inline)]
    pub fn load_dyn(&self, name: &str) -> Result<tensor_core::Tensor> {
        self.file.get(name)
    }

    /// The names of the tensors, in file order.
    #[cfg_attr(unoptimized, inline)]
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.file.names()
    }

    /// The underlying file (dtype and sizes by name, whether a tensor is mapped, the
    /// header's metadata).
    #[cfg_attr(unoptimized, inline)]
    pub fn file(&self) -> &SafetensorsFile {
        &self.file
    }
}
