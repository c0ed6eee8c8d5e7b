//! A compile error of a macro: a message and the span range it points at, emitted as
//! `::core::compile_error!{ "message" }` (as `syn::Error` emits it).
//!
//! The compiler reports a `compile_error!` from the span of its first token to the span
//! of its last, so an error covers a range of the input: the path tokens carry the
//! range's first span, the braces and the message its last.

use super::tree::{Delimiter, Group, Ident, Literal, Punct, Spacing, Span, Tree};

/// One or more compile errors.
#[derive(Debug)]
pub(crate) struct Error {
    messages: Vec<Message>,
}

#[derive(Debug)]
struct Message {
    start: Span,
    end: Span,
    text: String,
}

/// The result of a phase that may fail with compile errors.
pub(crate) type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// An error at `span`.
    pub fn new(span: Span, message: impl Into<String>) -> Error {
        Error::new_range(span, span, message)
    }

    /// An error from `start` to `end`.
    pub fn new_range(start: Span, end: Span, message: impl Into<String>) -> Error {
        Error {
            messages: vec![Message {
                start,
                end,
                text: message.into(),
            }],
        }
    }

    /// The first message.
    pub fn message(&self) -> &str {
        self.messages.first().map_or("", |m| m.text.as_str())
    }

    /// `::core::compile_error!{ "message" }`, once per message.
    pub fn to_compile_error(&self) -> Vec<Tree> {
        let mut out = Vec::new();
        for m in &self.messages {
            let punct = |ch, spacing| {
                let mut p = Punct::new(ch, spacing);
                p.set_span(m.start);
                Tree::Punct(p)
            };
            out.push(punct(':', Spacing::Joint));
            out.push(punct(':', Spacing::Alone));
            out.push(Tree::Ident(Ident::new("core", m.start)));
            out.push(punct(':', Spacing::Joint));
            out.push(punct(':', Spacing::Alone));
            out.push(Tree::Ident(Ident::new("compile_error", m.start)));
            out.push(punct('!', Spacing::Alone));
            let mut text = Literal::string(&m.text);
            text.set_span(m.end);
            let mut group = Group::new(Delimiter::Brace, vec![Tree::Literal(text)]);
            group.set_span(m.end);
            out.push(Tree::Group(group));
        }
        out
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.message())
    }
}
