//! The token trees the macros read and write: `proc_macro`'s four kinds of token, as
//! plain Rust values that can also be made (by [`super::lex`]) and printed (by
//! [`super::print`]) outside a macro, so that unit tests run every phase.
//!
//! A token read from the macro's input keeps the compiler's token, so that passing it on
//! keeps its spans exactly (a group's open and close delimiters included, which no
//! stable API can set apart). A token made here has a [`Span`], the call site unless set.

/// A source location: the compiler's span of a token, or the call site.
///
/// `None` stands for `proc_macro::Span::call_site()`, so that tokens can be made (and
/// compared, printed) where the compiler's API is not available: in unit tests.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Span(Option<proc_macro::Span>);

impl Span {
    /// The span of the macro invocation.
    pub fn call_site() -> Span {
        Span(None)
    }

    /// The compiler's span.
    pub fn compiler(self) -> proc_macro::Span {
        self.0.unwrap_or_else(proc_macro::Span::call_site)
    }
}

/// The delimiter of a [`Group`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Delimiter {
    /// `( .. )`
    Parenthesis,
    /// `{ .. }`
    Brace,
    /// `[ .. ]`
    Bracket,
    /// An invisible group (a `$x:expr` of `macro_rules!`).
    None,
}

/// Whether a [`Punct`] is joined to the next one (`-` of `->`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Spacing {
    /// Followed by whitespace or a token other than punctuation.
    Alone,
    /// The first characters of a multi-character operator (`:` of `::`), and `'` of a
    /// lifetime.
    Joint,
}

/// One token tree.
#[derive(Clone, Debug)]
pub(crate) enum Tree {
    /// A delimited group.
    Group(Group),
    /// An identifier or keyword (`r#` included for a raw one).
    Ident(Ident),
    /// One punctuation character.
    Punct(Punct),
    /// A literal, as written (`1u8`, `"a\n"`, `r#"x"#`).
    Literal(Literal),
}

impl Tree {
    /// The span of the token (a group's whole span).
    pub fn span(&self) -> Span {
        match self {
            Tree::Group(g) => g.span(),
            Tree::Ident(i) => i.span(),
            Tree::Punct(p) => p.span(),
            Tree::Literal(l) => l.span(),
        }
    }
}

/// A delimited group of token trees.
#[derive(Clone, Debug)]
pub(crate) struct Group {
    delimiter: Delimiter,
    stream: Vec<Tree>,
    span: Span,
    open: Span,
    close: Span,
    /// The compiler's group, for a group of the input not changed since.
    original: Option<proc_macro::Group>,
}

impl Group {
    /// A group around `stream`, spanned at the call site.
    pub fn new(delimiter: Delimiter, stream: Vec<Tree>) -> Group {
        Group {
            delimiter,
            stream,
            span: Span::call_site(),
            open: Span::call_site(),
            close: Span::call_site(),
            original: None,
        }
    }

    /// The delimiter.
    pub fn delimiter(&self) -> Delimiter {
        self.delimiter
    }

    /// The trees inside the delimiters.
    pub fn stream(&self) -> &[Tree] {
        &self.stream
    }

    /// The span from the open delimiter to the close one.
    pub fn span(&self) -> Span {
        self.span
    }

    /// The span of the open delimiter.
    pub fn span_open(&self) -> Span {
        self.open
    }

    /// The span of the close delimiter.
    pub fn span_close(&self) -> Span {
        self.close
    }

    /// Sets the span of the group and both its delimiters.
    pub fn set_span(&mut self, span: Span) {
        self.span = span;
        self.open = span;
        self.close = span;
        self.original = None;
    }
}

/// An identifier.
#[derive(Clone, Debug)]
pub(crate) struct Ident {
    text: String,
    span: Span,
    /// The compiler's identifier, for one of the input (which may be one no constructor
    /// makes: `$crate`).
    original: Option<proc_macro::Ident>,
}

impl Ident {
    /// The identifier `text` (`r#` first for a raw one) at `span`.
    pub fn new(text: &str, span: Span) -> Ident {
        Ident {
            text: text.to_string(),
            span,
            original: None,
        }
    }

    /// The identifier as written.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Its span.
    pub fn span(&self) -> Span {
        self.span
    }
}

impl PartialEq<str> for Ident {
    fn eq(&self, other: &str) -> bool {
        self.text == other
    }
}

impl std::fmt::Display for Ident {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

/// One punctuation character.
#[derive(Clone, Debug)]
pub(crate) struct Punct {
    ch: char,
    spacing: Spacing,
    span: Span,
}

impl Punct {
    /// The character `ch` at the call site.
    pub fn new(ch: char, spacing: Spacing) -> Punct {
        Punct {
            ch,
            spacing,
            span: Span::call_site(),
        }
    }

    /// The character.
    pub fn as_char(&self) -> char {
        self.ch
    }

    /// Whether it is joined to the next punctuation.
    pub fn spacing(&self) -> Spacing {
        self.spacing
    }

    /// Its span.
    pub fn span(&self) -> Span {
        self.span
    }

    /// Sets its span.
    pub fn set_span(&mut self, span: Span) {
        self.span = span;
    }
}

/// A literal token.
#[derive(Clone, Debug)]
pub(crate) struct Literal {
    text: String,
    span: Span,
    /// The compiler's literal, for one of the input.
    original: Option<proc_macro::Literal>,
}

impl Literal {
    /// The literal written `text` (valid Rust literal syntax) at `span`.
    pub fn new(text: String, span: Span) -> Literal {
        Literal {
            text,
            span,
            original: None,
        }
    }

    /// A string literal of `value`, escaped as `proc_macro::Literal::string` does.
    pub fn string(value: &str) -> Literal {
        let mut text = String::with_capacity(value.len() + 2);
        text.push('"');
        for c in value.chars() {
            match c {
                '\'' => text.push('\''),
                '"' => text.push_str("\\\""),
                _ => text.extend(c.escape_debug()),
            }
        }
        text.push('"');
        Literal::new(text, Span::call_site())
    }

    /// An integer literal without suffix (`3`).
    pub fn usize_unsuffixed(n: usize) -> Literal {
        Literal::new(n.to_string(), Span::call_site())
    }

    /// An integer literal with the `usize` suffix (`3usize`).
    pub fn usize_suffixed(n: usize) -> Literal {
        Literal::new(format!("{n}usize"), Span::call_site())
    }

    /// The literal as written.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Its span.
    pub fn span(&self) -> Span {
        self.span
    }

    /// Sets its span.
    pub fn set_span(&mut self, span: Span) {
        self.span = span;
    }
}

/// The trees of a macro's input.
pub(crate) fn from_compiler(stream: proc_macro::TokenStream) -> Vec<Tree> {
    stream.into_iter().map(tree_from_compiler).collect()
}

fn tree_from_compiler(tree: proc_macro::TokenTree) -> Tree {
    match tree {
        proc_macro::TokenTree::Group(g) => Tree::Group(Group {
            delimiter: match g.delimiter() {
                proc_macro::Delimiter::Parenthesis => Delimiter::Parenthesis,
                proc_macro::Delimiter::Brace => Delimiter::Brace,
                proc_macro::Delimiter::Bracket => Delimiter::Bracket,
                proc_macro::Delimiter::None => Delimiter::None,
            },
            stream: from_compiler(g.stream()),
            span: Span(Some(g.span())),
            open: Span(Some(g.span_open())),
            close: Span(Some(g.span_close())),
            original: Some(g),
        }),
        proc_macro::TokenTree::Ident(i) => Tree::Ident(Ident {
            text: i.to_string(),
            span: Span(Some(i.span())),
            original: Some(i),
        }),
        proc_macro::TokenTree::Punct(p) => Tree::Punct(Punct {
            ch: p.as_char(),
            spacing: match p.spacing() {
                proc_macro::Spacing::Joint => Spacing::Joint,
                _ => Spacing::Alone,
            },
            span: Span(Some(p.span())),
        }),
        proc_macro::TokenTree::Literal(l) => Tree::Literal(Literal {
            text: l.to_string(),
            span: Span(Some(l.span())),
            original: Some(l),
        }),
    }
}

/// The compiler's tokens for a macro's output.
pub(crate) fn into_compiler(trees: Vec<Tree>) -> proc_macro::TokenStream {
    trees.into_iter().map(tree_into_compiler).collect()
}

fn tree_into_compiler(tree: Tree) -> proc_macro::TokenTree {
    match tree {
        Tree::Group(g) => {
            if let Some(original) = g.original {
                return original.into();
            }
            let delimiter = match g.delimiter {
                Delimiter::Parenthesis => proc_macro::Delimiter::Parenthesis,
                Delimiter::Brace => proc_macro::Delimiter::Brace,
                Delimiter::Bracket => proc_macro::Delimiter::Bracket,
                Delimiter::None => proc_macro::Delimiter::None,
            };
            let mut group = proc_macro::Group::new(delimiter, into_compiler(g.stream));
            group.set_span(g.span.compiler());
            group.into()
        }
        Tree::Ident(i) => match (i.original, i.text.strip_prefix("r#")) {
            (Some(original), _) => original.into(),
            (None, Some(raw)) => proc_macro::Ident::new_raw(raw, i.span.compiler()).into(),
            (None, None) => proc_macro::Ident::new(&i.text, i.span.compiler()).into(),
        },
        Tree::Punct(p) => {
            let spacing = match p.spacing {
                Spacing::Joint => proc_macro::Spacing::Joint,
                Spacing::Alone => proc_macro::Spacing::Alone,
            };
            let mut punct = proc_macro::Punct::new(p.ch, spacing);
            punct.set_span(p.span.compiler());
            punct.into()
        }
        Tree::Literal(l) => {
            let mut literal = match l.original {
                Some(original) => original,
                // A literal made here is valid syntax; a string of its text otherwise.
                None => l
                    .text
                    .parse::<proc_macro::Literal>()
                    .unwrap_or_else(|_| proc_macro::Literal::string(&l.text)),
            };
            literal.set_span(l.span.compiler());
            literal.into()
        }
    }
}
