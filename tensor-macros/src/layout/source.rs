//! Where a pattern comes from: a string literal (`layout!(x, "h w -> w h")`), or the
//! same pattern written as tokens (`layout!(x, h w -> w h)`).
//!
//! Both become the same text for [`super::parse`]. The token form keeps a span per axis,
//! so an error points at the offending axis itself; inside a string literal that needs
//! `Literal::subspan`, which stable Rust does not have (see [`super::span`]).

use crate::syntax::lit::Lit;
use crate::syntax::stream::peek::{self, punct};
use crate::syntax::{Delimiter, Input, Result, Spacing, Span, Tree};
use std::ops::Range;

/// The pattern as written.
pub(crate) enum PatternSource {
    /// `"b (h d) -> b h d"`: a string literal.
    Literal(Lit),
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
    pub fn parse(input: &mut Input) -> Result<Self> {
        if input.peek(peek::lit_str) {
            return Ok(PatternSource::Literal(input.parse_lit()?));
        }
        let mut tokens = Vec::new();
        while !input.is_empty() && !input.peek(punct(",")) {
            tokens.push(input.parse_tree()?.clone());
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
            PatternSource::Literal(lit) => lit.span,
            PatternSource::Tokens(t) => t.first,
        }
    }
}

impl TokenPattern {
    /// The text and spans of `tokens`.
    fn new(tokens: &[Tree]) -> Self {
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
    fn push_all(&mut self, tokens: &[Tree]) {
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
    fn push_one(&mut self, tokens: &[Tree]) -> usize {
        let start = self.text.len();
        match &tokens[0] {
            Tree::Group(g) => {
                let (open, close) = match g.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Bracket => ("[", "]"),
                    Delimiter::Brace => ("{", "}"),
                    Delimiter::None => ("", ""),
                };
                let whole = self.pieces.len();
                self.pieces.push((start..start, g.span()));
                self.text.push_str(open);
                self.push_all(g.stream());
                self.text.push_str(close);
                let end = self.text.len();
                self.pieces[whole].0 = start..end;
                self.pieces.push((end - close.len()..end, g.span_close()));
                1
            }
            Tree::Punct(first) => {
                let mut used = 1;
                self.text.push(first.as_char());
                let mut spacing = first.spacing();
                while spacing == Spacing::Joint {
                    let Some(Tree::Punct(next)) = tokens.get(used) else {
                        break;
                    };
                    self.text.push(next.as_char());
                    spacing = next.spacing();
                    used += 1;
                }
                self.pieces.push((start..self.text.len(), first.span()));
                used
            }
            Tree::Ident(i) => {
                self.text.push_str(i.text());
                self.pieces.push((start..self.text.len(), i.span()));
                1
            }
            Tree::Literal(l) => {
                self.text.push_str(l.text());
                self.pieces.push((start..self.text.len(), l.span()));
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
    use crate::syntax::lex::lex;

    fn text(tokens: &str) -> String {
        TokenPattern::new(&lex(tokens, Span::call_site())).text
    }

    #[test]
    fn tokens_become_einops_text() {
        assert_eq!(text("b (h d) -> b h d"), "b (h d) -> b h d");
        assert_eq!(text("... h w -> ... (w h)"), "... h w -> ... (w h)");
        assert_eq!(text("b () c -> b c 1"), "b () c -> b c 1");
        assert_eq!(text("(g t) a d -> g a (t d)"), "(g t) a d -> g a (t d)");
    }

    #[test]
    fn each_axis_keeps_its_own_piece() {
        let p = TokenPattern::new(&lex("h w -> w h", Span::call_site()));
        let ranges: Vec<Range<usize>> = p.pieces.iter().map(|(r, _)| r.clone()).collect();
        assert_eq!(ranges, vec![0..1, 2..3, 4..6, 7..8, 9..10]);
    }
}
