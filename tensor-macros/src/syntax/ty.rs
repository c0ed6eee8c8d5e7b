//! Types, as syn parses them with its default features (`syn::Type`): they appear in
//! expressions after `as` and in generic arguments (`f::<Vec<u8>>()`), so they decide
//! where such an expression ends.
//!
//! Only acceptance matters here; a parse keeps what the grammar itself looks at (a
//! path, an invisible group, a trait object's bounds).

use super::error::Result;
use super::expr;
use super::path::{self, Args, Path};
use super::stream::peek::{self, punct};
use super::stream::Input;
use super::tree::Delimiter;

/// A parsed type, as far as the grammar distinguishes them.
pub(crate) enum Type {
    /// A path, possibly with a qualified self type.
    Path { qself: bool, path: Path },
    /// An invisible group around a type.
    Group,
    /// Bounds without `dyn` (`'a + Trait`), or with it.
    TraitObject {
        dyn_token: bool,
        bounds: usize,
        trailing_plus: bool,
    },
    /// Any other type.
    Other,
}

/// A type (`syn::Type`: `+` allowed).
pub(crate) fn ty(input: &mut Input) -> Result<Type> {
    ambig_ty(input, true, true)
}

/// A type where `+` ends it (after `&`, `*`, `->`).
fn without_plus(input: &mut Input) -> Result<Type> {
    ambig_ty(input, false, true)
}

fn kw(input: &Input, word: &'static str) -> bool {
    input.peek(peek::keyword(word))
}

/// syn's `ambig_ty`.
pub(crate) fn ambig_ty(input: &mut Input, allow_plus: bool, group_generic: bool) -> Result<Type> {
    if input.peek(peek::group(Delimiter::None)) {
        return group(input, group_generic);
    }
    let mut lifetimes = false;
    if kw(input, "for") {
        bound_lifetimes(input)?;
        lifetimes = true;
        let follows = input.peek(peek::ident)
            || ["fn", "unsafe", "extern", "super", "self", "Self", "crate"]
                .iter()
                .any(|w| kw(input, w));
        if !follows || kw(input, "dyn") {
            return Err(input.error("expected type"));
        }
    }
    if input.peek(peek::group(Delimiter::Parenthesis)) {
        return paren(input, allow_plus);
    }
    if kw(input, "unsafe") && input.peek2(punct("<")) {
        input.parse_keyword("unsafe")?;
        input.parse_punct("<")?;
        while !input.peek(punct(">")) {
            input.parse_lifetime()?;
            if input.peek(punct(">")) {
                break;
            }
            input.parse_punct(",")?;
        }
        input.parse_punct(">")?;
        ambig_ty(input, allow_plus, group_generic)?;
        return Ok(Type::Other);
    }
    if kw(input, "fn") || kw(input, "unsafe") || kw(input, "extern") {
        fn_ptr(input)?;
        return Ok(Type::Other);
    }
    let path_start = input.peek(peek::ident)
        || ["super", "self", "Self", "crate"]
            .iter()
            .any(|w| kw(input, w))
        || input.peek(punct("::"))
        || input.peek(punct("<"));
    if path_start {
        return type_path(input, allow_plus, lifetimes);
    }
    if kw(input, "dyn") {
        input.parse_keyword("dyn")?;
        let star = input.peek(punct("*"));
        if star {
            input.parse_punct("*")?;
        }
        let (bounds, trailing_plus) = trait_bounds(input, allow_plus)?;
        if star {
            return Ok(Type::Other);
        }
        return Ok(Type::TraitObject {
            dyn_token: true,
            bounds,
            trailing_plus,
        });
    }
    if input.peek(peek::group(Delimiter::Bracket)) {
        let (mut content, _) = input.parse_group(Delimiter::Bracket)?;
        let parsed = array_or_slice(&mut content);
        content.finish();
        parsed?;
        return Ok(Type::Other);
    }
    if input.peek(punct("*")) {
        input.parse_punct("*")?;
        if kw(input, "const") {
            input.parse_keyword("const")?;
        } else if kw(input, "mut") {
            input.parse_keyword("mut")?;
        } else {
            return Err(input.error("expected one of: `const`, `mut`"));
        }
        without_plus(input)?;
        return Ok(Type::Other);
    }
    if input.peek(punct("&")) {
        input.parse_punct("&")?;
        if input.peek(peek::lifetime) {
            input.parse_lifetime()?;
        }
        if kw(input, "mut") {
            input.parse_keyword("mut")?;
        }
        without_plus(input)?;
        return Ok(Type::Other);
    }
    if input.peek(punct("!")) {
        input.parse_punct("!")?;
        return Ok(Type::Other);
    }
    if kw(input, "impl") {
        input.parse_keyword("impl")?;
        let (bounds, _) = bounds(input, allow_plus, true)?;
        if !bounds.contains(&Bound::Trait) {
            return Err(input.error("at least one trait must be specified"));
        }
        return Ok(Type::Other);
    }
    if kw(input, "_") {
        input.parse_any_ident()?;
        return Ok(Type::Other);
    }
    if input.peek(peek::lifetime) {
        let (bounds, trailing_plus) = trait_bounds(input, true)?;
        return Ok(Type::TraitObject {
            dyn_token: false,
            bounds,
            trailing_plus,
        });
    }
    Err(input.error("expected type"))
}

/// A type in an invisible group, which a following `::x` or `<..>` extends.
fn group(input: &mut Input, group_generic: bool) -> Result<Type> {
    let (mut content, _) = input.parse_group(Delimiter::None)?;
    let elem = ty(&mut content);
    content.finish();
    let elem = elem?;
    if input.peek(punct("::")) && input.peek3(peek::any_ident) {
        return Ok(match elem {
            Type::Path { qself, mut path } => {
                path::parse_rest(input, &mut path, false)?;
                Type::Path { qself, path }
            }
            _ => Type::Path {
                qself: true,
                path: path::path(input, false)?,
            },
        });
    }
    let extends = input.peek(punct("<")) && group_generic
        || input.peek(punct("::")) && input.peek3(punct("<"));
    if extends {
        if let Type::Path { qself, mut path } = elem {
            let last_bare = path.segments.last().is_some_and(|s| s.args == Args::None);
            if last_bare {
                if input.peek(punct("::")) {
                    input.parse_punct("::")?;
                }
                path::angle_args(input)?;
                if let Some(last) = path.segments.last_mut() {
                    last.args = Args::Angle;
                }
                path::parse_rest(input, &mut path, false)?;
                return Ok(Type::Path { qself, path });
            }
            return Ok(Type::Group);
        }
    }
    Ok(Type::Group)
}

/// `( .. )`: the unit type, a parenthesised type, a tuple, or parenthesised bounds.
fn paren(input: &mut Input, allow_plus: bool) -> Result<Type> {
    let (mut content, _) = input.parse_group(Delimiter::Parenthesis)?;
    let result = paren_contents(input, &mut content, allow_plus);
    content.finish();
    result
}

fn paren_contents(input: &mut Input, content: &mut Input, allow_plus: bool) -> Result<Type> {
    if content.is_empty() {
        return Ok(Type::Other);
    }
    if content.peek(peek::lifetime) {
        trait_bounds(content, true)?;
        return Ok(Type::Other);
    }
    if content.peek(punct("?")) {
        trait_bound(content)?;
        let mut bounds = 1;
        while input.peek(punct("+")) {
            input.parse_punct("+")?;
            bound(input)?;
            bounds += 1;
        }
        return Ok(Type::TraitObject {
            dyn_token: false,
            bounds,
            trailing_plus: false,
        });
    }
    let first = ty(content)?;
    if content.peek(punct(",")) {
        content.parse_punct(",")?;
        while !content.is_empty() {
            ty(content)?;
            if content.is_empty() {
                break;
            }
            content.parse_punct(",")?;
        }
        return Ok(Type::Other);
    }
    if allow_plus && input.peek(punct("+")) {
        let bound_first = match first {
            Type::Path { qself: false, .. } => true,
            Type::TraitObject {
                dyn_token: false,
                bounds,
                trailing_plus,
            } => bounds <= 1 && !trailing_plus,
            _ => false,
        };
        if bound_first {
            let mut bounds = 1;
            while input.peek(punct("+")) {
                input.parse_punct("+")?;
                bound(input)?;
                bounds += 1;
            }
            return Ok(Type::TraitObject {
                dyn_token: false,
                bounds,
                trailing_plus: false,
            });
        }
    }
    Ok(Type::Other)
}

/// `[T]` or `[T; N]`, inside the brackets.
fn array_or_slice(content: &mut Input) -> Result<()> {
    ty(content)?;
    if content.peek(punct(";")) {
        content.parse_punct(";")?;
        expr::expr(content)?;
    }
    Ok(())
}

/// A path type, or a macro, or bounds that start with a path (`Trait + 'a`).
fn type_path(input: &mut Input, allow_plus: bool, lifetimes: bool) -> Result<Type> {
    let (qself, path) = path::qpath(input, false)?;
    if qself {
        return Ok(Type::Path { qself, path });
    }
    if input.peek(punct("!")) && !input.peek(punct("!=")) && path.is_mod_style() {
        input.parse_punct("!")?;
        macro_delimiter(input)?;
        return Ok(Type::Other);
    }
    if lifetimes || allow_plus && input.peek(punct("+")) {
        let mut bounds = 1;
        let mut trailing_plus = false;
        if allow_plus {
            while input.peek(punct("+")) {
                input.parse_punct("+")?;
                trailing_plus = true;
                if !bound_follows(input, false) {
                    break;
                }
                bound(input)?;
                bounds += 1;
                trailing_plus = false;
            }
        }
        return Ok(Type::TraitObject {
            dyn_token: false,
            bounds,
            trailing_plus,
        });
    }
    Ok(Type::Path { qself, path })
}

/// The delimited arguments of a macro: a `()`, `[]` or `{}` group.
pub(crate) fn macro_delimiter(input: &mut Input) -> Result<()> {
    match input.cursor().token_tree() {
        Some((super::tree::Tree::Group(g), rest)) if g.delimiter() != Delimiter::None => {
            input.set_cursor(rest);
            Ok(())
        }
        _ => Err(input.error("expected delimiter")),
    }
}

/// What a bound is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    Lifetime,
    Trait,
}

/// Whether another bound starts here (after a `+`).
fn bound_follows(input: &Input, allow_const: bool) -> bool {
    input.peek(peek::any_ident)
        || input.peek(punct("::"))
        || input.peek(punct("?"))
        || input.peek(peek::lifetime)
        || input.peek(peek::group(Delimiter::Parenthesis))
        || allow_const && (input.peek(peek::group(Delimiter::Bracket)) || kw(input, "const"))
}

/// One bound: a lifetime, or a trait bound (in parentheses or not).
pub(crate) fn bound(input: &mut Input) -> Result<()> {
    single_bound(input).map(drop)
}

fn single_bound(input: &mut Input) -> Result<Bound> {
    if input.peek(peek::lifetime) {
        input.parse_lifetime()?;
        return Ok(Bound::Lifetime);
    }
    if input.peek(peek::group(Delimiter::Parenthesis)) {
        let (mut content, _) = input.parse_group(Delimiter::Parenthesis)?;
        let parsed = trait_bound(&mut content);
        content.finish();
        parsed?;
    } else {
        trait_bound(input)?;
    }
    Ok(Bound::Trait)
}

/// Bounds joined by `+` (only one unless `allow_plus`), and whether a `+` ends them.
fn bounds(input: &mut Input, allow_plus: bool, allow_const: bool) -> Result<(Vec<Bound>, bool)> {
    let mut bounds = Vec::new();
    loop {
        bounds.push(single_bound(input)?);
        if !(allow_plus && input.peek(punct("+"))) {
            return Ok((bounds, false));
        }
        input.parse_punct("+")?;
        if !bound_follows(input, allow_const) {
            return Ok((bounds, true));
        }
    }
}

/// The bounds of a trait object, at least one a trait; with whether a `+` ends them.
fn trait_bounds(input: &mut Input, allow_plus: bool) -> Result<(usize, bool)> {
    let (found, trailing_plus) = bounds(input, allow_plus, false)?;
    if !found.contains(&Bound::Trait) {
        return Err(input.error("at least one trait is required for an object type"));
    }
    Ok((found.len(), trailing_plus))
}

/// `for<'a> ?Trait<..>`, `Fn(A) -> B`.
fn trait_bound(input: &mut Input) -> Result<()> {
    let mut lifetimes = false;
    if kw(input, "for") {
        bound_lifetimes(input)?;
        lifetimes = true;
    }
    let maybe = input.peek(punct("?"));
    if maybe {
        input.parse_punct("?")?;
        if !lifetimes && kw(input, "for") {
            bound_lifetimes(input)?;
            lifetimes = true;
        }
    }
    let path = path::path(input, false)?;
    let bare = path.segments.last().is_some_and(|s| s.args == Args::None);
    let paren_follows = input.peek(peek::group(Delimiter::Parenthesis))
        || input.peek(punct("::")) && input.peek3(peek::group(Delimiter::Parenthesis));
    if bare && paren_follows {
        if input.peek(punct("::")) {
            input.parse_punct("::")?;
        }
        paren_args(input)?;
    }
    if lifetimes && maybe {
        return Err(input.error("`for<...>` binder not allowed with `?` trait polarity modifier"));
    }
    Ok(())
}

/// `(A, B) -> C` of `Fn(A, B) -> C`.
fn paren_args(input: &mut Input) -> Result<()> {
    let (mut content, _) = input.parse_group(Delimiter::Parenthesis)?;
    let parsed = content.parse_terminated(|c| ty(c).map(drop));
    content.finish();
    parsed?;
    return_type(input)
}

/// `-> T`, if written (`+` ends `T`).
fn return_type(input: &mut Input) -> Result<()> {
    if input.peek(punct("->")) {
        input.parse_punct("->")?;
        ambig_ty(input, false, true)?;
    }
    Ok(())
}

/// `for<'a, 'b>`.
fn bound_lifetimes(input: &mut Input) -> Result<()> {
    input.parse_keyword("for")?;
    input.parse_punct("<")?;
    while !input.peek(punct(">")) {
        generic_param(input)?;
        if input.peek(punct(">")) {
            break;
        }
        input.parse_punct(",")?;
    }
    input.parse_punct(">")?;
    Ok(())
}

/// `#[..]`s.
pub(crate) fn outer_attributes(input: &mut Input) -> Result<()> {
    while input.peek(punct("#")) {
        input.parse_punct("#")?;
        input.parse_group(Delimiter::Bracket)?;
    }
    Ok(())
}

/// A generic parameter: `T: Bound = Default`, `'a: 'b`, `const N: usize = 3`.
pub(crate) fn generic_param(input: &mut Input) -> Result<()> {
    outer_attributes(input)?;
    if input.peek(peek::ident) {
        input.parse_ident()?;
        if input.peek(punct(":")) {
            input.parse_punct(":")?;
            loop {
                let ends = input.is_empty()
                    || input.peek(punct(","))
                    || input.peek(punct(">"))
                    || input.peek(punct("="));
                if ends {
                    break;
                }
                bound(input)?;
                if !input.peek(punct("+")) {
                    break;
                }
                input.parse_punct("+")?;
            }
        }
        if input.peek(punct("=")) {
            input.parse_punct("=")?;
            ty(input)?;
        }
        return Ok(());
    }
    if input.peek(peek::lifetime) {
        input.parse_lifetime()?;
        if input.peek(punct(":")) {
            input.parse_punct(":")?;
            lifetime_bounds(input, |input| {
                input.is_empty() || input.peek(punct(",")) || input.peek(punct(">"))
            })?;
        }
        return Ok(());
    }
    if kw(input, "const") {
        input.parse_keyword("const")?;
        input.parse_ident()?;
        input.parse_punct(":")?;
        ty(input)?;
        if input.peek(punct("=")) {
            input.parse_punct("=")?;
            path::const_argument(input)?;
        }
        return Ok(());
    }
    Err(input.error("expected one of: identifier, lifetime, `const`"))
}

/// `for<'a> unsafe extern "C" fn(A, B) -> C`.
fn fn_ptr(input: &mut Input) -> Result<()> {
    if kw(input, "for") {
        bound_lifetimes(input)?;
    }
    if kw(input, "unsafe") {
        input.parse_keyword("unsafe")?;
    }
    if kw(input, "extern") {
        input.parse_keyword("extern")?;
        if input.peek(peek::lit_str) {
            input.parse_lit()?;
        }
    }
    input.parse_keyword("fn")?;
    let (mut args, _) = input.parse_group(Delimiter::Parenthesis)?;
    let parsed = fn_ptr_args(&mut args);
    args.finish();
    parsed?;
    return_type(input)
}

fn fn_ptr_args(args: &mut Input) -> Result<()> {
    let mut count = 0;
    while !args.is_empty() {
        outer_attributes(args)?;
        let named_variadic = (args.peek(peek::ident) || kw(args, "_"))
            && args.peek2(punct(":"))
            && args.peek3(punct("..."));
        // At the start, or after a `,`: where a variadic may stand.
        if args.peek(punct("...")) || named_variadic {
            if args.peek(peek::ident) || kw(args, "_") {
                args.parse_any_ident()?;
                args.parse_punct(":")?;
            }
            args.parse_punct("...")?;
            if args.peek(punct(",")) {
                args.parse_punct(",")?;
            }
            break;
        }
        fn_ptr_arg(args, count == 0)?;
        count += 1;
        if args.is_empty() {
            break;
        }
        args.parse_punct(",")?;
    }
    Ok(())
}

/// One argument of a function pointer type: `T`, `name: T`, or `self` forms.
fn fn_ptr_arg(input: &mut Input, allow_self: bool) -> Result<()> {
    outer_attributes(input)?;
    let has_mut_self = allow_self && kw(input, "mut") && input.peek2(peek::keyword("self"));
    if has_mut_self {
        input.parse_keyword("mut")?;
    }
    let mut has_self = false;
    let name_start = input.peek(peek::ident) || kw(input, "_") || {
        has_self = allow_self && kw(input, "self");
        has_self
    };
    let named = name_start && input.peek2(punct(":")) && !input.peek2(punct("::"));
    if named {
        input.parse_any_ident()?;
        input.parse_punct(":")?;
    } else {
        has_self = false;
    }
    if allow_self && !has_self && kw(input, "mut") && input.peek2(peek::keyword("self")) {
        input.parse_keyword("mut")?;
        input.parse_keyword("self")?;
    } else if has_mut_self && !named {
        input.parse_keyword("self")?;
    } else {
        ty(input)?;
    }
    Ok(())
}

/// The predicates of a where clause (after `where`): `T: Bound + 'a`, `'a: 'b`,
/// `for<'a> F: Fn(&'a u8)`, separated by `,`.
pub(crate) fn where_predicates(input: &mut Input) -> Result<()> {
    loop {
        if predicates_end(input, true) {
            break;
        }
        where_predicate(input)?;
        if !input.peek(punct(",")) {
            break;
        }
        input.parse_punct(",")?;
    }
    Ok(())
}

/// `'a + 'b + ..` after a lifetime's `:` (possibly none, a trailing `+` allowed), up to
/// where `end` says the bounds stop.
fn lifetime_bounds(input: &mut Input, end: impl Fn(&Input) -> bool) -> Result<()> {
    while !end(input) {
        input.parse_lifetime()?;
        if !input.peek(punct("+")) {
            break;
        }
        input.parse_punct("+")?;
    }
    Ok(())
}

/// Where a where clause or a predicate's bounds end.
fn predicates_end(input: &Input, colon_ends: bool) -> bool {
    input.is_empty()
        || input.peek(peek::group(Delimiter::Brace))
        || input.peek(punct(","))
        || input.peek(punct(";"))
        || colon_ends && input.peek(punct(":")) && !input.peek(punct("::"))
        || input.peek(punct("="))
}

fn where_predicate(input: &mut Input) -> Result<()> {
    if input.peek(peek::lifetime) && input.peek2(punct(":")) {
        input.parse_lifetime()?;
        input.parse_punct(":")?;
        lifetime_bounds(input, |input| predicates_end(input, true))?;
        return Ok(());
    }
    if kw(input, "for") {
        bound_lifetimes(input)?;
    }
    ty(input)?;
    input.parse_punct(":")?;
    loop {
        if predicates_end(input, true) {
            break;
        }
        bound(input)?;
        if !input.peek(punct("+")) {
            break;
        }
        input.parse_punct("+")?;
    }
    Ok(())
}
