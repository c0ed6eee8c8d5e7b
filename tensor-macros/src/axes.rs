//! `Axes![1, 0]` → `(::tensor_typed::Ax<1>, ::tensor_typed::Ax<0>)`: a type-level list of
//! axis indices for `permute` and reductions.
//!
//! Phases: parse (integer literals or const expressions, spans kept) → validate (no
//! negative axes: type-level axes count from 0; no literal beyond 63) → expand (a tuple type, or on error
//! `AxesError` beside the `compile_error!`).

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Expr, Lit, Token};

/// The largest axis literal the type level knows (`tensor_typed::typelevel::peano::AxisPos`).
const MAX_TYPE_LEVEL_AXIS: usize = 63;

fn axis_tokens(e: &Expr) -> syn::Result<TokenStream> {
    match e {
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
        Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => Err(syn::Error::new(
            e.span(),
            "Axes! takes axes counted from 0; negative axes are not supported at the type level",
        )),
        _ => Ok(quote_spanned!(e.span()=> ::tensor_typed::Ax<{ #e }>)),
    }
}

fn try_expand(input: TokenStream) -> syn::Result<TokenStream> {
    let exprs = syn::parse::Parser::parse2(Punctuated::<Expr, Token![,]>::parse_terminated, input)?;
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
