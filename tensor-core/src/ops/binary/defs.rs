//! Every binary arithmetic op, defined once: this table is the only place an op is
//! listed. Generated from it: the [`BinaryOp`](crate::ops::BinaryOp) enum and its metadata,
//! the kernels, the autograd nodes, the `Tensor` methods (`add`, `add_`, `add_out`,
//! `add_scalar`, `add_scalar_`), the `GlobalTensor` methods (`global/apply.rs`) and the
//! test lists (which iterate [`BinaryOp::ALL`](crate::ops::BinaryOp::ALL)). The typed methods
//! (`tensor-typed/src/ops/binary.rs`) carry each op's compile-time dtype rule by hand.
//! ARCHITECTURE.md, "Adding an op", has the recipe.
//!
//! One row, in order:
//! - `name Variant name_ name_out "torch name" "what it computes"`;
//! - `kernel(method)`: the [`Arith`](crate::kernels::arith::Arith) method computing one
//!   element in the promoted dtype (every dtype: integers wrap, bool is logical);
//! - `dtype(Promote)` (`build_binary_op`: the inputs' common dtype) or
//!   `dtype(PromoteFloat)` (`build_binary_float_op`: integral inputs compute in float32);
//! - `check(f)`: PyTorch's refusal of the inputs' dtypes before the build (`sub_check`),
//!   or `check(none)`; `bool(refuse)` when a bool computation is refused by the kernel
//!   (`"pow" not implemented for 'Bool'`), else `bool(ok)`;
//! - `grad[|a, b, out| node]`: the autograd node of `op(a, b)` (formulas in
//!   `autograd/formulas/elementwise.rs`);
//! - `scalar[name_scalar name_scalar_ |a, s| node]`: the methods with a Rust number as
//!   `other` (a wrapped number) and their node, or `scalar[]` where the op has its own
//!   (`pow_scalar`, whose exponent promotes differently);
//! - `domain(d)`: where the derivative is smooth ([`Domain`](crate::ops::Domain): the
//!   gradient checks draw inputs there; `div` needs a non-zero divisor, `pow` a positive
//!   base, `maximum`/`minimum` operands apart);
//! - `partial(rule)`: the partial SBP a global tensor keeps
//!   ([`BinaryPartial`](crate::ops::BinaryPartial)).

/// The table of binary ops, handed to the callback macro `$m` (hidden: an implementation
/// detail of tensor-core).
#[doc(hidden)]
#[macro_export]
macro_rules! __binary_ops {
    ($m:ident) => {
        $m! {
            add Add add_ add_out "add" "sum `self + other`"
                kernel(add) dtype(Promote) check(none) bool(ok)
                grad[|_a, _b, _out| AddBackward { name: "AddBackward0", other_factor: None }]
                scalar[add_scalar add_scalar_ |_a, _s| ScaleBackward { name: "AddBackward0", factor: None, divide: false }]
                domain(All) partial(Sum);
            sub Sub sub_ sub_out "sub" "difference `self - other`"
                kernel(sub) dtype(Promote) check(sub_check) bool(ok)
                grad[|_a, _b, _out| AddBackward { name: "SubBackward0", other_factor: Some(Scalar::Int(-1)) }]
                scalar[sub_scalar sub_scalar_ |_a, _s| ScaleBackward { name: "SubBackward0", factor: None, divide: false }]
                domain(All) partial(Sum);
            mul Mul mul_ mul_out "mul" "product `self * other`"
                kernel(mul) dtype(Promote) check(none) bool(ok)
                grad[|a, b, _out| MulBackward::new(a, b)]
                scalar[mul_scalar mul_scalar_ |_a, s| ScaleBackward { name: "MulBackward0", factor: Some(s), divide: false }]
                domain(All) partial(Linear);
            div Div div_ div_out "div" "true division `self / other` (integral inputs divide in float32)"
                kernel(div) dtype(PromoteFloat) check(none) bool(ok)
                grad[|a, b, _out| DivBackward::new(a, b)]
                scalar[div_scalar div_scalar_ |_a, s| ScaleBackward { name: "DivBackward0", factor: Some(s), divide: true }]
                domain(NonZero) partial(Broadcasts);
            maximum Maximum maximum_ maximum_out "maximum" "elementwise maximum (NaN if either is NaN)"
                kernel(maximum) dtype(Promote) check(none) bool(ok)
                grad[|a, b, _out| ExtremumBackward { max: true, a: SavedTensor::input(a), b: SavedTensor::input(b), b_is_input: true }]
                scalar[maximum_scalar maximum_scalar_ |a, s| ExtremumBackward {
                    max: true,
                    a: SavedTensor::input(a),
                    b: SavedTensor::input(&Tensor::scalar_of(s, a.dtype())),
                    b_is_input: false,
                }]
                domain(Distinct) partial(Max);
            minimum Minimum minimum_ minimum_out "minimum" "elementwise minimum (NaN if either is NaN)"
                kernel(minimum) dtype(Promote) check(none) bool(ok)
                grad[|a, b, _out| ExtremumBackward { max: false, a: SavedTensor::input(a), b: SavedTensor::input(b), b_is_input: true }]
                scalar[minimum_scalar minimum_scalar_ |a, s| ExtremumBackward {
                    max: false,
                    a: SavedTensor::input(a),
                    b: SavedTensor::input(&Tensor::scalar_of(s, a.dtype())),
                    b_is_input: false,
                }]
                domain(Distinct) partial(Min);
            pow Pow pow_ pow_out "pow" "power `self ** other` (integers: `powi`)"
                kernel(pow) dtype(Promote) check(none) bool(refuse)
                grad[|a, b, out| PowBackward {
                    a: SavedTensor::input(a),
                    b: SavedTensor::input(b),
                    result: SavedTensor::output(out, "PowBackward1", 0),
                }]
                scalar[]
                domain(Positive) partial(Broadcasts);
        }
    };
}
