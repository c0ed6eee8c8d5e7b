//! Every binary arithmetic op, defined once: this table is the only place an op is
//! listed. Generated from it: the [`BinaryOp`](crate::ops::BinaryOp) enum and its metadata,
//! the kernels, the autograd nodes, the `Tensor` methods (`add`, `add_`, `add_out`,
//! `add_scalar`, `add_scalar_`), the `GlobalTensor` methods (`global/apply.rs`) and the
//! test lists (which iterate [`BinaryOp::ALL`](crate::ops::BinaryOp::ALL)). The typed methods
//! (`tensor-typed/src/ops/binary.rs`) carry each op's compile-time dtype rule by hand.
//! ARCHITECTURE.md, "Adding an op", has the recipe.
//!
//! One row per op, its fields named and in this order:
//! - the key, `name`: the `Tensor` method (`add`); `variant`: the
//!   [`BinaryOp`](crate::ops::BinaryOp) variant; `inplace` and `out`: the names of the
//!   in-place and `out=` methods (`add_`, `add_out`);
//! - `torch`: PyTorch's name; `doc`: what the op computes, for the docs;
//! - `kernel`: the [`Arith`](crate::kernels::arith::Arith) method computing one element
//!   in the promoted dtype (every dtype: integers wrap, bool is logical);
//! - `dtype`: `Promote` (`build_binary_op`: the inputs' common dtype) or `PromoteFloat`
//!   (`build_binary_float_op`: integral inputs compute in float32);
//! - `check`: PyTorch's refusal of the inputs' dtypes before the build (`sub_check`), or
//!   `none`; `bool`: `refuse` when a bool computation is refused by the kernel (`"pow"
//!   not implemented for 'Bool'`), else `ok`;
//! - `grad: |a, b, out| node`: the autograd node of `op(a, b)` (formulas in
//!   `autograd/formulas/elementwise.rs`);
//! - `scalar: { method, inplace, grad: |a, s| node }`: the methods with a Rust number as
//!   `other` (a wrapped number) and their node, or `scalar: {}` where the op has its own
//!   (`pow_scalar`, whose exponent promotes differently);
//! - `smooth`: where the derivative is smooth ([`Domain`](crate::ops::Domain): the
//!   gradient checks draw inputs there; `div` needs a non-zero divisor, `pow` a positive
//!   base, `maximum`/`minimum` operands apart);
//! - `partial`: the partial SBP a global tensor keeps
//!   ([`BinaryPartial`](crate::ops::BinaryPartial)).

/// The table of binary ops, handed to the callback macro `$m` (hidden: an implementation
/// detail of tensor-core).
#[doc(hidden)]
#[macro_export]
macro_rules! __binary_ops {
    ($m:ident) => {
        $m! {
            add {
                variant: Add, inplace: add_, out: add_out,
                torch: "add", doc: "sum `self + other`",
                kernel: add, dtype: Promote, check: none, bool: ok,
                grad: |_a, _b, _out| AddBackward { name: "AddBackward0", other_factor: None },
                scalar: {
                    method: add_scalar, inplace: add_scalar_,
                    grad: |_a, _s| ScaleBackward { name: "AddBackward0", factor: None, divide: false },
                },
                smooth: All, partial: Sum,
            }
            sub {
                variant: Sub, inplace: sub_, out: sub_out,
                torch: "sub", doc: "difference `self - other`",
                kernel: sub, dtype: Promote, check: sub_check, bool: ok,
                grad: |_a, _b, _out| AddBackward { name: "SubBackward0", other_factor: Some(Scalar::Int(-1)) },
                scalar: {
                    method: sub_scalar, inplace: sub_scalar_,
                    grad: |_a, _s| ScaleBackward { name: "SubBackward0", factor: None, divide: false },
                },
                smooth: All, partial: Sum,
            }
            mul {
                variant: Mul, inplace: mul_, out: mul_out,
                torch: "mul", doc: "product `self * other`",
                kernel: mul, dtype: Promote, check: none, bool: ok,
                grad: |a, b, _out| MulBackward::new(a, b),
                scalar: {
                    method: mul_scalar, inplace: mul_scalar_,
                    grad: |_a, s| ScaleBackward { name: "MulBackward0", factor: Some(s), divide: false },
                },
                smooth: All, partial: Linear,
            }
            div {
                variant: Div, inplace: div_, out: div_out,
                torch: "div", doc: "true division `self / other` (integral inputs divide in float32)",
                kernel: div, dtype: PromoteFloat, check: none, bool: ok,
                grad: |a, b, _out| DivBackward::new(a, b),
                scalar: {
                    method: div_scalar, inplace: div_scalar_,
                    grad: |_a, s| ScaleBackward { name: "DivBackward0", factor: Some(s), divide: true },
                },
                smooth: NonZero, partial: Broadcasts,
            }
            maximum {
                variant: Maximum, inplace: maximum_, out: maximum_out,
                torch: "maximum", doc: "elementwise maximum (NaN if either is NaN)",
                kernel: maximum, dtype: Promote, check: none, bool: ok,
                grad: |a, b, _out| ExtremumBackward { max: true, a: SavedTensor::input(a), b: SavedTensor::input(b), b_is_input: true },
                scalar: {
                    method: maximum_scalar, inplace: maximum_scalar_,
                    grad: |a, s| ExtremumBackward {
                        max: true,
                        a: SavedTensor::input(a),
                        b: SavedTensor::input(&Tensor::scalar_of(s, a.dtype())),
                        b_is_input: false,
                    },
                },
                smooth: Distinct, partial: Max,
            }
            minimum {
                variant: Minimum, inplace: minimum_, out: minimum_out,
                torch: "minimum", doc: "elementwise minimum (NaN if either is NaN)",
                kernel: minimum, dtype: Promote, check: none, bool: ok,
                grad: |a, b, _out| ExtremumBackward { max: false, a: SavedTensor::input(a), b: SavedTensor::input(b), b_is_input: true },
                scalar: {
                    method: minimum_scalar, inplace: minimum_scalar_,
                    grad: |a, s| ExtremumBackward {
                        max: false,
                        a: SavedTensor::input(a),
                        b: SavedTensor::input(&Tensor::scalar_of(s, a.dtype())),
                        b_is_input: false,
                    },
                },
                smooth: Distinct, partial: Min,
            }
            pow {
                variant: Pow, inplace: pow_, out: pow_out,
                torch: "pow", doc: "power `self ** other` (integers: `powi`)",
                kernel: pow, dtype: Promote, check: none, bool: refuse,
                grad: |a, b, out| PowBackward {
                    a: SavedTensor::input(a),
                    b: SavedTensor::input(b),
                    result: SavedTensor::output(out, "PowBackward1", 0),
                },
                scalar: {},
                smooth: Positive, partial: Broadcasts,
            }
        }
    };
}
