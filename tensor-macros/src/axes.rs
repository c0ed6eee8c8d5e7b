//! `Axes![1, 0]` → `(::tensor_typed::Ax<1>, ::tensor_typed::Ax<0>)`: a type-level list of
//! axis indices for `permute` and reductions. A negative axis counts from the end, as in
//! PyTorch: `Axes![-1]` → `(::tensor_typed::shape::dims::SDim<-1>,)`, resolved against the
//! tensor's rank by the op (an out-of-range one is the op's compile error).
//!
//! Phases: parse (integer literals, negated integer literals or const expressions, spans
//! kept) → validate (no literal beyond 63, no negative one below -8: out of range for
//! every shape) → expand (a tuple type, or on error `AxesError` beside the
//! `compile_error!`).

use crate::expr::{parse_list, ExprTokens};
use crate::shape::MAX_RANK;
use crate::syntax::expr::Expr;
use crate::syntax::{parse_all, quote, quote_spanned, Delimiter, Error, Literal, Result, Tree};

/// The largest axis literal the type level knows (`tensor_typed::typelevel::peano::AxisPos`).
const MAX_TYPE_LEVEL_AXIS: usize = 63;

/// The error for `-x` where `x` is not an integer literal.
const NEGATIVE_AXIS_IS_A_LITERAL: &str = "a negative axis is a negated integer literal (`-1`)";

fn axis_tokens(e: &ExprTokens) -> Result<Vec<Tree>> {
    let Some(parsed) = e.parsed() else {
        if e.is_opaque_negation() {
            return Err(Error::new(e.span(), NEGATIVE_AXIS_IS_A_LITERAL));
        }
        return Ok(const_axis(e));
    };
    match parsed {
        Expr::Lit(l) if l.is_int() => {
            let n = l.base10_usize().map_err(|m| Error::new(l.span, m))?;
            // Axes 8..=63 reach the type-level check, which names the op and the
            // shape; larger ones are out of range for every typed shape.
            if n > MAX_TYPE_LEVEL_AXIS {
                return Err(Error::new(
                    l.span,
                    format!(
                        "Axes!: axis {n} is out of range for every shape (typed shapes have at most {MAX_RANK} dims)"
                    ),
                ));
            }
            let lit = Literal::usize_unsuffixed(n);
            Ok(quote_spanned!(l.span => "::tensor_typed::Ax<#lit>", lit))
        }
        Expr::Lit(_) => Err(Error::new(
            e.span(),
            "an axis is an integer literal or a const expression",
        )),
        Expr::Unary('-', inner) => negative_axis_tokens(e, inner),
        _ => Ok(const_axis(e)),
    }
}

/// `Ax<{ e }>` for a const expression.
fn const_axis(e: &ExprTokens) -> Vec<Tree> {
    let block = e.delimited(Delimiter::Brace, e.span());
    quote_spanned!(e.span() => "::tensor_typed::Ax<#block>", block)
}

/// `-n` → `SDim<-n>` for a literal `n` in `1..=8` (a signed dim, wrapped by the op).
fn negative_axis_tokens(e: &ExprTokens, inner: &Expr) -> Result<Vec<Tree>> {
    let lit = match inner {
        Expr::Lit(l) if l.is_int() => l,
        _ => return Err(Error::new(e.span(), NEGATIVE_AXIS_IS_A_LITERAL)),
    };
    let n = lit.base10_usize().map_err(|m| Error::new(lit.span, m))?;
    if n == 0 {
        return Ok(quote_spanned!(e.span() => "::tensor_typed::Ax<0>"));
    }
    if n > MAX_RANK {
        return Err(Error::new(
            e.span(),
            format!(
                "Axes!: axis -{n} is out of range for every shape (typed shapes have at most {MAX_RANK} dims; negative axes run from -1 to -{MAX_RANK})"
            ),
        ));
    }
    let n = Literal::usize_unsuffixed(n);
    Ok(quote_spanned!(e.span() => "::tensor_typed::shape::dims::SDim<-#n>", n))
}

fn try_expand(input: &[Tree]) -> Result<Vec<Tree>> {
    let exprs = parse_all(input, parse_list)?;
    if exprs.len() > MAX_RANK {
        return Err(Error::new(
            exprs[0].span(),
            format!(
                "Axes! supports at most {MAX_RANK} axes, found {}",
                exprs.len()
            ),
        ));
    }
    let axes = exprs.iter().map(axis_tokens).collect::<Result<Vec<_>>>()?;
    Ok(crate::shape::tuple_type(axes))
}

/// Expands `Axes![..]`; on error, `AxesError<compile_error!(..)>`: the `compile_error!`
/// reports the mistake (and leaves `()` behind in type position), and `AxesError` is
/// accepted by every operation, so one mistake makes one error.
pub(crate) fn expand(input: Vec<Tree>) -> Vec<Tree> {
    match try_expand(&input) {
        Ok(ts) => ts,
        Err(e) => {
            let error = e.to_compile_error();
            quote!("::tensor_typed::shape::axes::AxesError<#error>", error)
        }
    }
}

#[cfg(test)]
mod tests {
    fn expand(text: &str) -> String {
        crate::syntax::expand_text(super::expand, text)
    }

    #[test]
    fn axes_become_a_tuple_type() {
        assert_eq!(
            expand("1, -1, -0, K"),
            "(:: tensor_typed :: Ax < 1 > , :: tensor_typed :: shape :: dims :: SDim <- 1 > , :: tensor_typed :: Ax < 0 > , :: tensor_typed :: Ax < { K } >)"
        );
    }

    #[test]
    fn out_of_range_axes_are_errors_beside_axes_error() {
        let out = expand("70");
        assert!(
            out.starts_with(
                ":: tensor_typed :: shape :: axes :: AxesError < :: core :: compile_error !"
            ),
            "{out}"
        );
        assert!(out.contains("axis 70 is out of range"), "{out}");
        assert!(expand("-9").contains("axis -9 is out of range"));
        assert!(expand("-x").contains("a negative axis is a negated integer literal"));
        assert!(expand("\"a\"").contains("an axis is an integer literal"));
    }
}
