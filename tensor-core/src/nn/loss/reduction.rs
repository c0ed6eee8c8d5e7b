//! The `reduction` and `ignore_index` arguments of the losses, which the forward
//! (`mod.rs`) and the backward (`backward.rs`) both take.

use crate::error::{Error, Result};

/// PyTorch's default `ignore_index`: targets equal to it add nothing to the loss and
/// are not counted by the mean.
pub const IGNORE_INDEX: i64 = -100;

/// How a loss reduces its per-element values (`reduction=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Reduction {
    /// `'none'`: one loss per element, shaped as the target.
    None,
    /// `'mean'`: the mean over the counted elements, a 0-d tensor.
    #[default]
    Mean,
    /// `'sum'`: the sum, a 0-d tensor.
    Sum,
}

impl Reduction {
    /// Parses PyTorch's string: `"none"`, `"mean"` or `"sum"`.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] with PyTorch's `avg is not a valid value for
    /// reduction` for any other string.
    #[cfg_attr(unoptimized, inline)]
    pub fn from_name(name: &str) -> Result<Reduction> {
        match name {
            "none" => Ok(Reduction::None),
            "mean" => Ok(Reduction::Mean),
            "sum" => Ok(Reduction::Sum),
            other => Err(Error::InvalidArgument {
                op: "cross_entropy",
                message: format!("{other} is not a valid value for reduction"),
            }),
        }
    }
}
