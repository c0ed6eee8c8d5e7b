//! The `approximate` argument of `gelu`, which the forward (`mod.rs`) and the backward
//! (`backward.rs`) both take.

use crate::error::{Error, Result};

/// The `approximate` argument of `gelu`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum GeluApproximate {
    /// `approximate='none'`: `x Φ(x) = x (1 + erf(x / √2)) / 2`.
    #[default]
    None,
    /// `approximate='tanh'`: `x (1 + tanh(√(2/π) (x + 0.044715 x³))) / 2`.
    Tanh,
}

impl GeluApproximate {
    /// Parses PyTorch's string argument: `"none"` or `"tanh"`.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] with PyTorch's `approximate argument must be either
    /// none or tanh.` for any other string.
    #[cfg_attr(unoptimized, inline)]
    pub fn from_name(name: &str) -> Result<GeluApproximate> {
        match name {
            "none" => Ok(GeluApproximate::None),
            "tanh" => Ok(GeluApproximate::Tanh),
            _ => Err(Error::InvalidArgument {
                op: "gelu",
                message: "approximate argument must be either none or tanh.".into(),
            }),
        }
    }
}
