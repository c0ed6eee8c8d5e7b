//! Backward of `F.gelu` (exact and tanh) and `F.silu`, elementwise with PyTorch's
//! formulas (`GeluBackwardKernelImpl`, `silu_backward_kernel`):
//!
//! - exact: `dx = dy · (Φ(x) + x·φ(x))`, `Φ(x) = (1 + erf(x/√2))/2`, `φ(x) = e^(-x²/2)/√(2π)`;
//! - tanh: with `u = √(2/π)·(x + 0.044715·x³)`, `t = tanh(u)`:
//!   `dx = dy · (½(1 + t) + ½x·(1 - t²)·√(2/π)·(1 + 3·0.044715·x²))`;
//! - silu: with `s = σ(x)`: `dx = dy · s · (1 + x·(1 - s))`.
//!
//! Each element is computed in `f64` and rounded once to the input's dtype.

use super::common::{dispatch_acc, load, store, Real};
use crate::error::Result;
use crate::nn::GeluApproximate;
use crate::Tensor;

fn gelu_exact(x: f64) -> f64 {
    let cdf = 0.5 * (1.0 + libm::erf(x * std::f64::consts::FRAC_1_SQRT_2));
    let pdf = (-0.5 * x * x).exp()
        * (0.5 * std::f64::consts::FRAC_2_SQRT_PI * std::f64::consts::FRAC_1_SQRT_2);
    cdf + x * pdf
}

fn gelu_tanh(x: f64) -> f64 {
    const KAPPA: f64 = 0.044715;
    let beta = std::f64::consts::SQRT_2 * std::f64::consts::FRAC_2_SQRT_PI * 0.5;
    let inner = beta * (x + KAPPA * x * x * x);
    let t = inner.tanh();
    0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * beta * (1.0 + 3.0 * KAPPA * x * x)
}

fn silu(x: f64) -> f64 {
    let s = 1.0 / (1.0 + (-x).exp());
    s * (1.0 + x * (1.0 - s))
}

fn map<A: Real>(grad: &Tensor, input: &Tensor, f: fn(f64) -> f64) -> Result<Tensor> {
    let g = load::<A>(grad)?;
    let x = load::<A>(input)?;
    let dx: Vec<A> = g
        .iter()
        .zip(&x)
        .map(|(&g, &x)| A::from_f64(g.to_f64() * f(x.to_f64())))
        .collect();
    store(dx, input.sizes(), input.dtype())
}

/// The gradient of `F.gelu(input, approximate)` with respect to `input`, given the
/// gradient `grad` of its output (same sizes); contiguous, in the input's dtype.
///
/// # Errors
/// A non-float dtype; allocation errors.
pub(crate) fn gelu_backward(
    grad: &Tensor,
    input: &Tensor,
    approximate: GeluApproximate,
) -> Result<Tensor> {
    let f = match approximate {
        GeluApproximate::None => gelu_exact,
        GeluApproximate::Tanh => gelu_tanh,
    };
    dispatch_acc!(
        input.dtype(),
        "GeluBackwardKernelImpl",
        A,
        map::<A>(grad, input, f)
    )
}

/// The gradient of `F.silu(input)` with respect to `input`; as [`gelu_backward`].
///
/// # Errors
/// As [`gelu_backward`].
pub(crate) fn silu_backward(grad: &Tensor, input: &Tensor) -> Result<Tensor> {
    dispatch_acc!(
        input.dtype(),
        "silu_backward_cpu",
        A,
        map::<A>(grad, input, silu)
    )
}
