//! Parse: the item `#[derive(Params)]` is on, as far as the derive needs it: its name,
//! generics (to repeat them on the impl), and for a struct its fields with their
//! attributes, names and types.
//!
//! The compiler has parsed the item before it calls a derive, so the item is valid Rust:
//! this reads it by its tokens (a type runs to the next `,` outside `<..>`) and keeps
//! them, with their spans, for the expansion. What syn with its default features cannot
//! parse (an array length `[T; if A { 1 } else { 2 }]` needs its `full` feature) is still
//! an error, as it was: [`check`] runs syn's grammar over the generics, where clause and
//! field types, in syn's order.

use crate::syntax::{ty, Buffer, Delimiter, Group, Ident, Input, Literal, Punct, Result};
use crate::syntax::{Spacing, Span, Tree};

/// The derive's input.
pub(crate) struct DeriveInput {
    /// The item's name.
    pub ident: Ident,
    /// Its generics and where clause.
    pub generics: Generics,
    /// A struct's fields, or what else the item is.
    pub data: Data,
    /// The parts syn parses with its grammar, in its order.
    pub checks: Vec<Check>,
}

/// A part of the item to parse with syn's grammar.
pub(crate) enum Check {
    /// A generic parameter.
    Param(Vec<Tree>),
    /// The predicates of a where clause.
    Where(Vec<Tree>),
    /// A field's type.
    Type(Vec<Tree>),
}

/// The kind of item.
pub(crate) enum Data {
    /// A struct and its fields (none for a unit struct).
    Struct(Vec<Field>),
    /// An enum: the span of `enum`.
    Enum(Span),
    /// A union: the span of `union`.
    Union(Span),
}

/// A field of a struct.
pub(crate) struct Field {
    /// Its attributes: each the `[..]` group after `#`.
    pub attrs: Vec<Group>,
    /// `self.<member>`: its name, or its index in a tuple struct.
    pub member: Tree,
    /// Its type, as written.
    pub ty: Vec<Tree>,
}

/// The generic parameters and where clause of the item.
#[derive(Default)]
pub(crate) struct Generics {
    /// `<` and `>`, when written.
    pub angles: Option<(Tree, Tree)>,
    /// The parameters, in order.
    pub params: Vec<Param>,
    /// `where`, when written.
    pub where_token: Option<Tree>,
    /// The where clause's predicates, as written (a trailing `,` kept).
    pub predicates: Vec<Tree>,
}

/// One generic parameter, split where `syn::Generics::split_for_impl` splits it.
pub(crate) struct Param {
    /// A lifetime, a type or a const parameter.
    pub kind: ParamKind,
    /// Its attributes (`#[..]`), as written.
    pub attrs: Vec<Tree>,
    /// `const`, for a const parameter.
    pub const_token: Option<Tree>,
    /// The name: `'a`, `T` or `N`.
    pub name: Vec<Tree>,
    /// `:` and what follows it up to a default: bounds, or a const parameter's type.
    pub bounds: Option<(Tree, Vec<Tree>)>,
    /// The `,` after it, if written.
    pub comma: Option<Tree>,
}

/// The kinds of [`Param`].
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum ParamKind {
    /// `'a`.
    Lifetime,
    /// `T`.
    Type,
    /// `const N: usize`.
    Const,
}

fn is_punct(tree: Option<&Tree>, ch: char) -> bool {
    matches!(tree, Some(Tree::Punct(p)) if p.as_char() == ch)
}

fn is_word(tree: Option<&Tree>, word: &str) -> bool {
    matches!(tree, Some(Tree::Ident(i)) if *i == *word)
}

/// Reads the item.
pub(crate) fn parse(tokens: &[Tree]) -> DeriveInput {
    let mut at = skip_attributes(tokens, 0).1;
    at = skip_visibility(tokens, at);
    let keyword = tokens.get(at);
    let keyword_span = keyword.map_or_else(Span::call_site, Tree::span);
    let ident = match tokens.get(at + 1) {
        Some(Tree::Ident(i)) => i.clone(),
        _ => Ident::new("__Unnamed", Span::call_site()),
    };
    at += 2;
    let mut generics = Generics::default();
    let mut checks = Vec::new();
    if is_punct(tokens.get(at), '<') {
        let end = closing_angle(tokens, at);
        let inner = &tokens[at + 1..end.min(tokens.len())];
        generics.params = params(inner);
        let parts = split_commas(inner);
        checks.extend(parts.iter().map(|(part, _)| Check::Param(part.to_vec())));
        if let Some(gt) = tokens.get(end) {
            generics.angles = Some((tokens[at].clone(), gt.clone()));
        }
        at = end + 1;
    }
    let is_enum = is_word(keyword, "enum");
    let mut fields = Vec::new();
    while let Some(tree) = tokens.get(at) {
        match tree {
            Tree::Ident(i) if *i == *"where" => {
                at = where_clause(tokens, at, &mut generics);
                checks.push(Check::Where(generics.predicates.clone()));
            }
            Tree::Group(g) if g.delimiter() == Delimiter::Brace && is_enum => {
                variants(g.stream(), &mut checks);
                at += 1;
            }
            Tree::Group(g)
                if matches!(g.delimiter(), Delimiter::Brace | Delimiter::Parenthesis) =>
            {
                fields = self::fields(g.stream(), g.delimiter() == Delimiter::Brace);
                checks.extend(fields.iter().map(|f| Check::Type(f.ty.clone())));
                at += 1;
            }
            _ => at += 1,
        }
    }
    let data = if is_enum {
        Data::Enum(keyword_span)
    } else if is_word(keyword, "union") {
        Data::Union(keyword_span)
    } else {
        Data::Struct(fields)
    };
    DeriveInput {
        ident,
        generics,
        data,
        checks,
    }
}

/// The field types of an enum's variants (`A`, `B(T)`, `C { x: T }`, `D = 1`).
fn variants(tokens: &[Tree], checks: &mut Vec<Check>) {
    for (part, _) in split_commas(tokens) {
        let (_, at) = skip_attributes(part, 0);
        let at = skip_visibility(part, at);
        if let Some(Tree::Group(g)) = part.get(at + 1) {
            let named = match g.delimiter() {
                Delimiter::Brace => true,
                Delimiter::Parenthesis => false,
                _ => continue,
            };
            let fields = fields(g.stream(), named);
            checks.extend(fields.into_iter().map(|f| Check::Type(f.ty)));
        }
    }
}

/// Parses the parts of the item with syn's grammar: its first error (a hard error first,
/// then contents left unparsed inside a group, as syn reports them).
pub(crate) fn check(checks: &[Check]) -> Result<()> {
    let mut unparsed = None;
    for check in checks {
        let tokens = match check {
            Check::Param(t) | Check::Where(t) | Check::Type(t) => t,
        };
        let buffer = Buffer::new(tokens);
        let mut input = Input::new(buffer.begin());
        match check {
            Check::Param(_) => ty::generic_param(&mut input)?,
            Check::Where(_) => ty::where_predicates(&mut input)?,
            Check::Type(_) => ty::ty(&mut input).map(drop)?,
        }
        if unparsed.is_none() {
            unparsed = input.end().err();
        }
    }
    unparsed.map_or(Ok(()), Err)
}

/// The `#[..]` groups from `at`, and the index after them.
fn skip_attributes(tokens: &[Tree], mut at: usize) -> (Vec<Group>, usize) {
    let mut attrs = Vec::new();
    while is_punct(tokens.get(at), '#') {
        match tokens.get(at + 1) {
            Some(Tree::Group(g)) if g.delimiter() == Delimiter::Bracket => attrs.push(g.clone()),
            _ => break,
        }
        at += 2;
    }
    (attrs, at)
}

/// The index after `pub`, `pub(crate)`, `pub(in path)` (as syn tells `pub (A, B)`, a
/// tuple field's type, from a restriction).
fn skip_visibility(tokens: &[Tree], at: usize) -> usize {
    if !is_word(tokens.get(at), "pub") {
        return at;
    }
    if let Some(Tree::Group(g)) = tokens.get(at + 1) {
        let inner = g.stream();
        let restricted = match inner.first() {
            Some(Tree::Ident(i)) if ["crate", "self", "super"].contains(&i.text()) => {
                inner.len() == 1
            }
            Some(Tree::Ident(i)) => *i == *"in",
            _ => false,
        };
        if g.delimiter() == Delimiter::Parenthesis && restricted {
            return at + 2;
        }
    }
    at + 1
}

/// The `<`/`>` depth change of `tokens[i]` (`->` is not a `>`).
fn angle_step(tokens: &[Tree], i: usize) -> isize {
    match &tokens[i] {
        Tree::Punct(p) if p.as_char() == '<' => 1,
        Tree::Punct(p) if p.as_char() == '>' => {
            let arrow = i > 0
                && matches!(&tokens[i - 1], Tree::Punct(q)
                    if q.as_char() == '-' && q.spacing() == Spacing::Joint);
            if arrow {
                0
            } else {
                -1
            }
        }
        _ => 0,
    }
}

/// The index of the `>` closing the `<` at `open` (the end if none).
fn closing_angle(tokens: &[Tree], open: usize) -> usize {
    let mut depth = 0;
    for i in open..tokens.len() {
        depth += angle_step(tokens, i);
        if depth == 0 {
            return i;
        }
    }
    tokens.len()
}

/// `tokens` split at each `,` outside `<..>`: the parts and the commas.
fn split_commas(tokens: &[Tree]) -> Vec<(&[Tree], Option<Tree>)> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for i in 0..tokens.len() {
        depth += angle_step(tokens, i);
        if depth == 0 && is_punct(tokens.get(i), ',') {
            parts.push((&tokens[start..i], Some(tokens[i].clone())));
            start = i + 1;
        }
    }
    if start < tokens.len() {
        parts.push((&tokens[start..], None));
    }
    parts
}

/// The index of the first `=` outside `<..>` in `tokens` (where a default starts).
fn default_start(tokens: &[Tree]) -> usize {
    let mut depth = 0;
    for i in 0..tokens.len() {
        depth += angle_step(tokens, i);
        if depth == 0 && is_punct(tokens.get(i), '=') {
            return i;
        }
    }
    tokens.len()
}

fn params(tokens: &[Tree]) -> Vec<Param> {
    split_commas(tokens)
        .into_iter()
        .map(|(part, comma)| {
            let (_, at) = skip_attributes(part, 0);
            let attrs = part[..at].to_vec();
            let rest = &part[at..];
            let (kind, const_token, name_len) = if is_punct(rest.first(), '\'') {
                (ParamKind::Lifetime, None, 2)
            } else if is_word(rest.first(), "const") {
                (ParamKind::Const, rest.first().cloned(), 2)
            } else {
                (ParamKind::Type, None, 1)
            };
            let skip = usize::from(const_token.is_some());
            let name_end = name_len.min(rest.len());
            let name = rest[skip..name_end].to_vec();
            let after = &rest[name_end..];
            let bounds = match after.split_first() {
                Some((colon, tail)) if is_punct(Some(colon), ':') => {
                    let bounds = tail[..default_start(tail)].to_vec();
                    Some((colon.clone(), bounds))
                }
                _ => None,
            };
            Param {
                kind,
                attrs,
                const_token,
                name,
                bounds,
                comma,
            }
        })
        .collect()
}

/// Reads `where ..` from `at` up to the fields' `{ .. }` or the `;`; the index after it.
fn where_clause(tokens: &[Tree], at: usize, generics: &mut Generics) -> usize {
    generics.where_token = Some(tokens[at].clone());
    let mut depth = 0;
    let mut end = at + 1;
    while end < tokens.len() {
        depth += angle_step(tokens, end);
        let brace = matches!(&tokens[end], Tree::Group(g) if g.delimiter() == Delimiter::Brace);
        if depth == 0 && (brace || is_punct(tokens.get(end), ';')) {
            break;
        }
        end += 1;
    }
    generics.predicates = tokens[at + 1..end].to_vec();
    end
}

fn fields(tokens: &[Tree], named: bool) -> Vec<Field> {
    split_commas(tokens)
        .into_iter()
        .enumerate()
        .filter(|(_, (part, _))| !part.is_empty())
        .map(|(index, (part, _))| {
            let (attrs, at) = skip_attributes(part, 0);
            let at = skip_visibility(part, at);
            let (member, ty_start) = match (named, part.get(at)) {
                (true, Some(name @ Tree::Ident(_))) => (name.clone(), at + 2),
                _ => (Tree::Literal(Literal::usize_unsuffixed(index)), at),
            };
            Field {
                attrs,
                member,
                ty: part.get(ty_start..).unwrap_or_default().to_vec(),
            }
        })
        .collect()
}

/// A `,` at the call site.
pub(crate) fn comma() -> Tree {
    Tree::Punct(Punct::new(',', Spacing::Alone))
}
