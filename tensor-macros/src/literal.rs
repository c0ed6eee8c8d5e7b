//! `tensor![[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]` → a `Tensor<_, (D<2>, D<3>)>`.
//!
//! Phases: parse (nested arrays into a tree that keeps each row's span) → validate
//! (every row at one depth has the same length; leaves all at one depth) → expand (a
//! flat array of the leaves, in row-major order, plus the shape type). A ragged row is
//! reported at its own span.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Expr, Token};

/// A parsed literal: a row of sub-literals, or one element expression.
enum Node {
    Row { items: Vec<Node>, span: Span },
    Leaf(Expr),
}

fn parse_node(e: Expr) -> Node {
    match e {
        Expr::Array(a) => {
            let span = a.span();
            Node::Row {
                items: a.elems.into_iter().map(parse_node).collect(),
                span,
            }
        }
        other => Node::Leaf(other),
    }
}

/// Validates a row and returns its shape (sizes, outermost first).
fn shape_of(items: &[Node], span: Span) -> syn::Result<Vec<usize>> {
    let Some(first) = items.first() else {
        return Err(syn::Error::new(span, "tensor! rows must not be empty"));
    };
    let inner = match first {
        Node::Leaf(_) => None,
        Node::Row { items, span } => Some(shape_of(items, *span)?),
    };
    for (i, item) in items.iter().enumerate().skip(1) {
        match (item, &inner) {
            (Node::Leaf(_), None) => {}
            (Node::Row { items: sub, span }, Some(expected)) => {
                let got = shape_of(sub, *span)?;
                if got != *expected {
                    return Err(syn::Error::new(
                        *span,
                        format!(
                            "tensor!: ragged rows: row {i} has shape {got:?} but row 0 has shape {expected:?}"
                        ),
                    ));
                }
            }
            (Node::Leaf(e), Some(expected)) => {
                return Err(syn::Error::new(
                    e.span(),
                    format!("tensor!: ragged rows: expected a row of shape {expected:?} here, found a number"),
                ))
            }
            (Node::Row { span, .. }, None) => {
                return Err(syn::Error::new(
                    *span,
                    "tensor!: ragged rows: expected a number here (row 0 holds numbers), found a row",
                ))
            }
        }
    }
    let mut sizes = vec![items.len()];
    sizes.extend(inner.unwrap_or_default());
    Ok(sizes)
}

fn flatten(nodes: Vec<Node>, out: &mut Vec<Expr>) {
    for n in nodes {
        match n {
            Node::Leaf(e) => out.push(e),
            Node::Row { items, .. } => flatten(items, out),
        }
    }
}

fn try_expand(input: TokenStream) -> syn::Result<TokenStream> {
    let span = input.span();
    let exprs = syn::parse::Parser::parse2(Punctuated::<Expr, Token![,]>::parse_terminated, input)?;
    let items: Vec<Node> = exprs.into_iter().map(parse_node).collect();
    let sizes = shape_of(&items, span)?;
    if sizes.len() > crate::shape::MAX_RANK {
        return Err(syn::Error::new(
            span,
            format!(
                "tensor! supports at most {} dims, found {}",
                crate::shape::MAX_RANK,
                sizes.len()
            ),
        ));
    }
    let dims: Vec<TokenStream> = sizes
        .iter()
        .map(|n| crate::shape::dim_tokens(&crate::shape::DimArgRef::Static(*n, Span::call_site())))
        .collect();
    let shape = crate::shape::tuple_type(&dims);
    let mut leaves = Vec::new();
    flatten(items, &mut leaves);
    Ok(quote! {
        ::tensor_typed::Tensor::<_, #shape>::__from_literal([#(#leaves),*])
    })
}

/// Expands `tensor![..]`; on error, a `compile_error!` at the offending row.
pub(crate) fn expand(input: TokenStream) -> TokenStream {
    try_expand(input).unwrap_or_else(|e| e.to_compile_error())
}
