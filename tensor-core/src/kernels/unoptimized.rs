//! What a build without optimisation compiles instead: the one place the kernels'
//! `cfg(unoptimized)` choices are made (the cfg is set by `build.rs` at `opt-level = 0`).
//!
//! At `opt-level = 0` nothing is vectorised, so a kernel monomorphised per op, per
//! closure or per dtype buys no speed there, only compile time. Each macro here names
//! one such choice; an optimised build gets the specialised code, a debug build the
//! shared code, and both compute the same values in the same order:
//! - [`per_op!`]: the elementwise ops of an enum (`BinaryOp`, `UnaryOp`, comparisons):
//!   one kernel per op, or one kernel per dtype that matches the op per element;
//! - [`erased!`]: a closure handed to a generic loop as is, or as a trait object (one
//!   compiled loop for every closure of that signature): the reductions' `Reducer` and
//!   the elementwise kernels' 2-D loops (`for_each2d` in `elementwise.rs`);
//! - [`dispatch_integral!`]: a reduction over every integral dtype, or over `int64` only
//!   with narrower integers widened first (exact);
//! - and, in this folder's other files: the elementwise kernels' slice loops or one
//!   pointer walk (`elementwise.rs`), a copy loop per pair of dtypes or one walk with a
//!   load and a store per dtype (`copy.rs`), a loop compiled twice for two vector widths
//!   or once (`simd.rs`).
//!
//! Beside these bodies, every non-generic function outside the leaf files carries
//! `#[cfg_attr(unoptimized, inline)]`, so that a debug build generates a function's code
//! in the crate that calls it, only if it is called (ARCHITECTURE.md, "Tests":
//! `deferred_codegen.rs`). CI runs the debug bodies in its `ci-debug` pass.

/// Runs `$run` with `$f` bound to the element function of the op `$op`.
///
/// `per_op!(op, (x: T, y: T) { Op::Add => x + y, Op::Sub => x - y } else unreachable!()
/// => |f| binary::<T, T, _>(iter, f))`: in an optimised build, one `$run` per arm, each
/// with its own closure `move |x: T, y: T| ..` (so each op's loop is compiled and
/// vectorised for that op); the optional `else expr` is the fallback for the ops the
/// arms leave out, and runs no kernel. Without optimisation, one `$run` whose closure matches `$op` per
/// element (the same arms, in the same order).
macro_rules! per_op {
    ($op:expr, $params:tt { $($pat:pat => $e:expr),+ $(,)? } $(else $other:expr)?
        => |$f:ident| $run:expr) => {{
        #[cfg(not(unoptimized))]
        match $op {
            $($pat => {
                let $f = per_op!(@closure $params $e);
                $run
            })+
            $(
                #[allow(unreachable_patterns)]
                _ => $other,
            )?
        }
        #[cfg(unoptimized)]
        {
            let op = $op;
            let $f = per_op!(@closure $params match op {
                $($pat => $e,)+
                $(
                    #[allow(unreachable_patterns)]
                    _ => $other,
                )?
            });
            $run
        }
    }};
    (@closure ($($p:tt)*) $e:expr) => {
        move |$($p)*| $e
    };
}
pub(crate) use per_op;

/// The closure `$f` as is in an optimised build (the generic function it is handed to
/// is compiled for it, and can inline it); without optimisation, a reference to it as
/// the trait object `$dyn + Sync` (`erased!(f, dyn Fn(T) -> A)`), so that function is
/// compiled once for every closure of that signature.
macro_rules! erased {
    ($f:expr, $($dyn:tt)+) => {{
        #[cfg(not(unoptimized))]
        {
            $f
        }
        #[cfg(unoptimized)]
        {
            &$f as &($($dyn)+ + Sync)
        }
    }};
}
pub(crate) use erased;

/// `$body` with `$T` the Rust type of the integral (or bool) tensor `$t`, a variable
/// that the body reads. Without optimisation, `$t` is first widened to `int64` (exact)
/// and `$T` is `i64` for every such dtype, so one compiled body serves them all: use it
/// where the result does not depend on the input's width (wrapping sums and products,
/// maxima), and cast a result of the input's dtype back. Returns early with the cast's
/// error (`?`).
macro_rules! dispatch_integral {
    ($t:ident, $T:ident, $body:expr) => {{
        #[cfg(not(unoptimized))]
        {
            $crate::dispatch_dtype!(@of $t.dtype(), $T, $body;
                Bool bool, U8 u8, I8 i8, I16 i16, I32 i32; else i64)
        }
        #[cfg(unoptimized)]
        {
            let $t = &$t.to_dtype($crate::dtype::DType::I64)?;
            type $T = i64;
            $body
        }
    }};
}
pub(crate) use dispatch_integral;
