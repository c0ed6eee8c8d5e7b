//! Spans inside the pattern, and errors that point at an axis of the pattern.
//!
//! A pattern written as tokens (`layout!(x, h w -> w h)`) has a span per axis, and an
//! error points at the axis itself. Inside a string literal that needs
//! `proc_macro::Literal::subspan`, which is nightly-only, and no stable API makes a span
//! that starts inside a token: there an error points at the whole literal. In every case
//! the message repeats the pattern with a caret line under the offending axis, so the
//! user sees exactly which axis is meant.

use super::source::{PatternSource, TokenPattern};
use crate::syntax::lit::{Lit, LitKind};
use crate::syntax::{Error, Span};
use std::ops::Range;

/// The pattern and how its text maps onto source spans.
pub(crate) enum PatternSpans<'a> {
    /// A string literal.
    Literal {
        /// The literal.
        lit: &'a Lit,
        /// The literal's value.
        text: String,
    },
    /// Tokens, each piece with its own span.
    Tokens(&'a TokenPattern),
}

impl<'a> PatternSpans<'a> {
    /// Reads the pattern's text and spans.
    pub fn new(source: &'a PatternSource) -> Self {
        match source {
            PatternSource::Literal(lit) => {
                let text = match &lit.kind {
                    LitKind::Str { value } => value.clone(),
                    _ => String::new(),
                };
                PatternSpans::Literal { lit, text }
            }
            PatternSource::Tokens(t) => PatternSpans::Tokens(t),
        }
    }

    /// The pattern text.
    pub fn text(&self) -> &str {
        match self {
            PatternSpans::Literal { text, .. } => text,
            PatternSpans::Tokens(t) => &t.text,
        }
    }

    /// The span of `text[range]`: the axis's own span when written as tokens; in a
    /// literal, the literal's span.
    pub fn span(&self, range: &Range<usize>) -> Span {
        match self {
            PatternSpans::Tokens(t) => t.span(range),
            PatternSpans::Literal { lit, .. } => lit.span,
        }
    }

    /// An error at `text[range]`: the first line is `layout!(op): message` (`layout!:`
    /// when `op` is empty: not known yet), then the pattern with carets under the range.
    /// Written as tokens, the error spans the range's first to last token.
    pub fn error(&self, op: &str, range: &Range<usize>, message: &str) -> Error {
        let message = self.message(op, range, message);
        match self {
            PatternSpans::Tokens(t) => {
                let (first, last) = t.span_range(range);
                Error::new_range(first, last, message)
            }
            PatternSpans::Literal { .. } => Error::new(self.span(range), message),
        }
    }

    /// The text of [`PatternSpans::error`].
    pub fn message(&self, op: &str, range: &Range<usize>, message: &str) -> String {
        let text = self.text();
        let (start, end) = (range.start.min(text.len()), range.end.min(text.len()));
        let before = text.get(..start).map_or(0, |s| s.chars().count());
        let width = text.get(start..end).map_or(0, |s| s.chars().count()).max(1);
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
