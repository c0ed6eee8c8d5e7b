//! `Shape![2, Dyn, 3]` → `(::tensor_typed::D<2>, ::tensor_typed::Dyn, ::tensor_typed::D<3>)`.
//!
//! Phases: parse (a list of dims that keeps spans) → validate (rank ≤ 8, no negative
//! dims) → expand (a tuple type). See tensor-typed's `shape.rs` for the representation.

use crate::expr::{parse_list, ExprTokens};
use crate::syntax::expr::Expr;
use crate::syntax::quote::separated;
use crate::syntax::{
    parse_all, quote, quote_spanned, Delimiter, Error, Input, Literal, Result, Span, Tree,
};

/// The largest rank a shape type supports (tuples up to 8 dims).
pub(crate) const MAX_RANK: usize = 8;

/// The error for a negated dim.
const NEGATIVE_DIM: &str =
    "Shape!: a static dim cannot be negative; write `Dyn` for a size known only at run time";

/// One dim as written.
enum DimArg {
    /// A non-negative integer literal: its value.
    Static(usize),
    /// The word `Dyn`.
    Dyn(Span),
    /// Any other const expression (`N`, `{ 2 * K }`), used as `D<{ expr }>`.
    Expr(ExprTokens),
}

/// The parsed macro input.
struct ShapeInput {
    dims: Vec<DimArg>,
    span: Span,
}

fn parse(input: &mut Input) -> Result<ShapeInput> {
    let span = input.span();
    let dims = parse_list(input)?
        .into_iter()
        .map(classify)
        .collect::<Result<_>>()?;
    Ok(ShapeInput { dims, span })
}

fn classify(e: ExprTokens) -> Result<DimArg> {
    let Some(parsed) = e.parsed() else {
        if e.is_opaque_negation() {
            return Err(Error::new(e.span(), NEGATIVE_DIM));
        }
        return Ok(DimArg::Expr(e));
    };
    match parsed {
        Expr::Lit(l) if l.is_int() => {
            let n = l.base10_usize().map_err(|m| Error::new(l.span, m))?;
            Ok(DimArg::Static(n))
        }
        Expr::Lit(_) => Err(Error::new(
            e.span(),
            "a dim is an integer literal, `Dyn` or a const expression",
        )),
        Expr::Unary('-', _) => Err(Error::new(e.span(), NEGATIVE_DIM)),
        Expr::Path(p, _) if p.get_ident() == Some("Dyn") => Ok(DimArg::Dyn(e.span())),
        _ => Ok(DimArg::Expr(e)),
    }
}

fn validate(input: &ShapeInput) -> Result<()> {
    if input.dims.len() > MAX_RANK {
        return Err(Error::new(
            input.span,
            format!(
                "Shape! supports at most {MAX_RANK} dims, found {}",
                input.dims.len()
            ),
        ));
    }
    Ok(())
}

/// The type tokens of one dim.
fn dim_tokens(d: &DimArg) -> Vec<Tree> {
    match d {
        DimArg::Static(n) => static_dim(&quote!("::tensor_typed"), *n),
        DimArg::Dyn(span) => quote_spanned!(*span => "::tensor_typed::Dyn"),
        DimArg::Expr(e) => {
            let block = e.delimited(Delimiter::Brace, e.span());
            quote_spanned!(e.span() => "::tensor_typed::D<#block>", block)
        }
    }
}

/// The type of static dim `n` under `path` (`::tensor_typed` or its `layout_support`):
/// `D<n>` below 1000, else `K<hi, D<n % 1000>>` with `hi` the dim of `n / 1000` (three
/// decimal digits per group, so every size has exactly one form).
pub(crate) fn static_dim(path: &[Tree], n: usize) -> Vec<Tree> {
    let lo = Literal::usize_unsuffixed(n % 1000);
    if n < 1000 {
        quote!("#path::D<#lo>", path, lo)
    } else {
        let hi = static_dim(path, n / 1000);
        quote!("#path::K<#hi, #path::D<#lo>>", path, hi, lo)
    }
}

/// The tuple type of a list of dims: `()`, `(X,)`, `(X, Y)`.
pub(crate) fn tuple_type(dims: Vec<Vec<Tree>>) -> Vec<Tree> {
    if dims.len() == 1 {
        let d = &dims[0];
        return quote!("(#d,)", d);
    }
    let dims = separated(dims, ',');
    quote!("(#dims)", dims)
}

fn try_expand(input: &[Tree]) -> Result<Vec<Tree>> {
    let parsed = parse_all(input, parse)?;
    validate(&parsed)?;
    Ok(tuple_type(parsed.dims.iter().map(dim_tokens).collect()))
}

/// Expands `Shape![..]`; on error, a `compile_error!` at the offending dim in place of
/// the type (so one mistake makes one error).
pub(crate) fn expand(input: Vec<Tree>) -> Vec<Tree> {
    try_expand(&input).unwrap_or_else(|e| e.to_compile_error())
}

#[cfg(test)]
mod tests {
    fn expand(text: &str) -> String {
        crate::syntax::expand_text(super::expand, text)
    }

    #[test]
    fn dims_become_a_tuple_type() {
        assert_eq!(
            expand("2, Dyn, N"),
            "(:: tensor_typed :: D < 2 > , :: tensor_typed :: Dyn , :: tensor_typed :: D < { N } >)"
        );
        assert_eq!(
            expand("1500"),
            "(:: tensor_typed :: K < :: tensor_typed :: D < 1 > , :: tensor_typed :: D < 500 >> ,)"
        );
        assert_eq!(expand(""), "()");
    }

    #[test]
    fn a_negative_or_non_integer_dim_is_an_error() {
        assert!(expand("-1, 3").contains("a static dim cannot be negative"));
        assert!(expand("-{ N }").contains("a static dim cannot be negative"));
        assert!(expand("1.5").contains("a dim is an integer literal"));
        assert!(expand("99999999999999999999999").contains("number too large"));
        assert!(expand("1, 2, 3, 4, 5, 6, 7, 8, 9").contains("at most 8 dims, found 9"));
    }
}
