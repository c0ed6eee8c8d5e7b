//! Unary elementwise ops, generated from the one table in [`defs.rs`](self::defs): the
//! [`UnaryOp`] enum, the kernels (one per op and dtype; without optimisation one loop per
//! dtype that picks the op per element), the iterator build, the autograd node, and each
//! op's functional, in-place (`neg_`) and output (`neg_out`) methods on [`Tensor`].

mod defs;

use crate::autograd::{self, Node, SavedTensor};
use crate::dispatch_dtype;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::iterator::{TensorIterator, TensorIteratorConfig, Written};
use crate::kernels::arith::{Arith, FloatMath};
use crate::kernels::{per_op, unary};
use crate::tensor::Tensor;
#[allow(unused_imports)] // used by some rows of the table (`One::one()`)
use num_traits::{Float, One};

/// Where an op's derivative is smooth: where gradient checks draw their inputs (as
/// PyTorch's OpInfo `domain`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Domain {
    /// Every real number.
    All,
    /// `x > 0` (`log`, `sqrt`).
    Positive,
    /// `x != 0` (`abs`, `relu`: a kink at 0; `div`'s divisor).
    NonZero,
    /// Two operands apart from each other (`maximum`, `minimum`: a kink where they are
    /// equal).
    Distinct,
}

/// Which partial SBP of a global tensor a unary op keeps (it commutes with the
/// reduction); any other partial input is broadcast first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartialRule {
    /// None: a partial input is broadcast first.
    Broadcasts,
    /// `neg`: a sum stays a sum (integers wrap alike); for floats max and min swap.
    Negates,
    /// Non-decreasing (`relu`): max and min stay.
    Monotone,
}

/// What the backward of a unary op keeps from the forward.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Saves {
    Nothing,
    Input,
    Result,
}

/// `sign(x)` in `x`'s dtype: 1, -1 or 0 (the derivative of `abs`).
#[cfg_attr(unoptimized, inline)]
fn sign(x: &Tensor) -> Result<Tensor> {
    x.gt_scalar(0)?
        .to_dtype(x.dtype())?
        .sub(&x.lt_scalar(0)?.to_dtype(x.dtype())?)
}

/// PyTorch's `threshold_backward(grad, result, 0)`: `grad` where the relu's result is
/// above 0, else 0 (a NaN result lets the gradient through, as PyTorch). One pass for
/// `float32`/`float64` of the same dtype; other dtypes through `where`.
#[cfg_attr(unoptimized, inline)]
fn threshold_backward(g: &Tensor, result: &Tensor) -> Result<Tensor> {
    if g.dtype() != result.dtype() || !matches!(g.dtype(), DType::F32 | DType::F64) {
        let kill = result.le_scalar(0)?;
        let zero = Tensor::zeros(&[], g.dtype())?;
        return Tensor::where_(&kill, &zero, g);
    }
    // The output takes the inputs' (common) dtype.
    let config = || {
        TensorIteratorConfig::new()
            .add_undefined_output()
            .add_const_input(g)
            .add_const_input(result)
    };
    let iter =
        TensorIterator::build_or_trivial_and_run(true, None, &[g, result], config, |iter| {
            Ok(match g.dtype() {
                DType::F32 => {
                    crate::kernels::binary::<f32, f32, _>(
                        iter,
                        |g, y| if y <= 0.0 { 0.0 } else { g },
                    )
                }
                _ => crate::kernels::binary::<f64, f64, _>(
                    iter,
                    |g, y| if y <= 0.0 { 0.0 } else { g },
                ),
            })
        })?;
    Ok(iter.final_output(0).alias())
}

/// `true` for a `float` row of the table.
macro_rules! is_float {
    (all) => {
        false
    };
    (float) => {
        true
    };
}

/// The kernels, from the table's rows split by kind: `kernel` (the `all` rows over every
/// dtype) and `float_kernel` (the `float` rows over the float dtypes). One kernel per op
/// and dtype; without optimisation one per dtype that picks the op per element
/// (`kernels::per_op!`).
macro_rules! unary_kernels {
    (@split [$($a:tt)*] [$($f:tt)*] all $V:ident $k:tt; $($rest:tt)*) => {
        unary_kernels!(@split [$($a)* $V $k;] [$($f)*] $($rest)*);
    };
    (@split [$($a:tt)*] [$($f:tt)*] float $V:ident $k:tt; $($rest:tt)*) => {
        unary_kernels!(@split [$($a)*] [$($f)* $V $k;] $($rest)*);
    };
    (@split [$($Va:ident $ka:tt;)*] [$($Vf:ident $kf:tt;)*]) => {
        /// The kernel of `op` over the iterator's dtype.
        #[cfg_attr(unoptimized, inline)]
        fn kernel(iter: &TensorIterator, op: UnaryOp) -> Written<'_> {
            if op.is_float_op() {
                return match iter.dtype(0) {
                    DType::F16 => float_kernel::<half::f16>(iter, op),
                    DType::BF16 => float_kernel::<half::bf16>(iter, op),
                    DType::F32 => float_kernel::<f32>(iter, op),
                    DType::F64 => float_kernel::<f64>(iter, op),
                    d => unreachable!("float op computed in {d}"),
                };
            }
            dispatch_dtype!(iter.dtype(0), T, {
                per_op!(op, (x: T) {
                    $(UnaryOp::$Va => ($ka)(x),)*
                } else unreachable!("a float op in the all-dtype dispatch")
                => |f| unary::<T, T, _>(iter, f))
            })
        }

        /// The kernel of a float op in float dtype `T`.
        fn float_kernel<T: FloatMath>(iter: &TensorIterator, op: UnaryOp) -> Written<'_> {
            per_op!(op, (v: T) {
                $(UnaryOp::$Vf => <T as FloatMath>::map(v, $kf),)*
            } else unreachable!("an all-dtype op in the float dispatch")
            => |f| unary::<T, T, _>(iter, f))
        }
    };
}

/// Everything generated from the table: see `defs.rs` for a row's parts.
macro_rules! unary_family {
    ($( $name:ident {
        variant: $V:ident, inplace: $inplace:ident, out: $out:ident,
        torch: $torch:literal, doc: $what:literal,
        kernel: $kind:ident $kernel:tt,
        bool_error: $bool_error:expr,
        backward: $node:literal saves $saves:ident |$g:ident, $s:pat_param| $grad:expr,
        smooth: $domain:ident, partial: $partial:ident $(,)?
    } )*) => {
        /// The unary elementwise ops, one per row of the op table
        /// (`tensor-core/src/ops/unary/defs.rs`). [`Tensor::unary`] runs one;
        /// [`UnaryOp::ALL`] lists them.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum UnaryOp {
            $(
                #[doc = concat!("`torch.", $torch, "`: ", $what, ".")]
                $V,
            )*
        }

        impl UnaryOp {
            /// Every unary op, in table order.
            pub const ALL: &'static [UnaryOp] = &[$(UnaryOp::$V),*];

            /// PyTorch's name of the op (`"exp"`), also the method's name.
            #[cfg_attr(unoptimized, inline)]
            pub fn name(self) -> &'static str {
                match self {
                    $(UnaryOp::$V => $torch,)*
                }
            }

            /// The op of a PyTorch name (`"exp"`), if it is one of [`UnaryOp::ALL`].
            #[cfg_attr(unoptimized, inline)]
            pub fn from_name(name: &str) -> Option<UnaryOp> {
                UnaryOp::ALL.iter().copied().find(|op| op.name() == name)
            }

            /// `true` when integral inputs compute in float32 (PyTorch's
            /// `build_unary_float_op`); `false` when the result keeps the input's dtype.
            #[cfg_attr(unoptimized, inline)]
            pub fn is_float_op(self) -> bool {
                match self {
                    $(UnaryOp::$V => is_float!($kind),)*
                }
            }

            /// The name of the op's autograd node (`"ExpBackward0"`).
            #[cfg_attr(unoptimized, inline)]
            pub fn backward_name(self) -> &'static str {
                match self {
                    $(UnaryOp::$V => $node,)*
                }
            }

            /// Where the op's derivative is smooth.
            #[cfg_attr(unoptimized, inline)]
            pub fn domain(self) -> Domain {
                match self {
                    $(UnaryOp::$V => Domain::$domain,)*
                }
            }

            /// Which partial SBP a global tensor keeps through the op.
            #[cfg_attr(unoptimized, inline)]
            pub fn partial_rule(self) -> PartialRule {
                match self {
                    $(UnaryOp::$V => PartialRule::$partial,)*
                }
            }

            /// PyTorch's error for a bool input, for the ops that refuse one.
            #[cfg_attr(unoptimized, inline)]
            fn bool_error(self) -> Option<&'static str> {
                match self {
                    $(UnaryOp::$V => $bool_error,)*
                }
            }

            #[cfg_attr(unoptimized, inline)]
            fn saves(self) -> Saves {
                match self {
                    $(UnaryOp::$V => unary_family!(@saves $saves),)*
                }
            }
        }

        unary_kernels!(@split [] [] $($kind $V $kernel;)*);

        impl Node for UnaryBackward {
            #[cfg_attr(unoptimized, inline)]
            fn name(&self) -> &'static str {
                self.op.backward_name()
            }
            #[cfg_attr(unoptimized, inline)]
            fn apply(&self, grads: &[Option<Tensor>]) -> Result<Vec<Option<Tensor>>> {
                let g = autograd::first(grads)?;
                let saved = match &self.saved {
                    Some(s) => Some(s.unpack()?),
                    None => None,
                };
                // A row that saves nothing never reads its second argument.
                let saved = saved.as_ref().unwrap_or(g);
                let gi = match self.op {
                    $(UnaryOp::$V => {
                        let ($g, $s) = (g, saved);
                        $grad
                    })*
                };
                Ok(vec![Some(gi)])
            }
            #[cfg_attr(unoptimized, inline)]
            fn release(&self) {
                self.saved.iter().for_each(SavedTensor::release);
            }
        }

        impl Tensor {
            $(
                #[doc = concat!("`torch.", $torch, "(self)`: ", $what, ", elementwise, in a new tensor of")]
                /// the same sizes (strides follow the input's layout as PyTorch's
                /// TensorIterator does).
                ///
                /// # Errors
                /// [`Error::UnsupportedDType`] where PyTorch rejects the dtype (bool for
                /// `neg` and `relu`).
                #[cfg_attr(unoptimized, inline)]
                pub fn $name(&self) -> Result<Tensor> {
                    self.unary(UnaryOp::$V)
                }

                #[doc = concat!("`Tensor.", $torch, "_()`: ", $what, " in place.")]
                ///
                /// # Errors
                /// As the functional form; [`Error::InternalOverlap`] when `self` has
                /// overlapping elements; [`Error::UnsafeCast`] when the result dtype
                /// cannot be stored in `self` (float ops on integral tensors).
                #[cfg_attr(unoptimized, inline)]
                pub fn $inplace(&self) -> Result<()> {
                    self.unary_(UnaryOp::$V)
                }

                #[doc = concat!("`torch.", $torch, "(self, out=out)`: ", $what, " written into `out`.")]
                /// Returns the tensor written: `out` itself, or a fresh tensor when `out`
                /// had to be resized (a PyTorch `resize_` cannot change this handle).
                ///
                /// # Errors
                /// As the functional form; overlap errors;
                /// [`Error::DTypeMismatch`] / [`Error::UnsafeCast`] for `out`'s dtype.
                #[cfg_attr(unoptimized, inline)]
                pub fn $out(&self, out: &Tensor) -> Result<Tensor> {
                    self.unary_out(UnaryOp::$V, out)
                }
            )*
        }
    };
    (@saves nothing) => { Saves::Nothing };
    (@saves input) => { Saves::Input };
    (@saves result) => { Saves::Result };
}

crate::__unary_ops!(unary_family);

impl UnaryOp {
    /// PyTorch's checks before the iterator is built (a bool input where refused).
    #[cfg_attr(unoptimized, inline)]
    fn check(self, input: &Tensor) -> Result<()> {
        match self.bool_error() {
            Some(message) if input.dtype() == DType::Bool => Err(Error::UnsupportedDType {
                message: message.into(),
            }),
            _ => Ok(()),
        }
    }
}

/// Builds the iterator for `op` on `input` writing `out` (allocated when `None`), runs
/// the kernel and copies temporaries back. Returns the written tensor.
#[cfg_attr(unoptimized, inline)]
fn run(op: UnaryOp, input: &Tensor, out: Option<&Tensor>) -> Result<Tensor> {
    op.check(input)?;
    if let Some(o) = out {
        autograd::check_writable(o)?;
    }
    let config = || {
        if op.is_float_op() {
            TensorIteratorConfig::unary_float_op(out, input)
        } else {
            TensorIteratorConfig::unary_op(out, input)
        }
    };
    let eligible = !op.is_float_op() || input.dtype().is_floating();
    let iter = TensorIterator::build_or_trivial_and_run(eligible, out, &[input], config, |iter| {
        Ok(kernel(iter, op))
    })?;
    if let Some(o) = out {
        autograd::wrote(o);
    }
    Ok(iter.final_output(0).alias())
}

/// The backward of a unary op: the table's gradient, with the input or the result saved
/// as the row says.
struct UnaryBackward {
    op: UnaryOp,
    saved: Option<SavedTensor>,
}

impl UnaryBackward {
    #[cfg_attr(unoptimized, inline)]
    fn new(op: UnaryOp, input: &Tensor, result: &Tensor) -> UnaryBackward {
        let saved = match op.saves() {
            Saves::Nothing => None,
            Saves::Input => Some(SavedTensor::input(input)),
            Saves::Result => Some(SavedTensor::output(result, op.backward_name(), 0)),
        };
        UnaryBackward { op, saved }
    }
}

impl Tensor {
    /// The unary op `op` (`torch.<op.name()>(self)`), recorded for autograd: what
    /// [`Tensor::exp`] and the other methods of [`UnaryOp::ALL`] call.
    ///
    /// # Errors
    /// As the op's method (bool inputs where PyTorch refuses them).
    #[cfg_attr(unoptimized, inline)]
    pub fn unary(&self, op: UnaryOp) -> Result<Tensor> {
        autograd::apply(
            &[self],
            || run(op, self, None),
            |out| UnaryBackward::new(op, self, out),
        )
    }

    /// `op` in place (`Tensor.<name>_()`).
    ///
    /// # Errors
    /// As [`Tensor::unary`]; overlap and unsafe-cast errors.
    #[cfg_attr(unoptimized, inline)]
    pub fn unary_(&self, op: UnaryOp) -> Result<()> {
        if autograd::needs_grad(&[self]) {
            return autograd::inplace_rebase(self, |old| old.unary(op));
        }
        run(op, self, Some(self)).map(|_| ())
    }

    /// `op` written into `out` (`torch.<name>(self, out=out)`).
    ///
    /// # Errors
    /// As [`Tensor::unary`]; overlap errors; `out`'s dtype.
    #[cfg_attr(unoptimized, inline)]
    pub fn unary_out(&self, op: UnaryOp, out: &Tensor) -> Result<Tensor> {
        autograd::check_out(op.name(), &[self], out)?;
        run(op, self, Some(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neg_of_bool_is_rejected_with_pytorch_message() {
        let t = Tensor::zeros(&[2], DType::Bool).unwrap();
        let e = t.neg().unwrap_err();
        assert!(matches!(e, Error::UnsupportedDType { .. }));
        assert!(e
            .to_string()
            .starts_with("Negation, the `-` operator, on a bool tensor"));
    }

    #[test]
    fn exp_of_int_is_float32() {
        let t = Tensor::from_vec(vec![0i64, 1], &[2]).unwrap();
        let e = t.exp().unwrap();
        assert_eq!(e.dtype(), DType::F32);
        assert_eq!(e.to_vec::<f32>().unwrap(), vec![1.0, std::f32::consts::E]);
        assert_eq!(
            t.exp_().unwrap_err().to_string(),
            "result type Float can't be cast to the desired output type Long"
        );
    }

    #[test]
    fn neg_out_of_other_dtype_is_an_error() {
        let t = Tensor::zeros(&[2], DType::F32).unwrap();
        let out = Tensor::zeros(&[2], DType::F64).unwrap();
        assert!(t
            .neg_out(&out)
            .unwrap_err()
            .to_string()
            .contains("Found dtype Double but expected Float"));
    }

    #[test]
    fn relu_and_neg_in_place() {
        let t = Tensor::from_vec(vec![-1.0f32, 2.0, f32::NAN], &[3]).unwrap();
        let r = t.relu().unwrap().to_vec::<f32>().unwrap();
        assert_eq!(&r[..2], &[0.0, 2.0]);
        assert!(r[2].is_nan());
        t.neg_().unwrap();
        assert_eq!(t.to_vec::<f32>().unwrap()[..2], [1.0, -2.0]);
    }

    #[test]
    fn sin_and_cos_are_stds_in_every_float_dtype_and_float32_for_integers() {
        let x = [0.0f32, 0.5, -1.25, 3.0];
        let t = Tensor::from_vec(x.to_vec(), &[4]).unwrap();
        let want: Vec<f32> = x.iter().map(|v| v.sin()).collect();
        assert_eq!(t.sin().unwrap().to_vec::<f32>().unwrap(), want);
        let want: Vec<f32> = x.iter().map(|v| v.cos()).collect();
        assert_eq!(t.cos().unwrap().to_vec::<f32>().unwrap(), want);
        let d = Tensor::from_vec(vec![0.5f64], &[1]).unwrap();
        assert_eq!(d.sin().unwrap().to_vec::<f64>().unwrap(), [0.5f64.sin()]);
        let h = Tensor::from_vec(vec![half::f16::from_f32(0.5)], &[1]).unwrap();
        let hs = h.sin().unwrap().to_vec::<half::f16>().unwrap();
        assert_eq!(hs, [half::f16::from_f32(0.5f32.sin())]);
        let i = Tensor::from_vec(vec![1i64], &[1]).unwrap();
        let s = i.sin().unwrap();
        assert_eq!(s.dtype(), DType::F32);
        assert_eq!(s.to_vec::<f32>().unwrap(), [1.0f32.sin()]);
    }

    #[test]
    fn rsqrt_is_one_over_the_square_root_and_nan_below_zero_as_pytorchs() {
        let t = Tensor::from_vec(vec![4.0f32, 0.25, 0.0, -1.0], &[4]).unwrap();
        let r = t.rsqrt().unwrap().to_vec::<f32>().unwrap();
        assert_eq!(r[..3], [0.5, 2.0, f32::INFINITY]);
        assert!(r[3].is_nan());
        let i = Tensor::from_vec(vec![16i64], &[1]).unwrap();
        assert_eq!(i.rsqrt().unwrap().to_vec::<f32>().unwrap(), [0.25]);
        // `-0.5 · g · y³`: at x = 4, y = 1/2, the gradient of one is -1/16.
        let x = Tensor::from_vec(vec![4.0f64], &[1])
            .unwrap()
            .requires_grad_(true)
            .unwrap();
        x.rsqrt()
            .unwrap()
            .sum(&[], false)
            .unwrap()
            .backward()
            .unwrap();
        assert_eq!(x.grad().unwrap().to_vec::<f64>().unwrap(), [-0.0625]);
    }

    #[test]
    fn every_op_of_the_table_is_listed_once_by_its_pytorch_name() {
        for &op in UnaryOp::ALL {
            assert_eq!(UnaryOp::from_name(op.name()), Some(op));
            assert!(op.backward_name().ends_with("Backward0"));
        }
        assert_eq!(UnaryOp::from_name("sinh"), None);
    }

    #[test]
    fn sin_backward_is_cos_and_cos_backward_is_minus_sin() {
        let x = Tensor::from_vec(vec![0.3f64, -1.1], &[2])
            .unwrap()
            .requires_grad_(true)
            .unwrap();
        x.sin()
            .unwrap()
            .sum(&[], false)
            .unwrap()
            .backward()
            .unwrap();
        let g = x.grad().unwrap().to_vec::<f64>().unwrap();
        assert_eq!(g, [0.3f64.cos(), (-1.1f64).cos()]);
        let y = Tensor::from_vec(vec![0.3f64], &[1])
            .unwrap()
            .requires_grad_(true)
            .unwrap();
        let out = y.cos().unwrap();
        assert_eq!(out.grad_fn_name(), Some("CosBackward0"));
        out.sum(&[], false).unwrap().backward().unwrap();
        assert_eq!(
            y.grad().unwrap().to_vec::<f64>().unwrap(),
            [-(0.3f64.sin())]
        );
    }
}
