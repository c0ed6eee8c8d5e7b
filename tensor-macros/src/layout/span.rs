//! Spans inside the pattern, and errors that point at an axis of the pattern.
//!
//! A pattern written as tokens (`layout!(x, h w -> w h)`) has a span per axis, and an
//! error points at the axis itself. Inside a string literal that needs
//! `proc_macro::Literal::subspan`, which is nightly-only: on stable, `proc_macro2` returns
//! `None` and no stable API makes a span that starts inside a token. So there an error
//! points at the axis where the compiler allows it (nightly), and otherwise at the whole
//! literal. In every case the message repeats the pattern with a caret line under the
//! offending axis, so the user sees exactly which axis is meant.

use super::source::{PatternSource, TokenPattern};
use proc_macro2::{Punct, Spacing, Span};
use quote::quote;
use std::ops::Range;
use syn::LitStr;

/// The pattern and how its text maps onto source spans.
pub(crate) enum PatternSpans<'a> {
    /// A string literal.
    Literal {
        /// The literal.
        lit: &'a LitStr,
        /// The literal's value.
        text: String,
        /// Bytes of source before the value (`"` or `r#"`), when value bytes map
        /// one-to-one onto source bytes (no escapes).
        offset: Option<usize>,
    },
    /// Tokens, each piece with its own span.
    Tokens(&'a TokenPattern),
}

impl<'a> PatternSpans<'a> {
    /// Reads the pattern's text and spans.
    pub fn new(source: &'a PatternSource) -> Self {
        match source {
            PatternSource::Literal(lit) => Self::literal(lit),
            PatternSource::Tokens(t) => PatternSpans::Tokens(t),
        }
    }

    /// Reads a literal's value and source text.
    fn literal(lit: &'a LitStr) -> Self {
        let text = lit.value();
        let source = lit.token().to_string();
        let offset = if source.starts_with('"') && !source.contains('\\') {
            Some(1)
        } else if source.starts_with('r') {
            source.find('"').map(|q| q + 1)
        } else {
            None
        };
        // The mapping holds only if the source is the value between its quotes.
        let offset = offset.filter(|o| source.get(*o..*o + text.len()) == Some(text.as_str()));
        PatternSpans::Literal { lit, text, offset }
    }

    /// The pattern text.
    pub fn text(&self) -> &str {
        match self {
            PatternSpans::Literal { text, .. } => text,
            PatternSpans::Tokens(t) => &t.text,
        }
    }

    /// The span of `text[range]`: the axis's own span when written as tokens; in a
    /// literal, a sub-span where the compiler supports it, else the literal's span.
    pub fn span(&self, range: &Range<usize>) -> Span {
        match self {
            PatternSpans::Tokens(t) => t.span(range),
            PatternSpans::Literal { lit, offset, .. } => {
                let whole = lit.span();
                let Some(offset) = offset else {
                    return whole;
                };
                lit.token()
                    .subspan(range.start + offset..range.end + offset)
                    .unwrap_or(whole)
            }
        }
    }

    /// An error at `text[range]`: the first line is `layout!(op): message` (`layout!:`
    /// when `op` is empty: not known yet), then the pattern with carets under the range.
    /// Written as tokens, the error spans the range's first to last token.
    pub fn error(&self, op: &str, range: &Range<usize>, message: &str) -> syn::Error {
        let message = self.message(op, range, message);
        match self {
            PatternSpans::Tokens(t) => {
                // `new_spanned` reports from the first token's span to the last's.
                let (first, last) = t.span_range(range);
                let mut a = Punct::new('<', Spacing::Alone);
                a.set_span(first);
                let mut b = Punct::new('>', Spacing::Alone);
                b.set_span(last);
                syn::Error::new_spanned(quote!(#a #b), message)
            }
            PatternSpans::Literal { .. } => syn::Error::new(self.span(range), message),
        }
    }

    /// The text of [`PatternSpans::error`].
    pub fn message(&self, op: &str, range: &Range<usize>, message: &str) -> String {
        let text = self.text();
        let before = text[..range.start.min(text.len())].chars().count();
        let width = text[range.start.min(text.len())..range.end.min(text.len())]
            .chars()
            .count()
            .max(1);
        let op = if op.is_empty() {
            String::new()
        } else {
            format!("({op})")
        };
        format!(
            "layout!{op}: {message}\n  | {}\n  | {}{}",
            text,
            " ".repeat(before),
            "^".repeat(width)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::{PatternSource, PatternSpans};
    use proc_macro2::TokenStream;

    /// The pattern of `layout!(x, <source>)`.
    fn source(text: &str) -> PatternSource {
        let input: TokenStream = text.parse().unwrap();
        syn::parse::Parser::parse2(PatternSource::parse, input).unwrap()
    }

    /// Where the value of a string pattern starts in its source text, if its bytes map
    /// one-to-one.
    fn offset(text: &str) -> Option<usize> {
        match PatternSpans::new(&source(text)) {
            PatternSpans::Literal { offset, .. } => offset,
            PatternSpans::Tokens(_) => panic!("expected a string literal"),
        }
    }

    #[test]
    fn a_string_patterns_value_maps_onto_its_source_text_unless_escaped() {
        // `LitStr::token()` is the literal as written (quotes, `r#`), `value()` unescaped.
        assert_eq!(offset(r#""h w -> w h""#), Some(1));
        assert_eq!(offset(r###"r#"h w -> w h"#"###), Some(3));
        assert_eq!(offset(r#""h w -> w \x68""#), None);
    }

    #[test]
    fn an_axis_in_a_string_pattern_spans_its_bytes_where_the_compiler_can() {
        // `Literal::subspan` (nightly in the compiler, and here in proc-macro2's own
        // spans); otherwise, as on stable Rust and for an escaped literal, the whole one.
        let plain = source(r#""h w -> w c""#);
        let spans = PatternSpans::new(&plain);
        assert_eq!(spans.span(&(9..10)).source_text().as_deref(), Some("c"));
        let escaped = source(r#""h w -> w \x63""#);
        let spans = PatternSpans::new(&escaped);
        assert_eq!(
            spans.span(&(9..10)).source_text().as_deref(),
            Some(r#""h w -> w \x63""#)
        );
    }

    #[test]
    fn an_error_in_a_token_pattern_spans_its_first_to_last_token() {
        let tokens = source("b (h d) -> b h d");
        let spans = PatternSpans::new(&tokens);
        let e = spans.error("rearrange", &(2..7), "message");
        assert_eq!(e.span().source_text().as_deref(), Some("(h d)"));
        assert!(e
            .to_string()
            .starts_with("layout!(rearrange): message\n  | b (h d) -> b h d\n  |   ^^^^^"));
    }
}
