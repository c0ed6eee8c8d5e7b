//! Elementwise activations: `gelu` (exact and tanh) and `silu`, as PyTorch's
//! `GeluKernelImpl` and `silu_kernel`: float dtypes only, computed in the accumulation
//! type, the result laid out as the TensorIterator lays out a unary op's output.
//!
//! A non-overlapping and dense input (contiguous, channels_last, permuted...) is mapped
//! as one flat span into an output with its strides (the iterator's fast setup); any
//! other layout goes through the iterator.

mod approximate;
pub(super) mod backward;

pub use approximate::GeluApproximate;

use super::backward::node::node;
use super::erf::erf;
use crate::autograd::{self, SavedTensor};
use crate::error::Result;
use crate::iterator::{TensorIterator, TensorIteratorConfig};
use crate::kernels::acc::{check_float, dispatch_float, sigmoid, Acc, FloatAcc};
use crate::kernels::rows::par_flat;
use crate::kernels::unary;
use crate::tensor::Tensor;

/// The elementwise functions, in the accumulation type (or `f64` for the exact gelu,
/// through [`erf`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Activation {
    GeluExact,
    GeluTanh,
    Silu,
}

impl Activation {
    #[cfg_attr(unoptimized, inline)]
    fn kernel_name(self) -> &'static str {
        match self {
            Activation::GeluExact | Activation::GeluTanh => "GeluKernelImpl",
            Activation::Silu => "silu_cpu",
        }
    }
}

/// `x Φ(x)`, through [`erf`] in `f64`.
#[inline(always)]
fn gelu_exact<T: FloatAcc>(x: T) -> T {
    let v = x.to_f64();
    T::from_f64(v * 0.5 * (1.0 + erf(v * std::f64::consts::FRAC_1_SQRT_2)))
}

/// `x σ(x)` in the accumulation type.
#[inline(always)]
fn silu_of<T: FloatAcc>(x: T) -> T {
    let v = x.up();
    T::down(v * sigmoid(v))
}

/// `x (1 + tanh(u)) / 2` with `u = √(2/π) (x + 0.044715 x³)`, computed as
/// `x / (1 + e^(-2u))` (the same value; no cancellation for negative `x`).
#[inline(always)]
fn gelu_tanh<A: Acc>(x: A) -> A {
    let k = A::c(0.797_884_560_802_865_4); // √(2/π)
    let u = k * (x + A::c(0.044715) * x * x * x);
    x / (A::one() + (A::c(-2.0) * u).exp_fast())
}

/// `f` applied to every element of `input`, laid out as PyTorch's unary ops.
fn map<T: FloatAcc>(input: &Tensor, f: impl Fn(T) -> T + Copy + Sync) -> Result<Tensor> {
    if input.numel() == 0 {
        return Tensor::empty(input.sizes(), input.dtype());
    }
    if input.layout().is_non_overlapping_and_dense() {
        // The iterator's fast setup: contiguous first (size-1 dims ignored, so
        // `[1]` with stride 7 gives stride 1), then channels-last, else the input's
        // strides; all three walk the elements in the same storage order.
        let strides = if input.is_contiguous() {
            crate::layout::contiguous_strides(input.sizes())
        } else if input.layout().is_channels_last_contiguous() {
            crate::layout::channels_last_strides_2d(input.sizes())
                .unwrap_or_else(|| input.strides().to_vec())
        } else {
            input.strides().to_vec()
        };
        // SAFETY: the layout is non-overlapping and dense (checked above), so its
        // elements are exactly the storage's first `n`; `par_flat` writes each of them
        // before `out` is returned, and nothing else can reach `out` before then.
        // Those strides are dense too.
        let out = unsafe { Tensor::empty_strided_uninit(input.sizes(), &strides, input.dtype())? };
        let n = input.numel();
        {
            let src = input.storage().read();
            let off = input.storage_offset();
            let xs = &src.as_slice::<T>()[off..off + n];
            let mut dst = out.storage().write();
            let ys = &mut dst.as_mut_slice::<T>()[..n];
            par_flat(
                xs,
                ys,
                #[inline(always)]
                |x, y| {
                    for (o, &v) in y.iter_mut().zip(x) {
                        *o = f(v);
                    }
                },
            );
        }
        return Ok(out);
    }
    let iter = TensorIterator::build(TensorIteratorConfig::unary_op(None, input))?;
    unary::<T, T, _>(&iter, f);
    Ok(iter.output(0).alias())
}

fn run<T: FloatAcc>(input: &Tensor, act: Activation) -> Result<Tensor> {
    match act {
        Activation::GeluExact => map::<T>(input, gelu_exact::<T>),
        Activation::GeluTanh => map::<T>(
            input,
            #[inline(always)]
            |x: T| T::down(gelu_tanh(x.up())),
        ),
        Activation::Silu => map::<T>(input, silu_of::<T>),
    }
}

#[cfg_attr(unoptimized, inline)]
fn activation(input: &Tensor, act: Activation) -> Result<Tensor> {
    check_float(input.dtype(), act.kernel_name())?;
    dispatch_float!(input.dtype(), act.kernel_name(), T, run::<T>(input, act))
}

/// `torch.nn.functional.gelu(input, approximate)`: `x Φ(x)` (exact, through `erf`) or
/// its tanh approximation, elementwise. The result has `input`'s sizes and dtype, laid
/// out as PyTorch's unary ops (a dense input's strides are kept).
///
/// # Errors
/// [`Error::UnsupportedDType`](crate::error::Error::UnsupportedDType) for non-float inputs
/// (`"GeluKernelImpl" not implemented for 'Long'`).
#[cfg_attr(unoptimized, inline)]
pub fn gelu(input: &Tensor, approximate: GeluApproximate) -> Result<Tensor> {
    let act = match approximate {
        GeluApproximate::None => Activation::GeluExact,
        GeluApproximate::Tanh => Activation::GeluTanh,
    };
    autograd::apply(
        &[input],
        || activation(input, act),
        |_| {
            node(
                "GeluBackward0",
                vec![SavedTensor::input(input)],
                1,
                move |g, s| Ok(vec![Some(backward::gelu_backward(g, &s[0], approximate)?)]),
            )
        },
    )
}

/// `torch.nn.functional.silu(input)`: `x σ(x) = x / (1 + e^-x)`, elementwise; layout as
/// [`gelu`].
///
/// # Errors
/// [`Error::UnsupportedDType`](crate::error::Error::UnsupportedDType) for non-float inputs
/// (`"silu_cpu" not implemented for 'Long'`).
#[cfg_attr(unoptimized, inline)]
pub fn silu(input: &Tensor) -> Result<Tensor> {
    autograd::apply(
        &[input],
        || activation(input, Activation::Silu),
        |_| {
            node(
                "SiluBackward0",
                vec![SavedTensor::input(input)],
                1,
                |g, s| Ok(vec![Some(backward::silu_backward(g, &s[0])?)]),
            )
        },
    )
}

impl Tensor {
    /// `F.gelu(self)`: the exact GELU; see [`gelu`](crate::nn::gelu).
    ///
    /// # Errors
    /// As [`crate::nn::gelu`].
    #[cfg_attr(unoptimized, inline)]
    pub fn gelu(&self) -> Result<Tensor> {
        gelu(self, GeluApproximate::None)
    }

    /// `F.gelu(self, approximate='tanh')`; see [`gelu`](crate::nn::gelu).
    ///
    /// # Errors
    /// As [`crate::nn::gelu`].
    #[cfg_attr(unoptimized, inline)]
    pub fn gelu_tanh(&self) -> Result<Tensor> {
        gelu(self, GeluApproximate::Tanh)
    }

    /// `F.silu(self)`; see [`silu`](crate::nn::silu).
    ///
    /// # Errors
    /// As [`crate::nn::silu`].
    #[cfg_attr(unoptimized, inline)]
    pub fn silu(&self) -> Result<Tensor> {
        silu(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dtype::DType;

    #[test]
    fn gelu_exact_and_tanh_values() {
        // torch.nn.functional.gelu(torch.tensor([-1., 0.5, 2.], dtype=torch.float64)[, approximate='tanh'])
        let x = Tensor::from_vec(vec![-1.0f64, 0.5, 2.0], &[3]).unwrap();
        let e = gelu(&x, GeluApproximate::None)
            .unwrap()
            .to_vec::<f64>()
            .unwrap();
        let want = [
            -0.15865525393145702,
            0.34573123063700656,
            1.9544997361036416,
        ];
        for (a, b) in e.iter().zip(want) {
            assert!((a - b).abs() < 1e-14, "{a} {b}");
        }
        let t = gelu(&x, GeluApproximate::Tanh)
            .unwrap()
            .to_vec::<f64>()
            .unwrap();
        let want = [-0.15880800939172324, 0.34571400982514394, 1.954597694087775];
        for (a, b) in t.iter().zip(want) {
            assert!((a - b).abs() < 1e-14, "{a} {b}");
        }
    }

    #[test]
    fn gelu_approximate_names() {
        assert_eq!(
            GeluApproximate::from_name("tanh").unwrap(),
            GeluApproximate::Tanh
        );
        assert!(GeluApproximate::from_name("exact")
            .unwrap_err()
            .to_string()
            .contains("approximate argument must be either none or tanh."));
    }

    #[test]
    fn silu_keeps_dense_strides_and_rejects_long() {
        let x = Tensor::from_vec((0..6).map(|i| i as f32 - 2.5).collect(), &[2, 3])
            .unwrap()
            .t()
            .unwrap();
        let y = silu(&x).unwrap();
        assert_eq!(y.strides(), &[1, 3]);
        let v = y.to_vec::<f32>().unwrap();
        let xv = x.to_vec::<f32>().unwrap();
        for (a, b) in v.iter().zip(xv) {
            assert!((a - b / (1.0 + (-b).exp())).abs() < 1e-6);
        }
        let l = Tensor::zeros(&[2], DType::I64).unwrap();
        assert_eq!(
            silu(&l).unwrap_err().to_string(),
            "\"silu_cpu\" not implemented for 'Long'"
        );
    }

    #[test]
    fn gelu_of_expanded_goes_through_the_iterator() {
        let x = Tensor::from_vec(vec![0.5f32], &[1])
            .unwrap()
            .expand(&[4])
            .unwrap();
        let y = x.gelu_tanh().unwrap();
        assert_eq!(y.strides(), &[1]);
        assert!((y.to_vec::<f32>().unwrap()[3] - 0.345_714).abs() < 1e-6);
    }
}
