//! Expressions, as syn parses them with its default features (`syn::Expr` without
//! `full`): literals, paths, calls, method calls, fields, indexing, unary, binary and
//! `as` operators, references, parentheses, tuples, struct literals, macros and
//! `{ expr }`. Anything else (`x?`, `if ..`, closures, `[a; n]`) fails to parse here.
//!
//! The macros need three facts about an expression argument: whether this grammar
//! parses it, where it ends, and the few shapes they look inside (`1`, `-1`, `Dyn`), so
//! a parse returns [`Expr`], the outermost shape, and the stream's cursor is left at the
//! end. The rules follow syn 3's `expr.rs` function by function.

use super::error::Result;
use super::lit::Lit;
use super::path::{self, Path};
use super::stream::peek::{self, punct};
use super::stream::Input;
use super::tree::Delimiter;
use super::ty;

/// The outermost shape of a parsed expression.
pub(crate) enum Expr {
    /// A literal (`1`, `"a"`, `true`).
    Lit(Lit),
    /// `-x`, `!x`, `*x`: the operator and its operand.
    Unary(char, Box<Expr>),
    /// `a op b`; whether `op` is a comparison (they cannot be chained).
    Binary { compare: bool },
    /// A path (`Dyn`, `a::b`, `<T>::f`), and whether it has a qualified self type.
    Path(Path, bool),
    /// An invisible group around an expression (a `$e:expr` of `macro_rules!`).
    Group,
    /// Any other expression (calls, casts, references, ..).
    Other,
}

/// The precedence of operators, loosest first (syn's `Precedence`).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Prec {
    Jump,
    Assign,
    Range,
    Or,
    And,
    Compare,
    BitOr,
    BitXor,
    BitAnd,
    Shift,
    Sum,
    Product,
    Cast,
}

/// The binary operators, in the order syn tries them.
const BINARY: [(&str, Prec); 28] = [
    ("+=", Prec::Assign),
    ("-=", Prec::Assign),
    ("*=", Prec::Assign),
    ("/=", Prec::Assign),
    ("%=", Prec::Assign),
    ("^=", Prec::Assign),
    ("&=", Prec::Assign),
    ("|=", Prec::Assign),
    ("<<=", Prec::Assign),
    (">>=", Prec::Assign),
    ("&&", Prec::And),
    ("||", Prec::Or),
    ("<<", Prec::Shift),
    (">>", Prec::Shift),
    ("==", Prec::Compare),
    ("<=", Prec::Compare),
    ("!=", Prec::Compare),
    (">=", Prec::Compare),
    ("+", Prec::Sum),
    ("-", Prec::Sum),
    ("*", Prec::Product),
    ("/", Prec::Product),
    ("%", Prec::Product),
    ("^", Prec::BitXor),
    ("&", Prec::BitAnd),
    ("|", Prec::BitOr),
    ("<", Prec::Compare),
    (">", Prec::Compare),
];

/// An expression.
pub(crate) fn expr(input: &mut Input) -> Result<Expr> {
    let lhs = unary(input)?;
    binary(input, lhs, Prec::Jump)
}

fn kw(input: &Input, word: &'static str) -> bool {
    input.peek(peek::keyword(word))
}

/// Parses a binary operator; its precedence.
fn binary_op(input: &mut Input) -> Option<Prec> {
    let (op, prec) = BINARY.iter().find(|(op, _)| {
        input.peek(punct(op))
            && !(*op == "-" && input.peek(punct("->")))
            && !(*op == "<" && input.peek(punct("<-")))
    })?;
    input.parse_punct(op).ok()?;
    Some(*prec)
}

/// `lhs` followed by operators of precedence `base` or tighter.
fn binary(input: &mut Input, mut lhs: Expr, base: Prec) -> Result<Expr> {
    loop {
        let mut ahead = input.fork();
        if let Some(prec) = binary_op(&mut ahead) {
            if prec < base {
                break;
            }
            if prec == Prec::Compare && matches!(lhs, Expr::Binary { compare: true }) {
                return Err(input.error("comparison operators cannot be chained"));
            }
            input.advance_to(&ahead);
            binary_rhs(input, prec)?;
            lhs = Expr::Binary {
                compare: prec == Prec::Compare,
            };
        } else if Prec::Cast >= base && kw(input, "as") {
            input.parse_keyword("as")?;
            ty::ambig_ty(input, false, false)?;
            check_cast(input)?;
            lhs = Expr::Other;
        } else if input.peek(punct("<-")) {
            return Err(input.error("unexpected operator `<-`"));
        } else {
            break;
        }
    }
    Ok(lhs)
}

fn binary_rhs(input: &mut Input, prec: Prec) -> Result<()> {
    let mut rhs = unary(input)?;
    loop {
        let next = peek_precedence(input);
        if next > prec || next == prec && prec == Prec::Assign {
            let before = input.cursor();
            rhs = binary(input, rhs, next)?;
            if before == input.cursor() {
                break;
            }
        } else {
            break;
        }
    }
    Ok(())
}

fn peek_precedence(input: &Input) -> Prec {
    if let Some(prec) = binary_op(&mut input.fork()) {
        prec
    } else if input.peek(punct("=")) && !input.peek(punct("=>")) {
        Prec::Assign
    } else if input.peek(punct("..")) {
        Prec::Range
    } else if kw(input, "as") {
        Prec::Cast
    } else {
        Prec::Jump
    }
}

/// A cast cannot be followed by a trailer (`x as T.f`, `x as T?`).
fn check_cast(input: &Input) -> Result<()> {
    let trailer = input.peek(punct(".")) && !input.peek(punct(".."))
        || input.peek(punct("?"))
        || input.peek(peek::group(Delimiter::Bracket))
        || input.peek(peek::group(Delimiter::Parenthesis));
    if trailer {
        return Err(input.error("casts cannot be followed by a trailer"));
    }
    Ok(())
}

/// `&x`, `&mut x`, `-x`, `!x`, `*x`, or a trailer expression.
fn unary(input: &mut Input) -> Result<Expr> {
    if input.peek(punct("&")) {
        input.parse_punct("&")?;
        if kw(input, "mut") {
            input.parse_keyword("mut")?;
        }
        unary(input)?;
        return Ok(Expr::Other);
    }
    for op in ['*', '!', '-'] {
        let op_str = match op {
            '*' => "*",
            '!' => "!",
            _ => "-",
        };
        if input.peek(punct(op_str)) {
            input.parse_punct(op_str)?;
            let operand = unary(input)?;
            return Ok(Expr::Unary(op, Box::new(operand)));
        }
    }
    trailer(input)
}

/// An atom followed by calls, fields, method calls and indexing.
fn trailer(input: &mut Input) -> Result<Expr> {
    let mut e = atom(input)?;
    loop {
        if input.peek(peek::group(Delimiter::Parenthesis)) {
            call_args(input)?;
            e = Expr::Other;
        } else if input.peek(punct("."))
            && !input.peek(punct(".."))
            && !input.peek2(peek::keyword("await"))
        {
            input.parse_punct(".")?;
            e = Expr::Other;
            if input.peek(peek::lit_float) {
                let float = input.parse_lit()?;
                if multi_index(&float)? {
                    continue;
                }
            }
            let named = member(input)?;
            let turbofish = named && input.peek(punct("::"));
            if turbofish {
                input.parse_punct("::")?;
                path::angle_args(input)?;
            }
            if named && (turbofish || input.peek(peek::group(Delimiter::Parenthesis))) {
                call_args(input)?;
            }
        } else if input.peek(peek::group(Delimiter::Bracket)) {
            let (mut content, _) = input.parse_group(Delimiter::Bracket)?;
            let parsed = expr(&mut content);
            content.finish();
            parsed?;
            e = Expr::Other;
        } else {
            break;
        }
    }
    Ok(e)
}

/// `(a, b, ..)` of a call.
fn call_args(input: &mut Input) -> Result<()> {
    let (mut content, _) = input.parse_group(Delimiter::Parenthesis)?;
    let parsed = content.parse_terminated(|c| expr(c).map(drop));
    content.finish();
    parsed.map(drop)
}

/// A tuple index (`x.0`): an integer literal without suffix that fits a `u32`.
fn index(input: &mut Input) -> Result<()> {
    let lit = input.parse_lit()?;
    match &lit.kind {
        super::lit::LitKind::Int { digits, suffix } if suffix.is_empty() => {
            digits.parse::<u32>().map(drop).map_err(|e| input.error(e))
        }
        _ => Err(input.error("expected unsuffixed integer")),
    }
}

/// A field name after `.` or in a struct literal (syn's `Member`): an identifier
/// (returns `true`) or a tuple index (returns `false`).
fn member(input: &mut Input) -> Result<bool> {
    if input.peek(peek::ident) {
        input.parse_ident()?;
        Ok(true)
    } else if input.peek(peek::lit_int) {
        index(input)?;
        Ok(false)
    } else {
        Err(input.error("expected identifier or integer"))
    }
}

/// `x.0.1`, lexed as `x`, `.`, `0.1`: each part a tuple index. Returns whether the
/// float did not end with a `.` (after which a member follows).
fn multi_index(float: &Lit) -> Result<bool> {
    let repr = float.repr.strip_suffix('.');
    let trailing_dot = repr.is_some();
    let repr = repr.unwrap_or(&float.repr);
    for part in repr.split('.') {
        let ok = match super::lit::parse_int(part) {
            Some((digits, suffix)) => suffix.is_empty() && digits.parse::<u32>().is_ok(),
            None => false,
        };
        if !ok {
            return Err(super::error::Error::new(
                float.span,
                "expected unsuffixed integer",
            ));
        }
    }
    Ok(!trailing_dot)
}

/// A literal, a group, parentheses, a path (or macro call or struct literal), or a
/// `{ expr }` block.
fn atom(input: &mut Input) -> Result<Expr> {
    if input.peek(peek::group(Delimiter::None)) && !lone_lifetime_group(input) {
        return group(input);
    }
    if input.peek(peek::lit) {
        return input.parse_lit().map(Expr::Lit);
    }
    if input.peek(peek::group(Delimiter::Parenthesis)) {
        paren_or_tuple(input)?;
        return Ok(Expr::Other);
    }
    let path_start = input.peek(peek::ident)
        || input.peek(punct("::"))
        || input.peek(punct("<"))
        || ["self", "Self", "super", "crate"]
            .iter()
            .any(|w| kw(input, w));
    if path_start {
        let (qself, path) = path::qpath(input, true)?;
        return rest_of_path(input, qself, path);
    }
    if input.is_empty() {
        return Err(input.error("expected an expression"));
    }
    if input.peek(peek::group(Delimiter::Brace)) {
        let mut scan = input.fork();
        let (mut content, _) = scan.parse_group(Delimiter::Brace)?;
        if expr(&mut content).is_ok() && content.is_empty() {
            input.advance_to(&scan);
            return Ok(Expr::Other);
        }
    }
    Err(input.error("unsupported expression; enable syn's features=[\"full\"]"))
}

/// Whether the invisible group here holds one lifetime (not an expression).
fn lone_lifetime_group(input: &Input) -> bool {
    let mut fork = input.fork();
    match fork.parse_group(Delimiter::None) {
        Ok((content, _)) => content.peek(peek::lifetime) && content.peek2(|c| c.eof()),
        Err(_) => false,
    }
}

/// An expression in an invisible group; a path in one continues after it
/// (`$p::f`, `$p!()`, `$p { .. }`).
fn group(input: &mut Input) -> Result<Expr> {
    let (mut content, _) = input.parse_group(Delimiter::None)?;
    let inner = expr(&mut content);
    let result = match inner {
        Ok(Expr::Path(mut path, qself)) => {
            let grouped = path.segments.len();
            match path::parse_rest(input, &mut path, true)
                .and_then(|()| rest_of_path(input, qself, path))
            {
                Ok(Expr::Path(p, _)) if p.segments.len() == grouped => Ok(Expr::Group),
                other => other,
            }
        }
        Ok(_) => Ok(Expr::Group),
        Err(e) => Err(e),
    };
    content.finish();
    result
}

/// `()`, `(x)`, `(a, b)`.
fn paren_or_tuple(input: &mut Input) -> Result<()> {
    let (mut content, _) = input.parse_group(Delimiter::Parenthesis)?;
    let parsed = (|| {
        if content.is_empty() {
            return Ok(());
        }
        expr(&mut content)?;
        while !content.is_empty() {
            content.parse_punct(",")?;
            if content.is_empty() {
                break;
            }
            expr(&mut content)?;
        }
        Ok(())
    })();
    content.finish();
    parsed
}

/// After a path: a macro call (`p!(..)`), a struct literal (`P { .. }`), or the path.
fn rest_of_path(input: &mut Input, qself: bool, path: Path) -> Result<Expr> {
    if !qself && input.peek(punct("!")) && !input.peek(punct("!=")) && path.is_mod_style() {
        input.parse_punct("!")?;
        ty::macro_delimiter(input)?;
        return Ok(Expr::Other);
    }
    if input.peek(peek::group(Delimiter::Brace)) {
        struct_fields(input)?;
        return Ok(Expr::Other);
    }
    Ok(Expr::Path(path, qself))
}

/// `{ a: 1, b, ..rest }` of a struct literal.
fn struct_fields(input: &mut Input) -> Result<()> {
    let (mut content, _) = input.parse_group(Delimiter::Brace)?;
    let parsed = (|| {
        while !content.is_empty() {
            if content.peek(punct("..")) {
                content.parse_punct("..")?;
                if !content.is_empty() {
                    expr(&mut content)?;
                }
                return Ok(());
            }
            field_value(&mut content)?;
            if content.is_empty() {
                break;
            }
            content.parse_punct(",")?;
        }
        Ok(())
    })();
    content.finish();
    parsed
}

/// `a: expr`, `0: expr` or `a` of a struct literal.
fn field_value(input: &mut Input) -> Result<()> {
    ty::outer_attributes(input)?;
    let named = member(input)?;
    if input.peek(punct(":")) || !named {
        input.parse_punct(":")?;
        expr(input)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::buffer::Buffer;
    use crate::syntax::lex::lex;
    use crate::syntax::tree::Span;

    /// Whether `text` parses, and the text left after the expression.
    fn parse(text: &str) -> (bool, usize) {
        let trees = lex(text, Span::call_site());
        let buffer = Buffer::new(&trees);
        let mut input = Input::new(buffer.begin());
        let ok = expr(&mut input).is_ok();
        let mut left = 0;
        let mut c = input.cursor();
        while let Some((_, next)) = c.token_tree() {
            left += 1;
            c = next;
        }
        (ok, left)
    }

    #[test]
    fn the_default_subset_parses_whole() {
        for text in [
            "1",
            "-x.f::<A, B>(1, 2)[0] as usize * 3",
            "&mut a.0.1",
            "<T as Tr<A>>::f(x)",
            "S { a: 1, b, ..s }",
            "m![1, 2] + m!(x)",
            "{ N * 2 }",
            "(a, b).0",
            "x as fn(A) -> B",
            "a += b << 2",
            "f::<{ N }, [u8; 4], dyn Tr + Send>()",
        ] {
            assert_eq!(parse(text), (true, 0), "{text}");
        }
    }

    #[test]
    fn other_expressions_fail_or_stop_at_punctuation() {
        assert!(!parse("if c { a } else { b }").0);
        assert!(!parse("|a| a").0);
        assert!(!parse("[0; 3]").0);
        assert!(!parse("{ let n = 3; n }").0);
        assert!(!parse("a < b < c").0);
        assert_eq!(parse("x?"), (true, 1));
        assert_eq!(parse("a = b"), (true, 2));
        assert_eq!(parse("a..b"), (true, 3));
        assert_eq!(parse("x y"), (true, 1));
    }
}
