//! Binary arithmetic ops `add sub mul div maximum minimum pow`, generated from the one
//! table in [`defs.rs`](self::defs): the [`BinaryOp`] enum, the kernels (one per op and
//! dtype; without optimisation one loop per dtype that picks the op per element), the
//! iterator build, the autograd nodes, and each op's functional, in-place (`add_`),
//! output (`add_out`) and wrapped-number (`add_scalar`, `add_scalar_`) methods on
//! [`Tensor`]. `add`/`sub` with `alpha` are in `alpha.rs`.

mod alpha;
mod defs;

use super::unary::Domain;
use crate::autograd::{
    self, AddBackward, DivBackward, ExtremumBackward, MulBackward, PowBackward, SavedTensor,
    ScaleBackward,
};
use crate::dispatch_dtype;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::iterator::{TensorIterator, TensorIteratorConfig, Written};
use crate::kernels::arith::Arith;
use crate::kernels::{binary, per_op};
use crate::scalar::Scalar;
use crate::tensor::Tensor;

/// An operand of a binary op: a tensor or a wrapped number.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Arg<'a> {
    /// A tensor.
    T(&'a Tensor),
    /// A Rust number, promoted as PyTorch's wrapped numbers.
    S(Scalar),
}

impl Arg<'_> {
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn dtype(&self) -> DType {
        match self {
            Arg::T(t) => t.dtype(),
            Arg::S(s) => s.dtype(),
        }
    }

    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn add_to(self, config: TensorIteratorConfig) -> TensorIteratorConfig {
        match self {
            Arg::T(t) => config.add_const_input(t),
            Arg::S(s) => config.add_scalar_input(s),
        }
    }
}

/// Which partial SBP of a global tensor a binary op keeps (it commutes with the
/// reduction on the partial operand); any other partial input is broadcast first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryPartial {
    /// None: partial inputs are broadcast first.
    Broadcasts,
    /// `P(sum) ± P(sum)` stays a partial sum (`add`, `sub`).
    Sum,
    /// `P(sum) * B` and `B * P(sum)` stay a partial sum (linear in the partial operand).
    Linear,
    /// `P(max)` with `P(max)` or `B` stays a partial max.
    Max,
    /// `P(min)` with `P(min)` or `B` stays a partial min.
    Min,
}

#[cfg_attr(unoptimized, inline)]
fn unsupported(message: &str) -> Error {
    Error::UnsupportedDType {
        message: message.into(),
    }
}

/// PyTorch's `sub_check`.
#[cfg_attr(unoptimized, inline)]
fn sub_check(a: DType, b: DType) -> Result<()> {
    if a == DType::Bool && b == DType::Bool {
        return Err(unsupported("Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead."));
    }
    if a == DType::Bool || b == DType::Bool {
        return Err(unsupported("Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead."));
    }
    Ok(())
}

/// A row's `check(..)`: the function, or nothing.
macro_rules! input_check {
    (none, $a:expr, $b:expr) => {
        Ok(())
    };
    ($f:ident, $a:expr, $b:expr) => {
        $f($a, $b)
    };
}

/// A row's `bool(..)`: `true` when a bool computation is refused.
macro_rules! refuses_bool {
    (ok) => {
        false
    };
    (refuse) => {
        true
    };
}

/// A row's `dtype(..)`: `true` when integral inputs compute in float32.
macro_rules! promotes_to_float {
    (Promote) => {
        false
    };
    (PromoteFloat) => {
        true
    };
}

/// Everything generated from the table: see `defs.rs` for a row's parts.
macro_rules! binary_family {
    ($( $name:ident {
        variant: $V:ident, inplace: $inplace:ident, out: $out:ident,
        torch: $torch:literal, doc: $what:literal,
        kernel: $k:ident, dtype: $dtype:ident, check: $check:ident, bool: $bool:ident,
        grad: |$ga:pat_param, $gb:pat_param, $gout:pat_param| $grad:expr,
        scalar: {$(
            method: $scalar:ident, inplace: $scalar_inplace:ident,
            grad: |$sa:pat_param, $ss:pat_param| $sgrad:expr $(,)?
        )?},
        smooth: $domain:ident, partial: $partial:ident $(,)?
    } )*) => {
        /// The binary arithmetic ops (broadcasting, PyTorch's type promotion), one per row
        /// of the op table (`tensor-core/src/ops/binary/defs.rs`); `GlobalTensor` runs
        /// them too. [`BinaryOp::ALL`] lists them.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum BinaryOp {
            $(
                #[doc = concat!("`torch.", $torch, "`: ", $what, ".")]
                $V,
            )*
        }

        impl BinaryOp {
            /// Every binary op, in table order.
            pub const ALL: &'static [BinaryOp] = &[$(BinaryOp::$V),*];

            /// PyTorch's name of the op (`"add"`), also the method's name.
            #[cfg_attr(unoptimized, inline)]
            pub fn name(self) -> &'static str {
                match self {
                    $(BinaryOp::$V => $torch,)*
                }
            }

            /// The op of a PyTorch name (`"add"`), if it is one of [`BinaryOp::ALL`].
            #[cfg_attr(unoptimized, inline)]
            pub fn from_name(name: &str) -> Option<BinaryOp> {
                BinaryOp::ALL.iter().copied().find(|op| op.name() == name)
            }

            /// `true` when integral inputs compute in float32 (PyTorch's
            /// `build_binary_float_op`: `div`); `false` when the result is the inputs'
            /// common dtype (`build_binary_op`).
            #[cfg_attr(unoptimized, inline)]
            pub fn is_float_op(self) -> bool {
                match self {
                    $(BinaryOp::$V => promotes_to_float!($dtype),)*
                }
            }

            /// `true` when the op has `_scalar` methods taking a Rust number (`pow` has
            /// its own [`Tensor::pow_scalar`]).
            #[cfg_attr(unoptimized, inline)]
            pub fn has_scalar_methods(self) -> bool {
                match self {
                    $(BinaryOp::$V => false $(|| { let _ = stringify!($scalar); true })?,)*
                }
            }

            /// Where the op's derivative is smooth (for `div` the divisor, for `pow`
            /// the base; `Distinct`: the operands apart).
            #[cfg_attr(unoptimized, inline)]
            pub fn domain(self) -> Domain {
                match self {
                    $(BinaryOp::$V => Domain::$domain,)*
                }
            }

            /// Which partial SBP a global tensor keeps through the op.
            #[cfg_attr(unoptimized, inline)]
            pub fn partial_rule(self) -> BinaryPartial {
                match self {
                    $(BinaryOp::$V => BinaryPartial::$partial,)*
                }
            }

            /// PyTorch's refusal of the inputs' dtypes, checked before the build.
            #[cfg_attr(unoptimized, inline)]
            fn check_inputs(self, a: DType, b: DType) -> Result<()> {
                match self {
                    $(BinaryOp::$V => input_check!($check, a, b),)*
                }
            }

            /// `true` when the kernel refuses to compute in bool.
            #[cfg_attr(unoptimized, inline)]
            fn refuses_bool(self) -> bool {
                match self {
                    $(BinaryOp::$V => refuses_bool!($bool),)*
                }
            }
        }

        /// The kernel of `op` over the iterator's (promoted) dtype.
        #[cfg_attr(unoptimized, inline)]
        fn kernel(iter: &TensorIterator, op: BinaryOp) -> Result<Written<'_>> {
            let dtype = iter.dtype(0);
            if op.refuses_bool() && dtype == DType::Bool {
                return Err(unsupported(&format!("\"{}\" not implemented for 'Bool'", op.name())));
            }
            // One kernel per op and dtype; without optimisation one per dtype that picks
            // the op per element (`kernels::per_op!`).
            Ok(dispatch_dtype!(dtype, T, {
                per_op!(op, (x: T, y: T) {
                    $(BinaryOp::$V => <T as Arith>::$k(x, y),)*
                } => |f| binary::<T, T, _>(iter, f))
            }))
        }

        /// The backward node of `op(a, b)` for two tensors.
        #[cfg_attr(unoptimized, inline)]
        fn node(op: BinaryOp, a: &Tensor, b: &Tensor, out: &Tensor) -> Box<dyn autograd::Node> {
            match op {
                $(BinaryOp::$V => {
                    let ($ga, $gb, $gout) = (a, b, out);
                    Box::new($grad)
                })*
            }
        }

        impl Tensor {
            $(
                #[doc = concat!("`torch.", $torch, "(self, other)`: ", $what, ", broadcasting both and")]
                /// computing in their promoted dtype (`torch.result_type`). The result's
                /// strides follow the operands' layout (the TensorIterator's perm, the
                /// left operand first).
                ///
                /// # Errors
                /// [`Error::Broadcast`] when the shapes do not broadcast;
                /// [`Error::UnsupportedDType`] where PyTorch rejects a dtype (bool `sub`).
                #[cfg_attr(unoptimized, inline)]
                pub fn $name(&self, other: &Tensor) -> Result<Tensor> {
                    self.binary(BinaryOp::$V, other)
                }

                #[doc = concat!("`Tensor.", $torch, "_(other)`: ", $what, " in place; `other` broadcasts to `self`.")]
                ///
                /// # Errors
                /// As the functional form; [`Error::OutputShape`] when the broadcast
                /// shape is not `self`'s; [`Error::UnsafeCast`] when the promoted dtype
                /// cannot be stored in `self`; [`Error::InternalOverlap`] /
                /// [`Error::PartialOverlap`].
                #[cfg_attr(unoptimized, inline)]
                pub fn $inplace(&self, other: &Tensor) -> Result<()> {
                    self.binary_(BinaryOp::$V, other)
                }

                #[doc = concat!("`torch.", $torch, "(self, other, out=out)`: ", $what, " written into `out`.")]
                /// Returns the tensor written: `out`, or a fresh tensor when `out` had to
                /// be resized (a PyTorch `resize_` cannot change this handle).
                ///
                /// # Errors
                /// As the functional form; [`Error::UnsafeCast`] for `out`'s dtype;
                /// overlap errors.
                #[cfg_attr(unoptimized, inline)]
                pub fn $out(&self, other: &Tensor, out: &Tensor) -> Result<Tensor> {
                    self.binary_out(BinaryOp::$V, other, out)
                }

                $(
                    #[doc = concat!("`torch.", $torch, "(self, scalar)`: ", $what, " with a Rust number, which")]
                    /// promotes as a wrapped number (`int32 tensor + 2.5 -> float32`,
                    /// `int8 tensor + 1000 -> int8`).
                    ///
                    /// # Errors
                    /// As the tensor form.
                    pub fn $scalar(&self, other: impl Into<Scalar>) -> Result<Tensor> {
                        let s = other.into();
                        autograd::apply(
                            &[self],
                            || run(BinaryOp::$V, Arg::T(self), Arg::S(s), None),
                            |_| {
                                let ($sa, $ss) = (self, s);
                                $sgrad
                            },
                        )
                    }

                    #[doc = concat!("`Tensor.", $torch, "_(scalar)`: ", $what, " with a Rust number, in place.")]
                    ///
                    /// # Errors
                    /// As the in-place tensor form.
                    pub fn $scalar_inplace(&self, other: impl Into<Scalar>) -> Result<()> {
                        let s = other.into();
                        if autograd::needs_grad(&[self]) {
                            return autograd::inplace_rebase(self, |old| old.$scalar(s));
                        }
                        run(BinaryOp::$V, Arg::T(self), Arg::S(s), Some(self)).map(|_| ())
                    }
                )?
            )*
        }
    };
}

crate::__binary_ops!(binary_family);

impl Tensor {
    /// `op(self, other)` for any [`BinaryOp`]: `Tensor::binary(BinaryOp::Add, &b)` is
    /// `self.add(&b)` (what the named methods call).
    ///
    /// # Errors
    /// As the op's named method.
    #[cfg_attr(unoptimized, inline)]
    pub fn binary(&self, op: BinaryOp, other: &Tensor) -> Result<Tensor> {
        autograd::apply(
            &[self, other],
            || run(op, Arg::T(self), Arg::T(other), None),
            |out| node(op, self, other, out),
        )
    }

    /// `op` in place on `self` (`Tensor.add_`); `other` broadcasts to `self`.
    ///
    /// # Errors
    /// As the op's named in-place method.
    #[cfg_attr(unoptimized, inline)]
    pub fn binary_(&self, op: BinaryOp, other: &Tensor) -> Result<()> {
        if autograd::needs_grad(&[self, other]) {
            return autograd::inplace_rebase(self, |old| old.binary(op, other));
        }
        run(op, Arg::T(self), Arg::T(other), Some(self)).map(|_| ())
    }

    /// `op(self, other, out=out)`: returns the tensor written (`out`, or a fresh tensor
    /// when `out` had to be resized).
    ///
    /// # Errors
    /// As the op's named `_out` method.
    #[cfg_attr(unoptimized, inline)]
    pub fn binary_out(&self, op: BinaryOp, other: &Tensor, out: &Tensor) -> Result<Tensor> {
        autograd::check_out(op.name(), &[self, other], out)?;
        run(op, Arg::T(self), Arg::T(other), Some(out))
    }
}

/// Runs the op's input check (`sub_check`), then builds `build_binary_op` (or
/// `build_binary_float_op` for `div`) on `out`, `a`, `b` and runs `kernel` on it
/// ([`TensorIterator::build_and_run`]).
pub(super) fn build_and_run<K>(
    op: BinaryOp,
    a: Arg<'_>,
    b: Arg<'_>,
    out: Option<&Tensor>,
    kernel: K,
) -> Result<TensorIterator>
where
    K: for<'it> FnOnce(&'it TensorIterator) -> Result<Written<'it>>,
{
    op.check_inputs(a.dtype(), b.dtype())?;
    let config = || {
        let config = TensorIteratorConfig::new()
            .set_check_mem_overlap(true)
            .allow_cpu_scalars(true)
            .promote_inputs_to_common_dtype(true)
            .cast_common_dtype_to_outputs(true)
            .enforce_safe_casting_to_output(true)
            .promote_integer_inputs_to_float(op.is_float_op())
            .add_maybe_output(out);
        b.add_to(a.add_to(config))
    };
    // Two tensors, and a dtype the op computes in as it is (a float op promotes
    // integers): the plan `build` gives same-shape contiguous operands, built directly.
    match (a, b) {
        (Arg::T(x), Arg::T(y)) => {
            let eligible = !op.is_float_op() || x.dtype().is_floating();
            TensorIterator::build_or_trivial_and_run(eligible, out, &[x, y], config, kernel)
        }
        _ => TensorIterator::build_and_run(config(), kernel),
    }
}

/// Builds the iterator for `op` on `out`, `a`, `b`, runs the kernel and copies
/// temporaries back. Returns the written tensor.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn run(op: BinaryOp, a: Arg<'_>, b: Arg<'_>, out: Option<&Tensor>) -> Result<Tensor> {
    if let Some(o) = out {
        autograd::check_writable(o)?;
    }
    let iter = build_and_run(op, a, b, out, |iter| kernel(iter, op))?;
    if let Some(o) = out {
        autograd::wrote(o);
    }
    Ok(iter.final_output(0).alias())
}

impl Tensor {
    /// `torch.pow(self, exponent)` with a Rust number exponent (`pow.Tensor_Scalar`):
    /// computes in `result_type(self, exponent)`; integral tensors raised to a negative
    /// integer are rejected.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] `Integers to negative integer powers are not allowed.`
    pub fn pow_scalar(&self, exponent: impl Into<Scalar>) -> Result<Tensor> {
        let e = exponent.into();
        autograd::apply(
            &[self],
            || self.pow_scalar_impl(e),
            |_| autograd::PowScalarBackward {
                x: autograd::SavedTensor::input(self),
                exponent: e,
            },
        )
    }

    #[cfg_attr(unoptimized, inline)]
    fn pow_scalar_impl(&self, e: Scalar) -> Result<Tensor> {
        if self.dtype().is_integral(true) {
            if let Scalar::Int(i) = e {
                if i < 0 {
                    return Err(Error::InvalidArgument {
                        op: "pow",
                        message: "Integers to negative integer powers are not allowed.".into(),
                    });
                }
            }
        }
        let common = crate::iterator::result_type(&[
            crate::iterator::Operand::Tensor(self),
            crate::iterator::Operand::Scalar(e),
        ]);
        let base = self.to_dtype(common)?;
        let iter = TensorIterator::build(TensorIteratorConfig::unary_op(None, &base))?;
        if common == DType::Bool {
            return Err(unsupported("\"pow\" not implemented for 'Bool'"));
        }
        dispatch_dtype!(common, T, {
            let e = crate::tensor::scalar_to::<T>(e);
            crate::kernels::unary::<T, T, _>(&iter, move |x: T| <T as Arith>::pow(x, e));
        });
        Ok(iter.output(0).alias())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn int_plus_float_scalar_is_float32() {
        let t = Tensor::from_vec(vec![1i32, 2], &[2]).unwrap();
        let r = t.add_scalar(2.5).unwrap();
        assert_eq!(r.dtype(), DType::F32);
        assert_eq!(r.to_vec::<f32>().unwrap(), vec![3.5, 4.5]);
    }

    #[test]
    fn int_div_int_is_float32() {
        let a = Tensor::from_vec(vec![1i64, 3], &[2]).unwrap();
        let b = Tensor::from_vec(vec![2i64, 2], &[2]).unwrap();
        let r = a.div(&b).unwrap();
        assert_eq!(r.dtype(), DType::F32);
        assert_eq!(r.to_vec::<f32>().unwrap(), vec![0.5, 1.5]);
    }

    #[test]
    fn bool_sub_is_rejected() {
        let a = Tensor::zeros(&[2], DType::Bool).unwrap();
        let e = a.sub(&a).unwrap_err().to_string();
        assert!(e.starts_with("Subtraction, the `-` operator, with two bool tensors"));
        let f = Tensor::zeros(&[2], DType::F32).unwrap();
        assert!(f
            .sub(&a)
            .unwrap_err()
            .to_string()
            .contains("with a bool tensor"));
    }

    #[test]
    fn add_in_place_broadcast_mismatch() {
        let a = Tensor::zeros(&[3], DType::F32).unwrap();
        let b = Tensor::zeros(&[2, 3], DType::F32).unwrap();
        assert_eq!(
            a.add_(&b).unwrap_err().to_string(),
            "output with shape [3] doesn't match the broadcast shape [2, 3]"
        );
    }

    #[test]
    fn pow_scalar_promotes_like_pytorch() {
        let t = Tensor::from_vec(vec![2i64, 3], &[2]).unwrap();
        assert_eq!(
            t.pow_scalar(2).unwrap().to_vec::<i64>().unwrap(),
            vec![4, 9]
        );
        let f = t.pow_scalar(0.5).unwrap();
        assert_eq!(f.dtype(), DType::F32);
        assert!(t.pow_scalar(-1).is_err());
    }
}
