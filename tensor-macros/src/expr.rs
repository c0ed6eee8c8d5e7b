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
    use proc_macro2::{Delimiter, Group, TokenStream, TokenTree};
    use quote::{quote, ToTokens};
    use syn::parse::ParseStream;
    use syn::punctuated::Punctuated;
    use syn::{BinOp, Expr, Lit, Member, Token, UnOp};

    /// The arguments of a comma-separated list, or syn's error.
    fn parse_list(input: TokenStream) -> syn::Result<Vec<ExprTokens>> {
        let parser = Punctuated::<ExprTokens, Token![,]>::parse_terminated;
        syn::parse::Parser::parse2(parser, input).map(|list| list.into_iter().collect())
    }

    /// `tokens` in an invisible group: how `macro_rules!` passes a `$x:expr` on.
    fn invisible(tokens: TokenStream) -> TokenTree {
        TokenTree::Group(Group::new(Delimiter::None, tokens))
    }

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

    #[test]
    fn a_tuple_index_of_a_tuple_index_is_one_expression_argument() {
        // `x.0.1` is lexed as `x`, `.` and the float literal `0.1`; syn reads that float as
        // two tuple indices, so the argument is two field accesses, not `x.0` and junk.
        // (From text: rustfmt would rewrite `x.0.1` inside `quote!` as `x.0 .1`.)
        let got = parse_list("x.0.1, y.0.1.f()".parse().unwrap()).unwrap();
        assert_eq!(got.len(), 2);
        let Some(Expr::Field(outer)) = got[0].parsed() else {
            panic!("{}", got[0].to_token_stream());
        };
        assert!(matches!(&outer.member, Member::Unnamed(i) if i.index == 1));
        let Expr::Field(inner) = &*outer.base else {
            panic!("{}", got[0].to_token_stream());
        };
        assert!(matches!(&inner.member, Member::Unnamed(i) if i.index == 0));
        // A method called on `y.0.1`.
        let Some(Expr::MethodCall(call)) = got[1].parsed() else {
            panic!("{}", got[1].to_token_stream());
        };
        assert!(matches!(&*call.receiver, Expr::Field(_)));
    }

    #[test]
    fn a_negative_literal_is_a_negation_of_a_literal() {
        // In an expression syn reads `-1` as unary minus applied to the literal `1` (the
        // form `Shape!` and `Axes!` look for), whatever the literal's suffix.
        let got = parse_list(quote!(-1, -1i8, -0x2, 3)).unwrap();
        assert_eq!(got.len(), 4);
        for e in &got[..3] {
            let Some(Expr::Unary(u)) = e.parsed() else {
                panic!("{}", e.to_token_stream());
            };
            assert!(matches!(u.op, UnOp::Neg(_)));
            assert!(matches!(&*u.expr, Expr::Lit(l) if matches!(l.lit, Lit::Int(_))));
        }
    }

    #[test]
    fn a_cast_is_one_expression_argument_commas_of_its_type_included() {
        // syn parses the type after `as`, so a `,` inside its generic arguments (which are
        // no delimited group) does not end the argument.
        let got = split(quote!(
            n as usize * 2,
            x as Foo<A, B>,
            x as fn(A, B) -> C,
            3
        ));
        let want = [
            "n as usize * 2",
            "x as Foo < A , B >",
            "x as fn (A , B) -> C",
            "3",
        ];
        assert_eq!(
            got.iter().map(|(t, _)| t.as_str()).collect::<Vec<_>>(),
            want
        );
        assert!(got.iter().all(|(_, parsed)| *parsed), "{got:?}");
    }

    #[test]
    fn a_method_call_chain_is_one_expression_argument() {
        let got = split(quote!(x.f::<A, B>(1, 2).g()[0].h, v.len() as usize));
        assert_eq!(
            got,
            [
                (
                    "x . f :: < A , B > (1 , 2) . g () [0] . h".to_string(),
                    true
                ),
                ("v . len () as usize".to_string(), true),
            ]
        );
    }

    #[test]
    fn a_closure_is_one_argument_kept_as_written_up_to_the_next_comma() {
        // syn's default features do not parse closures: the tokens up to the `,` after
        // the body, the `,` between its parameters included.
        let got = split(quote!(|a, b| a + b, move |x| (x, 1), || 1, 2));
        assert_eq!(
            got,
            [
                ("| a , b | a + b".to_string(), false),
                ("move | x | (x , 1)".to_string(), false),
                ("|| 1".to_string(), false),
                ("2".to_string(), true),
            ]
        );
    }

    #[test]
    fn a_block_is_one_argument_parsed_when_it_holds_one_expression() {
        // `{ expr }` is syn's verbatim expression; a block of statements is kept as
        // written, its `;` inside the braces ending nothing.
        let got = parse_list(quote!(
            { N * 2 },
            {
                let n = 3;
                n
            },
            4
        ))
        .unwrap();
        assert_eq!(got.len(), 3);
        assert!(matches!(got[0].parsed(), Some(Expr::Verbatim(_))));
        assert!(got[1].parsed().is_none());
        assert_eq!(got[1].to_token_stream().to_string(), "{ let n = 3 ; n }");
    }

    #[test]
    fn a_struct_literal_or_a_macro_call_is_one_expression_argument() {
        let got = split(quote!(S { a: 1, b }, m![1, 2], m!(1, 2), 3));
        let want = ["S { a : 1 , b }", "m ! [1 , 2]", "m ! (1 , 2)", "3"];
        assert_eq!(
            got.iter().map(|(t, _)| t.as_str()).collect::<Vec<_>>(),
            want
        );
        assert!(got.iter().all(|(_, parsed)| *parsed), "{got:?}");
    }

    #[test]
    fn a_path_that_starts_with_a_keyword_or_colons_is_one_argument() {
        // A `$crate::N` from `macro_rules!` reaches a macro as the identifier `$crate`,
        // which syn takes as a path segment like any non-keyword identifier; proc-macro2
        // cannot make that identifier outside the compiler, so the path keywords stand for
        // it here.
        let got = parse_list(quote!(
            crate::N,
            self::N,
            super::N,
            Self::N,
            ::k::N,
            <T as Tr<A, B>>::N,
            k::f::<A, B>
        ))
        .unwrap();
        assert_eq!(got.len(), 7);
        assert!(got
            .iter()
            .all(|e| matches!(e.parsed(), Some(Expr::Path(_)))));
        assert_eq!(
            got[5].to_token_stream().to_string(),
            "< T as Tr < A , B > > :: N"
        );
    }

    #[test]
    fn an_invisible_group_is_one_operand() {
        // `$e * 2` with `$e` = `a + b` is `(a + b) * 2`: syn parses the group's contents
        // as one expression and goes on after the group.
        let sum = invisible(quote!(a + b));
        let got = parse_list(quote!(#sum * 2, 3)).unwrap();
        assert_eq!(got.len(), 2);
        let Some(Expr::Binary(product)) = got[0].parsed() else {
            panic!("{}", got[0].to_token_stream());
        };
        assert!(matches!(product.op, BinOp::Mul(_)));
        assert!(matches!(&*product.left, Expr::Group(_)));
        // Contents syn does not parse: the group is the argument, kept as written.
        let cond = invisible(quote!(if c { 1 } else { 2 }));
        let got = parse_list(quote!(#cond, 3)).unwrap();
        assert_eq!(got.len(), 2);
        assert!(got[0].parsed().is_none());
    }

    #[test]
    fn a_literal_in_an_invisible_group_stays_grouped_but_a_minus_is_seen_through() {
        // syn takes an invisible group as `Expr::Group` before it looks for a literal, so
        // `$n` = `3` is no `Expr::Lit` (`Shape!` makes it a const expression); but the
        // `-` of `$n` = `-1` is peeked through the group: unary minus on a literal.
        let three = invisible(quote!(3));
        let minus_one = invisible(quote!(-1));
        let got = parse_list(quote!(#three, #minus_one)).unwrap();
        assert!(matches!(got[0].parsed(), Some(Expr::Group(_))));
        let Some(Expr::Unary(u)) = got[1].parsed() else {
            panic!("{}", got[1].to_token_stream());
        };
        assert!(matches!(&*u.expr, Expr::Lit(_)));
    }

    #[test]
    fn an_invisible_group_syn_parses_in_part_is_its_unexpected_token() {
        // syn parses `x` of `$e` = `x?` and leaves `?` in the group: not a choice of these
        // macros, but syn's error ("unexpected token") all the same.
        let tried = invisible(quote!(x?));
        let e = parse_list(quote!(#tried, 3)).err().unwrap();
        assert_eq!(e.to_string(), "unexpected token");
    }

    #[test]
    fn tokens_left_inside_brackets_are_syns_error_at_the_first_of_them() {
        // syn parses `x[a` and leaves `b` in the brackets.
        let e = parse_list("x[a b], 2".parse().unwrap()).err().unwrap();
        assert_eq!(e.to_string(), "unexpected token, expected `]`");
        assert_eq!(e.span().source_text().as_deref(), Some("b"));
    }
}
