//! `Axes![1, 0]` → `(::tensor_typed::Ax<1>, ::tensor_typed::Ax<0>)`: a type-level list of
//! axis indices for `permute` and reductions. A negative axis counts from the end, as in
//! PyTorch: `Axes![-1]` → `(::tensor_typed::shape::dims::SDim<-1>,)`, resolved against the
//! tensor's rank by the op (an out-of-range one is the op's compile error).
//!
//! Phases: parse (integer literals, negated integer literals or const expressions, spans
//! kept) → validate (no literal beyond 63, no negative one below -8: out of range for
//! every shape) → expand (a tuple type, or on error `AxesError` beside the
//! `compile_error!`).

use crate::expr::ExprTokens;
use proc_macro2::{Delimiter, TokenStream};
use quote::{quote, quote_spanned};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Expr, Lit, Token};

/// The largest axis literal the type level knows (`tensor_typed::typelevel::peano::AxisPos`).
const MAX_TYPE_LEVEL_AXIS: usize = 63;

/// The error for `-x` where `x` is not an integer literal.
const NEGATIVE_AXIS_IS_A_LITERAL: &str = "a negative axis is a negated integer literal (`-1`)";

fn axis_tokens(e: &ExprTokens) -> syn::Result<TokenStream> {
    let Some(parsed) = e.parsed() else {
        if e.is_opaque_negation() {
            return Err(syn::Error::new(e.span(), NEGATIVE_AXIS_IS_A_LITERAL));
        }
        return Ok(const_axis(e));
    };
    match parsed {
        Expr::Lit(l) => match &l.lit {
            Lit::Int(i) => {
                let n: usize = i.base10_parse()?;
                // Axes 8..=63 reach the type-level check, which names the op and the
                // shape; larger ones are out of range for every typed shape.
                if n > MAX_TYPE_LEVEL_AXIS {
                    return Err(syn::Error::new(
                        i.span(),
                        format!(
                            "Axes!: axis {n} is out of range for every shape (typed shapes have at most {} dims)",
                            crate::shape::MAX_RANK
                        ),
                    ));
                }
                let lit = proc_macro2::Literal::usize_unsuffixed(n);
                Ok(quote_spanned!(i.span()=> ::tensor_typed::Ax<#lit>))
            }
            _ => Err(syn::Error::new(
                e.span(),
                "an axis is an integer literal or a const expression",
            )),
        },
        Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => negative_axis_tokens(e, &u.expr),
        _ => Ok(const_axis(e)),
    }
}

/// `Ax<{ e }>` for a const expression.
fn const_axis(e: &ExprTokens) -> TokenStream {
    let block = e.delimited(Delimiter::Brace, e.span());
    quote_spanned!(e.span()=> ::tensor_typed::Ax<#block>)
}

/// `-n` → `SDim<-n>` for a literal `n` in `1..=8` (a signed dim, wrapped by the op).
fn negative_axis_tokens(e: &ExprTokens, inner: &Expr) -> syn::Result<TokenStream> {
    let lit = match inner {
        Expr::Lit(syn::ExprLit {
            lit: Lit::Int(i), ..
        }) => i,
        _ => return Err(syn::Error::new(e.span(), NEGATIVE_AXIS_IS_A_LITERAL)),
    };
    let n: usize = lit.base10_parse()?;
    if n == 0 {
        return Ok(quote_spanned!(e.span()=> ::tensor_typed::Ax<0>));
    }
    if n > crate::shape::MAX_RANK {
        return Err(syn::Error::new(
            e.span(),
            format!(
                "Axes!: axis -{n} is out of range for every shape (typed shapes have at most {} dims; negative axes run from -1 to -{})",
                crate::shape::MAX_RANK,
                crate::shape::MAX_RANK
            ),
        ));
    }
    let n = proc_macro2::Literal::usize_unsuffixed(n);
    Ok(quote_spanned!(e.span()=> ::tensor_typed::shape::dims::SDim<-#n>))
}

fn try_expand(input: TokenStream) -> syn::Result<TokenStream> {
    let exprs =
        syn::parse::Parser::parse2(Punctuated::<ExprTokens, Token![,]>::parse_terminated, input)?;
    if exprs.len() > crate::shape::MAX_RANK {
        return Err(syn::Error::new(
            exprs.span(),
            format!(
                "Axes! supports at most {} axes, found {}",
                crate::shape::MAX_RANK,
                exprs.len()
            ),
        ));
    }
    let axes = exprs
        .iter()
        .map(axis_tokens)
        .collect::<syn::Result<Vec<_>>>()?;
    Ok(crate::shape::tuple_type(&axes))
}

/// Expands `Axes![..]`; on error, `AxesError<compile_error!(..)>`: the `compile_error!`
/// reports the mistake (and leaves `()` behind in type position), and `AxesError` is
/// accepted by every operation, so one mistake makes one error.
pub(crate) fn expand(input: TokenStream) -> TokenStream {
    match try_expand(input) {
        Ok(ts) => ts,
        Err(e) => {
            let error = e.to_compile_error();
            quote!(::tensor_typed::shape::axes::AxesError<#error>)
        }
    }
}

#[cfg(test)]
mod tests {
    fn expand(input: &str) -> String {
        super::expand(input.parse().unwrap()).to_string()
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
        assert!(expand("-{ K }").contains("a negative axis is a negated integer literal"));
        assert!(expand("\"a\"").contains("an axis is an integer literal"));
    }

    #[test]
    fn an_axis_literal_is_read_by_its_value() {
        assert_eq!(
            expand("0x3, -1usize"),
            "(:: tensor_typed :: Ax < 3 > , :: tensor_typed :: shape :: dims :: SDim <- 1 >)"
        );
    }

    #[test]
    fn a_negative_axis_error_points_at_its_minus() {
        let e = super::try_expand("0, -9".parse().unwrap()).err().unwrap();
        assert_eq!(e.span().start().column, 3);
    }
}
