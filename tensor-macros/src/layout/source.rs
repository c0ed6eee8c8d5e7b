//! Where a pattern comes from: a string literal (`layout!(x, "h w -> w h")`), or the
//! same pattern written as tokens (`layout!(x, h w -> w h)`).
//!
//! Both become the same text for [`super::parse`]. The token form keeps a span per axis,
//! so an error points at the offending axis itself; inside a string literal that needs
//! `Literal::subspan`, which stable Rust does not have (see [`super::span`]).

use proc_macro2::{Delimiter, Spacing, Span, TokenTree};
use std::ops::Range;
use syn::parse::ParseStream;
use syn::{LitStr, Token};

/// The pattern as written.
pub(crate) enum PatternSource {
    /// `"b (h d) -> b h d"`.
    Literal(LitStr),
    /// `b (h d) -> b h d`, as text with the span of each piece.
    Tokens(TokenPattern),
}

/// A pattern written as tokens: its text, and for pieces of the text (an axis, a number,
/// `->`, `...`, a parenthesised group, a bracket) the span of the tokens they came from.
pub(crate) struct TokenPattern {
    /// The text, pieces joined by single spaces (`(h d)` without inner padding).
    pub text: String,
    /// `(range in text, span)`, in order; a group's whole range comes before its inner
    /// pieces.
    pub pieces: Vec<(Range<usize>, Span)>,
    /// The span of the first token (the span of the whole pattern where one is needed).
    pub first: Span,
}

impl PatternSource {
    /// Parses a string literal, or the tokens up to the next top-level `,` (or the end).
    pub fn parse(input: ParseStream) -> syn::Result<Self> {
        if input.peek(LitStr) {
            return Ok(PatternSource::Literal(input.parse()?));
        }
        let mut tokens = Vec::new();
        while !input.is_empty() && !input.peek(Token![,]) {
            tokens.push(input.parse::<TokenTree>()?);
        }
        if tokens.is_empty() {
            return Err(input.error(
                "layout!: expected a pattern after the tensor (`\"h w -> w h\"` or `h w -> w h`)",
            ));
        }
        Ok(PatternSource::Tokens(TokenPattern::new(&tokens)))
    }

    /// The span errors about the whole pattern point at.
    pub fn span(&self) -> Span {
        match self {
            PatternSource::Literal(lit) => lit.span(),
            PatternSource::Tokens(t) => t.first,
        }
    }
}

impl TokenPattern {
    /// The text and spans of `tokens`.
    fn new(tokens: &[TokenTree]) -> Self {
        let mut p = TokenPattern {
            text: String::new(),
            pieces: Vec::new(),
            first: tokens[0].span(),
        };
        p.push_all(tokens);
        p
    }

    /// Appends `tokens`, pieces separated by one space (none before the first: it starts
    /// the pattern or follows an opening bracket).
    fn push_all(&mut self, tokens: &[TokenTree]) {
        let mut i = 0;
        while i < tokens.len() {
            if i > 0 {
                self.text.push(' ');
            }
            i += self.push_one(&tokens[i..]);
        }
    }

    /// Appends the piece starting at `tokens[0]`; returns how many tokens it used (a run
    /// of joint punctuation such as `->` or `...` is one piece).
    fn push_one(&mut self, tokens: &[TokenTree]) -> usize {
        let start = self.text.len();
        match &tokens[0] {
            TokenTree::Group(g) => {
                let (open, close) = match g.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Bracket => ("[", "]"),
                    Delimiter::Brace => ("{", "}"),
                    Delimiter::None => ("", ""),
                };
                let whole = self.pieces.len();
                self.pieces.push((start..start, g.span()));
                self.text.push_str(open);
                let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                self.push_all(&inner);
                self.text.push_str(close);
                let end = self.text.len();
                self.pieces[whole].0 = start..end;
                self.pieces.push((end - close.len()..end, g.span_close()));
                1
            }
            TokenTree::Punct(first) => {
                let mut used = 1;
                self.text.push(first.as_char());
                let mut spacing = first.spacing();
                while spacing == Spacing::Joint {
                    let Some(TokenTree::Punct(next)) = tokens.get(used) else {
                        break;
                    };
                    self.text.push(next.as_char());
                    spacing = next.spacing();
                    used += 1;
                }
                self.pieces.push((start..self.text.len(), first.span()));
                used
            }
            other => {
                self.text.push_str(&other.to_string());
                self.pieces.push((start..self.text.len(), other.span()));
                1
            }
        }
    }

    /// The span for `range` of the text: the piece with exactly that range, else the
    /// first piece it overlaps (or that holds its start), else the first token.
    pub fn span(&self, range: &Range<usize>) -> Span {
        if let Some((_, s)) = self.pieces.iter().find(|(r, _)| r == range) {
            return *s;
        }
        let overlaps = |r: &Range<usize>| {
            r.start < range.end.max(range.start + 1) && range.start < r.end.max(r.start + 1)
        };
        self.pieces
            .iter()
            .filter(|(r, _)| r.len() <= range.len().max(1) || r.contains(&range.start))
            .find(|(r, _)| overlaps(r))
            .map_or(self.first, |(_, s)| *s)
    }

    /// The spans of the first and last pieces `range` covers (an error spanning both).
    pub fn span_range(&self, range: &Range<usize>) -> (Span, Span) {
        let covered: Vec<&(Range<usize>, Span)> = self
            .pieces
            .iter()
            .filter(|(r, _)| range.start <= r.start && r.end <= range.end && !r.is_empty())
            .collect();
        match (covered.first(), covered.last()) {
            (Some(a), Some(b)) => (a.1, b.1),
            _ => {
                let s = self.span(range);
                (s, s)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    fn text(tokens: proc_macro2::TokenStream) -> String {
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        TokenPattern::new(&tokens).text
    }

    #[test]
    fn tokens_become_einops_text() {
        assert_eq!(text(quote!(b (h d) -> b h d)), "b (h d) -> b h d");
        assert_eq!(text(quote!(... h w -> ... (w h))), "... h w -> ... (w h)");
        assert_eq!(text(quote!(b () c -> b c 1)), "b () c -> b c 1");
        assert_eq!(
            text(quote!((g t) a d -> g a (t d))),
            "(g t) a d -> g a (t d)"
        );
    }

    #[test]
    fn each_axis_keeps_its_own_piece() {
        let tokens: Vec<TokenTree> = quote!(h w -> w h).into_iter().collect();
        let p = TokenPattern::new(&tokens);
        let ranges: Vec<Range<usize>> = p.pieces.iter().map(|(r, _)| r.clone()).collect();
        assert_eq!(ranges, vec![0..1, 2..3, 4..6, 7..8, 9..10]);
    }

    /// `input` parsed as a pattern, and the tokens after it.
    fn pattern(input: proc_macro2::TokenStream) -> (PatternSource, String) {
        let parser = |input: ParseStream| {
            let p = PatternSource::parse(input)?;
            Ok((p, input.parse::<proc_macro2::TokenStream>()?.to_string()))
        };
        syn::parse::Parser::parse2(parser, input).unwrap()
    }

    #[test]
    fn a_string_pattern_is_a_string_literal_raw_or_not_even_in_an_invisible_group() {
        let value = |input| match pattern(input).0 {
            PatternSource::Literal(lit) => lit.value(),
            PatternSource::Tokens(t) => panic!("tokens: {}", t.text),
        };
        assert_eq!(value(quote!("h w -> w h")), "h w -> w h");
        assert_eq!(value(quote!(r#"h "w" -> w"#)), "h \"w\" -> w");
        // `$p:expr` or `$p:literal` of `macro_rules!`: syn's literal peek looks through.
        let g = proc_macro2::Group::new(Delimiter::None, quote!("h -> h"));
        assert_eq!(value(quote!(#g)), "h -> h");
        // A byte string is no string literal to syn: read as tokens.
        assert!(matches!(
            pattern(quote!(b"h -> h")).0,
            PatternSource::Tokens(_)
        ));
    }

    #[test]
    fn a_string_pattern_keeps_the_literals_span() {
        // Errors about the whole pattern point at the literal, quotes included.
        let input = r#"r"h w -> w h", h = 2"#.parse().unwrap();
        let p = pattern(input).0;
        assert!(matches!(p, PatternSource::Literal(_)));
        assert_eq!(p.span().source_text().as_deref(), Some(r#"r"h w -> w h""#));
    }

    #[test]
    fn a_token_pattern_runs_to_the_next_top_level_comma() {
        let (p, rest) = pattern(quote!(b (h d) -> b h d, h = 2));
        let PatternSource::Tokens(t) = p else {
            panic!("expected tokens");
        };
        assert_eq!(t.text, "b (h d) -> b h d");
        assert_eq!(rest, ", h = 2");
    }

    #[test]
    fn each_axis_keeps_its_own_span() {
        let tokens: Vec<TokenTree> = "b (h d) -> d h"
            .parse::<proc_macro2::TokenStream>()
            .unwrap()
            .into_iter()
            .collect();
        let p = TokenPattern::new(&tokens);
        let text = |range: Range<usize>| p.span(&range).source_text();
        assert_eq!(text(0..1).as_deref(), Some("b"));
        assert_eq!(text(2..7).as_deref(), Some("(h d)"));
        assert_eq!(text(5..6).as_deref(), Some("d"));
        // `->` is one piece, spanned at its `-` (stable Rust cannot join spans).
        assert_eq!(text(8..10).as_deref(), Some("-"));
        assert_eq!(text(13..14).as_deref(), Some("h"));
    }
}
