//! Parse: `layout!(x, "pattern", args..)` into a typed AST that keeps spans.
//!
//! The macro's arguments are parsed with `syn`; the pattern string is parsed by hand with
//! einops' grammar: axis names, anonymous numbers, one level of parentheses, `()` and
//! `...`, two sides joined by one `->`. Every term keeps its byte range in the string so
//! that an error can point at the offending axis.

use super::source::PatternSource;
use crate::expr::ExprTokens;
use proc_macro2::{Delimiter, Group, TokenStream, TokenTree};
use std::ops::Range;
use syn::parse::{Parse, ParseStream};
use syn::{Ident, LitInt, Token};

/// `layout!(tensor, "pattern", args..)` as written.
pub(crate) struct Invocation {
    /// The tensor expression.
    pub tensor: ExprTokens,
    /// The pattern, a string literal or tokens (kept for spans).
    pub pattern: PatternSource,
    /// The arguments after the pattern, in order.
    pub args: Vec<Arg>,
}

/// One argument after the pattern.
pub(crate) enum Arg {
    /// `h = 8` (static) or `h = {n}` (run time).
    Size { name: Ident, value: SizeValue },
    /// `reduce = sum`.
    Reduce { op: Ident },
    /// A bare operation word: `rearrange` or `repeat` (otherwise the operation is
    /// inferred).
    Op(Ident),
}

/// The size given for an axis.
#[derive(Clone)]
pub(crate) enum SizeValue {
    /// A literal, known at compile time.
    Static { value: usize },
    /// `{expr}`, evaluated at run time: the braces and the tokens inside them, as
    /// written (rustc parses them where they land in the expansion).
    Run(Group),
    /// A dim type, named in UpperCamelCase (`h = Heads` after `dims! { Heads = 8; }`, or
    /// `model::Heads`): the axis takes that dim, its name included.
    Dim(syn::Path),
}

impl Parse for Invocation {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let tensor: ExprTokens = input.parse()?;
        input.parse::<Token![,]>()?;
        let pattern = PatternSource::parse(input)?;
        let mut args = Vec::new();
        while !input.is_empty() {
            input.parse::<Token![,]>()?;
            if input.is_empty() {
                break;
            }
            args.push(input.parse()?);
        }
        Ok(Invocation {
            tensor,
            pattern,
            args,
        })
    }
}

impl Parse for Arg {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let name = input.call(Ident::parse_any_ident)?;
        if !input.peek(Token![=]) {
            return Ok(Arg::Op(name));
        }
        input.parse::<Token![=]>()?;
        if name == "reduce" {
            let op = input.call(Ident::parse_any_ident)?;
            return Ok(Arg::Reduce { op });
        }
        if input.peek(syn::token::Brace) {
            return Ok(Arg::Size {
                name,
                value: SizeValue::Run(run_block(input)?),
            });
        }
        if input.peek(Ident) || input.peek(Token![::]) {
            let path: syn::Path = input.parse()?;
            let camel = path
                .segments
                .last()
                .is_some_and(|s| crate::dim_spelling::is_type_name(&s.ident.to_string()));
            if camel {
                return Ok(Arg::Size {
                    name,
                    value: SizeValue::Dim(path),
                });
            }
            return Err(syn::Error::new_spanned(path, size_message(&name)));
        }
        let lookahead = input.lookahead1();
        if !lookahead.peek(LitInt) {
            return Err(syn::Error::new(input.span(), size_message(&name)));
        }
        let lit: LitInt = input.parse()?;
        let value = lit.base10_parse::<usize>()?;
        Ok(Arg::Size {
            name,
            value: SizeValue::Static { value },
        })
    }
}

/// The error for a size argument that is none of the accepted forms.
fn size_message(name: &Ident) -> String {
    format!(
        "layout!: the size of axis `{name}` must be an integer literal (`{name} = 8`), a \
         dim type (`{name} = Heads`) or a block evaluated at run time (`{name} = {{n}}`)"
    )
}

/// `{expr}`: the brace group as written, or (from a `$b:block` of `macro_rules!`, inside
/// an invisible group) its braces and tokens.
fn run_block(input: ParseStream) -> syn::Result<Group> {
    if let Some((TokenTree::Group(g), _)) = input.cursor().token_tree() {
        if g.delimiter() == Delimiter::Brace {
            return input.parse();
        }
    }
    let content;
    let brace = syn::braced!(content in input);
    let mut block = Group::new(Delimiter::Brace, content.parse::<TokenStream>()?);
    block.set_span(brace.span.join());
    Ok(block)
}

/// `Ident::parse_any` without importing the extension trait at every call site.
trait ParseAnyIdent {
    fn parse_any_ident(input: ParseStream) -> syn::Result<Ident>;
}

impl ParseAnyIdent for Ident {
    fn parse_any_ident(input: ParseStream) -> syn::Result<Ident> {
        use syn::ext::IdentExt;
        Ident::parse_any(input)
    }
}

/// A parsed pattern: `left -> right`.
#[derive(Debug, Clone)]
pub(crate) struct Pattern {
    /// The pattern text (the literal's value).
    pub text: String,
    /// The input side.
    pub left: Side,
    /// The output side.
    pub right: Side,
}

/// One side of the arrow: a list of dims.
#[derive(Debug, Clone)]
pub(crate) struct Side {
    /// The dims in order; a bare `...` stands for any number of dims.
    pub dims: Vec<Dim>,
}

/// One dim of a side: a bare term (`h`, `1`, `...`) or a parenthesised group (`(h d)`,
/// `()`, `(...)`) whose axes are merged into one dim.
#[derive(Debug, Clone)]
pub(crate) struct Dim {
    /// The terms of the dim (exactly one when not grouped).
    pub terms: Vec<Term>,
    /// Written in parentheses.
    pub grouped: bool,
    /// Byte range of the dim in the pattern (parentheses included).
    pub range: Range<usize>,
}

/// An elementary axis: a name, an anonymous size or the ellipsis.
#[derive(Debug, Clone)]
pub(crate) struct Term {
    /// What the term is.
    pub kind: TermKind,
    /// Byte range of the term in the pattern.
    pub range: Range<usize>,
}

/// The kind of an elementary axis.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum TermKind {
    /// A named axis: `h`.
    Name(String),
    /// An anonymous axis of a fixed size: `1`, `2`.
    Anon(usize),
    /// `...`: the dims the pattern does not name.
    Ellipsis,
}

impl Side {
    /// Every term of the side, in order, with the dim it belongs to.
    pub fn terms(&self) -> impl Iterator<Item = (&Dim, &Term)> {
        self.dims
            .iter()
            .flat_map(|d| d.terms.iter().map(move |t| (d, t)))
    }

    /// The named axes of the side, in order.
    pub fn names(&self) -> impl Iterator<Item = (&str, &Term)> {
        self.terms().filter_map(|(_, t)| match &t.kind {
            TermKind::Name(n) => Some((n.as_str(), t)),
            _ => None,
        })
    }

    /// The first `...` of the side, if any.
    pub fn ellipsis(&self) -> Option<(&Dim, &Term)> {
        self.terms().find(|(_, t)| t.kind == TermKind::Ellipsis)
    }

    /// Whether the side names the axis `name`.
    pub fn has_name(&self, name: &str) -> bool {
        self.names().any(|(n, _)| n == name)
    }
}

/// A syntax error: a message and the byte range it points at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PatternError {
    /// What is wrong (without the `layout!(op):` prefix).
    pub message: String,
    /// Byte range in the pattern.
    pub range: Range<usize>,
}

fn fail<T>(range: Range<usize>, message: impl Into<String>) -> Result<T, PatternError> {
    Err(PatternError {
        message: message.into(),
        range,
    })
}

/// Parses `text` as `left -> right`.
///
/// Errors: no `->` or more than one; unbalanced or nested parentheses; a word that is not
/// an axis name, a number or `...`.
pub(crate) fn parse_pattern(text: &str) -> Result<Pattern, PatternError> {
    let arrows: Vec<usize> = text.match_indices("->").map(|(i, _)| i).collect();
    let arrow = match arrows.as_slice() {
        [] => return fail(0..text.len(), "the pattern has no `->`"),
        [a] => *a,
        [_, second, ..] => return fail(*second..*second + 2, "the pattern has more than one `->`"),
    };
    let left = parse_side(text, 0..arrow, "left")?;
    let right = parse_side(text, arrow + 2..text.len(), "right")?;
    Ok(Pattern {
        text: text.to_string(),
        left,
        right,
    })
}

/// Parses the dims of `text[range]`.
fn parse_side(text: &str, range: Range<usize>, which: &str) -> Result<Side, PatternError> {
    let mut dims = Vec::new();
    // The open group: start of its `(` and the terms so far.
    let mut group: Option<(usize, Vec<Term>)> = None;
    let bytes = text.as_bytes();
    let mut i = range.start;
    while i < range.end {
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c == b'(' {
            if let Some((open, _)) = &group {
                let _ = open;
                return fail(
                    i..i + 1,
                    "axis composition is one level only (brackets inside brackets are not \
                     allowed)",
                );
            }
            group = Some((i, Vec::new()));
            i += 1;
        } else if c == b')' {
            let Some((open, terms)) = group.take() else {
                return fail(
                    i..i + 1,
                    format!("imbalanced parentheses in the {which} side: `)` has no `(`"),
                );
            };
            dims.push(Dim {
                terms,
                grouped: true,
                range: open..i + 1,
            });
            i += 1;
        } else {
            let start = i;
            while i < range.end
                && !bytes[i].is_ascii_whitespace()
                && bytes[i] != b'('
                && bytes[i] != b')'
            {
                i += 1;
            }
            let term = parse_term(&text[start..i], start..i)?;
            match &mut group {
                Some((_, terms)) => terms.push(term),
                None => dims.push(Dim {
                    range: term.range.clone(),
                    terms: vec![term],
                    grouped: false,
                }),
            }
        }
    }
    if let Some((open, _)) = group {
        return fail(
            open..open + 1,
            format!("imbalanced parentheses in the {which} side: `(` is never closed"),
        );
    }
    Ok(Side { dims })
}

/// Parses one word: `...`, a number, or an identifier.
fn parse_term(word: &str, range: Range<usize>) -> Result<Term, PatternError> {
    let kind = if word == "..." {
        TermKind::Ellipsis
    } else if word.contains('.') {
        return fail(
            range,
            format!("`{word}`: dots are allowed only as the ellipsis `...`"),
        );
    } else if word.bytes().all(|b| b.is_ascii_digit()) {
        match word.parse::<usize>() {
            Ok(n) => TermKind::Anon(n),
            Err(_) => return fail(range, format!("anonymous axis `{word}` is too large")),
        }
    } else if is_identifier(word) {
        TermKind::Name(word.to_string())
    } else {
        return fail(
            range,
            format!("`{word}` is not an axis name, a number or `...`"),
        );
    };
    Ok(Term { kind, range })
}

/// An identifier: a letter or `_` followed by letters, digits and `_`.
fn is_identifier(word: &str) -> bool {
    let mut chars = word.chars();
    match chars.next() {
        Some(c) if c.is_alphabetic() || c == '_' => {}
        _ => return false,
    }
    chars.all(|c| c.is_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::{quote, ToTokens};

    fn names(side: &Side) -> Vec<String> {
        side.dims
            .iter()
            .map(|d| {
                let inner: Vec<String> = d
                    .terms
                    .iter()
                    .map(|t| match &t.kind {
                        TermKind::Name(n) => n.clone(),
                        TermKind::Anon(n) => n.to_string(),
                        TermKind::Ellipsis => "...".into(),
                    })
                    .collect();
                if d.grouped {
                    format!("({})", inner.join(" "))
                } else {
                    inner.join(" ")
                }
            })
            .collect()
    }

    #[test]
    fn groups_units_and_ellipsis_parse() {
        let p = parse_pattern("b (h d) () 1 ... -> b h (d ...)").unwrap();
        assert_eq!(names(&p.left), ["b", "(h d)", "()", "1", "..."]);
        assert_eq!(names(&p.right), ["b", "h", "(d ...)"]);
        assert_eq!(p.left.dims[1].range, 2..7);
        assert_eq!(p.left.dims[1].terms[1].range, 5..6);
    }

    #[test]
    fn unclosed_paren_points_at_it() {
        let e = parse_pattern("h (w -> h w").unwrap_err();
        assert_eq!(e.range, 2..3);
    }

    #[test]
    fn nested_paren_points_at_inner() {
        let e = parse_pattern("((h w)) -> h w").unwrap_err();
        assert_eq!(e.range, 1..2);
    }

    #[test]
    fn missing_and_double_arrow() {
        assert!(parse_pattern("h w").is_err());
        assert_eq!(parse_pattern("h -> w -> h").unwrap_err().range, 7..9);
    }

    #[test]
    fn bad_word_is_reported() {
        let e = parse_pattern("h w- -> h").unwrap_err();
        assert_eq!(e.range, 2..4);
        assert_eq!(parse_pattern("h .. -> h").unwrap_err().range, 2..4);
    }

    /// `layout!`'s arguments, parsed.
    fn invocation(input: TokenStream) -> syn::Result<Invocation> {
        syn::parse2(input)
    }

    /// `tokens` in an invisible group: how `macro_rules!` passes a fragment on.
    fn invisible(tokens: TokenStream) -> TokenTree {
        TokenTree::Group(Group::new(Delimiter::None, tokens))
    }

    /// The one size argument of `inv`.
    fn size(inv: &Invocation) -> &SizeValue {
        match inv.args.as_slice() {
            [Arg::Size { value, .. }] => value,
            _ => panic!("expected one size argument"),
        }
    }

    #[test]
    fn the_tensor_is_one_expression_up_to_its_comma() {
        // (From text: rustfmt would rewrite `m.0.1` inside `quote!` as `m.0 .1`.)
        let input = r#"m.0.1.view::<A, B>(), "h -> h""#.parse().unwrap();
        let inv = invocation(input).unwrap();
        assert_eq!(
            inv.tensor.to_token_stream().to_string(),
            "m . 0 . 1 . view :: < A , B > ()"
        );
        let e = invocation(quote!(x "h -> h")).err().unwrap();
        assert_eq!(e.to_string(), "expected `,`");
    }

    #[test]
    fn a_size_is_an_integer_literal_read_by_its_value() {
        for (text, want) in [("8", 8), ("0x10", 16), ("1_000usize", 1000)] {
            let input: TokenStream = format!("x, \"h -> h w\", w = {text}").parse().unwrap();
            let inv = invocation(input).unwrap();
            assert!(
                matches!(size(&inv), SizeValue::Static { value } if *value == want),
                "{text}"
            );
        }
    }

    #[test]
    fn a_negative_size_is_a_negative_integer_literal_that_does_not_fit() {
        // syn's integer literal takes a leading `-` (`-3` is one literal), so the error is
        // `base10_parse::<usize>`'s, not the size message.
        let e = invocation(quote!(x, "h -> h w", w = -3)).err().unwrap();
        assert_eq!(e.to_string(), "invalid digit found in string");
    }

    #[test]
    fn a_size_that_is_no_integer_literal_gets_the_size_message() {
        for input in [quote!(x, "h -> h w", w = 1.5), quote!(x, "h -> h w", w = n)] {
            let e = invocation(input).err().unwrap();
            assert!(
                e.to_string()
                    .starts_with("layout!: the size of axis `w` must be an integer literal"),
                "{e}"
            );
        }
    }

    #[test]
    fn a_run_time_size_is_its_brace_group_as_written() {
        let inv = invocation(quote!(x, "h -> h w", w = { n + 1 })).unwrap();
        let SizeValue::Run(block) = size(&inv) else {
            panic!("expected a run-time size");
        };
        assert_eq!(block.to_string(), "{ n + 1 }");
        // A `$b:block` comes in an invisible group: syn's `braced!` looks through it.
        let b = invisible(quote!({ n + 1 }));
        let inv = invocation(quote!(x, "h -> h w", w = #b)).unwrap();
        let SizeValue::Run(block) = size(&inv) else {
            panic!("expected a run-time size");
        };
        assert_eq!(block.delimiter(), Delimiter::Brace);
        assert_eq!(block.to_string(), "{ n + 1 }");
    }

    #[test]
    fn a_size_from_macro_rules_is_a_literal_through_its_invisible_group() {
        let n = invisible(quote!(8));
        let inv = invocation(quote!(x, "h -> h w", w = #n)).unwrap();
        assert!(matches!(size(&inv), SizeValue::Static { value: 8 }));
    }

    #[test]
    fn an_argument_name_may_be_a_keyword() {
        // `Ident::parse_any`: a keyword is a name too, so `move` is an unknown argument
        // (the macro's message) and `type = 2` a size, not syn's "expected identifier".
        let inv = invocation(quote!(x, "type -> type", type = 2, move)).unwrap();
        assert!(matches!(&inv.args[0], Arg::Size { name, .. } if name == "type"));
        assert!(matches!(&inv.args[1], Arg::Op(word) if word == "move"));
        let e = invocation(quote!(x, "h w -> w", reduce =)).err().unwrap();
        assert_eq!(e.to_string(), "unexpected end of input, expected ident");
    }

    #[test]
    fn the_arguments_may_end_with_a_comma() {
        let inv = invocation(quote!(x, "h -> h w", w = 2,)).unwrap();
        assert_eq!(inv.args.len(), 1);
        let inv = invocation(quote!(x, "h -> h",)).unwrap();
        assert!(inv.args.is_empty());
    }
}
