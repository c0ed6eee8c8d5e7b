//! `Shape![2, Dyn, 3]` → `(::tensor_typed::D<2>, ::tensor_typed::Dyn, ::tensor_typed::D<3>)`.
//!
//! A dim is an integer literal, `Dyn`, a dim type named in UpperCamelCase (`Embd` after
//! `type Embd = Dim![768];`, `C::Embd`, `<C as Config>::Embd`, or a name declared by
//! `dims!`: `Seq`, `model::Seq`), a macro call (`Dim![..]`), used as is, or any other
//! const expression (`N`, `{ 2 * K }`), used as `D<{ expr }>` (sizes below 1000; see
//! `Dim!` for larger ones). A name is a dim type like any other: `Shape![Batch, Seq]` is
//! `(Batch, Seq)`.
//!
//! Phases: parse (a list of dims that keeps spans) → validate (rank ≤ 8, no negative
//! dims) → expand (a tuple type). See tensor-typed's `shape.rs` for the representation.

use crate::dim_spelling::{is_type_name, static_dim};
use crate::expr::ExprTokens;
use proc_macro2::{Delimiter, Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Expr, Lit, Token};

/// The largest rank a shape type supports (tuples up to 8 dims).
pub(crate) const MAX_RANK: usize = 8;

/// The error for a negated dim.
const NEGATIVE_DIM: &str =
    "Shape!: a static dim cannot be negative; write `Dyn` for a size known only at run time";

/// One dim as written.
enum DimArg {
    /// A non-negative integer literal.
    Static(syn::LitInt),
    /// The word `Dyn`.
    Dyn(Span),
    /// A dim type: a path whose last segment is UpperCamelCase (`Embd`, `C::Embd`), or a
    /// macro call (`Dim![768]`); used as is (boxed as `Expr`).
    Type(Box<ExprTokens>),
    /// Any other const expression (`N`, `{ 2 * K }`), used as `D<{ expr }>` (boxed: a
    /// parsed expression is far larger than the other variants).
    Expr(Box<ExprTokens>),
    /// Arithmetic over dim types (`H * E`): its type (`crate::dim_arith`).
    Arith(TokenStream),
}

/// `true` when a dim names a type: a path ending in an UpperCamelCase segment, or a
/// macro call (`ident! (..)`, `path::ident! [..]`).
pub(crate) fn is_type_dim(e: &ExprTokens) -> bool {
    if let Some(Expr::Path(p)) = e.parsed() {
        return p
            .path
            .segments
            .last()
            .is_some_and(|s| is_type_name(&s.ident.to_string()));
    }
    let tokens: Vec<proc_macro2::TokenTree> = quote!(#e).into_iter().collect();
    matches!(
        tokens.as_slice(),
        [.., proc_macro2::TokenTree::Punct(bang), proc_macro2::TokenTree::Group(_)] if bang.as_char() == '!'
    )
}

/// The parsed macro input.
struct ShapeInput {
    dims: Vec<DimArg>,
    span: Span,
}

impl Parse for ShapeInput {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let span = input.span();
        let exprs = Punctuated::<ExprTokens, Token![,]>::parse_terminated(input)?;
        let dims = exprs
            .into_iter()
            .map(classify)
            .collect::<syn::Result<_>>()?;
        Ok(ShapeInput { dims, span })
    }
}

fn classify(e: ExprTokens) -> syn::Result<DimArg> {
    let Some(parsed) = e.parsed() else {
        if e.is_opaque_negation() {
            return Err(syn::Error::new(e.span(), NEGATIVE_DIM));
        }
        if is_type_dim(&e) {
            return Ok(DimArg::Type(Box::new(e)));
        }
        return Ok(DimArg::Expr(Box::new(e)));
    };
    match parsed {
        Expr::Lit(l) => match &l.lit {
            Lit::Int(i) => {
                i.base10_parse::<usize>()?;
                Ok(DimArg::Static(i.clone()))
            }
            _ => Err(syn::Error::new(
                e.span(),
                "a dim is an integer literal, `Dyn` or a const expression",
            )),
        },
        Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => {
            Err(syn::Error::new(e.span(), NEGATIVE_DIM))
        }
        Expr::Path(p) if p.path.is_ident("Dyn") => Ok(DimArg::Dyn(e.span())),
        _ if is_type_dim(&e) => Ok(DimArg::Type(Box::new(e))),
        _ => match crate::dim_arith::type_expr(parsed) {
            Some(t) => Ok(DimArg::Arith(t)),
            None => Ok(DimArg::Expr(Box::new(e))),
        },
    }
}

/// One dim for `Dim!`: its type tokens, and the expression when it is a const
/// expression (`Dim!` writes those its own way).
///
/// # Errors
/// Not exactly one dim (`Dim! takes one dim`); the errors of a dim in `Shape!`.
pub(crate) fn parse_one_dim(input: TokenStream) -> syn::Result<(TokenStream, Option<ExprTokens>)> {
    let span = input
        .clone()
        .into_iter()
        .next()
        .map_or(Span::call_site(), |t| t.span());
    let parsed: ShapeInput = syn::parse2(input)?;
    let mut dims = parsed.dims.into_iter();
    let (Some(dim), None) = (dims.next(), dims.next()) else {
        return Err(syn::Error::new(
            span,
            "Dim! takes one dim: a size (`Dim![768]`), `Dyn`, a dim type or a const expression (`Dim![4 * N_EMBD]`)",
        ));
    };
    Ok(match dim {
        DimArg::Static(i) => (
            dim_tokens(&DimArgRef::Static(i.base10_parse().unwrap_or(0), i.span())),
            None,
        ),
        DimArg::Dyn(s) => (dim_tokens(&DimArgRef::Dyn(s)), None),
        DimArg::Type(e) => (dim_tokens(&DimArgRef::Type(&e)), None),
        DimArg::Expr(e) => (TokenStream::new(), Some(*e)),
        DimArg::Arith(t) => (t, None),
    })
}

fn validate(input: &ShapeInput) -> syn::Result<()> {
    if input.dims.len() > MAX_RANK {
        return Err(syn::Error::new(
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
pub(crate) fn dim_tokens(d: &DimArgRef<'_>) -> TokenStream {
    match d {
        DimArgRef::Static(n, span) => {
            let dim = static_dim(&quote!(::tensor_typed), *n);
            quote_spanned!(*span=> #dim)
        }
        DimArgRef::Dyn(span) => quote_spanned!(*span=> ::tensor_typed::Dyn),
        DimArgRef::Type(e) => quote!(#e),
        DimArgRef::Expr(e) => {
            let block = e.delimited(Delimiter::Brace, e.span());
            quote_spanned!(e.span()=> ::tensor_typed::D<#block>)
        }
    }
}

/// A borrowed dim, also built by other macros (`tensor!` knows its dims as numbers).
pub(crate) enum DimArgRef<'a> {
    /// A static size.
    Static(usize, Span),
    /// `Dyn`.
    Dyn(Span),
    /// A dim type, used as is.
    Type(&'a ExprTokens),
    /// A const expression.
    Expr(&'a ExprTokens),
}

/// The tuple type of a list of dims: `()`, `(X,)`, `(X, Y)`.
pub(crate) fn tuple_type(dims: &[TokenStream]) -> TokenStream {
    match dims.len() {
        1 => {
            let d = &dims[0];
            quote!((#d,))
        }
        _ => quote!((#(#dims),*)),
    }
}

fn try_expand(input: TokenStream) -> syn::Result<TokenStream> {
    let parsed: ShapeInput = syn::parse2(input)?;
    validate(&parsed)?;
    let dims: Vec<TokenStream> = parsed
        .dims
        .iter()
        .map(|d| match d {
            DimArg::Static(i) => {
                dim_tokens(&DimArgRef::Static(i.base10_parse().unwrap_or(0), i.span()))
            }
            DimArg::Dyn(s) => dim_tokens(&DimArgRef::Dyn(*s)),
            DimArg::Type(e) => dim_tokens(&DimArgRef::Type(e)),
            DimArg::Expr(e) => dim_tokens(&DimArgRef::Expr(e)),
            DimArg::Arith(t) => t.clone(),
        })
        .collect();
    Ok(tuple_type(&dims))
}

/// Expands `Shape![..]`; on error, a `compile_error!` at the offending dim in place of
/// the type (so one mistake makes one error).
pub(crate) fn expand(input: TokenStream) -> TokenStream {
    match try_expand(input) {
        Ok(ts) => ts,
        Err(e) => e.to_compile_error(),
    }
}

#[cfg(test)]
mod tests {
    fn expand(input: &str) -> String {
        super::expand(input.parse().unwrap()).to_string()
    }

    #[test]
    fn dims_become_a_tuple_type() {
        assert_eq!(
            expand("2, Dyn, N_EMBD"),
            "(:: tensor_typed :: D < 2 > , :: tensor_typed :: Dyn , :: tensor_typed :: D < { N_EMBD } >)"
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

    #[test]
    fn an_integer_dim_is_read_by_its_value_whatever_its_base_separators_or_suffix() {
        // syn's `base10_parse` reads the value: the suffix is not part of it, `_` is
        // dropped and `0x`/`0o`/`0b` set the base.
        let d = |n: &str| format!("(:: tensor_typed :: D < {n} > ,)");
        assert_eq!(expand("3usize"), d("3"));
        assert_eq!(expand("0x10"), d("16"));
        assert_eq!(expand("0o17"), d("15"));
        assert_eq!(expand("0b1_1"), d("3"));
        assert_eq!(
            expand("1_000"),
            "(:: tensor_typed :: K < :: tensor_typed :: D < 1 > , :: tensor_typed :: D < 0 >> ,)"
        );
        // syn classifies `1f32` as the integer 1 with suffix `f32` (rustc: a float).
        assert_eq!(expand("1f32"), d("1"));
    }

    #[test]
    fn a_float_literal_is_no_dim() {
        // `1e3` has no `.` but an exponent: a float to syn, as to rustc.
        for input in ["1e3", "1.0", "2.5f32"] {
            assert!(
                expand(input).contains("a dim is an integer literal, `Dyn` or a const expression"),
                "{input}"
            );
        }
    }

    #[test]
    fn only_the_bare_word_dyn_is_written_as_the_crates_dyn_and_a_path_to_it_is_a_dim_type() {
        // `Path::is_ident`: one segment, no leading `::`, no generic arguments. A longer
        // path ends in an UpperCamelCase segment: a dim type, kept as written.
        assert_eq!(expand("Dyn"), "(:: tensor_typed :: Dyn ,)");
        assert_eq!(expand("tensor_typed::Dyn"), "(tensor_typed :: Dyn ,)");
    }

    #[test]
    fn an_upper_camel_case_path_or_a_macro_call_is_a_dim_type_used_as_is() {
        // A name declared by `dims!` is a dim type: kept as written, in a tuple.
        assert_eq!(
            expand("Dyn, Embd, model::Seq"),
            "(:: tensor_typed :: Dyn , Embd , model :: Seq)"
        );
        assert_eq!(expand("C::Embd, Self::Embd"), "(C :: Embd , Self :: Embd)");
        assert_eq!(
            expand("<C as Config>::Vocab"),
            "(< C as Config > :: Vocab ,)"
        );
        assert_eq!(expand("Dim![768]"), "(Dim ! [768] ,)");
        // SCREAMING_CASE names and braced expressions are consts.
        assert_eq!(
            expand("N_EMBD, { N }"),
            "(:: tensor_typed :: D < { N_EMBD } > , :: tensor_typed :: D < { { N } } >)"
        );
    }

    #[test]
    fn a_one_letter_capital_is_a_type_parameter_and_arithmetic_over_types_is_a_type() {
        assert_eq!(expand("B, S2, E"), "(B , S2 , E)");
        assert_eq!(
            expand("B, H * E"),
            "(B , :: tensor_typed :: arith :: Prod < H , E >)"
        );
    }

    #[test]
    fn a_trailing_comma_ends_the_dims() {
        assert_eq!(expand("2,"), "(:: tensor_typed :: D < 2 > ,)");
        assert_eq!(expand("2, 3,"), expand("2, 3"));
    }

    #[test]
    fn an_error_points_at_its_dim() {
        let e = super::try_expand("2, -1".parse().unwrap()).err().unwrap();
        assert_eq!(e.span().start().column, 3);
        let e = super::try_expand("2, 1.5".parse().unwrap()).err().unwrap();
        assert_eq!(e.span().source_text().as_deref(), Some("1.5"));
    }
}
