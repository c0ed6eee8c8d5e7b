//! The public reductions on [`Tensor`]: dim checks, output dtypes and accumulators.

use super::kernels::{arg_reduce, reduce, Reducer};
use super::Geometry;
use crate::autograd;
use crate::dispatch_dtype;
use crate::dtype::DType;
use crate::element::Element;
use crate::error::{Error, Result};
use crate::kernels::acc::FloatAcc;
use crate::kernels::{dispatch_integral, erased};
use crate::layout::{wrap_dim, wrap_dims};
use crate::tensor::Tensor;
use half::{bf16, f16};
use num_traits::{Float, One, Zero};

/// Which dims a reduction removes, and the result's sizes.
struct Plan {
    /// `reduced[d]` for each input dim.
    reduced: Vec<bool>,
    /// Sizes of the result (size 1 on reduced dims when `keepdim`, else removed).
    out_sizes: Vec<usize>,
    /// Number of input elements folded into each output.
    count: usize,
}

impl Plan {
    /// Wraps `dims` (empty = every dim) and checks for duplicates.
    #[cfg_attr(unoptimized, inline)]
    fn new(t: &Tensor, dims: &[i64], keepdim: bool) -> Result<Plan> {
        let nd = t.dim();
        let mut reduced = vec![dims.is_empty(); nd];
        for d in wrap_dims(dims, nd)? {
            if nd > 0 {
                reduced[d] = true;
            }
        }
        let sizes = t.sizes();
        let out_sizes = (0..nd)
            .filter_map(|d| match (reduced[d], keepdim) {
                (false, _) => Some(sizes[d]),
                (true, true) => Some(1),
                (true, false) => None,
            })
            .collect();
        let count = crate::layout::numel_of((0..nd).filter(|&d| reduced[d]).map(|d| sizes[d]));
        Ok(Plan {
            reduced,
            out_sizes,
            count,
        })
    }

    #[cfg_attr(unoptimized, inline)]
    fn out_numel(&self) -> usize {
        crate::layout::numel_of(self.out_sizes.iter().copied())
    }

    /// Runs `r` over `t` and wraps the values as a contiguous tensor.
    fn run<T, A, O, L, C, F, Z>(&self, t: &Tensor, r: Reducer<A, L, C, F, Z>) -> Result<Tensor>
    where
        T: Element,
        A: Copy + Send + Sync,
        O: Element,
        L: Fn(T) -> A + Sync,
        C: Fn(A, A) -> A + Sync,
        F: Fn(A) -> O + Sync,
        Z: Fn(A) -> bool + Sync,
    {
        let g = Geometry::of(t, &self.reduced)?;
        // Without optimisation the closures are trait objects (`kernels::erased!`): one
        // compiled reduction per (input, accumulator, output) types instead of one per
        // op, with the same operations in the same order.
        let r = Reducer {
            identity: r.identity,
            load: erased!(r.load, dyn Fn(T) -> A),
            combine: erased!(r.combine, dyn Fn(A, A) -> A),
            finish: erased!(r.finish, dyn Fn(A) -> O),
            ambiguous: erased!(r.ambiguous, dyn Fn(A) -> bool),
        };
        let values = reduce(t, &g, self.out_numel(), &r)?;
        Tensor::from_vec(values, &self.out_sizes)
    }
}

/// `zero_numel_check_dims`: reductions without an identity reject empty dims.
#[cfg_attr(unoptimized, inline)]
fn check_nonempty(t: &Tensor, dims: &[i64], op: &'static str) -> Result<()> {
    if t.numel() != 0 {
        return Ok(());
    }
    if dims.is_empty() {
        return Err(Error::ReductionDimRequired {
            op,
            hint: " Specify the reduction dim with the 'dim' argument.",
        });
    }
    for &d in dims {
        let w = wrap_dim(d, t.dim())?;
        if t.dim() > 0 && t.sizes()[w] == 0 {
            return Err(Error::EmptyReductionDim { op, dim: d });
        }
    }
    Ok(())
}

/// `sum` of floats: [`mean_float`] over a count of 1 (dividing by 1 is exact), so that
/// both share one compiled reduction per dtype.
fn sum_float<T: FloatAcc>(t: &Tensor, p: &Plan) -> Result<Tensor> {
    mean_float::<T>(t, p, T::A::one())
}

/// `prod` of floats, accumulated in the input's own dtype as PyTorch's CPU kernel
/// (`binary_kernel_reduce_vec` with `scalar_t` products): for `f16`/`bf16` each product
/// is rounded to the dtype (computed in `f32`, where the product of two such values is
/// exact, then rounded once).
fn prod_float<T: FloatAcc>(t: &Tensor, p: &Plan) -> Result<Tensor> {
    p.run(
        t,
        Reducer {
            identity: T::down(T::A::one()),
            load: |x: T| x,
            combine: |a: T, b: T| T::down(a.up() * b.up()),
            finish: |a: T| a,
            ambiguous: |_| false,
        },
    )
}

/// The sum in the accumulation type divided by `n` (the number of elements for `mean`,
/// 1 for `sum`).
fn mean_float<T: FloatAcc>(t: &Tensor, p: &Plan, n: T::A) -> Result<Tensor> {
    p.run(
        t,
        Reducer {
            identity: T::A::zero(),
            load: T::up,
            combine: |a: T::A, b: T::A| a + b,
            finish: move |a: T::A| T::down(a / n),
            ambiguous: |_| false,
        },
    )
}

/// [`mean_float`] over `p.count` elements.
fn mean_of<T: FloatAcc>(t: &Tensor, p: &Plan) -> Result<Tensor> {
    let n = num_traits::cast::<usize, T::A>(p.count).unwrap_or_else(T::A::nan);
    mean_float::<T>(t, p, n)
}

/// `sum`/`prod` of bool and integer inputs, dispatched on the dtype (floats have their
/// own kernels).
#[cfg_attr(unoptimized, inline)]
fn integral_of(t: &Tensor, p: &Plan, prod: bool) -> Result<Tensor> {
    // Without optimisation narrower integers are widened first (exactly, as the
    // reduction's `to_i64` does; wrapping sums and products do not depend on the order):
    // `kernels::dispatch_integral!`.
    dispatch_integral!(t, T, integral::<T>(t, p, prod))
}

/// amax (`max`) or amin of `t`, dispatched on its dtype.
#[cfg_attr(unoptimized, inline)]
fn extremum_of(t: &Tensor, p: &Plan, max: bool) -> Result<Tensor> {
    match t.dtype() {
        DType::F32 => extremum::<f32>(t, p, max),
        DType::F64 => extremum::<f64>(t, p, max),
        DType::F16 => extremum::<f16>(t, p, max),
        DType::BF16 => extremum::<bf16>(t, p, max),
        // Without optimisation bool and narrower integers go through `int64` and back
        // (both exact; the maximum of integers does not depend on the order):
        // `kernels::dispatch_integral!`.
        dt => dispatch_integral!(t, T, {
            let r = extremum::<T>(t, p, max)?;
            if r.dtype() == dt {
                Ok(r)
            } else {
                r.to_dtype(dt)
            }
        }),
    }
}

/// `sum`/`prod` of bool and integer inputs: `int64` output, wrapping arithmetic.
fn integral<T: Element>(t: &Tensor, p: &Plan, prod: bool) -> Result<Tensor> {
    p.run(
        t,
        Reducer {
            identity: prod as i64,
            load: T::to_i64,
            combine: move |a: i64, b: i64| {
                if prod {
                    a.wrapping_mul(b)
                } else {
                    a.wrapping_add(b)
                }
            },
            finish: |a: i64| a,
            ambiguous: |_| false,
        },
    )
}

/// The smallest (`max`) or largest value of `T`: the identity of amax / amin.
fn extreme<T: Element>(max: bool) -> T {
    match (T::DTYPE, max) {
        (DType::Bool, m) => T::from_i64(!m as i64),
        // Integers: the type's own limits (a float→int cast of ±inf is not saturating;
        // it gives the integer-indefinite value, as C++ on x86-64).
        (DType::U8, m) => T::from_i64(if m { 0 } else { u8::MAX as i64 }),
        (DType::I8, m) => T::from_i64(if m { i8::MIN as i64 } else { i8::MAX as i64 }),
        (DType::I16, m) => T::from_i64(if m { i16::MIN as i64 } else { i16::MAX as i64 }),
        (DType::I32, m) => T::from_i64(if m { i32::MIN as i64 } else { i32::MAX as i64 }),
        (DType::I64, m) => T::from_i64(if m { i64::MIN } else { i64::MAX }),
        (_, true) => T::from_f64(f64::NEG_INFINITY),
        (_, false) => T::from_f64(f64::INFINITY),
    }
}

/// amax / amin as PyTorch's `max_impl` / `min_impl`: a NaN wins (the first NaN), else
/// `std::max(acc, x)` / `std::min(acc, x)`, which keep the earlier of two equal values:
/// `amax([-0., 0.])` is `-0.` and `amax([0., -0.])` is `0.`.
fn extremum<T: Element>(t: &Tensor, p: &Plan, max: bool) -> Result<Tensor> {
    let zero = T::from_f64(0.0);
    let floating = T::DTYPE.is_floating();
    p.run(
        t,
        Reducer {
            identity: extreme::<T>(max),
            load: |x: T| x,
            #[allow(clippy::eq_op)]
            combine: move |a: T, b: T| {
                let take = a == a && (b != b || if max { b > a } else { b < a });
                if take {
                    b
                } else {
                    a
                }
            },
            finish: |a: T| a,
            // Only ±0 compare equal while being different values.
            ambiguous: move |a: T| floating && a == zero,
        },
    )
}

impl Tensor {
    /// `torch.sum(self, dims, keepdim)`: the sum over `dims` (an empty list reduces
    /// every dim). The result is contiguous; reduced dims are removed, or kept with size
    /// 1 when `keepdim`. Bool and integer inputs give `int64` (wrapping on overflow),
    /// floats keep their dtype (`f16`/`bf16` accumulate in `f32`). A sum over an empty
    /// dim is 0.
    ///
    /// # Errors
    /// [`Error::DimOutOfRange`]; [`Error::DuplicateDim`]
    /// (`dim 0 appears multiple times in the list of dims`).
    #[cfg_attr(unoptimized, inline)]
    pub fn sum(&self, dims: &[i64], keepdim: bool) -> Result<Tensor> {
        autograd::apply(
            &[self],
            || self.sum_impl(dims, keepdim),
            |_| autograd::SumBackward {
                r: autograd::Reduced::new(self, dims, keepdim),
                all: dims.is_empty() && !keepdim,
            },
        )
    }

    #[cfg_attr(unoptimized, inline)]
    fn sum_impl(&self, dims: &[i64], keepdim: bool) -> Result<Tensor> {
        let p = Plan::new(self, dims, keepdim)?;
        match self.dtype() {
            DType::F32 => sum_float::<f32>(self, &p),
            DType::F64 => sum_float::<f64>(self, &p),
            DType::F16 => sum_float::<f16>(self, &p),
            DType::BF16 => sum_float::<bf16>(self, &p),
            _ => integral_of(self, &p, false),
        }
    }

    /// `torch.prod(self, dims, keepdim)`: the product over `dims` (empty = every dim),
    /// with [`sum`](Tensor::sum)'s output sizes and dtypes. Floats accumulate in their
    /// own dtype, as PyTorch's CPU kernel (`f16`/`bf16`: each product rounded to the
    /// dtype). A product over an empty dim is 1.
    ///
    /// # Errors
    /// As [`sum`](Tensor::sum).
    #[cfg_attr(unoptimized, inline)]
    pub fn prod(&self, dims: &[i64], keepdim: bool) -> Result<Tensor> {
        autograd::apply(
            &[self],
            || self.prod_impl(dims, keepdim),
            |out| {
                let all = dims.is_empty() && !keepdim;
                let name = if all {
                    "ProdBackward0"
                } else {
                    "ProdBackward1"
                };
                autograd::ProdBackward {
                    r: autograd::Reduced::new(self, dims, keepdim),
                    all,
                    x: autograd::SavedTensor::input(self),
                    result: autograd::SavedTensor::output(out, name, 0),
                }
            },
        )
    }

    #[cfg_attr(unoptimized, inline)]
    fn prod_impl(&self, dims: &[i64], keepdim: bool) -> Result<Tensor> {
        let p = Plan::new(self, dims, keepdim)?;
        match self.dtype() {
            DType::F32 => prod_float::<f32>(self, &p),
            DType::F64 => prod_float::<f64>(self, &p),
            DType::F16 => prod_float::<f16>(self, &p),
            DType::BF16 => prod_float::<bf16>(self, &p),
            _ => integral_of(self, &p, true),
        }
    }

    /// `torch.mean(self, dims, keepdim)`: the sum over `dims` (empty = every dim)
    /// divided by the number of elements reduced, as PyTorch's CPU kernel (sum in the
    /// accumulation type, then divide). Floats only; a mean over an empty dim is NaN.
    ///
    /// # Errors
    /// [`Error::UnsupportedDType`] for bool and integers (`mean(): could not infer
    /// output dtype. Input dtype must be either a floating point or complex dtype.
    /// Got: Long`); as [`sum`](Tensor::sum).
    #[cfg_attr(unoptimized, inline)]
    pub fn mean(&self, dims: &[i64], keepdim: bool) -> Result<Tensor> {
        autograd::apply(
            &[self],
            || self.mean_impl(dims, keepdim),
            |_| autograd::MeanBackward {
                r: autograd::Reduced::new(self, dims, keepdim),
                all: dims.is_empty() && !keepdim,
            },
        )
    }

    #[cfg_attr(unoptimized, inline)]
    fn mean_impl(&self, dims: &[i64], keepdim: bool) -> Result<Tensor> {
        if !self.dtype().is_floating() {
            return Err(Error::UnsupportedDType {
                message: format!(
                    "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: {}",
                    self.dtype().scalar_type_name()
                ),
            });
        }
        let p = Plan::new(self, dims, keepdim)?;
        match self.dtype() {
            DType::F64 => mean_of::<f64>(self, &p),
            DType::F16 => mean_of::<f16>(self, &p),
            DType::BF16 => mean_of::<bf16>(self, &p),
            _ => mean_of::<f32>(self, &p),
        }
    }

    /// `torch.amax(self, dims, keepdim)`: the maximum over `dims` (empty = every dim),
    /// in the input's dtype. A NaN anywhere in a reduction gives NaN. Of equal values
    /// the first (in memory order) is kept, as PyTorch's `std::max(acc, x)`:
    /// `amax([-0., 0.])` is `-0.`.
    ///
    /// # Errors
    /// For a tensor with no elements, [`Error::ReductionDimRequired`] when `dims` is
    /// empty and [`Error::EmptyReductionDim`] for the first empty dim
    /// (`amax(): Expected reduction dim 0 to have non-zero size.`, the dim as given);
    /// as [`sum`](Tensor::sum).
    #[cfg_attr(unoptimized, inline)]
    pub fn amax(&self, dims: &[i64], keepdim: bool) -> Result<Tensor> {
        autograd::apply(
            &[self],
            || {
                check_nonempty(self, dims, "amax")?;
                extremum_of(self, &Plan::new(self, dims, keepdim)?, true)
            },
            |out| autograd::ExtremumReduceBackward {
                max: true,
                r: autograd::Reduced::new(self, dims, keepdim),
                x: autograd::SavedTensor::input(self),
                result: autograd::SavedTensor::output(out, "AmaxBackward0", 0),
            },
        )
    }

    /// `torch.amin(self, dims, keepdim)`: the minimum over `dims`, as
    /// [`amax`](Tensor::amax).
    ///
    /// # Errors
    /// As [`amax`](Tensor::amax), naming `amin`.
    #[cfg_attr(unoptimized, inline)]
    pub fn amin(&self, dims: &[i64], keepdim: bool) -> Result<Tensor> {
        autograd::apply(
            &[self],
            || {
                check_nonempty(self, dims, "amin")?;
                extremum_of(self, &Plan::new(self, dims, keepdim)?, false)
            },
            |out| autograd::ExtremumReduceBackward {
                max: false,
                r: autograd::Reduced::new(self, dims, keepdim),
                x: autograd::SavedTensor::input(self),
                result: autograd::SavedTensor::output(out, "AminBackward0", 0),
            },
        )
    }

    /// `torch.argmax(self, dim, keepdim)`: the `int64` index of the first maximum along
    /// `dim`, or in the flattened tensor when `dim` is `None` (then `keepdim` gives every
    /// dim size 1). A NaN counts as the maximum.
    ///
    /// # Errors
    /// [`Error::DimOutOfRange`]; [`Error::EmptyReductionDim`]
    /// (`argmax(): Expected reduction dim 0 to have non-zero size.`);
    /// [`Error::ReductionDimRequired`] for `dim = None` on a tensor with no elements;
    /// [`Error::UnsupportedDType`] for bool (`argmax(): does not support bool input`,
    /// checked first).
    #[cfg_attr(unoptimized, inline)]
    pub fn argmax(&self, dim: Option<i64>, keepdim: bool) -> Result<Tensor> {
        self.arg_extremum(dim, keepdim, true)
    }

    /// `torch.argmin(self, dim, keepdim)`: the index of the first minimum, as
    /// [`argmax`](Tensor::argmax).
    ///
    /// # Errors
    /// As [`argmax`](Tensor::argmax), naming `argmin`.
    #[cfg_attr(unoptimized, inline)]
    pub fn argmin(&self, dim: Option<i64>, keepdim: bool) -> Result<Tensor> {
        self.arg_extremum(dim, keepdim, false)
    }

    #[cfg_attr(unoptimized, inline)]
    fn arg_extremum(&self, dim: Option<i64>, keepdim: bool, max: bool) -> Result<Tensor> {
        let op = if max { "argmax" } else { "argmin" };
        if self.dtype() == DType::Bool {
            return Err(Error::UnsupportedDType {
                message: format!("{op}(): does not support bool input"),
            });
        }
        let nd = self.dim();
        let dim = match dim {
            Some(d) => {
                let w = wrap_dim(d, nd)?;
                if nd > 0 && self.sizes()[w] == 0 {
                    return Err(Error::EmptyReductionDim { op, dim: w as i64 });
                }
                Some(w)
            }
            None if self.numel() == 0 => {
                return Err(Error::ReductionDimRequired { op, hint: "" });
            }
            None => None,
        };
        let out_sizes: Vec<usize> = match dim {
            None if keepdim => vec![1; nd],
            None => vec![],
            Some(d) => (0..nd)
                .filter_map(|k| match (k == d, keepdim) {
                    (false, _) => Some(self.sizes()[k]),
                    (true, true) => Some(1),
                    (true, false) => None,
                })
                .collect(),
        };
        let values = dispatch_dtype!(self.dtype(), T, arg_reduce::<T>(self, dim, max))?;
        Tensor::from_vec(values, &out_sizes)
    }
}
