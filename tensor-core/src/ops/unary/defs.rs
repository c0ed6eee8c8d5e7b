//! Every unary elementwise op, defined once: this table is the only place an op is
//! listed. Everything else is generated from it: the [`UnaryOp`](crate::ops::UnaryOp) enum
//! and its metadata, the kernels, the autograd node, the `Tensor` methods (`exp`,
//! `exp_`, `exp_out`), the `GlobalTensor` methods (`global/apply.rs`), the typed methods
//! (`tensor-typed/src/ops/unary.rs`), and the test lists (which iterate
//! [`UnaryOp::ALL`](crate::ops::UnaryOp::ALL)). ARCHITECTURE.md, "Adding an op", has the recipe.
//!
//! One row, in order:
//! - `name Variant name_ name_out try_name try_name_ "torch name" "what it computes"`
//!   (the last two name tensor-typed's `try_` forms of the op and its in-place form);
//! - the kernel: `all(|x| ..)` over every dtype through `Arith` (same dtype out), or
//!   `float(|x| ..)`, a closure over num-traits' `Float` computed in the dtype's
//!   `opmath_type` (`f32` for `f16`/`bf16`); integral inputs compute in float32
//!   (PyTorch's `build_unary_float_op`);
//! - the typed element rule of tensor-typed (`dtype_rules`: `Negate`, `Relu`, or
//!   `Element` for none; `FloatOf` for float ops);
//! - `[PyTorch's error for a bool input, if any]`;
//! - `["NameBackward0" saves |g, saved| gradient]`: the node's name, what it saves
//!   (`nothing`, `input`, `result`), and the gradient from the incoming `g` and the saved
//!   tensor (`derivatives.yaml`);
//! - where the derivative is smooth (`All`, `Positive`, `NonZero`: the gradient checks
//!   draw inputs there), and which partial SBP a global tensor keeps (`Broadcasts`: none,
//!   `Negates`: `neg`'s rule, `Monotone`: max and min stay).

/// The table of unary ops, handed to the callback macro `$m` (hidden: an implementation
/// detail of tensor-core and tensor-typed).
#[doc(hidden)]
#[macro_export]
macro_rules! __unary_ops {
    ($m:ident) => {
        $m! {
            neg Neg neg_ neg_out try_neg try_neg_ "neg" "negation `-x`"
                all(|x| Arith::neg(x)) Negate
                [Some("Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.")]
                ["NegBackward0" nothing |g, _x| g.neg()?]
                All Negates;
            abs Abs abs_ abs_out try_abs try_abs_ "abs" "absolute value"
                all(|x| Arith::abs(x)) Element
                [None]
                ["AbsBackward0" input |g, x| g.mul(&sign(x)?)?]
                NonZero Broadcasts;
            relu Relu relu_ relu_out try_relu try_relu_ "relu" "`max(x, 0)` (NaN stays NaN)"
                all(|x| Arith::relu(x)) Relu
                [Some("Boolean inputs not supported for relu")]
                ["ReluBackward0" result |g, y| threshold_backward(g, y)?]
                NonZero Monotone;
            exp Exp exp_ exp_out try_exp try_exp_ "exp" "`e^x`"
                float(|x| x.exp()) FloatOf
                [None]
                ["ExpBackward0" result |g, y| g.mul(y)?]
                All Broadcasts;
            log Log log_ log_out try_log try_log_ "log" "natural log"
                float(|x| x.ln()) FloatOf
                [None]
                ["LogBackward0" input |g, x| g.div(x)?]
                Positive Broadcasts;
            sqrt Sqrt sqrt_ sqrt_out try_sqrt try_sqrt_ "sqrt" "square root"
                float(|x| x.sqrt()) FloatOf
                [None]
                ["SqrtBackward0" result |g, y| g.div(&y.mul_scalar(2)?)?]
                Positive Broadcasts;
            sigmoid Sigmoid sigmoid_ sigmoid_out try_sigmoid try_sigmoid_ "sigmoid" "`1 / (1 + e^-x)`"
                float(|x| ((-x).exp() + One::one()).recip()) FloatOf
                [None]
                ["SigmoidBackward0" result |g, y| g.mul(&y.neg()?.add_scalar(1)?)?.mul(y)?]
                All Broadcasts;
            tanh Tanh tanh_ tanh_out try_tanh try_tanh_ "tanh" "hyperbolic tangent"
                float(|x| x.tanh()) FloatOf
                [None]
                ["TanhBackward0" result |g, y| g.mul(&y.mul(y)?.neg()?.add_scalar(1)?)?]
                All Broadcasts;
            sin Sin sin_ sin_out try_sin try_sin_ "sin" "sine (radians)"
                float(|x| x.sin()) FloatOf
                [None]
                ["SinBackward0" input |g, x| g.mul(&x.cos()?)?]
                All Broadcasts;
            cos Cos cos_ cos_out try_cos try_cos_ "cos" "cosine (radians)"
                float(|x| x.cos()) FloatOf
                [None]
                ["CosBackward0" input |g, x| g.mul(&x.sin()?.neg()?)?]
                All Broadcasts;
        }
    };
}
