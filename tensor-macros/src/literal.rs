//! `tensor![[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]` → a `Tensor<_, (D<2>, D<3>)>`.
//!
//! Phases: parse (nested arrays into a tree that keeps each row's span; an element is an
//! expression argument, see [`crate::expr`]) → validate (every row at one depth has the
//! same length; leaves all at one depth) → expand (a flat array of the leaves, in
//! row-major order, plus the shape type). A ragged row is reported at its own span.

use crate::expr::ExprTokens;
use crate::shape::{static_dim, tuple_type, MAX_RANK};
use crate::syntax::{
    parse_all, quote, Delimiter, Error, Input, Punct, Result, Spacing, Span, ToTokens, Tree,
};

/// A parsed literal: a row of sub-literals, or one element expression.
enum Node {
    Row { items: Vec<Node>, span: Span },
    Leaf(ExprTokens),
}

/// A row is `[a, b, ..]` as a whole element (not `[a; n]`, nor `[a, b][i]`); any other
/// element is a leaf.
fn node(input: &mut Input) -> Result<Node> {
    if !is_row(input) {
        return Ok(Node::Leaf(ExprTokens::parse(input)?));
    }
    let (mut content, bracket) = input.parse_group(Delimiter::Bracket)?;
    let items = parse_items(&mut content);
    content.finish();
    Ok(Node::Row {
        items: items?,
        span: bracket.span(),
    })
}

/// Whether `input` starts with an array expression `[a, b, ..]` that is a whole element:
/// a `[..]` group (not one inside an invisible group, which a `$e:expr` of
/// `macro_rules!` passes as one expression) without a `;` at its top level, followed by
/// `,` or the end.
fn is_row(input: &Input) -> bool {
    let Some((Tree::Group(g), next)) = input.cursor().token_tree() else {
        return false;
    };
    let repeat = || {
        g.stream()
            .iter()
            .any(|t| matches!(t, Tree::Punct(p) if p.as_char() == ';'))
    };
    let ends = next.eof() || matches!(next.punct(), Some((p, _)) if p.as_char() == ',');
    g.delimiter() == Delimiter::Bracket && ends && !repeat()
}

/// The comma-separated elements of a literal or row.
fn parse_items(input: &mut Input) -> Result<Vec<Node>> {
    input.parse_terminated(node)
}

/// Validates a row and returns its shape (sizes, outermost first).
fn shape_of(items: &[Node], span: Span) -> Result<Vec<usize>> {
    let Some(first) = items.first() else {
        return Err(Error::new(span, "tensor! rows must not be empty"));
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
                    return Err(Error::new(
                        *span,
                        format!(
                            "tensor!: ragged rows: row {i} has shape {got:?} but row 0 has shape {expected:?}"
                        ),
                    ));
                }
            }
            (Node::Leaf(e), Some(expected)) => {
                return Err(Error::new(
                    e.span(),
                    format!("tensor!: ragged rows: expected a row of shape {expected:?} here, found a number"),
                ))
            }
            (Node::Row { span, .. }, None) => {
                return Err(Error::new(
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

/// The leaves joined by `,`. The `,` after an element the grammar did not parse gets
/// the span of the token after that element in the input: rustc reports an element
/// that ends too early (`x as`) there, where syn reported it.
fn join(leaves: &[ExprTokens]) -> Vec<Tree> {
    let mut out = Vec::new();
    for (i, e) in leaves.iter().enumerate() {
        if i > 0 {
            let mut comma = Punct::new(',', Spacing::Alone);
            comma.set_span(leaves[i - 1].end().unwrap_or_else(Span::call_site));
            out.push(Tree::Punct(comma));
        }
        e.tokens().to_tokens(&mut out);
    }
    out
}

fn try_expand(input: &[Tree]) -> Result<Vec<Tree>> {
    let span = input.first().map_or_else(Span::call_site, Tree::span);
    let items = parse_all(input, parse_items)?;
    let sizes = shape_of(&items, span)?;
    if sizes.len() > MAX_RANK {
        return Err(Error::new(
            span,
            format!(
                "tensor! supports at most {MAX_RANK} dims, found {}",
                sizes.len()
            ),
        ));
    }
    let ls = quote!("::tensor_typed");
    let shape = tuple_type(sizes.iter().map(|n| static_dim(&ls, *n)).collect());
    let mut leaves = Vec::new();
    flatten(items, &mut leaves);
    let leaves = join(&leaves);
    Ok(quote!(
        "::tensor_typed::Tensor::<_, #shape>::__from_literal([#leaves])",
        shape,
        leaves
    ))
}

/// Expands `tensor![..]`; on error, a `compile_error!` at the offending row.
pub(crate) fn expand(input: Vec<Tree>) -> Vec<Tree> {
    try_expand(&input).unwrap_or_else(|e| e.to_compile_error())
}

#[cfg(test)]
mod tests {
    fn expand(text: &str) -> String {
        crate::syntax::expand_text(super::expand, text)
    }

    #[test]
    fn whole_arrays_are_rows_and_other_elements_are_kept_as_written() {
        let out = expand("[[1, 2][0], [0; 2].len()], [x?, if c { 1 } else { 2 }]");
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
        let out = expand("[1, 2 +], [3, 4]");
        assert!(out.contains("expected an expression"), "{out}");
    }

    #[test]
    fn ragged_rows_are_errors() {
        assert!(expand("[1, 2], [3]").contains("row 1 has shape [1] but row 0 has shape [2]"));
        assert!(expand("[1, 2], 3").contains("expected a row of shape [2] here, found a number"));
        assert!(expand("1, [2]").contains("expected a number here (row 0 holds numbers)"));
        assert!(expand("").contains("tensor! rows must not be empty"));
    }
}
