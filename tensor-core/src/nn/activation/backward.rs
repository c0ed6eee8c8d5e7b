//! Backward of `F.gelu` (exact and tanh) and `F.silu`, elementwise with PyTorch's
//! formulas (`GeluBackwardKernelImpl`, `silu_backward_kernel`):
//!
//! - exact: `dx = dy · (Φ(x) + x·φ(x))`, `Φ(x) = (1 + erf(x/√2))/2`, `φ(x) = e^(-x²/2)/√(2π)`;
//! - tanh: with `u = √(2/π)·(x + 0.044715·x³)`, `t = tanh(u)`:
//!   `dx = dy · (½(1 + t) + ½x·(1 - t²)·√(2/π)·(1 + 3·0.044715·x²))`;
//! - silu: with `s = σ(x)`: `dx = dy · s · (1 + x·(1 - s))`.
//!
//! The exact GELU's derivative is computed in `f64`; the tanh GELU's and SiLU's in the
//! accumulation type (`f32` for `f16`/`bf16`/`f32`, as PyTorch's vectorised kernels),
//! each rounded once to the input's dtype.

use super::approximate::GeluApproximate;
use crate::error::Result;
use crate::kernels::acc::{dispatch_float, Acc, FloatAcc};
use crate::nn::backward::common::{load, store};
use crate::nn::erf::erf;
use crate::tensor::Tensor;

#[cfg_attr(unoptimized, inline)]
fn gelu_exact(x: f64) -> f64 {
    let cdf = 0.5 * (1.0 + erf(x * std::f64::consts::FRAC_1_SQRT_2));
    let pdf = (-0.5 * x * x).exp()
        * (0.5 * std::f64::consts::FRAC_2_SQRT_PI * std::f64::consts::FRAC_1_SQRT_2);
    cdf + x * pdf
}

/// `d gelu_tanh / dx` in the accumulation type, branch-free so that the loop
/// vectorises. With `s = σ(2u)` (so `½(1 + t) = s` and `1 - t² = 4s(1 - s)`):
/// `s + 2x·s(1 - s)·√(2/π)·(1 + 3·0.044715·x²)`, `1 - s = e·s` with `e = e^(-2u)`
/// (no cancellation for large `|u|`; `-2u` capped at 80 so that `e` stays finite).
/// An infinite `x` gives NaN, as PyTorch's `x·(1 - t²) = ±∞·0`.
#[inline(always)]
fn gelu_tanh<A: Acc>(x: A) -> A {
    let beta = A::c(std::f64::consts::SQRT_2 * std::f64::consts::FRAC_2_SQRT_PI * 0.5);
    let kappa = A::c(0.044715);
    let x2 = x * x;
    let u = beta * (x + kappa * x2 * x);
    let e = (A::c(-2.0) * u).min(A::c(80.0)).exp_fast();
    let s = A::one() / (A::one() + e);
    let d = s + A::c(2.0) * x * s * (e * s) * beta * (A::one() + A::c(3.0) * kappa * x2);
    if x.is_infinite() {
        A::nan()
    } else {
        d
    }
}

/// `d silu / dx = s·(1 + x·(1 - s))`, `s = σ(x)`, `1 - s = e^(-x)·s` (capped as in
/// [`gelu_tanh`]); an infinite `x` gives NaN, as PyTorch's `0·(-∞)` and `∞·0`.
#[inline(always)]
fn silu<A: Acc>(x: A) -> A {
    let e = (-x).min(A::c(80.0)).exp_fast();
    let s = A::one() / (A::one() + e);
    let d = s * (A::one() + x * (e * s));
    if x.is_infinite() {
        A::nan()
    } else {
        d
    }
}

/// `dx = dy · f'(x)` computed in `f64` (the exact GELU, through `erf`).
fn map<A: Acc>(grad: &Tensor, input: &Tensor, f: fn(f64) -> f64) -> Result<Tensor> {
    let g = load::<A>(grad)?;
    let x = load::<A>(input)?;
    let dx: Vec<A> = g
        .iter()
        .zip(&x)
        .map(|(&g, &x)| A::from_f64(g.to_f64() * f(x.to_f64())))
        .collect();
    store(dx, input.sizes(), input.dtype())
}

/// `dx = dy · f'(x)` computed in the accumulation type `A` (PyTorch's opmath), with a
/// derivative `f` the compiler vectorises.
fn map_acc<A: Acc>(grad: &Tensor, input: &Tensor, f: impl Fn(A) -> A) -> Result<Tensor> {
    let g = load::<A>(grad)?;
    let mut x = load::<A>(input)?;
    for (x, &g) in x.iter_mut().zip(&g) {
        *x = g * f(*x);
    }
    store(x, input.sizes(), input.dtype())
}

/// The gradient of `F.gelu(input, approximate)` with respect to `input`, given the
/// gradient `grad` of its output (same sizes); contiguous, in the input's dtype.
///
/// # Errors
/// A non-float dtype; allocation errors.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn gelu_backward(
    grad: &Tensor,
    input: &Tensor,
    approximate: GeluApproximate,
) -> Result<Tensor> {
    dispatch_float!(input.dtype(), "GeluBackwardKernelImpl", T, {
        type A = <T as FloatAcc>::A;
        match approximate {
            GeluApproximate::None => map::<A>(grad, input, gelu_exact),
            GeluApproximate::Tanh => map_acc::<A>(grad, input, gelu_tanh::<A>),
        }
    })
}

/// The gradient of `F.silu(input)` with respect to `input`; as [`gelu_backward`].
///
/// # Errors
/// As [`gelu_backward`].
#[cfg_attr(unoptimized, inline)]
pub(crate) fn silu_backward(grad: &Tensor, input: &Tensor) -> Result<Tensor> {
    dispatch_float!(input.dtype(), "silu_backward_cpu", T, {
        type A = <T as FloatAcc>::A;
        map_acc::<A>(grad, input, silu::<A>)
    })
}
