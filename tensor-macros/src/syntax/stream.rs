//! A parse stream, as `syn::parse::ParseBuffer`: a cursor, the span that errors at its end
//! point at, and syn's rules for errors, so that a malformed input is reported with
//! syn's message at syn's span.
//!
//! - An error at the end of a stream is "unexpected end of input, .." at the end of the
//!   enclosing group (its close delimiter), or at the call site at the top level.
//! - An error at a group points at its open delimiter.
//! - A group's contents left unparsed are recorded ([`Input::finish`]), and reported as
//!   "unexpected token" by [`Input::end`] if nothing else failed first.

use super::buffer::Cursor;
use super::error::{Error, Result};
use super::lit::{parse_lit, Lit};
use super::tree::{Delimiter, Group, Ident, Span, Tree};
use std::cell::Cell;
use std::rc::Rc;

/// The first group contents left unparsed: where, and the group's delimiter.
type Unexpected = Rc<Cell<Option<(Span, Delimiter)>>>;

/// A parse stream.
pub(crate) struct Input<'a> {
    cursor: Cursor<'a>,
    /// Where "unexpected end of input" points.
    scope: Span,
    unexpected: Unexpected,
}

impl<'a> Input<'a> {
    /// A top-level stream at `cursor` (its end is the call site).
    pub fn new(cursor: Cursor<'a>) -> Input<'a> {
        Input {
            cursor,
            scope: Span::call_site(),
            unexpected: Rc::new(Cell::new(None)),
        }
    }

    /// A stream over the contents of a group, whose end is `scope`.
    pub fn scoped(cursor: Cursor<'a>, scope: Span) -> Input<'a> {
        Input {
            cursor,
            scope,
            unexpected: Rc::new(Cell::new(None)),
        }
    }

    /// The cursor.
    pub fn cursor(&self) -> Cursor<'a> {
        self.cursor
    }

    /// Moves the stream to `cursor` (a position after the current one).
    pub fn set_cursor(&mut self, cursor: Cursor<'a>) {
        self.cursor = cursor;
    }

    /// A copy to parse ahead with; [`Input::advance_to`] adopts its progress.
    pub fn fork(&self) -> Input<'a> {
        Input {
            cursor: self.cursor,
            scope: self.scope,
            unexpected: Rc::new(Cell::new(None)),
        }
    }

    /// Takes the position (and the first unparsed contents) of `fork`.
    pub fn advance_to(&mut self, fork: &Input<'a>) {
        if self.unexpected.get().is_none() {
            self.unexpected.set(fork.unexpected.get());
        }
        self.cursor = fork.cursor;
    }

    /// Whether the stream is at its end.
    pub fn is_empty(&self) -> bool {
        self.cursor.eof()
    }

    /// The span of the next token (a group's open delimiter), or the end's.
    pub fn span(&self) -> Span {
        if self.cursor.eof() {
            self.scope
        } else {
            self.cursor.open_span()
        }
    }

    /// An error at the next token, or "unexpected end of input, `message`" at the end.
    pub fn error(&self, message: impl std::fmt::Display) -> Error {
        error_at(self.scope, self.cursor, message)
    }

    /// Whether `peek` holds at the next token.
    pub fn peek(&self, peek: impl Fn(Cursor<'a>) -> bool) -> bool {
        peek(self.cursor)
    }

    /// Whether `peek` holds at the token after the next.
    pub fn peek2(&self, peek: impl Fn(Cursor<'a>) -> bool) -> bool {
        self.cursor.skip().is_some_and(peek)
    }

    /// Whether `peek` holds at the third token.
    pub fn peek3(&self, peek: impl Fn(Cursor<'a>) -> bool) -> bool {
        self.cursor.skip().and_then(Cursor::skip).is_some_and(peek)
    }

    /// Parses the operator `op` (`,`, `::`, `->`); returns the span of its first
    /// character. Error: "expected `op`".
    pub fn parse_punct(&mut self, op: &str) -> Result<Span> {
        let mut spans = Vec::new();
        let mut c = self.cursor;
        let n = op.chars().count();
        for (i, ch) in op.chars().enumerate() {
            let Some((p, rest)) = c.punct() else {
                break;
            };
            spans.push(p.span());
            if p.as_char() != ch {
                break;
            }
            if i + 1 == n {
                self.cursor = rest;
                return Ok(spans[0]);
            }
            if p.spacing() != super::tree::Spacing::Joint {
                break;
            }
            c = rest;
        }
        let span = spans.first().copied().unwrap_or_else(|| self.span());
        Err(Error::new(span, format!("expected `{op}`")))
    }

    /// Parses the keyword (or any identifier) `word`.
    pub fn parse_keyword(&mut self, word: &str) -> Result<Span> {
        if let Some((i, rest)) = self.cursor.ident() {
            if i == word {
                self.cursor = rest;
                return Ok(i.span());
            }
        }
        Err(self.error(format!("expected `{word}`")))
    }

    /// Parses an identifier that is not a keyword.
    pub fn parse_ident(&mut self) -> Result<&'a Ident> {
        match self.cursor.ident() {
            Some((i, rest)) if is_ident(i.text()) => {
                self.cursor = rest;
                Ok(i)
            }
            Some((i, _)) => Err(self.error(format!("expected identifier, found keyword `{i}`"))),
            None => Err(self.error("expected identifier")),
        }
    }

    /// Parses any identifier, keywords too (syn's `Ident::parse_any`, whose error says
    /// "expected ident").
    pub fn parse_any_ident(&mut self) -> Result<&'a Ident> {
        match self.cursor.ident() {
            Some((i, rest)) => {
                self.cursor = rest;
                Ok(i)
            }
            None => Err(self.error("expected ident")),
        }
    }

    /// Parses a lifetime (`'a`).
    pub fn parse_lifetime(&mut self) -> Result<()> {
        match self.cursor.lifetime() {
            Some((_, _, rest)) => {
                self.cursor = rest;
                Ok(())
            }
            None => Err(self.error("expected lifetime")),
        }
    }

    /// Parses a literal (syn's `Lit`).
    pub fn parse_lit(&mut self) -> Result<Lit> {
        match parse_lit(self.cursor) {
            Some((lit, rest)) => {
                self.cursor = rest;
                Ok(lit)
            }
            None => Err(self.error("expected literal")),
        }
    }

    /// Parses any token tree.
    pub fn parse_tree(&mut self) -> Result<&'a Tree> {
        match self.cursor.token_tree() {
            Some((tree, rest)) => {
                self.cursor = rest;
                Ok(tree)
            }
            None => Err(self.error("expected token tree")),
        }
    }

    /// Parses a group with `delimiter`: the stream of its contents (which shares this
    /// stream's record of unparsed contents) and the group.
    pub fn parse_group(&mut self, delimiter: Delimiter) -> Result<(Input<'a>, &'a Group)> {
        match self.cursor.group(delimiter) {
            Some((inside, group, rest)) => {
                self.cursor = rest;
                let content = Input {
                    cursor: inside,
                    scope: group.span_close(),
                    unexpected: self.unexpected.clone(),
                };
                Ok((content, group))
            }
            None => Err(self.error(match delimiter {
                Delimiter::Parenthesis => "expected parentheses",
                Delimiter::Brace => "expected curly braces",
                Delimiter::Bracket => "expected square brackets",
                Delimiter::None => "expected invisible group",
            })),
        }
    }

    /// Items separated by `,`, with an optional trailing one, to the end of the stream
    /// (syn's `Punctuated::parse_terminated`).
    pub fn parse_terminated<T>(
        &mut self,
        mut item: impl FnMut(&mut Input<'a>) -> Result<T>,
    ) -> Result<Vec<T>> {
        let mut items = Vec::new();
        loop {
            if self.is_empty() {
                break;
            }
            items.push(item(self)?);
            if self.is_empty() {
                break;
            }
            self.parse_punct(",")?;
        }
        Ok(items)
    }

    /// The stream is done with (syn drops it): records its first unparsed token, if
    /// none is recorded yet.
    pub fn finish(&self) {
        if self.unexpected.get().is_none() {
            if let Some(left) = unparsed(self.cursor) {
                self.unexpected.set(Some(left));
            }
        }
    }

    /// The end of a top-level parse: an error for contents left unparsed in a group or
    /// at the end ("unexpected token").
    pub fn end(&self) -> Result<()> {
        if let Some((span, delimiter)) = self.unexpected.get().or_else(|| unparsed(self.cursor)) {
            let message = match delimiter {
                Delimiter::Parenthesis => "unexpected token, expected `)`",
                Delimiter::Brace => "unexpected token, expected `}`",
                Delimiter::Bracket => "unexpected token, expected `]`",
                Delimiter::None => "unexpected token",
            };
            return Err(Error::new(span, message));
        }
        Ok(())
    }
}

/// syn's error at a cursor: "unexpected end of input, .." at `scope` at the end,
/// otherwise at the token (a group's open delimiter).
pub(crate) fn error_at(scope: Span, cursor: Cursor, message: impl std::fmt::Display) -> Error {
    if cursor.eof() {
        Error::new(scope, format!("unexpected end of input, {message}"))
    } else {
        Error::new(cursor.open_span(), message.to_string())
    }
}

/// The first token at `cursor` that is not in an empty invisible group, if any.
fn unparsed(mut cursor: Cursor) -> Option<(Span, Delimiter)> {
    if cursor.eof() {
        return None;
    }
    while let Some((inside, _, rest)) = cursor.group(Delimiter::None) {
        if let Some(found) = unparsed(inside) {
            return Some(found);
        }
        cursor = rest;
    }
    if cursor.eof() {
        None
    } else {
        Some((cursor.span(), cursor.scope_delimiter()))
    }
}

/// Whether `word` can be an identifier (syn's list of the words it reserves).
pub(crate) fn is_ident(word: &str) -> bool {
    !matches!(
        word,
        "_" | "abstract"
            | "as"
            | "async"
            | "await"
            | "become"
            | "box"
            | "break"
            | "const"
            | "continue"
            | "crate"
            | "do"
            | "dyn"
            | "else"
            | "enum"
            | "extern"
            | "false"
            | "final"
            | "fn"
            | "for"
            | "if"
            | "impl"
            | "in"
            | "let"
            | "loop"
            | "macro"
            | "match"
            | "mod"
            | "move"
            | "mut"
            | "override"
            | "priv"
            | "pub"
            | "ref"
            | "return"
            | "Self"
            | "self"
            | "static"
            | "struct"
            | "super"
            | "trait"
            | "true"
            | "try"
            | "type"
            | "typeof"
            | "unsafe"
            | "unsized"
            | "use"
            | "virtual"
            | "where"
            | "while"
            | "yield"
    )
}

/// Peeks, as the tokens syn peeks for.
pub(crate) mod peek {
    use super::super::buffer::Cursor;
    use super::super::lit::{parse_lit, LitKind};
    use super::super::tree::Delimiter;

    /// An identifier that is not a keyword (`syn::Ident`).
    pub fn ident(c: Cursor) -> bool {
        c.ident().is_some_and(|(i, _)| super::is_ident(i.text()))
    }

    /// Any identifier.
    pub fn any_ident(c: Cursor) -> bool {
        c.ident().is_some()
    }

    /// A lifetime.
    pub fn lifetime(c: Cursor) -> bool {
        c.lifetime().is_some()
    }

    /// A literal (`syn::Lit`).
    pub fn lit(c: Cursor) -> bool {
        parse_lit(c).is_some()
    }

    /// An integer literal (`syn::LitInt`).
    pub fn lit_int(c: Cursor) -> bool {
        parse_lit(c).is_some_and(|(l, _)| l.is_int())
    }

    /// A float literal (`syn::LitFloat`).
    pub fn lit_float(c: Cursor) -> bool {
        parse_lit(c).is_some_and(|(l, _)| l.kind == LitKind::Float)
    }

    /// A string literal (`syn::LitStr`).
    pub fn lit_str(c: Cursor) -> bool {
        parse_lit(c).is_some_and(|(l, _)| matches!(l.kind, LitKind::Str { .. }))
    }

    /// A group with `delimiter` (through invisible groups).
    pub fn group(delimiter: Delimiter) -> impl Fn(Cursor) -> bool {
        move |c| c.group(delimiter).is_some()
    }

    /// The operator `op`.
    pub fn punct(op: &'static str) -> impl Fn(Cursor) -> bool {
        move |c| c.peek_punct(op)
    }

    /// The keyword `word`.
    pub fn keyword(word: &'static str) -> impl Fn(Cursor) -> bool {
        move |c| c.ident().is_some_and(|(i, _)| i == word)
    }
}
