//! A cursor over token trees, as `syn::buffer::Cursor`: the trees are flattened into one
//! list where each group is followed by its contents and an end marker, so that a cursor
//! is an index that can step into a group and out of it.
//!
//! As in syn, invisible groups (a `$x:expr` of `macro_rules!`) are transparent to the
//! token accessors ([`Cursor::ident`], [`Cursor::punct`], [`Cursor::literal`]): they look
//! through them, and leaving one continues after it.

use super::tree::{Delimiter, Group, Ident, Literal, Punct, Spacing, Span, Tree};

/// One entry of the flattened list.
enum Entry<'a> {
    /// A token; for a group, the offset of its end marker.
    Token(&'a Tree, usize),
    /// The end of a group (the index of its entry), or of the whole list.
    End(Option<usize>),
}

/// The flattened trees that cursors point into.
pub(crate) struct Buffer<'a> {
    entries: Vec<Entry<'a>>,
}

impl<'a> Buffer<'a> {
    /// The buffer of `trees`.
    pub fn new(trees: &'a [Tree]) -> Buffer<'a> {
        let mut entries = Vec::new();
        flatten(&mut entries, trees);
        entries.push(Entry::End(None));
        Buffer { entries }
    }

    /// A cursor at the first tree.
    pub fn begin(&self) -> Cursor<'_> {
        Cursor::create(&self.entries, 0, self.entries.len() - 1)
    }
}

fn flatten<'a>(entries: &mut Vec<Entry<'a>>, trees: &'a [Tree]) {
    for tree in trees {
        let start = entries.len();
        entries.push(Entry::Token(tree, 1));
        if let Tree::Group(g) = tree {
            flatten(entries, g.stream());
            let end = entries.len();
            entries.push(Entry::End(Some(start)));
            entries[start] = Entry::Token(tree, end - start);
        }
    }
}

/// A position in a [`Buffer`], within a scope (a group's contents, or everything).
#[derive(Clone, Copy)]
pub(crate) struct Cursor<'a> {
    entries: &'a [Entry<'a>],
    ptr: usize,
    scope: usize,
}

impl PartialEq for Cursor<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.ptr == other.ptr
    }
}

impl<'a> Cursor<'a> {
    /// A cursor at `ptr`, past the end markers of invisible groups it was inside.
    fn create(entries: &'a [Entry<'a>], mut ptr: usize, scope: usize) -> Cursor<'a> {
        while ptr != scope && matches!(entries[ptr], Entry::End(_)) {
            ptr += 1;
        }
        Cursor {
            entries,
            ptr,
            scope,
        }
    }

    fn entry(&self) -> &'a Entry<'a> {
        &self.entries[self.ptr]
    }

    /// The cursor one entry on (into a group, not over it).
    fn bump(self) -> Cursor<'a> {
        Cursor::create(self.entries, self.ptr + 1, self.scope)
    }

    fn ignore_none(&mut self) {
        while let Entry::Token(Tree::Group(g), _) = self.entry() {
            if g.delimiter() != Delimiter::None {
                break;
            }
            *self = self.bump();
        }
    }

    /// Whether the cursor is at the end of its scope.
    pub fn eof(self) -> bool {
        self.ptr == self.scope
    }

    /// The identifier here (through invisible groups) and the cursor after it.
    pub fn ident(mut self) -> Option<(&'a Ident, Cursor<'a>)> {
        self.ignore_none();
        match self.entry() {
            Entry::Token(Tree::Ident(i), _) => Some((i, self.bump())),
            _ => None,
        }
    }

    /// The punctuation here (not a lifetime's `'`) and the cursor after it.
    pub fn punct(mut self) -> Option<(&'a Punct, Cursor<'a>)> {
        self.ignore_none();
        match self.entry() {
            Entry::Token(Tree::Punct(p), _) if p.as_char() != '\'' => Some((p, self.bump())),
            _ => None,
        }
    }

    /// The literal here and the cursor after it.
    pub fn literal(mut self) -> Option<(&'a Literal, Cursor<'a>)> {
        self.ignore_none();
        match self.entry() {
            Entry::Token(Tree::Literal(l), _) => Some((l, self.bump())),
            _ => None,
        }
    }

    /// The lifetime here (`'` and its identifier) and the cursor after it.
    pub fn lifetime(mut self) -> Option<(Span, &'a Ident, Cursor<'a>)> {
        self.ignore_none();
        match self.entry() {
            Entry::Token(Tree::Punct(p), _)
                if p.as_char() == '\'' && p.spacing() == Spacing::Joint =>
            {
                let (ident, rest) = self.bump().ident()?;
                Some((p.span(), ident, rest))
            }
            _ => None,
        }
    }

    /// Whether the multi-character operator `op` starts here (its last character may be
    /// joined to more punctuation: `=` is seen at `==`).
    pub fn peek_punct(mut self, op: &str) -> bool {
        let n = op.chars().count();
        for (i, ch) in op.chars().enumerate() {
            self.ignore_none();
            match self.entry() {
                Entry::Token(Tree::Punct(p), _) if p.as_char() == ch => {
                    if i + 1 == n {
                        return true;
                    } else if p.spacing() != Spacing::Joint {
                        break;
                    }
                    self = self.bump();
                }
                _ => break,
            }
        }
        false
    }

    /// The group with `delimiter` here (through invisible groups, unless `delimiter` is
    /// [`Delimiter::None`]): its contents, the group, and the cursor after it.
    pub fn group(mut self, delimiter: Delimiter) -> Option<(Cursor<'a>, &'a Group, Cursor<'a>)> {
        if delimiter != Delimiter::None {
            self.ignore_none();
        }
        match self.entry() {
            Entry::Token(Tree::Group(g), end) if g.delimiter() == delimiter => {
                let end = self.ptr + end;
                let inside = Cursor::create(self.entries, self.ptr + 1, end);
                let after = Cursor::create(self.entries, end, self.scope);
                Some((inside, g, after))
            }
            _ => None,
        }
    }

    /// The token tree here (a group whole, invisible ones too) and the cursor after it.
    pub fn token_tree(self) -> Option<(&'a Tree, Cursor<'a>)> {
        match self.entry() {
            Entry::Token(tree, len) => Some((
                tree,
                Cursor::create(self.entries, self.ptr + len, self.scope),
            )),
            Entry::End(_) => None,
        }
    }

    /// The span of the token here; at the end of a group, its close delimiter's; at the
    /// end of everything, the call site.
    pub fn span(self) -> Span {
        match self.entry() {
            Entry::Token(tree, _) => tree.span(),
            Entry::End(Some(start)) => match &self.entries[*start] {
                Entry::Token(Tree::Group(g), _) => g.span_close(),
                _ => Span::call_site(),
            },
            Entry::End(None) => Span::call_site(),
        }
    }

    /// As [`Cursor::span`], but a group's open delimiter (where syn reports an error at a
    /// group).
    pub fn open_span(self) -> Span {
        match self.entry() {
            Entry::Token(Tree::Group(g), _) => g.span_open(),
            _ => self.span(),
        }
    }

    /// The span of the entry before this one (the last token consumed).
    pub fn prev_span(mut self) -> Span {
        if self.ptr > 0 {
            self.ptr -= 1;
        }
        self.span()
    }

    /// The cursor after the token tree here (a lifetime counts as one); `None` at the end.
    pub fn skip(mut self) -> Option<Cursor<'a>> {
        self.ignore_none();
        let len = match self.entry() {
            Entry::End(_) => return None,
            Entry::Token(Tree::Punct(p), _)
                if p.as_char() == '\'' && p.spacing() == Spacing::Joint =>
            {
                match self.entries.get(self.ptr + 1) {
                    Some(Entry::Token(Tree::Ident(_), _)) => 2,
                    _ => 1,
                }
            }
            Entry::Token(_, len) => *len,
        };
        Some(Cursor::create(self.entries, self.ptr + len, self.scope))
    }

    /// The delimiter of the group this cursor's scope is the contents of.
    pub fn scope_delimiter(self) -> Delimiter {
        match &self.entries[self.scope] {
            Entry::End(Some(start)) => match &self.entries[*start] {
                Entry::Token(Tree::Group(g), _) => g.delimiter(),
                _ => Delimiter::None,
            },
            _ => Delimiter::None,
        }
    }

    /// The trees from here up to `end` (a later cursor of the same scope); a group that
    /// `end` is inside is taken whole.
    pub fn trees_until(self, end: Cursor<'a>) -> Vec<Tree> {
        let mut out = Vec::new();
        let mut c = self;
        while c.ptr < end.ptr {
            let Some((tree, next)) = c.token_tree() else {
                break;
            };
            out.push(tree.clone());
            c = next;
        }
        out
    }
}
