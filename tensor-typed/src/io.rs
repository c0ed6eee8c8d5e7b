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

use crate::params::Params;
use crate::shape::Shape;
use crate::tensor::Tensor;
use std::collections::HashSet;
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

    /// Loads every parameter of `model` ([`Params::visit_named`]: `h.0.attn.c_attn.weight`)
    /// from the file's tensor named `prefix.name` (`name` when `prefix` is empty),
    /// strictly, as PyTorch's `load_state_dict(strict=True)`: each parameter's dtype and
    /// sizes (the model's own, so every static dim of its type) must be the file's, no
    /// parameter may be missing from the file and no tensor of the file may be left
    /// unused. The loaded parameters share the file's mapped bytes (no copy) and replace
    /// the model's tensors, which serve only as the expected shapes (build the model with
    /// `Tensor::zeros()`: zeroed memory is not touched until written).
    ///
    /// Nothing is replaced unless every check passes.
    ///
    /// # Errors
    /// One `InvalidArgument` naming every mismatch: `missing tensors
    /// [transformer.h.1.ln_1.bias]`, `unused tensors [lm_head.weight]`, `tensor 'wte.weight'
    /// has dtype float32 and shape [1000, 64], the model's is float32 [50257, 768]`.
    ///
    /// ```
    /// use tensor_typed::io::Weights;
    /// use tensor_typed::prelude::*;
    /// # let dir = std::env::temp_dir().join(format!("doc_load_params_{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir).unwrap();
    /// # let path = dir.join("model.safetensors");
    /// # let w = tensor_core::Tensor::ones(&[3, 2], tensor_core::DType::F32)?;
    /// # let b = tensor_core::Tensor::ones(&[3], tensor_core::DType::F32)?;
    /// # tensor_core::io::save_safetensors(&path, &[("fc.weight", &w), ("fc.bias", &b), ("extra", &b)])?;
    /// #[derive(Params)]
    /// struct Model {
    ///     fc: nn::Linear<Dim![2], Dim![3]>,
    /// }
    /// let mut model = Model { fc: nn::Linear::zeros() };
    /// let st = Weights::open(&path)?; // holds fc.weight, fc.bias and extra
    /// let err = st.load_params(&mut model, "").unwrap_err().to_string();
    /// assert!(err.contains("unused tensors [extra]"), "{err}");
    /// st.load_params_except(&mut model, "", &["extra"])?;
    /// assert_eq!(model.fc.weight.to_vec(), vec![1.0; 6]);
    /// # std::fs::remove_dir_all(&dir).unwrap();
    /// # Ok::<(), tensor_typed::Error>(())
    /// ```
    pub fn load_params<P: Params + ?Sized>(&self, model: &mut P, prefix: &str) -> Result<()> {
        self.load_params_except(model, prefix, &[])
    }

    /// [`load_params`](Self::load_params), allowing the file's tensors named in `unused`
    /// to stay unused (a buffer the model does not keep, a tied weight stored twice).
    ///
    /// # Errors
    /// As [`load_params`](Self::load_params).
    pub fn load_params_except<P: Params + ?Sized>(
        &self,
        model: &mut P,
        prefix: &str,
        unused: &[&str],
    ) -> Result<()> {
        self.load_params_with(model, prefix, unused, false)
    }

    /// [`load_params_except`](Self::load_params_except), converting a floating-point
    /// tensor of another floating-point dtype to the parameter's (a `bfloat16` or
    /// `float16` checkpoint into `f32` parameters), as `load_state_dict` does
    /// (`param.copy_(input_param)`). A converted tensor is a fresh copy; the others
    /// share the mapped bytes. Sizes must still be the model's, and a dtype that is not
    /// floating on either side must match.
    ///
    /// # Errors
    /// As [`load_params`](Self::load_params); a mismatch names the file's dtype (`tensor
    /// 'lm_head.weight' has dtype bfloat16 and shape [256, 64], the model's is float32
    /// [512, 64]`); an allocation failure of a conversion.
    pub fn load_params_converting<P: Params + ?Sized>(
        &self,
        model: &mut P,
        prefix: &str,
        unused: &[&str],
    ) -> Result<()> {
        self.load_params_with(model, prefix, unused, true)
    }

    /// The loads of [`load_params_except`](Self::load_params_except) and
    /// [`load_params_converting`](Self::load_params_converting).
    fn load_params_with<P: Params + ?Sized>(
        &self,
        model: &mut P,
        prefix: &str,
        unused: &[&str],
        convert: bool,
    ) -> Result<()> {
        let mut wanted = Vec::new();
        model.visit_named(prefix, &mut |name, t| {
            wanted.push((name.to_string(), t.dtype(), t.sizes().to_vec()))
        });
        self.check_params(&wanted, unused, convert)?;
        let mut result = Ok(());
        model.visit_named_mut(prefix, &mut |name, t| {
            if result.is_ok() {
                let loaded = self.file.get(name).and_then(|loaded| {
                    if loaded.dtype() == t.dtype() {
                        Ok(loaded)
                    } else {
                        loaded.to_dtype(t.dtype())
                    }
                });
                match loaded {
                    Ok(loaded) => *t = loaded,
                    Err(e) => result = Err(e),
                }
            }
        });
        result
    }

    /// The checks of [`load_params_except`](Self::load_params_except) (not generic): every
    /// wanted `(name, dtype, sizes)` is in the file as such (a floating dtype may differ
    /// when `convert`), every file tensor wanted or in `unused`.
    #[cfg_attr(unoptimized, inline)]
    fn check_params(
        &self,
        wanted: &[(String, tensor_core::DType, Vec<usize>)],
        unused: &[&str],
        convert: bool,
    ) -> Result<()> {
        let mut problems = Vec::new();
        let mut missing = Vec::new();
        for (name, dtype, sizes) in wanted {
            match self.file.info(name) {
                Err(_) => missing.push(name.as_str()),
                Ok((d, s))
                    if s != sizes.as_slice()
                        || (d != *dtype && !(convert && d.is_floating() && dtype.is_floating())) =>
                {
                    problems.push(format!(
                    "tensor '{name}' has dtype {d} and shape {s:?}, the model's is {dtype} {sizes:?}"
                ))
                }
                Ok(_) => {}
            }
        }
        let names: HashSet<&str> = wanted.iter().map(|(n, _, _)| n.as_str()).collect();
        let left: Vec<&str> = self
            .file
            .names()
            .filter(|n| !names.contains(n) && !unused.contains(n))
            .collect();
        if !missing.is_empty() {
            problems.insert(
                0,
                format!(
                    "missing tensors {} (in the model, not in the file)",
                    name_list(&missing)
                ),
            );
        }
        if !left.is_empty() {
            problems.push(format!(
                "unused tensors {} (in the file, not in the model)",
                name_list(&left)
            ));
        }
        if problems.is_empty() {
            return Ok(());
        }
        Err(Error::InvalidArgument {
            op: "Weights::load_params",
            message: format!("{}: {}", self.file.path().display(), problems.join("; ")),
        })
    }
}

/// `[a, b, c]`, or the first ten and `... (N more)`.
#[cfg_attr(unoptimized, inline)]
fn name_list(names: &[&str]) -> String {
    const SHOWN: usize = 10;
    let mut s = names
        .iter()
        .take(SHOWN)
        .copied()
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() > SHOWN {
        s.push_str(&format!(", ... ({} more)", names.len() - SHOWN));
    }
    format!("[{s}]")
}
