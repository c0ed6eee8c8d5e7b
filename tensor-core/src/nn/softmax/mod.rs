//! `softmax` and `log_softmax` along a dim: PyTorch's `softmax_lastdim_kernel` (one
//! row at a time: max, `Σ e^(x - max)`, scale) and `softmax_kernel` (a dim that is not
//! the last: the same three passes over blocks of the inner positions).

pub(super) mod backward;

use super::backward::node::node;
use crate::autograd::{self, SavedTensor};
use crate::error::Result;
use crate::kernels::acc::{dispatch_float, Acc, FloatAcc};
use crate::kernels::rows::{max_row, par_rows, par_rows_grain, sum_row, ROW_GRAIN};
use crate::layout::wrap_dim;
use crate::shape_ops::slices::{read, write_new};
use crate::tensor::Tensor;
use num_traits::Float;

/// Inner positions handled together by the kernel for a dim that is not the last.
const BLOCK: usize = 16;

/// `softmax` or `log_softmax` of one contiguous row.
#[inline(always)]
fn row_lastdim<T: FloatAcc>(x: &[T], y: &mut [T], log: bool) {
    let m = max_row(x);
    if log {
        let s = sum_row(x, |v| (v - m).exp_fused());
        let lse = s.ln();
        for (o, &v) in y.iter_mut().zip(x) {
            *o = T::down((v.up() - m) - lse);
        }
    } else if exact_store::<T>() {
        // f32 / f64: e^(x - max) into the output (PyTorch's order: the exponentials are
        // kept, then scaled), as a plain map the loop vectorises; their sum is read
        // back from the output while it is in L1, with `sum_row`'s four accumulator
        // vectors (summed inside the map, LLVM kept the accumulator on the stack: a
        // store and a load per 16 elements on the loop's critical path).
        for (o, &v) in y.iter_mut().zip(x) {
            *o = T::down((v.up() - m).exp_fused());
        }
        let s = sum_row(y, |v| v);
        let inv = T::A::c(1.0) / s;
        for o in y.iter_mut() {
            *o = T::down(o.up() * inv);
        }
    } else {
        // f16 / bf16: the exponentials are not kept in the narrow dtype.
        let s = sum_row(x, |v| (v - m).exp_fused());
        let inv = T::A::c(1.0) / s;
        for (o, &v) in y.iter_mut().zip(x) {
            *o = T::down((v.up() - m).exp_fused() * inv);
        }
    }
}

/// `true` when `T` is its own accumulation type (f32, f64).
#[inline(always)]
fn exact_store<T: FloatAcc>() -> bool {
    std::mem::size_of::<T>() == std::mem::size_of::<T::A>()
}

/// `softmax` or `log_softmax` of one outer slice `[d, inner]` along `d`.
#[inline(always)]
fn slab<T: FloatAcc>(x: &[T], y: &mut [T], d: usize, inner: usize, log: bool) {
    let mut i0 = 0;
    while i0 < inner {
        let w = BLOCK.min(inner - i0);
        let mut m = [T::A::neg_infinity(); BLOCK];
        for k in 0..d {
            let row = &x[k * inner + i0..k * inner + i0 + w];
            for (mj, v) in m.iter_mut().zip(row) {
                let v = v.up();
                *mj = if v > *mj { v } else { *mj };
            }
        }
        let mut s = [T::A::c(0.0); BLOCK];
        for k in 0..d {
            let row = &x[k * inner + i0..k * inner + i0 + w];
            for j in 0..w {
                s[j] = s[j] + (row[j].up() - m[j]).exp_fused();
            }
        }
        for k in 0..d {
            let base = k * inner + i0;
            let (row, out) = (&x[base..base + w], &mut y[base..base + w]);
            for j in 0..w {
                let z = row[j].up() - m[j];
                out[j] = T::down(if log {
                    z - s[j].ln()
                } else {
                    z.exp_fused() / s[j]
                });
            }
        }
        i0 += w;
    }
}

fn run<T: FloatAcc>(x: &Tensor, dim: usize, log: bool) -> Result<Tensor> {
    let sizes = x.sizes();
    let d = sizes.get(dim).copied().unwrap_or(1);
    let inner: usize = sizes.get(dim + 1..).map_or(1, |s| s.iter().product());
    read::<T, _>(x, |xs| {
        write_new::<T>(sizes, |ys| {
            if inner == 1 {
                par_rows_grain(
                    xs,
                    d,
                    ys,
                    d,
                    ROW_GRAIN,
                    #[inline(always)]
                    |_, xr, yr| row_lastdim(xr, yr, log),
                );
            } else {
                let len = d * inner;
                par_rows(
                    xs,
                    len,
                    ys,
                    len,
                    #[inline(always)]
                    |_, xr, yr| slab(xr, yr, d, inner, log),
                );
            }
            Ok(())
        })
    })
}

/// Shared body of `softmax` / `log_softmax`: PyTorch's `softmax_cpu_out`.
#[cfg_attr(unoptimized, inline)]
fn softmax_impl(input: &Tensor, dim: i64, log: bool) -> Result<Tensor> {
    let nd = input.dim();
    let dim = wrap_dim(dim, nd)?;
    if input.numel() == 0 {
        return Tensor::empty(input.sizes(), input.dtype());
    }
    let last = nd == 0 || dim == nd - 1;
    let kernel = match (log, last) {
        (false, true) => "softmax_lastdim_kernel_impl",
        (false, false) => "softmax_kernel_impl",
        (true, true) => "log_softmax_lastdim_kernel_impl",
        (true, false) => "log_softmax_kernel_impl",
    };
    let x = input.contiguous()?;
    dispatch_float!(input.dtype(), kernel, T, run::<T>(&x, dim, log))
}

/// `torch.softmax(input, dim)`: `e^x / Σ e^x` along `dim`, computed as
/// `e^(x - max) / Σ e^(x - max)` in the accumulation type (`f32` for `f16`/`bf16`).
///
/// The result has `input`'s sizes and dtype and is contiguous, whatever `input`'s
/// layout (as PyTorch). A 0-d input gives `1`.
///
/// # Errors
/// [`Error::DimOutOfRange`](crate::error::Error::DimOutOfRange) (`Dimension out of range
/// (expected to be in range of [-2, 1], but got 2)`); for a non-float input with
/// elements, [`Error::UnsupportedDType`](crate::error::Error::UnsupportedDType)
/// (`"softmax_lastdim_kernel_impl" not implemented for 'Long'`).
#[cfg_attr(unoptimized, inline)]
pub fn softmax(input: &Tensor, dim: i64) -> Result<Tensor> {
    const NAME: &str = "SoftmaxBackward0";
    autograd::apply(
        &[input],
        || softmax_impl(input, dim, false),
        |out| {
            node(
                NAME,
                vec![SavedTensor::output(out, NAME, 0)],
                1,
                move |g, s| Ok(vec![Some(backward::softmax_backward(g, &s[0], dim)?)]),
            )
        },
    )
}

/// `torch.log_softmax(input, dim)`: `x - log Σ e^x` along `dim`, computed as
/// `(x - max) - log Σ e^(x - max)`; sizes, dtype and layout as [`softmax`].
///
/// # Errors
/// As [`softmax`] (`"log_softmax_lastdim_kernel_impl" not implemented for 'Long'`).
#[cfg_attr(unoptimized, inline)]
pub fn log_softmax(input: &Tensor, dim: i64) -> Result<Tensor> {
    const NAME: &str = "LogSoftmaxBackward0";
    autograd::apply(
        &[input],
        || softmax_impl(input, dim, true),
        |out| {
            node(
                NAME,
                vec![SavedTensor::output(out, NAME, 0)],
                1,
                move |g, s| Ok(vec![Some(backward::log_softmax_backward(g, &s[0], dim)?)]),
            )
        },
    )
}

impl Tensor {
    /// `Tensor.softmax(dim)`: see [`softmax`](crate::nn::softmax).
    ///
    /// # Errors
    /// As [`crate::nn::softmax`].
    #[cfg_attr(unoptimized, inline)]
    pub fn softmax(&self, dim: i64) -> Result<Tensor> {
        softmax(self, dim)
    }

    /// `Tensor.log_softmax(dim)`: see [`log_softmax`](crate::nn::log_softmax).
    ///
    /// # Errors
    /// As [`crate::nn::log_softmax`].
    #[cfg_attr(unoptimized, inline)]
    pub fn log_softmax(&self, dim: i64) -> Result<Tensor> {
        log_softmax(self, dim)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dtype::DType;

    fn close(a: &[f64], b: &[f64], tol: f64) {
        assert_eq!(a.len(), b.len());
        for (x, y) in a.iter().zip(b) {
            assert!((x - y).abs() <= tol * y.abs().max(1e-30), "{x} vs {y}");
        }
    }

    #[test]
    fn softmax_row_of_three() {
        let x = Tensor::from_vec(vec![1.0f32, 2.0, 3.0], &[3]).unwrap();
        let y = softmax(&x, 0).unwrap().to_vec_f64().unwrap();
        close(&y, &[0.09003057, 0.24472847, 0.66524096], 1e-6);
        let l = log_softmax(&x, -1).unwrap().to_vec_f64().unwrap();
        close(&l, &[-2.40760596, -1.40760596, -0.40760596], 1e-6);
    }

    #[test]
    fn softmax_dim0_of_transposed_is_contiguous_and_matches_lastdim() {
        let v: Vec<f64> = (0..60).map(|i| ((i * 7) % 11) as f64 * 0.3).collect();
        let x = Tensor::from_vec(v, &[3, 20]).unwrap();
        let t = x.t().unwrap();
        let a = softmax(&t, 1).unwrap();
        assert_eq!(a.strides(), &[3, 1]);
        let b = softmax(&x, 0).unwrap().t().unwrap().contiguous().unwrap();
        close(&a.to_vec_f64().unwrap(), &b.to_vec_f64().unwrap(), 1e-12);
    }

    #[test]
    fn softmax_of_integers_names_the_kernel() {
        let x = Tensor::from_vec(vec![1i64, 2], &[2]).unwrap();
        assert_eq!(
            softmax(&x, 0).unwrap_err().to_string(),
            "\"softmax_lastdim_kernel_impl\" not implemented for 'Long'"
        );
        let x = Tensor::zeros(&[2, 3], DType::I64).unwrap();
        assert!(log_softmax(&x, 0)
            .unwrap_err()
            .to_string()
            .contains("\"log_softmax_kernel_impl\" not implemented for 'Long'"));
    }

    #[test]
    fn softmax_dim_out_of_range() {
        let x = Tensor::zeros(&[3], DType::F32).unwrap();
        assert_eq!(
            softmax(&x, 1).unwrap_err().to_string(),
            "Dimension out of range (expected to be in range of [-1, 0], but got 1)"
        );
    }

    #[test]
    fn softmax_of_0d_is_one_and_nan_row_is_nan() {
        let x = Tensor::scalar(5.0f32);
        assert_eq!(softmax(&x, 0).unwrap().item::<f32>().unwrap(), 1.0);
        let x = Tensor::from_vec(vec![1.0f32, f32::NAN, 0.0], &[3]).unwrap();
        assert!(softmax(&x, 0)
            .unwrap()
            .to_vec::<f32>()
            .unwrap()
            .iter()
            .all(|v| v.is_nan()));
    }

    #[test]
    fn softmax_long_rows_in_parallel_sum_to_one() {
        let n = 70_000;
        let v: Vec<f32> = (0..n).map(|i| ((i % 97) as f32) * 0.01).collect();
        let x = Tensor::from_vec(v, &[7, n / 7]).unwrap();
        let y = softmax(&x, 1).unwrap().sum(&[1], false).unwrap();
        for s in y.to_vec::<f32>().unwrap() {
            assert!((s - 1.0).abs() < 1e-4, "{s}");
        }
    }
}
