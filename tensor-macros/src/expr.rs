//! An expression argument of a macro: the tokens written, and, when the grammar of
//! [`crate::syntax::expr`] parses it, its outermost shape.
//!
//! That grammar is the one these macros used when they parsed with syn's default features
//! (kept so that every input splits, and fails, as it did): literals, paths, calls,
//! method calls, fields, indexing, unary, binary and `as` operators, references,
//! parentheses, tuples, struct literals, macros and `{ expr }`. The macros look inside a
//! few of these only (`1`, `-1`, `Dyn`) and pass every expression on to rustc, so
//! [`ExprTokens`] is the parsed expression when the grammar parses it, and otherwise
//! (`x?`, `if ..`, `[a; n]`, `{ let n = 3; n }`, ..) the tokens up to the next `,` or `;`
//! that is not inside brackets, generic arguments or closure parameters, which rustc
//! parses where they land in the expansion. Errors stay where syn put them: a missing
//! expression or operand is "expected an expression", and the token after such an
//! expression in the expansion (a `,`, or the closing delimiter around it) takes the
//! span of the token after it in the input, where rustc then reports an expression that
//! ends too early.

use crate::syntax::expr::Expr;
use crate::syntax::stream::peek::punct;
use crate::syntax::{Cursor, Delimiter, Group, Input, Result, Spacing, Span, Tree};

/// One expression argument.
pub(crate) enum ExprTokens {
    /// An expression of the grammar's subset: its shape and its tokens.
    Parsed { expr: Expr, tokens: Vec<Tree> },
    /// Any other expression, as the tokens written (spans kept), and the span of the
    /// token after it in the input (its `,`, or the end of the enclosing group or macro
    /// input): where syn reported an expression that ends too early.
    Opaque { tokens: Vec<Tree>, end: Span },
}

impl ExprTokens {
    /// The expression's shape, when the grammar parsed it.
    pub fn parsed(&self) -> Option<&Expr> {
        match self {
            ExprTokens::Parsed { expr, .. } => Some(expr),
            ExprTokens::Opaque { .. } => None,
        }
    }

    /// The tokens as written.
    pub fn tokens(&self) -> &[Tree] {
        match self {
            ExprTokens::Parsed { tokens, .. } | ExprTokens::Opaque { tokens, .. } => tokens,
        }
    }

    /// The span of the expression's first token (stable Rust cannot join spans).
    pub fn span(&self) -> Span {
        self.tokens()
            .first()
            .map_or_else(Span::call_site, Tree::span)
    }

    /// The span of the token after an expression the grammar did not parse (see
    /// [`ExprTokens::Opaque`]); `None` for a parsed one.
    pub fn end(&self) -> Option<Span> {
        match self {
            ExprTokens::Parsed { .. } => None,
            ExprTokens::Opaque { end, .. } => Some(*end),
        }
    }

    /// The expression in `delimiter`s spanned at `span`, or, for an expression the
    /// grammar did not parse, at the token after it: rustc then reports an expression
    /// that ends too early (`x as`) at that token, where syn reported it.
    pub fn delimited(&self, delimiter: Delimiter, span: Span) -> Group {
        let mut group = Group::new(delimiter, self.tokens().to_vec());
        group.set_span(self.end().unwrap_or(span));
        group
    }

    /// Whether the expression is a negation of something the grammar did not parse: `-`
    /// and one group (`-{ if a { 1 } else { 2 } }`), as syn's `full` feature parses it.
    pub fn is_opaque_negation(&self) -> bool {
        let ExprTokens::Opaque { tokens, .. } = self else {
            return false;
        };
        matches!(
            tokens.as_slice(),
            [Tree::Punct(p), Tree::Group(_)] if p.as_char() == '-'
        )
    }

    /// Parses one expression argument.
    ///
    /// The grammar stops where syn's `full` feature would go on only at punctuation
    /// (`x?`, `a = b`, `a..b`, `x.await`), or fails (`if`, `[a; n]`, closures, ..).
    pub fn parse(input: &mut Input) -> Result<ExprTokens> {
        let mut fork = input.fork();
        if let Ok(expr) = crate::syntax::expr::expr(&mut fork) {
            if fork.peek(punct(",")) || fork.cursor().punct().is_none() {
                let tokens = input.cursor().trees_until(fork.cursor());
                input.advance_to(&fork);
                return Ok(ExprTokens::Parsed { expr, tokens });
            }
        }
        let (tokens, rest) = scan(input.cursor());
        input.set_cursor(rest);
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

/// Comma-separated expressions to the end of `input` (a trailing comma allowed).
pub(crate) fn parse_list(input: &mut Input) -> Result<Vec<ExprTokens>> {
    input.parse_terminated(ExprTokens::parse)
}

/// The token trees from `c` up to the next `,` (or `;`, which ends any expression)
/// outside generic arguments (`::<A, B>`, `<T as Trait<A, B>>::f`) and closure
/// parameters (`|a, b|`), or to the end.
fn scan(mut c: Cursor) -> (Vec<Tree>, Cursor) {
    let mut tokens: Vec<Tree> = Vec::new();
    // Open `<` of generic arguments.
    let mut angles = 0usize;
    // Inside `|..|` of closure parameters.
    let mut closure_params = false;
    while let Some((tt, next)) = c.token_tree() {
        if let Tree::Punct(p) = tt {
            let prev = tokens.last();
            let prev2 = tokens.len().checked_sub(2).map(|i| &tokens[i]);
            // The second character of an operator (`||`, `<<`, `<=`).
            let second = matches!(prev, Some(Tree::Punct(q)) if q.spacing() == Spacing::Joint);
            let operand = !second && operand_expected(prev);
            match p.as_char() {
                ',' | ';' if angles == 0 && !closure_params => break,
                '|' if closure_params => closure_params = false,
                '|' if angles == 0 && operand => closure_params = true,
                '<' if angles > 0 || operand || is_path_sep(prev, prev2) => angles += 1,
                '>' if angles > 0 && !is_joint(prev, '-') => angles -= 1,
                _ => {}
            }
        }
        tokens.push(tt.clone());
        c = next;
    }
    (tokens, c)
}

/// Whether `tokens` end with punctuation that no expression ends with: anything but `?`,
/// the `>` of generic arguments (or of a comparison, let through) and `..`.
fn ends_with_operator(tokens: &[Tree]) -> bool {
    let before = tokens.len().checked_sub(2).map(|i| &tokens[i]);
    match tokens.last() {
        Some(Tree::Punct(p)) => match p.as_char() {
            '?' | '>' => false,
            '.' => !is_joint(before, '.'),
            _ => true,
        },
        _ => false,
    }
}

/// Whether an operand (not an operator) comes after `prev`: at the start, after an
/// operator and after `move`.
fn operand_expected(prev: Option<&Tree>) -> bool {
    match prev {
        None => true,
        Some(Tree::Punct(p)) => !matches!(p.as_char(), '?' | '\''),
        Some(Tree::Ident(i)) => i == "move",
        Some(_) => false,
    }
}

/// Whether `prev2 prev` is `::`.
fn is_path_sep(prev: Option<&Tree>, prev2: Option<&Tree>) -> bool {
    matches!(prev, Some(Tree::Punct(p)) if p.as_char() == ':') && is_joint(prev2, ':')
}

/// Whether `tt` is the punctuation `ch` joined to the next one (`-` of `->`).
fn is_joint(tt: Option<&Tree>, ch: char) -> bool {
    matches!(tt, Some(Tree::Punct(p)) if p.as_char() == ch && p.spacing() == Spacing::Joint)
}

#[cfg(test)]
mod tests {
    use super::{parse_list, ExprTokens};
    use crate::syntax::lex::lex;
    use crate::syntax::print::to_string;
    use crate::syntax::{parse_all, Span, Tree};

    fn tokens(text: &str) -> Vec<Tree> {
        lex(text, Span::call_site())
    }

    /// The arguments of a comma-separated list, each as a string and whether it parsed.
    fn split(text: &str) -> Vec<(String, bool)> {
        parse_all(&tokens(text), parse_list)
            .unwrap()
            .iter()
            .map(|e| (to_string(e.tokens()), e.parsed().is_some()))
            .collect()
    }

    #[test]
    fn the_subset_of_default_features_is_parsed() {
        let got = split("1.0, -2, x, a::b, f(1, 2) * 3, x.view::<A, B>(), { N * 2 }");
        assert!(got.iter().all(|(_, parsed)| *parsed), "{got:?}");
        assert_eq!(got[4].0, "f (1 , 2) * 3");
        assert_eq!(got[5].0, "x . view :: < A , B > ()");
    }

    #[test]
    fn other_expressions_are_kept_up_to_the_next_comma() {
        let got = split(
            "load()?,
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
            move || x?",
        );
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
            ("x \"p\"", "x", "\"p\""),
            ("x; y", "x", "; y"),
            ("x?; y", "x ?", "; y"),
            ("x? y", "x ? y", ""),
        ] {
            let (got, got_rest) = parse_all(&tokens(input), |input| {
                let e = ExprTokens::parse(input)?;
                let mut rest = Vec::new();
                while !input.is_empty() {
                    rest.push(input.parse_tree()?.clone());
                }
                Ok((to_string(e.tokens()), to_string(&rest)))
            })
            .unwrap();
            assert_eq!((got.as_str(), got_rest.as_str()), (expr, rest));
        }
    }

    #[test]
    fn a_missing_expression_is_an_error() {
        for input in ["1,, 2", "x? +, 2", "x? =", "|a|, 2"] {
            let e = parse_all(&tokens(input), parse_list).err().unwrap();
            assert!(e.to_string().ends_with("expected an expression"), "{e}");
        }
        assert_eq!(split("x.., f::<A>?.y::<B>").len(), 2);
    }

    #[test]
    fn a_negated_group_is_a_negation() {
        let got: Vec<bool> = parse_all(
            &tokens("-{ if a { 1 } else { 2 } }, -{ x? } + 1, -1, { -x? }"),
            parse_list,
        )
        .unwrap()
        .iter()
        .map(ExprTokens::is_opaque_negation)
        .collect();
        assert_eq!(got, [true, false, false, false]);
    }

    #[test]
    fn a_parsed_expression_with_unparsed_brackets_is_an_error_at_the_end() {
        // syn parses `x[a]` and leaves `b` in the brackets: "unexpected token".
        let e = parse_all(&tokens("x[a b], 2"), parse_list).err().unwrap();
        assert_eq!(e.to_string(), "unexpected token, expected `]`");
    }
}
