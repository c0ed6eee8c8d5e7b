//! Building an expansion: Rust text with `#name` holes, lexed by [`super::lex`], each
//! hole filled with tokens ([`ToTokens`]), the user's keeping their spans.
//!
//! `quote!("::tensor_typed::D<#n>", n)` makes the fixed tokens at the call site, and
//! `quote_spanned!(span => "..", n)` at `span`, as the `quote` crate's macros of the same
//! names do. Repetitions are built in Rust and passed as one hole ([`separated`]).

use super::lex::lex;
use super::tree::{Group, Ident, Literal, Punct, Spacing, Span, Tree};

/// A value that becomes tokens in an expansion.
pub(crate) trait ToTokens {
    /// Appends the tokens to `out`.
    fn to_tokens(&self, out: &mut Vec<Tree>);

    /// The tokens.
    fn to_token_vec(&self) -> Vec<Tree> {
        let mut out = Vec::new();
        self.to_tokens(&mut out);
        out
    }
}

impl ToTokens for Tree {
    fn to_tokens(&self, out: &mut Vec<Tree>) {
        out.push(self.clone());
    }
}

impl ToTokens for [Tree] {
    fn to_tokens(&self, out: &mut Vec<Tree>) {
        out.extend_from_slice(self);
    }
}

impl ToTokens for Vec<Tree> {
    fn to_tokens(&self, out: &mut Vec<Tree>) {
        out.extend_from_slice(self);
    }
}

impl ToTokens for Group {
    fn to_tokens(&self, out: &mut Vec<Tree>) {
        out.push(Tree::Group(self.clone()));
    }
}

impl ToTokens for Ident {
    fn to_tokens(&self, out: &mut Vec<Tree>) {
        out.push(Tree::Ident(self.clone()));
    }
}

impl ToTokens for Punct {
    fn to_tokens(&self, out: &mut Vec<Tree>) {
        out.push(Tree::Punct(self.clone()));
    }
}

impl ToTokens for Literal {
    fn to_tokens(&self, out: &mut Vec<Tree>) {
        out.push(Tree::Literal(self.clone()));
    }
}

/// A string literal.
impl ToTokens for str {
    fn to_tokens(&self, out: &mut Vec<Tree>) {
        out.push(Tree::Literal(Literal::string(self)));
    }
}

/// A string literal.
impl ToTokens for String {
    fn to_tokens(&self, out: &mut Vec<Tree>) {
        self.as_str().to_tokens(out);
    }
}

/// A suffixed literal, `3usize` (as the `quote` crate writes a `usize`).
impl ToTokens for usize {
    fn to_tokens(&self, out: &mut Vec<Tree>) {
        out.push(Tree::Literal(Literal::usize_suffixed(*self)));
    }
}

/// `true` or `false`.
impl ToTokens for bool {
    fn to_tokens(&self, out: &mut Vec<Tree>) {
        let word = if *self { "true" } else { "false" };
        out.push(Tree::Ident(Ident::new(word, Span::call_site())));
    }
}

impl<T: ToTokens + ?Sized> ToTokens for &T {
    fn to_tokens(&self, out: &mut Vec<Tree>) {
        (**self).to_tokens(out);
    }
}

/// `text` lexed at `span`, each `#name` replaced by the tokens of the argument `name`.
pub(crate) fn template(span: Span, text: &str, args: &[(&str, &dyn ToTokens)]) -> Vec<Tree> {
    fill(lex(text, span), args)
}

fn fill(trees: Vec<Tree>, args: &[(&str, &dyn ToTokens)]) -> Vec<Tree> {
    let mut out = Vec::with_capacity(trees.len());
    let mut trees = trees.into_iter().peekable();
    while let Some(tree) = trees.next() {
        match tree {
            Tree::Punct(p) if p.as_char() == '#' => {
                let arg = match trees.peek() {
                    Some(Tree::Ident(name)) => args.iter().find(|(n, _)| name == *n),
                    _ => None,
                };
                match arg {
                    Some((_, value)) => {
                        trees.next();
                        value.to_tokens(&mut out);
                    }
                    None => out.push(Tree::Punct(p)),
                }
            }
            Tree::Group(g) => {
                let mut group = Group::new(g.delimiter(), fill(g.stream().to_vec(), args));
                group.set_span(g.span());
                out.push(Tree::Group(group));
            }
            other => out.push(other),
        }
    }
    out
}

/// The items separated by `separator` (`#(#items),*` of `quote!`).
pub(crate) fn separated(items: impl IntoIterator<Item = Vec<Tree>>, separator: char) -> Vec<Tree> {
    let mut out = Vec::new();
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push(Tree::Punct(Punct::new(separator, Spacing::Alone)));
        }
        out.extend(item);
    }
    out
}

/// The items each followed by `terminator` (`#(#items,)*` of `quote!`).
pub(crate) fn terminated(
    items: impl IntoIterator<Item = Vec<Tree>>,
    terminator: char,
) -> Vec<Tree> {
    let mut out = Vec::new();
    for item in items {
        out.extend(item);
        out.push(Tree::Punct(Punct::new(terminator, Spacing::Alone)));
    }
    out
}

/// `quote!("text with #holes", holes..)`: the tokens of the text at the call site, each
/// `#hole` filled with the tokens of the variable of that name.
macro_rules! quote {
    ($text:literal $(, $arg:ident)* $(,)?) => {
        $crate::syntax::quote::template(
            $crate::syntax::Span::call_site(),
            $text,
            &[$((stringify!($arg), &$arg as &dyn $crate::syntax::ToTokens)),*],
        )
    };
}

/// `quote_spanned!(span => "text", holes..)`: as [`quote!`], the text's tokens at `span`.
macro_rules! quote_spanned {
    ($span:expr => $text:literal $(, $arg:ident)* $(,)?) => {
        $crate::syntax::quote::template(
            $span,
            $text,
            &[$((stringify!($arg), &$arg as &dyn $crate::syntax::ToTokens)),*],
        )
    };
}

pub(crate) use {quote, quote_spanned};

#[cfg(test)]
mod tests {
    use crate::syntax::print::to_string;
    use crate::syntax::{Literal, Tree};

    #[test]
    fn holes_are_filled_inside_groups() {
        let n = Literal::usize_unsuffixed(3);
        let list = super::separated(vec![quote!("a"), quote!("b")], ',');
        let out = quote!("#[allow(x)] f::<#n>([#list], #n)", n, list);
        assert_eq!(to_string(&out), "# [allow (x)] f :: < 3 > ([a , b] , 3)");
    }

    #[test]
    fn values_become_literals() {
        let (s, n, b) = ("a\n\"b\"", 2usize, true);
        let out: Vec<Tree> = quote!("#s #n #b", s, n, b);
        assert_eq!(to_string(&out), r#""a\n\"b\"" 2usize true"#);
    }
}
