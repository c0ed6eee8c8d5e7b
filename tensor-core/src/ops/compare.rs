//! Comparisons `eq ne lt le gt ge`: inputs promoted to their common dtype, a bool
//! result (or any `out` dtype, computed in the common dtype and cast).

use super::binary::Arg;
use crate::dispatch_dtype;
use crate::dtype::DType;
use crate::element::Element;
use crate::error::Result;
use crate::iterator::{TensorIterator, TensorIteratorConfig, Written};
use crate::kernels::{binary, per_op};
use crate::scalar::Scalar;
use crate::tensor::Tensor;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

#[inline(always)]
fn compare<T: PartialOrd>(op: CmpOp, a: T, b: T) -> bool {
    match op {
        CmpOp::Eq => a == b,
        CmpOp::Ne => a != b,
        CmpOp::Lt => a < b,
        CmpOp::Le => a <= b,
        CmpOp::Gt => a > b,
        CmpOp::Ge => a >= b,
    }
}

fn kernel_for<T: Element>(iter: &TensorIterator, op: CmpOp) -> Written<'_> {
    if iter.dtype(0) != DType::Bool {
        // A non-bool `out` (computed in the common dtype, then cast): rare, so one loop
        // per dtype serves every comparison, chosen per element.
        return binary::<T, T, _>(
            iter,
            move |a: T, b: T| T::from_i64(compare(op, a, b) as i64),
        );
    }
    // Bool outputs: one kernel per comparison (or, without optimisation, one per dtype
    // as above: `kernels::per_op!`).
    macro_rules! each {
        ($($V:ident)*) => {
            per_op!(op, (a: T, b: T) {
                $(CmpOp::$V => compare(CmpOp::$V, a, b),)*
            } => |f| binary::<T, bool, _>(iter, f))
        };
    }
    each!(Eq Ne Lt Le Gt Ge)
}

/// `build_borrowing_comparison_op`: promote inputs; an allocated output is bool
/// (`declare_static_dtype`); a given non-bool output gets a temporary.
#[cfg_attr(unoptimized, inline)]
fn run(op: CmpOp, a: Arg<'_>, b: Arg<'_>, out: Option<&Tensor>) -> Result<Tensor> {
    let mut config = TensorIteratorConfig::new()
        .set_check_mem_overlap(true)
        .allow_cpu_scalars(true)
        .promote_inputs_to_common_dtype(true);
    match out {
        None => config = config.declare_static_dtype(DType::Bool),
        Some(o) if o.dtype() != DType::Bool => config = config.cast_common_dtype_to_outputs(true),
        Some(_) => {}
    }
    let config = b.add_to(a.add_to(config.add_maybe_output(out)));
    let iter = TensorIterator::build_and_run(config, |iter| {
        Ok(dispatch_dtype!(iter.dtype(1), T, kernel_for::<T>(iter, op)))
    })?;
    Ok(iter.final_output(0).alias())
}

macro_rules! compare_methods {
    ($($name:ident, $scalar:ident, $out:ident, $op:expr, $sym:literal;)*) => {
        impl Tensor {
            $(
                #[doc = concat!("`torch.", stringify!($name), "(self, other)`: `self ", $sym, " other` elementwise as a bool")]
                /// tensor, after broadcasting and promoting both to their common dtype.
                ///
                /// # Errors
                /// [`Error::Broadcast`](crate::error::Error::Broadcast) when the shapes do not
                /// broadcast.
                #[cfg_attr(unoptimized, inline)]
                pub fn $name(&self, other: &Tensor) -> Result<Tensor> {
                    run($op, Arg::T(self), Arg::T(other), None)
                }

                #[doc = concat!("`torch.", stringify!($name), "(self, scalar)`: `self ", $sym, " scalar` as a bool tensor")]
                /// (the scalar promotes as a wrapped number).
                ///
                /// # Errors
                /// None in practice; allocation errors.
                pub fn $scalar(&self, other: impl Into<Scalar>) -> Result<Tensor> {
                    run($op, Arg::T(self), Arg::S(other.into()), None)
                }

                #[doc = concat!("`torch.", stringify!($name), "(self, other, out=out)`: the comparison written into `out`")]
                /// (any dtype: 0/1). Returns the tensor written.
                ///
                /// # Errors
                /// As the functional form; overlap and output-shape errors.
                #[cfg_attr(unoptimized, inline)]
                pub fn $out(&self, other: &Tensor, out: &Tensor) -> Result<Tensor> {
                    crate::autograd::check_writable(out)?;
                    let r = run($op, Arg::T(self), Arg::T(other), Some(out))?;
                    crate::autograd::wrote(out);
                    Ok(r)
                }
            )*
        }
    };
}

compare_methods! {
    eq, eq_scalar, eq_out, CmpOp::Eq, "==";
    ne, ne_scalar, ne_out, CmpOp::Ne, "!=";
    lt, lt_scalar, lt_out, CmpOp::Lt, "<";
    le, le_scalar, le_out, CmpOp::Le, "<=";
    gt, gt_scalar, gt_out, CmpOp::Gt, ">";
    ge, ge_scalar, ge_out, CmpOp::Ge, ">=";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn int_lt_float_promotes_then_gives_bool() {
        let a = Tensor::from_vec(vec![1i32, 2, 3], &[3]).unwrap();
        let b = Tensor::from_vec(vec![2.5f32], &[1]).unwrap();
        let r = a.lt(&b).unwrap();
        assert_eq!(r.dtype(), DType::Bool);
        assert_eq!(r.to_vec::<bool>().unwrap(), vec![true, true, false]);
        assert_eq!(
            a.ge_scalar(2).unwrap().to_vec::<bool>().unwrap(),
            vec![false, true, true]
        );
    }

    #[test]
    fn comparison_into_float_out() {
        let a = Tensor::from_vec(vec![1.0f64, 2.0], &[2]).unwrap();
        let out = Tensor::zeros(&[2], DType::F32).unwrap();
        a.eq_out(&a, &out).unwrap();
        assert_eq!(out.to_vec::<f32>().unwrap(), vec![1.0, 1.0]);
    }
}
