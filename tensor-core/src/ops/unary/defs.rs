//! Every unary elementwise op, defined once: this table is the only place an op is
//! listed. Everything else is generated from it: the [`UnaryOp`](crate::ops::UnaryOp) enum
//! and its metadata, the kernels, the autograd node, the `Tensor` methods (`exp`,
//! `exp_`, `exp_out`), the `GlobalTensor` methods (`global/apply.rs`), the typed methods
//! (`tensor-typed/src/ops/unary.rs`: `try_exp`, `exp`, `try_exp_`, `exp_`), and the test lists (which iterate
//! [`UnaryOp::ALL`](crate::ops::UnaryOp::ALL)). ARCHITECTURE.md, "Adding an op", has the recipe.
//!
//! One row per op, its fields named and in this order:
//! - the key, `name`: the `Tensor` method (`exp`); tensor-typed derives its `try_exp`;
//! - `variant`: the [`UnaryOp`](crate::ops::UnaryOp) variant; `inplace` and `out`: the
//!   names of the in-place and `out=` methods (`exp_`, `exp_out`);
//! - `torch`: PyTorch's name; `doc`: what the op computes, for the docs;
//! - `kernel`: `all(|x| ..)` over every dtype through `Arith` (same dtype out), or
//!   `float(|x| ..)`, a closure over num-traits' `Float` computed in the dtype's
//!   `opmath_type` (`f32` for `f16`/`bf16`); integral inputs compute in float32
//!   (PyTorch's `build_unary_float_op`);
//! - `bool_error`: PyTorch's error for a bool input (`Some("..")`), or `None`;
//! - `backward: "NameBackward0" saves what |g, saved| gradient`: the node's name, what it
//!   saves (`nothing`, `input`, `result`), and the gradient from the incoming `g` and the
//!   saved tensor (`derivatives.yaml`);
//! - `smooth`: where the derivative is smooth (`All`, `Positive`, `NonZero`: the
//!   gradient checks draw inputs there); `partial`: which partial SBP a global tensor
//!   keeps (`Broadcasts`: none, `Negates`: `neg`'s rule, `Monotone`: max and min stay).
//!
//! The typed element rule of each op (what tensor-typed accepts and returns) is
//! tensor-typed's, beside its methods (`tensor-typed/src/ops/unary.rs`).

/// The table of unary ops, handed to the callback macro `$m` (hidden: an implementation
/// detail of tensor-core and tensor-typed).
#[doc(hidden)]
#[macro_export]
macro_rules! __unary_ops {
    ($m:ident) => {
        $m! {
            neg {
                variant: Neg, inplace: neg_, out: neg_out,
                torch: "neg", doc: "negation `-x`",
                kernel: all(|x| Arith::neg(x)),
                bool_error: Some("Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead."),
                backward: "NegBackward0" saves nothing |g, _x| g.neg()?,
                smooth: All, partial: Negates,
            }
            abs {
                variant: Abs, inplace: abs_, out: abs_out,
                torch: "abs", doc: "absolute value",
                kernel: all(|x| Arith::abs(x)),
                bool_error: None,
                backward: "AbsBackward0" saves input |g, x| g.mul(&sign(x)?)?,
                smooth: NonZero, partial: Broadcasts,
            }
            relu {
                variant: Relu, inplace: relu_, out: relu_out,
                torch: "relu", doc: "`max(x, 0)` (NaN stays NaN)",
                kernel: all(|x| Arith::relu(x)),
                bool_error: Some("Boolean inputs not supported for relu"),
                backward: "ReluBackward0" saves result |g, y| threshold_backward(g, y)?,
                smooth: NonZero, partial: Monotone,
            }
            exp {
                variant: Exp, inplace: exp_, out: exp_out,
                torch: "exp", doc: "`e^x`",
                kernel: float(|x| x.exp()),
                bool_error: None,
                backward: "ExpBackward0" saves result |g, y| g.mul(y)?,
                smooth: All, partial: Broadcasts,
            }
            log {
                variant: Log, inplace: log_, out: log_out,
                torch: "log", doc: "natural log",
                kernel: float(|x| x.ln()),
                bool_error: None,
                backward: "LogBackward0" saves input |g, x| g.div(x)?,
                smooth: Positive, partial: Broadcasts,
            }
            sqrt {
                variant: Sqrt, inplace: sqrt_, out: sqrt_out,
                torch: "sqrt", doc: "square root",
                kernel: float(|x| x.sqrt()),
                bool_error: None,
                backward: "SqrtBackward0" saves result |g, y| g.div(&y.mul_scalar(2)?)?,
                smooth: Positive, partial: Broadcasts,
            }
            rsqrt {
                variant: Rsqrt, inplace: rsqrt_, out: rsqrt_out,
                torch: "rsqrt", doc: "reciprocal square root `1 / sqrt(x)`",
                kernel: float(|x| x.sqrt().recip()),
                bool_error: None,
                backward: "RsqrtBackward0" saves result |g, y| g.mul(&y.mul(y)?.mul(y)?.mul_scalar(-0.5)?)?,
                smooth: Positive, partial: Broadcasts,
            }
            sigmoid {
                variant: Sigmoid, inplace: sigmoid_, out: sigmoid_out,
                torch: "sigmoid", doc: "`1 / (1 + e^-x)`",
                kernel: float(|x| ((-x).exp() + One::one()).recip()),
                bool_error: None,
                backward: "SigmoidBackward0" saves result |g, y| g.mul(&y.neg()?.add_scalar(1)?)?.mul(y)?,
                smooth: All, partial: Broadcasts,
            }
            tanh {
                variant: Tanh, inplace: tanh_, out: tanh_out,
                torch: "tanh", doc: "hyperbolic tangent",
                kernel: float(|x| x.tanh()),
                bool_error: None,
                backward: "TanhBackward0" saves result |g, y| g.mul(&y.mul(y)?.neg()?.add_scalar(1)?)?,
                smooth: All, partial: Broadcasts,
            }
            sin {
                variant: Sin, inplace: sin_, out: sin_out,
                torch: "sin", doc: "sine (radians)",
                kernel: float(|x| x.sin()),
                bool_error: None,
                backward: "SinBackward0" saves input |g, x| g.mul(&x.cos()?)?,
                smooth: All, partial: Broadcasts,
            }
            cos {
                variant: Cos, inplace: cos_, out: cos_out,
                torch: "cos", doc: "cosine (radians)",
                kernel: float(|x| x.cos()),
                bool_error: None,
                backward: "CosBackward0" saves input |g, x| g.mul(&x.sin()?.neg()?)?,
                smooth: All, partial: Broadcasts,
            }
        }
    };
}
