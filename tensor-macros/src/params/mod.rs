//! `#[derive(Params)]`: implements `tensor_typed::Params` for a struct by visiting its
//! fields in declaration order.
//!
//! Phases: parse ([`input`]: the struct's fields and their `#[params(skip)]` attributes)
//! → validate (here: a struct, not an enum or union; known attribute arguments) → expand
//! ([`expand`]: the `visit`/`visit_mut` methods). A field whose type is concrete is
//! visited when that type implements `Params` and skipped otherwise (decided by the
//! compiler through autoref specialisation, so `hidden: usize` needs no attribute); a
//! field whose type mentions a generic type parameter is always visited and gets a
//! `Params` bound.

use crate::syntax::stream::peek::{self, punct};
use crate::syntax::{Buffer, Error, Group, Input, Result, Tree};
use input::{Data, DeriveInput, Field, ParamKind};

mod expand;
mod input;

/// Entry point: the impl, or the error as a `compile_error!`.
pub(crate) fn expand(tokens: Vec<Tree>) -> Vec<Tree> {
    let input = input::parse(&tokens);
    derive(&input).unwrap_or_else(|e| e.to_compile_error())
}

fn derive(input: &DeriveInput) -> Result<Vec<Tree>> {
    input::check(&input.checks)?;
    let fields = match &input.data {
        Data::Struct(fields) => fields,
        Data::Enum(span) => {
            return Err(Error::new(
                *span,
                "#[derive(Params)] supports structs only: an enum's variants hold different tensors, so its parameters have no fixed order; implement `Params` by hand",
            ))
        }
        Data::Union(span) => {
            return Err(Error::new(
                *span,
                "#[derive(Params)] supports structs only, not unions",
            ))
        }
    };
    let type_params: Vec<&str> = input
        .generics
        .params
        .iter()
        .filter(|p| p.kind == ParamKind::Type)
        .filter_map(|p| match p.name.first() {
            Some(Tree::Ident(i)) => Some(i.text()),
            _ => None,
        })
        .collect();
    let mut visited = Vec::new();
    for field in fields {
        if is_skipped(field)? {
            continue;
        }
        let generic = mentions(&field.ty, &type_params);
        visited.push((field, generic));
    }
    Ok(expand::implement(input, &visited))
}

/// `true` for a field marked `#[params(skip)]`; an error for any other `params`
/// argument (with syn's messages for a malformed attribute).
fn is_skipped(field: &Field) -> Result<bool> {
    let mut skip = false;
    for attr in &field.attrs {
        let (path, rest) = match attr.stream().split_first() {
            Some((Tree::Ident(i), rest)) if *i == *"params" => (i, rest),
            _ => continue,
        };
        if matches!(rest.first(), Some(Tree::Punct(p)) if p.as_char() == ':') {
            // `#[params::x]`: another attribute.
            continue;
        }
        match rest.first() {
            Some(Tree::Group(args)) => skip |= parse_args(args)?,
            Some(Tree::Punct(eq)) if eq.as_char() == '=' => {
                return Err(Error::new(
                    eq.span(),
                    "expected parentheses: #[params(...)]",
                ))
            }
            _ => {
                return Err(Error::new(
                    path.span(),
                    "expected attribute arguments in parentheses: #[params(...)]",
                ))
            }
        }
    }
    Ok(skip)
}

/// The arguments of `#[params(..)]`: `skip` (once or more), or none (`#[params()]`, which
/// skips nothing); an error for any other (syn's `parse_nested_meta`).
fn parse_args(args: &Group) -> Result<bool> {
    let buffer = Buffer::new(args.stream());
    let mut input = Input::scoped(buffer.begin(), args.span_close());
    if input.is_empty() {
        return Ok(false);
    }
    loop {
        let (is_skip, start) = meta_path(&mut input)?;
        if !is_skip {
            let end = input.cursor().prev_span();
            return Err(Error::new_range(
                start,
                end,
                "unknown #[params] argument: the only one is `skip`",
            ));
        }
        if input.is_empty() {
            return Ok(true);
        }
        input.parse_punct(",")?;
        if input.is_empty() {
            return Ok(true);
        }
    }
}

/// A path of a nested attribute (keywords allowed): whether it is `skip`, and the span
/// of its first identifier.
fn meta_path(input: &mut Input) -> Result<(bool, crate::syntax::Span)> {
    let leading_colon = input.peek(punct("::"));
    if leading_colon {
        input.parse_punct("::")?;
    }
    if !input.peek(peek::any_ident) {
        return Err(if input.is_empty() {
            input.error("expected nested attribute")
        } else if input.peek(peek::lit) {
            input.error("unexpected literal in nested attribute, expected ident")
        } else {
            input.error("unexpected token in nested attribute, expected ident")
        });
    }
    let first = input.parse_any_ident()?;
    let mut segments = 1;
    while input.peek(punct("::")) {
        input.parse_punct("::")?;
        input.parse_any_ident()?;
        segments += 1;
    }
    let is_skip = !leading_colon && segments == 1 && *first == *"skip";
    Ok((is_skip, first.span()))
}

/// `true` when `tokens` contain one of `idents` (a type that mentions a generic type
/// parameter).
fn mentions(tokens: &[Tree], idents: &[&str]) -> bool {
    tokens.iter().any(|t| match t {
        Tree::Ident(i) => idents.contains(&i.text()),
        Tree::Group(g) => mentions(g.stream(), idents),
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use crate::syntax::lex::lex;
    use crate::syntax::print::to_string;
    use crate::syntax::Span;

    fn derive(text: &str) -> String {
        to_string(&super::expand(lex(text, Span::call_site())))
    }

    #[test]
    fn fields_are_visited_in_order_and_generic_ones_get_a_bound() {
        let out = derive(
            "pub struct Mlp<'a, T: Clone, const N: usize = 3> where T: Copy {
                /// The weight.
                pub w: Tensor<f32, Shape![N]>,
                #[params(skip)] frozen: T,
                pub(crate) inner: Vec<T>,
                name: &'a str,
            }",
        );
        assert!(
            out.starts_with("# [automatically_derived] impl < 'a , T : Clone , const N : usize > :: tensor_typed :: Params for Mlp < 'a , T , N > where T : Copy , Vec < T > : :: tensor_typed :: Params {"),
            "{out}"
        );
        assert!(
            out.contains(
                "(& :: tensor_typed :: params :: __derive :: Probe (& self . w)) . __visit (__f) ;"
            ),
            "{out}"
        );
        assert!(!out.contains("self . frozen"), "{out}");
        assert!(
            out.contains(":: tensor_typed :: Params :: visit (& self . inner , __f) ;"),
            "{out}"
        );
        assert!(out.contains("Probe (& self . name)"), "{out}");
    }

    #[test]
    fn tuple_and_unit_structs() {
        let out = derive("struct Pair<T>(T, pub (u8, u8)) where T: Send;");
        assert!(out.contains("impl < T > :: tensor_typed :: Params for Pair < T > where T : Send , T : :: tensor_typed :: Params {"), "{out}");
        assert!(out.contains("visit (& self . 0 , __f)"), "{out}");
        assert!(out.contains("Probe (& self . 1)"), "{out}");
        let unit = derive("struct Unit;");
        assert!(
            unit.contains("impl :: tensor_typed :: Params for Unit {"),
            "{unit}"
        );
    }

    #[test]
    fn enums_unions_and_unknown_arguments_are_errors() {
        assert!(derive("enum E { A }").contains("supports structs only: an enum's variants"));
        assert!(derive("union U { a: u8 }").contains("supports structs only, not unions"));
        // What syn's default features do not parse is still an error.
        let full = derive("struct S { a: [u8; if A { 1 } else { 2 }] }");
        assert!(
            full.contains("unsupported expression; enable syn's features=[\\\"full\\\"]"),
            "{full}"
        );
        let variant = derive("enum E { A([u8; { let n = 1; n }]) }");
        assert!(variant.contains("unsupported expression"), "{variant}");
        for (attr, message) in [
            ("#[params(frozen)]", "unknown #[params] argument"),
            ("#[params(skip = 1)]", "expected `,`"),
            (
                "#[params]",
                "expected attribute arguments in parentheses: #[params(...)]",
            ),
            ("#[params = 1]", "expected parentheses: #[params(...)]"),
            (
                "#[params(skip,,)]",
                "unexpected token in nested attribute, expected ident",
            ),
            (
                "#[params(\"x\")]",
                "unexpected literal in nested attribute, expected ident",
            ),
        ] {
            let out = derive(&format!("struct S {{ {attr} w: u8 }}"));
            assert!(out.contains(message), "{attr}: {out}");
        }
        assert!(!derive("struct S { #[params(skip, skip)] w: u8 }").contains("self . w"));
        // syn reads `#[params()]` as no arguments: the field is visited.
        assert!(derive("struct S { #[params()] w: u8 }").contains("self . w"));
    }
}
