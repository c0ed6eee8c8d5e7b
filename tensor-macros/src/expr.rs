//! An expression argument of a macro, parsed by syn where it can and otherwise kept as
//! the tokens written.
//!
//! syn parses every Rust expression only with its `full` feature, which makes syn's build
//! about 1.5x longer (syn is on the critical path of a user's clean build). With its
//! default features, `syn::Expr` parses a subset: literals, paths, calls, method calls,
//! fields, indexing, unary, binary and `as` operators, references, parentheses, tuples,
//! struct literals, macros and `{ expr }`. The macros look inside a few of these only
//! (`1`, `-1`, `Dyn`) and pass every expression on to rustc, so [`ExprTokens`] is the
//! parsed expression when syn parses it, and otherwise (`x?`, `if ..`, `[a; n]`,
//! `{ let n = 3; n }`, ..) the tokens up to the next `,` or `;` that is not inside
//! brackets, generic arguments or closure parameters, which rustc parses where they land
//! in the expansion. Errors stay where syn put them: a missing expression or operand is
//! syn's error, and the token after such an expression in the expansion (a `,`, or the
//! closing delimiter around it) takes the span of the token after it in the input, where
//! rustc then reports an expression that ends too early.

use proc_macro2::{Delimiter, Group, Spacing, Span, TokenStream, TokenTree};
use quote::ToTokens;
use syn::buffer::Cursor;
use syn::parse::{Parse, ParseStream};
use syn::{Expr, Token};

/// One expression argument.
pub(crate) enum ExprTokens {
    /// An expression of the subset syn's default features parse.
    Parsed(Expr),
    /// Any other expression, as the tokens written (spans kept), and the span of the
    /// token after it in the input (its `,`, or the end of the enclosing group or macro
    /// input): where syn reported an expression that ends too early.
    Opaque { tokens: TokenStream, end: Span },
}

impl ExprTokens {
    /// The expression, when syn parsed it.
    pub fn parsed(&self) -> Option<&Expr> {
        match self {
            ExprTokens::Parsed(e) => Some(e),
            ExprTokens::Opaque { .. } => None,
        }
    }

    /// The span of the token after an expression syn did not parse (see
    /// [`ExprTokens::Opaque`]); `None` for a parsed one.
    pub fn end(&self) -> Option<Span> {
        match self {
            ExprTokens::Parsed(_) => None,
            ExprTokens::Opaque { end, .. } => Some(*end),
        }
    }

    /// The expression in `delimiter`s spanned at `span`, or, for an expression syn did not
    /// parse, at the token after it: rustc then reports an expression that ends too early
    /// (`x as`) at that token, where syn reported it.
    pub fn delimited(&self, delimiter: Delimiter, span: Span) -> Group {
        let mut group = Group::new(delimiter, self.to_token_stream());
        group.set_span(self.end().unwrap_or(span));
        group
    }

    /// Whether the expression is a negation of something syn did not parse: `-` and one
    /// group (`-{ if a { 1 } else { 2 } }`), as syn's `full` feature parses it.
    pub fn is_opaque_negation(&self) -> bool {
        let ExprTokens::Opaque { tokens, .. } = self else {
            return false;
        };
        let tokens: Vec<TokenTree> = tokens.clone().into_iter().collect();
        matches!(
            tokens.as_slice(),
            [TokenTree::Punct(p), TokenTree::Group(_)] if p.as_char() == '-'
        )
    }
}

impl Parse for ExprTokens {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        // syn's default features stop where `full` would go on only at a punctuation
        // (`x?`, `a = b`, `a..b`, `x.await`), or fail (`if`, `[a; n]`, closures, ..).
        let fork = input.fork();
        if fork.parse::<Expr>().is_ok() && (fork.peek(Token![,]) || fork.cursor().punct().is_none())
        {
            return input.parse().map(ExprTokens::Parsed);
        }
        let tokens = input.step(|cursor| Ok(scan(*cursor)))?;
        // Nothing, or an operator with its operand missing (`x +`): syn's error, at the
        // token after it.
        if tokens.is_empty() || ends_with_operator(&tokens) {
            return Err(input.error("expected an expression"));
        }
        Ok(ExprTokens::Opaque {
            tokens,
            end: input.span(),
        })
    }
}

impl ToTokens for ExprTokens {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        match self {
            ExprTokens::Parsed(e) => e.to_tokens(tokens),
            ExprTokens::Opaque { tokens: t, .. } => t.to_tokens(tokens),
        }
    }
}

/// The token trees from `c` up to the next `,` (or `;`, which ends any expression)
/// outside generic arguments (`::<A, B>`, `<T as Trait<A, B>>::f`) and closure
/// parameters (`|a, b|`), or to the end.
fn scan(mut c: Cursor) -> (TokenStream, Cursor) {
    let mut tokens = TokenStream::new();
    // Open `<` of generic arguments.
    let mut angles = 0usize;
    // Inside `|..|` of closure parameters.
    let mut closure_params = false;
    let mut prev: Option<TokenTree> = None;
    let mut prev2: Option<TokenTree> = None;
    while let Some((tt, next)) = c.token_tree() {
        if let TokenTree::Punct(p) = &tt {
            // The second character of an operator (`||`, `<<`, `<=`).
            let second =
                matches!(&prev, Some(TokenTree::Punct(q)) if q.spacing() == Spacing::Joint);
            let operand = !second && operand_expected(prev.as_ref());
            match p.as_char() {
                ',' | ';' if angles == 0 && !closure_params => break,
                '|' if closure_params => closure_params = false,
                '|' if angles == 0 && operand => closure_params = true,
                '<' if angles > 0 || operand || is_path_sep(prev.as_ref(), prev2.as_ref()) => {
                    angles += 1
                }
                '>' if angles > 0 && !is_joint(prev.as_ref(), '-') => angles -= 1,
                _ => {}
            }
        }
        prev2 = prev.replace(tt.clone());
        tokens.extend([tt]);
        c = next;
    }
    (tokens, c)
}

/// Whether `tokens` end with punctuation that no expression ends with: anything but `?`,
/// the `>` of generic arguments (or of a comparison, let through) and `..`.
fn ends_with_operator(tokens: &TokenStream) -> bool {
    let mut last = None;
    let mut before = None;
    for tt in tokens.clone() {
        before = last.replace(tt);
    }
    match &last {
        Some(TokenTree::Punct(p)) => match p.as_char() {
            '?' | '>' => false,
            '.' => !is_joint(before.as_ref(), '.'),
            _ => true,
        },
        _ => false,
    }
}

/// Whether an operand (not an operator) comes after `prev`: at the start, after an
/// operator and after `move`.
fn operand_expected(prev: Option<&TokenTree>) -> bool {
    match prev {
        None => true,
        Some(TokenTree::Punct(p)) => !matches!(p.as_char(), '?' | '\''),
        Some(TokenTree::Ident(i)) => i == "move",
        Some(_) => false,
    }
}

/// Whether `prev2 prev` is `::`.
fn is_path_sep(prev: Option<&TokenTree>, prev2: Option<&TokenTree>) -> bool {
    matches!(prev, Some(TokenTree::Punct(p)) if p.as_char() == ':') && is_joint(prev2, ':')
}

/// Whether `tt` is the punctuation `ch` joined to the next one (`-` of `->`).
fn is_joint(tt: Option<&TokenTree>, ch: char) -> bool {
    matches!(tt, Some(TokenTree::Punct(p)) if p.as_char() == ch && p.spacing() == Spacing::Joint)
}

#[cfg(test)]
mod tests {
    use super::ExprTokens;
    use proc_macro2::TokenStream;
    use quote::{quote, ToTokens};
    use syn::parse::ParseStream;
    use syn::punctuated::Punctuated;
    use syn::Token;

    /// The arguments of a comma-separated list, each as a string and whether syn parsed it.
    fn split(input: TokenStream) -> Vec<(String, bool)> {
        let parser = Punctuated::<ExprTokens, Token![,]>::parse_terminated;
        syn::parse::Parser::parse2(parser, input)
            .unwrap()
            .into_iter()
            .map(|e| (e.to_token_stream().to_string(), e.parsed().is_some()))
            .collect()
    }

    #[test]
    fn the_subset_of_default_features_is_parsed() {
        let got = split(quote!(1.0, -2, x, a::b, f(1, 2) * 3, x.view::<A, B>(), {
            N * 2
        }));
        assert!(got.iter().all(|(_, parsed)| *parsed), "{got:?}");
        assert_eq!(got[4].0, "f (1 , 2) * 3");
        assert_eq!(got[5].0, "x . view :: < A , B > ()");
    }

    #[test]
    fn other_expressions_are_kept_up_to_the_next_comma() {
        let got = split(quote!(
            load()?,
            if c { a } else { b },
            [0; 3],
            Foo::<A, B>::new()?,
            <T as Tr<A, B>>::f()?,
            x.map(|a, b| a)?,
            |a, b| a + b,
            f::<fn(A) -> B, C>()?,
            a < b?,
            a || b?,
            a | b?,
            move || x?
        ));
        let texts: Vec<&str> = got.iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(
            texts,
            [
                "load () ?",
                "if c { a } else { b }",
                "[0 ; 3]",
                "Foo :: < A , B > :: new () ?",
                "< T as Tr < A , B >> :: f () ?",
                "x . map (| a , b | a) ?",
                "| a , b | a + b",
                "f :: < fn (A) -> B , C > () ?",
                "a < b ?",
                "a || b ?",
                "a | b ?",
                "move || x ?",
            ]
        );
        assert!(got.iter().all(|(_, parsed)| !parsed), "{got:?}");
    }

    #[test]
    fn an_expression_ends_before_a_token_that_cannot_continue_it() {
        for (input, expr, rest) in [
            (quote!(x "p"), "x", "\"p\""),
            (quote!(x; y), "x", "; y"),
            (quote!(x?; y), "x ?", "; y"),
            (quote!(x? y), "x ? y", ""),
        ] {
            let parser = |input: ParseStream| {
                let e: ExprTokens = input.parse()?;
                Ok((
                    e.to_token_stream().to_string(),
                    input.parse::<TokenStream>()?,
                ))
            };
            let (got, got_rest) = syn::parse::Parser::parse2(parser, input).unwrap();
            assert_eq!((got.as_str(), got_rest.to_string().as_str()), (expr, rest));
        }
    }

    #[test]
    fn a_missing_expression_is_an_error() {
        for input in [quote!(1,, 2), quote!(x? +, 2), quote!(x? =), quote!(|a|, 2)] {
            let parser = Punctuated::<ExprTokens, Token![,]>::parse_terminated;
            let e = syn::parse::Parser::parse2(parser, input).err().unwrap();
            assert!(e.to_string().ends_with("expected an expression"), "{e}");
        }
        assert_eq!(split(quote!(x.., f::<A>?.y::<B>)).len(), 2);
    }

    #[test]
    fn a_negated_group_is_a_negation() {
        let parser = Punctuated::<ExprTokens, Token![,]>::parse_terminated;
        let input = quote!(
            -{
                if a {
                    1
                } else {
                    2
                }
            },
            -{ x? } + 1,
            -1,
            { -x? }
        );
        let got: Vec<bool> = syn::parse::Parser::parse2(parser, input)
            .unwrap()
            .iter()
            .map(ExprTokens::is_opaque_negation)
            .collect();
        assert_eq!(got, [true, false, false, false]);
    }
}
