//! Elementwise ops: add, sub, mul, div, pow, maximum, minimum, clamp, where, and dtype
//! casts (the unary ops' gradients are in their table, `ops/unary/defs.rs`).

use super::common::{first, zero_of};
use crate::autograd::{Node, SavedTensor};
use crate::error::Result;
use crate::scalar::Scalar;
use crate::tensor::Tensor;

/// `a + alpha * b` / `a - alpha * b` (AddBackward0/SubBackward0): `(g, ±alpha g)`.
pub(crate) struct AddBackward {
    pub(crate) name: &'static str,
    /// The factor of `b`'s gradient (`alpha`, negated for sub); `None` is 1.
    pub(crate) other_factor: Option<Scalar>,
}

impl Node for AddBackward {
    #[cfg_attr(unoptimized, inline)]
    fn name(&self) -> &'static str {
        self.name
    }
    #[cfg_attr(unoptimized, inline)]
    fn apply(&self, grads: &[Option<Tensor>]) -> Result<Vec<Option<Tensor>>> {
        let g = first(grads)?;
        let gb = match self.other_factor {
            None => g.alias(),
            Some(f) => g.mul_scalar(f)?,
        };
        Ok(vec![Some(g.alias()), Some(gb)])
    }
}

/// `a * b` (MulBackward0): `(g b, g a)`; each saved only when the other needs it.
pub(crate) struct MulBackward {
    pub(crate) a: Option<SavedTensor>,
    pub(crate) b: Option<SavedTensor>,
}

impl MulBackward {
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn new(a: &Tensor, b: &Tensor) -> MulBackward {
        MulBackward {
            a: b.requires_grad().then(|| SavedTensor::input(a)),
            b: a.requires_grad().then(|| SavedTensor::input(b)),
        }
    }
}

impl Node for MulBackward {
    #[cfg_attr(unoptimized, inline)]
    fn name(&self) -> &'static str {
        "MulBackward0"
    }
    #[cfg_attr(unoptimized, inline)]
    fn apply(&self, grads: &[Option<Tensor>]) -> Result<Vec<Option<Tensor>>> {
        let g = first(grads)?;
        let ga = match &self.b {
            Some(b) => Some(g.mul(&b.unpack()?)?),
            None => None,
        };
        let gb = match &self.a {
            Some(a) => Some(g.mul(&a.unpack()?)?),
            None => None,
        };
        Ok(vec![ga, gb])
    }
    #[cfg_attr(unoptimized, inline)]
    fn release(&self) {
        self.a.iter().chain(&self.b).for_each(SavedTensor::release);
    }
}

/// `a / b` (DivBackward0): `(g / b, -g a / b²)`.
pub(crate) struct DivBackward {
    pub(crate) a: Option<SavedTensor>,
    pub(crate) b: SavedTensor,
}

impl DivBackward {
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn new(a: &Tensor, b: &Tensor) -> DivBackward {
        DivBackward {
            a: b.requires_grad().then(|| SavedTensor::input(a)),
            b: SavedTensor::input(b),
        }
    }
}

impl Node for DivBackward {
    #[cfg_attr(unoptimized, inline)]
    fn name(&self) -> &'static str {
        "DivBackward0"
    }
    #[cfg_attr(unoptimized, inline)]
    fn apply(&self, grads: &[Option<Tensor>]) -> Result<Vec<Option<Tensor>>> {
        let g = first(grads)?;
        let b = self.b.unpack()?;
        let ga = g.div(&b)?;
        let gb = match &self.a {
            Some(a) => Some(g.neg()?.mul(&a.unpack()?.div(&b)?.div(&b)?)?),
            None => None,
        };
        Ok(vec![Some(ga), gb])
    }
    #[cfg_attr(unoptimized, inline)]
    fn release(&self) {
        self.b.release();
        self.a.iter().for_each(SavedTensor::release);
    }
}

/// An op of a tensor and a Rust number whose gradient is `g * factor`
/// (AddBackward1, SubBackward1: 1; MulBackward1: s; DivBackward1: 1/s).
pub(crate) struct ScaleBackward {
    pub(crate) name: &'static str,
    pub(crate) factor: Option<Scalar>,
    pub(crate) divide: bool,
}

impl Node for ScaleBackward {
    #[cfg_attr(unoptimized, inline)]
    fn name(&self) -> &'static str {
        self.name
    }
    #[cfg_attr(unoptimized, inline)]
    fn apply(&self, grads: &[Option<Tensor>]) -> Result<Vec<Option<Tensor>>> {
        let g = first(grads)?;
        Ok(vec![Some(match self.factor {
            None => g.alias(),
            Some(f) if self.divide => g.div_scalar(f)?,
            Some(f) => g.mul_scalar(f)?,
        })])
    }
}

/// `x ** e` for a number `e` (PowBackward0): `g e x^(e-1)`, zero for `e == 0`.
pub(crate) struct PowScalarBackward {
    pub(crate) x: SavedTensor,
    pub(crate) exponent: Scalar,
}

impl Node for PowScalarBackward {
    #[cfg_attr(unoptimized, inline)]
    fn name(&self) -> &'static str {
        "PowBackward0"
    }
    #[cfg_attr(unoptimized, inline)]
    fn apply(&self, grads: &[Option<Tensor>]) -> Result<Vec<Option<Tensor>>> {
        let g = first(grads)?;
        let x = self.x.unpack()?;
        let zero_exponent = match self.exponent {
            Scalar::Int(i) => i == 0,
            Scalar::Float(f) => f == 0.0,
            Scalar::Bool(b) => !b,
        };
        if zero_exponent {
            return Ok(vec![Some(Tensor::zeros(g.sizes(), g.dtype())?)]);
        }
        let minus_one = match self.exponent {
            Scalar::Int(i) => Scalar::Int(i.saturating_sub(1)),
            Scalar::Float(f) => Scalar::Float(f - 1.0),
            Scalar::Bool(_) => Scalar::Int(0),
        };
        let d = x.pow_scalar(minus_one)?.mul_scalar(self.exponent)?;
        Ok(vec![Some(g.mul(&d)?)])
    }
    #[cfg_attr(unoptimized, inline)]
    fn release(&self) {
        self.x.release();
    }
}

/// `a ** b` for tensors (PowBackward1): `(g b a^(b-1), g a^b log a)`, the second 0
/// where `a == 0` and `b >= 0`.
pub(crate) struct PowBackward {
    pub(crate) a: SavedTensor,
    pub(crate) b: SavedTensor,
    pub(crate) result: SavedTensor,
}

impl Node for PowBackward {
    #[cfg_attr(unoptimized, inline)]
    fn name(&self) -> &'static str {
        "PowBackward1"
    }
    #[cfg_attr(unoptimized, inline)]
    fn apply(&self, grads: &[Option<Tensor>]) -> Result<Vec<Option<Tensor>>> {
        let g = first(grads)?;
        let (a, b, r) = (self.a.unpack()?, self.b.unpack()?, self.result.unpack()?);
        let ga = g.mul(&b.mul(&a.pow(&b.sub_scalar(1)?)?)?)?;
        let zero = a.eq_scalar(0)?.mul(&b.ge_scalar(0)?)?;
        let gb_all = g.mul(&r.mul(&a.log()?)?)?;
        let gb = Tensor::where_(&zero, &zero_of(&gb_all)?, &gb_all)?;
        Ok(vec![Some(ga), Some(gb)])
    }
    #[cfg_attr(unoptimized, inline)]
    fn release(&self) {
        self.a.release();
        self.b.release();
        self.result.release();
    }
}

/// `maximum(a, b)` / `minimum(a, b)`: the gradient goes to the larger (smaller)
/// operand, split in halves where they are equal.
pub(crate) struct ExtremumBackward {
    pub(crate) max: bool,
    pub(crate) a: SavedTensor,
    pub(crate) b: SavedTensor,
    /// `false` when `b` is a wrapped number (`maximum_scalar`): one gradient, `a`'s.
    pub(crate) b_is_input: bool,
}

impl Node for ExtremumBackward {
    #[cfg_attr(unoptimized, inline)]
    fn name(&self) -> &'static str {
        if self.max {
            "MaximumBackward0"
        } else {
            "MinimumBackward0"
        }
    }
    #[cfg_attr(unoptimized, inline)]
    fn apply(&self, grads: &[Option<Tensor>]) -> Result<Vec<Option<Tensor>>> {
        let g = first(grads)?;
        let (a, b) = (self.a.unpack()?, self.b.unpack()?);
        let half = Tensor::where_(&a.eq(&b)?, &g.div_scalar(2)?, g)?;
        let zero = zero_of(&half)?;
        let (a_loses, b_loses) = if self.max {
            (a.lt(&b)?, a.gt(&b)?)
        } else {
            (a.gt(&b)?, a.lt(&b)?)
        };
        let ga = Some(Tensor::where_(&a_loses, &zero, &half)?);
        if !self.b_is_input {
            return Ok(vec![ga]);
        }
        Ok(vec![ga, Some(Tensor::where_(&b_loses, &zero, &half)?)])
    }
    #[cfg_attr(unoptimized, inline)]
    fn release(&self) {
        self.a.release();
        self.b.release();
    }
}

/// `clamp(x, min, max)` (ClampBackward1): `g` where `min <= x <= max`, else 0.
pub(crate) struct ClampBackward {
    pub(crate) x: SavedTensor,
    pub(crate) min: Option<Scalar>,
    pub(crate) max: Option<Scalar>,
}

impl Node for ClampBackward {
    #[cfg_attr(unoptimized, inline)]
    fn name(&self) -> &'static str {
        "ClampBackward1"
    }
    #[cfg_attr(unoptimized, inline)]
    fn apply(&self, grads: &[Option<Tensor>]) -> Result<Vec<Option<Tensor>>> {
        let g = first(grads)?;
        let x = self.x.unpack()?;
        let mut keep: Option<Tensor> = None;
        for m in [
            self.min.map(|v| x.ge_scalar(v)),
            self.max.map(|v| x.le_scalar(v)),
        ]
        .into_iter()
        .flatten()
        {
            let m = m?;
            keep = Some(match keep {
                None => m,
                Some(k) => k.mul(&m)?,
            });
        }
        Ok(vec![Some(match keep {
            Some(k) => Tensor::where_(&k, g, &zero_of(g)?)?,
            None => g.alias(),
        })])
    }
    #[cfg_attr(unoptimized, inline)]
    fn release(&self) {
        self.x.release();
    }
}

/// `where(cond, x, y)` (WhereBackward0): `(-, g where cond, g where not cond)`.
pub(crate) struct WhereBackward {
    pub(crate) cond: SavedTensor,
}

impl Node for WhereBackward {
    #[cfg_attr(unoptimized, inline)]
    fn name(&self) -> &'static str {
        "WhereBackward0"
    }
    #[cfg_attr(unoptimized, inline)]
    fn apply(&self, grads: &[Option<Tensor>]) -> Result<Vec<Option<Tensor>>> {
        let g = first(grads)?;
        let c = self.cond.unpack()?;
        let zero = zero_of(g)?;
        Ok(vec![
            None,
            Some(Tensor::where_(&c, g, &zero)?),
            Some(Tensor::where_(&c, &zero, g)?),
        ])
    }
    #[cfg_attr(unoptimized, inline)]
    fn release(&self) {
        self.cond.release();
    }
}

/// A gradient passed through unchanged (the engine casts it to the input's dtype):
/// `to(dtype)` (ToCopyBackward0), `clone` (CloneBackward0), `contiguous`.
pub(crate) struct IdentityBackward {
    pub(crate) name: &'static str,
}

impl Node for IdentityBackward {
    #[cfg_attr(unoptimized, inline)]
    fn name(&self) -> &'static str {
        self.name
    }
    #[cfg_attr(unoptimized, inline)]
    fn apply(&self, grads: &[Option<Tensor>]) -> Result<Vec<Option<Tensor>>> {
        Ok(vec![Some(first(grads)?.alias())])
    }
}

/// `self + value * t1 * t2` (AddcmulBackward0): `(g, g t2 value, g t1 value)`.
pub(crate) struct AddcmulBackward {
    pub(crate) t1: SavedTensor,
    pub(crate) t2: SavedTensor,
    pub(crate) value: Scalar,
}

impl Node for AddcmulBackward {
    #[cfg_attr(unoptimized, inline)]
    fn name(&self) -> &'static str {
        "AddcmulBackward0"
    }
    #[cfg_attr(unoptimized, inline)]
    fn apply(&self, grads: &[Option<Tensor>]) -> Result<Vec<Option<Tensor>>> {
        let g = first(grads)?;
        let gv = g.mul_scalar(self.value)?;
        Ok(vec![
            Some(g.alias()),
            Some(gv.mul(&self.t2.unpack()?)?),
            Some(gv.mul(&self.t1.unpack()?)?),
        ])
    }
    #[cfg_attr(unoptimized, inline)]
    fn release(&self) {
        self.t1.release();
        self.t2.release();
    }
}
