//! Spans inside the pattern literal, and errors that point at an axis of the pattern.
//!
//! `proc_macro::Literal::subspan` is nightly-only: on stable, `proc_macro2` returns `None`
//! and no stable API makes a span that starts inside a token. So an error points at the
//! axis itself where the compiler allows it (nightly), and otherwise at the whole literal;
//! in both cases the message repeats the pattern with a caret line under the offending
//! axis, so the user sees exactly which axis is meant.

use proc_macro2::Span;
use std::ops::Range;
use syn::LitStr;

/// The pattern literal and how its value maps onto its source text.
pub(crate) struct PatternSpans<'a> {
    lit: &'a LitStr,
    /// The literal's value.
    text: String,
    /// Bytes of source before the value (`"` or `r#"`), when value bytes map one-to-one
    /// onto source bytes (no escapes).
    offset: Option<usize>,
}

impl<'a> PatternSpans<'a> {
    /// Reads the literal's value and source text.
    pub fn new(lit: &'a LitStr) -> Self {
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
        PatternSpans { lit, text, offset }
    }

    /// The pattern text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The span of `text[range]`: a sub-span of the literal where the compiler supports
    /// it, else the literal's span.
    pub fn span(&self, range: &Range<usize>) -> Span {
        let whole = self.lit.span();
        let Some(offset) = self.offset else {
            return whole;
        };
        let token = self.lit.token();
        token
            .subspan(range.start + offset..range.end + offset)
            .unwrap_or(whole)
    }

    /// An error at `text[range]`: the first line is `layout!(op): message` (`layout!:`
    /// when `op` is empty: not known yet), then the
    /// pattern with carets under the range.
    pub fn error(&self, op: &str, range: &Range<usize>, message: &str) -> syn::Error {
        syn::Error::new(self.span(range), self.message(op, range, message))
    }

    /// The text of [`PatternSpans::error`].
    pub fn message(&self, op: &str, range: &Range<usize>, message: &str) -> String {
        let before = self.text[..range.start.min(self.text.len())]
            .chars()
            .count();
        let width = self.text[range.start.min(self.text.len())..range.end.min(self.text.len())]
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
            self.text,
            " ".repeat(before),
            "^".repeat(width)
        )
    }
}
