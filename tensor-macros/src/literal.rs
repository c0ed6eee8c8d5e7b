//! `tensor![[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]` → a `Tensor<_, (D<2>, D<3>)>`.
//!
//! Phases: parse (nested arrays into a tree that keeps each row's span; an element is a
//! `syn::Expr` or its tokens, see [`crate::expr`]) → validate (every row at one depth has
//! the same length; leaves all at one depth) → expand (a flat array of the leaves, in
//! row-major order, plus the shape type). A ragged row is reported at its own span.

use crate::expr::ExprTokens;
use proc_macro2::{Delimiter, Punct, Spacing, Span, TokenStream, TokenTree};
use quote::{quote, ToTokens};
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::Token;

/// A parsed literal: a row of sub-literals, or one element expression.
enum Node {
    Row { items: Vec<Node>, span: Span },
    Leaf(ExprTokens),
}

impl Parse for Node {
    /// A row is `[a, b, ..]` as a whole element (not `[a; n]`, nor `[a, b][i]`); any
    /// other element is a leaf.
    fn parse(input: ParseStream) -> syn::Result<Self> {
        if !is_row(input) {
            return Ok(Node::Leaf(input.parse()?));
        }
        let content;
        let bracket = syn::bracketed!(content in input);
        Ok(Node::Row {
            items: parse_items(&content)?,
            span: bracket.span.join(),
        })
    }
}

/// Whether `input` starts with an array expression `[a, b, ..]` that is a whole element:
/// a `[..]` group (not one inside an invisible group, which a `$e:expr` of
/// `macro_rules!` passes as one expression) without a `;` at its top level, followed by
/// `,` or the end.
fn is_row(input: ParseStream) -> bool {
    let Some((TokenTree::Group(g), next)) = input.cursor().token_tree() else {
        return false;
    };
    let repeat = || {
        g.stream()
            .into_iter()
            .any(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ';'))
    };
    let ends = next.eof() || matches!(next.punct(), Some((p, _)) if p.as_char() == ',');
    g.delimiter() == Delimiter::Bracket && ends && !repeat()
}

/// The comma-separated elements of a literal or row.
fn parse_items(input: ParseStream) -> syn::Result<Vec<Node>> {
    Ok(Punctuated::<Node, Token![,]>::parse_terminated(input)?
        .into_iter()
        .collect())
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

/// The leaves in row-major order.
fn flatten(nodes: Vec<Node>, out: &mut Vec<ExprTokens>) {
    for n in nodes {
        match n {
            Node::Leaf(e) => out.push(e),
            Node::Row { items, .. } => flatten(items, out),
        }
    }
}

/// The leaves joined by `,`. The `,` after an element syn did not parse gets the span of
/// the token after that element in the input: rustc reports an element that ends too
/// early (`x as`) there, where syn reported it.
fn join(leaves: &[ExprTokens]) -> TokenStream {
    let mut out = TokenStream::new();
    for (i, e) in leaves.iter().enumerate() {
        if i > 0 {
            let mut comma = Punct::new(',', Spacing::Alone);
            comma.set_span(leaves[i - 1].end().unwrap_or_else(Span::call_site));
            out.extend([TokenTree::Punct(comma)]);
        }
        e.to_tokens(&mut out);
    }
    out
}

fn try_expand(input: TokenStream) -> syn::Result<TokenStream> {
    let span = input.span();
    let items = syn::parse::Parser::parse2(parse_items, input)?;
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
    let leaves = join(&leaves);
    Ok(quote! {
        ::tensor_typed::Tensor::<_, #shape>::__from_literal([#leaves])
    })
}

/// Expands `tensor![..]`; on error, a `compile_error!` at the offending row.
pub(crate) fn expand(input: TokenStream) -> TokenStream {
    try_expand(input).unwrap_or_else(|e| e.to_compile_error())
}

#[cfg(test)]
mod tests {
    use proc_macro2::{Delimiter, Group, TokenTree};
    use quote::quote;

    #[test]
    fn whole_arrays_are_rows_and_other_elements_are_kept_as_written() {
        let out = super::expand(quote!(
            [[1, 2][0], [0; 2].len()],
            [x?, if c { 1 } else { 2 }]
        ));
        let out = out.to_string();
        assert!(
            out.contains("(:: tensor_typed :: D < 2 > , :: tensor_typed :: D < 2 >)"),
            "{out}"
        );
        assert!(
            out.contains("([[1 , 2] [0] , [0 ; 2] . len () , x ? , if c { 1 } else { 2 }])"),
            "{out}"
        );
    }

    #[test]
    fn an_element_without_its_operand_is_an_error() {
        let out = super::expand(quote!([1, 2 +], [3, 4])).to_string();
        assert!(out.contains("expected an expression"), "{out}");
    }

    #[test]
    fn ragged_rows_are_errors() {
        let expand = |input: &str| super::expand(input.parse().unwrap()).to_string();
        assert!(expand("[1, 2], [3]").contains("row 1 has shape [1] but row 0 has shape [2]"));
        assert!(expand("[1, 2], 3").contains("expected a row of shape [2] here, found a number"));
        assert!(expand("1, [2]").contains("expected a number here (row 0 holds numbers)"));
        assert!(expand("").contains("tensor! rows must not be empty"));
    }

    #[test]
    fn a_ragged_row_is_reported_at_its_brackets() {
        // The row's span is its bracket group's, `[` to `]`.
        let e = super::try_expand("[1, 2], [3]".parse().unwrap())
            .err()
            .unwrap();
        assert_eq!(e.span().source_text().as_deref(), Some("[3]"));
        let e = super::try_expand("[[1], [2, 3]]".parse().unwrap())
            .err()
            .unwrap();
        assert_eq!(e.span().source_text().as_deref(), Some("[2, 3]"));
    }

    #[test]
    fn an_array_from_macro_rules_is_one_element_not_a_row() {
        // A `$row:expr` = `[1, 2]` comes in an invisible group: one element, as rustc
        // reads `$row` (the brackets are the expression's, not the literal's).
        let row = TokenTree::Group(Group::new(Delimiter::None, quote!([1, 2])));
        let out = super::expand(quote!(#row, #row)).to_string();
        assert!(out.contains("(:: tensor_typed :: D < 2 > ,)"), "{out}");
    }
}
