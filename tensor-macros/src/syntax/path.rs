//! Paths (`a::b`, `Vec::<T>::new`, `<T as Trait>::f`) and their generic arguments, as
//! syn parses them with its default features: the grammar decides where an expression
//! argument of a macro ends and whether it is a plain identifier (`Dyn`).
//!
//! Only acceptance matters here (a path is kept as the tokens written), so a parse keeps
//! what callers look at: the segments and whether each has generic arguments.

use super::error::Result;
use super::expr;
use super::stream::peek::{self, punct};
use super::stream::Input;
use super::tree::Delimiter;
use super::ty;

/// A parsed path.
pub(crate) struct Path {
    /// Written with a leading `::` (or after a qualified self type, `<T>::`).
    pub leading_colon: bool,
    /// The segments.
    pub segments: Vec<Segment>,
}

/// One segment of a path.
pub(crate) struct Segment {
    /// Its identifier.
    pub ident: String,
    /// Its generic arguments.
    pub args: Args,
}

/// The generic arguments of a segment.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Args {
    /// None.
    None,
    /// `<..>` or `::<..>`.
    Angle,
    /// `(..) -> ..`, in a trait bound.
    Paren,
}

impl Path {
    /// Whether no segment has generic arguments.
    pub fn is_mod_style(&self) -> bool {
        self.segments.iter().all(|s| s.args == Args::None)
    }

    /// The identifier, for a path that is one identifier (`syn::Path::get_ident`).
    pub fn get_ident(&self) -> Option<&str> {
        match self.segments.as_slice() {
            [s] if !self.leading_colon && s.args == Args::None => Some(&s.ident),
            _ => None,
        }
    }
}

/// A path; `expr_style` (in an expression) takes generic arguments only after `::`.
pub(crate) fn path(input: &mut Input, expr_style: bool) -> Result<Path> {
    let leading_colon = optional_colon2(input)?;
    let first = segment(input, expr_style)?;
    let mut path = Path {
        leading_colon,
        segments: vec![first],
    };
    parse_rest(input, &mut path, expr_style)?;
    Ok(path)
}

fn optional_colon2(input: &mut Input) -> Result<bool> {
    if input.peek(punct("::")) {
        input.parse_punct("::")?;
        return Ok(true);
    }
    Ok(false)
}

/// More `::segment`s (not `::(`).
pub(crate) fn parse_rest(input: &mut Input, path: &mut Path, expr_style: bool) -> Result<()> {
    while input.peek(punct("::")) && !input.peek3(peek::group(Delimiter::Parenthesis)) {
        input.parse_punct("::")?;
        let s = segment(input, expr_style)?;
        path.segments.push(s);
    }
    Ok(())
}

fn segment(input: &mut Input, expr_style: bool) -> Result<Segment> {
    let keyword = |input: &Input, w| input.peek(peek::keyword(w));
    if keyword(input, "super") || keyword(input, "self") || keyword(input, "crate") {
        let ident = input.parse_any_ident()?.text().to_string();
        return Ok(Segment {
            ident,
            args: Args::None,
        });
    }
    let ident = if keyword(input, "Self") {
        input.parse_any_ident()?
    } else {
        input.parse_ident()?
    };
    let ident = ident.text().to_string();
    let angle = !expr_style
        && input.peek(punct("<"))
        && !input.peek(punct("<="))
        && !input.peek(punct("<<="))
        || input.peek(punct("::")) && input.peek3(punct("<"));
    if angle {
        optional_colon2(input)?;
        angle_args(input)?;
        return Ok(Segment {
            ident,
            args: Args::Angle,
        });
    }
    Ok(Segment {
        ident,
        args: Args::None,
    })
}

/// `<A, 'b, N = 3, T: Bound>` (after an optional `::`, already parsed).
pub(crate) fn angle_args(input: &mut Input) -> Result<()> {
    input.parse_punct("<")?;
    loop {
        if input.peek(punct(">")) {
            break;
        }
        generic_argument(input)?;
        if input.peek(punct(">")) {
            break;
        }
        input.parse_punct(",")?;
    }
    input.parse_punct(">")?;
    Ok(())
}

fn generic_argument(input: &mut Input) -> Result<()> {
    if input.peek(peek::lifetime) && !input.peek2(punct("+")) {
        return input.parse_lifetime();
    }
    if input.peek(peek::lit) || input.peek(peek::group(Delimiter::Brace)) {
        return const_argument(input);
    }
    let argument = ty::ty(input)?;
    let ty::Type::Path { qself: false, path } = argument else {
        return Ok(());
    };
    let simple =
        !path.leading_colon && path.segments.len() == 1 && path.segments[0].args != Args::Paren;
    if !simple {
        return Ok(());
    }
    if input.peek(punct("=")) {
        input.parse_punct("=")?;
        if input.peek(peek::lit) || input.peek(peek::group(Delimiter::Brace)) {
            return const_argument(input);
        }
        return ty::ty(input).map(drop);
    }
    if input.peek(punct(":")) {
        input.parse_punct(":")?;
        loop {
            if input.peek(punct(",")) || input.peek(punct(">")) {
                break;
            }
            ty::bound(input)?;
            if !input.peek(punct("+")) {
                break;
            }
            input.parse_punct("+")?;
        }
    }
    Ok(())
}

/// A const generic argument: a literal, an identifier or `{ expr }`.
pub(crate) fn const_argument(input: &mut Input) -> Result<()> {
    if input.peek(peek::lit) {
        return input.parse_lit().map(drop);
    }
    if input.peek(peek::ident) {
        return input.parse_ident().map(drop);
    }
    if input.peek(peek::group(Delimiter::Brace)) {
        let (mut content, _) = input.parse_group(Delimiter::Brace)?;
        let parsed = expr::expr(&mut content);
        content.finish();
        return parsed.map(drop);
    }
    Err(input.error("expected one of: literal, identifier, curly braces"))
}

/// A path that may start with a qualified self type: `<T>::f`, `<T as Trait>::f`.
/// Returns whether it had one.
pub(crate) fn qpath(input: &mut Input, expr_style: bool) -> Result<(bool, Path)> {
    if !input.peek(punct("<")) {
        return Ok((false, path(input, expr_style)?));
    }
    input.parse_punct("<")?;
    ty::ty(input)?;
    let as_path = if input.peek(peek::keyword("as")) {
        input.parse_keyword("as")?;
        Some(path(input, false)?)
    } else {
        None
    };
    input.parse_punct(">")?;
    input.parse_punct("::")?;
    let mut rest = Vec::new();
    loop {
        rest.push(segment(input, expr_style)?);
        if !input.peek(punct("::")) {
            break;
        }
        input.parse_punct("::")?;
    }
    let path = match as_path {
        Some(mut p) => {
            p.segments.extend(rest);
            p
        }
        None => Path {
            leading_colon: true,
            segments: rest,
        },
    };
    Ok((true, path))
}
