//! `AccumulateGrad`: the node through which gradients reach a leaf's `.grad`.

use super::meta::AutogradMeta;
use super::node::Node;
use crate::error::Result;
use crate::layout::contiguous_strides;
use crate::tensor::Tensor;
use std::sync::Arc;

/// Adds the incoming gradient into the leaf's `.grad` (PyTorch's `AccumulateGrad`).
pub(crate) struct AccumulateGrad {
    leaf: Arc<AutogradMeta>,
    sizes: Vec<usize>,
    /// The strides a new `.grad` gets: the leaf's when it is non-overlapping and
    /// dense, else contiguous (PyTorch's layout contract for `.grad`).
    strides: Vec<isize>,
}

impl AccumulateGrad {
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn new(leaf: Arc<AutogradMeta>, t: &Tensor) -> AccumulateGrad {
        let strides = if t.is_non_overlapping_and_dense() {
            t.strides().to_vec()
        } else {
            contiguous_strides(t.sizes())
        };
        AccumulateGrad {
            leaf,
            sizes: t.sizes().to_vec(),
            strides,
        }
    }

    /// `true` when `g` obeys PyTorch's gradient layout contract
    /// (`obeys_layout_contract`): the wanted stride at every dim of size other than 1;
    /// a dim of size 1 may have any stride but 0 (its stride addresses nothing, so
    /// PyTorch keeps the one the backward produced).
    #[cfg_attr(unoptimized, inline)]
    fn obeys_layout_contract(&self, g: &Tensor) -> bool {
        g.sizes().len() == self.strides.len()
            && g.sizes()
                .iter()
                .zip(g.strides())
                .zip(&self.strides)
                .all(|((&size, &got), &want)| if size == 1 { got != 0 } else { got == want })
    }

    /// `true` when `g` may become `.grad` as it is: it obeys the layout contract, and
    /// nobody else holds its storage, which it fills exactly.
    #[cfg_attr(unoptimized, inline)]
    fn can_steal(&self, g: &Tensor) -> bool {
        self.obeys_layout_contract(g)
            && g.storage_offset() == 0
            && g.storage().is_unique()
            && g.storage().nbytes() == g.numel() * g.dtype().size()
    }
}

impl Node for AccumulateGrad {
    #[cfg_attr(unoptimized, inline)]
    fn name(&self) -> &'static str {
        "torch::autograd::AccumulateGrad"
    }

    #[cfg_attr(unoptimized, inline)]
    fn apply(&self, grads: &[Option<Tensor>]) -> Result<Vec<Option<Tensor>>> {
        let Some(g) = grads.first().and_then(Option::as_ref) else {
            return Ok(Vec::new());
        };
        let mut slot = self.leaf.grad_slot();
        match slot.as_ref() {
            Some(old) => old.add_(g)?,
            None => {
                let new = if self.can_steal(g) {
                    g.alias_detached()
                } else {
                    let t = Tensor::empty_strided(&self.sizes, &self.strides, g.dtype())?;
                    t.copy_(g)?;
                    t
                };
                *slot = Some(new);
            }
        }
        Ok(Vec::new())
    }
}
