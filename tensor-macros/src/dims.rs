//! `dims! { pub Batch; pub Heads = 8; pub Inner = 4 * Model; }` → named dims: for each
//! name, a unit struct (the item the user names) that is the dim itself: its `NamedDim`
//! impl gives its size (`Dyn`, `D<8>`) and identity, and with it every dim trait, so that
//! `Shape![Batch, Heads]` is `(Batch, Heads)` and errors print `Heads`. Beside it a
//! `Debug` printing `Heads (8)`.
//!
//! Phases: parse (a list of `attrs vis Name;` or `attrs vis Name = size;`) → validate
//! (no name twice) → expand. A size is written as `Shape!` writes a literal; any other
//! size is a const expression whose UpperCamelCase paths are earlier static names
//! (`4 * Model` reads `Model::SIZE`, `NamedDim`'s), made a dim as `Dim![expr]` makes one,
//! at any size.

use crate::expr::ExprTokens;
use proc_macro2::{Ident, TokenStream, TokenTree};
use quote::{quote, ToTokens};
use syn::parse::{Parse, ParseStream};
use syn::{Attribute, Expr, Lit, Token, Visibility};

/// One declared name.
struct NameDecl {
    attrs: Vec<Attribute>,
    vis: Visibility,
    name: Ident,
    /// `None` for a run-time dim.
    size: Option<ExprTokens>,
}

/// The parsed macro input.
struct DimsInput {
    decls: Vec<NameDecl>,
}

impl Parse for DimsInput {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let mut decls = Vec::new();
        while !input.is_empty() {
            let attrs = input.call(Attribute::parse_outer)?;
            let vis: Visibility = input.parse()?;
            let name: Ident = input.parse()?;
            let size = if input.peek(Token![=]) {
                input.parse::<Token![=]>()?;
                Some(input.parse::<ExprTokens>()?)
            } else {
                None
            };
            input.parse::<Token![;]>()?;
            decls.push(NameDecl {
                attrs,
                vis,
                name,
                size,
            });
        }
        Ok(DimsInput { decls })
    }
}

/// Each name once, and in UpperCamelCase (so that `Shape!` reads it as a dim type).
fn validate(input: &DimsInput) -> syn::Result<()> {
    for (i, d) in input.decls.iter().enumerate() {
        if !crate::dim_spelling::is_camel(&d.name.to_string()) {
            return Err(syn::Error::new(
                d.name.span(),
                format!(
                    "dims!: a dim's name is UpperCamelCase (`Seq`, `HeadDim`), as `Shape!` reads a dim type; found `{}`",
                    d.name
                ),
            ));
        }
        if input.decls[..i].iter().any(|e| e.name == d.name) {
            return Err(syn::Error::new(
                d.name.span(),
                format!("dims!: the name `{}` is declared twice", d.name),
            ));
        }
    }
    Ok(())
}

/// The expression with every UpperCamelCase path that ends there read as the static
/// name's size (`4 * Model` → `4 * Model::SIZE`).
fn sizes_of_names(tokens: TokenStream) -> TokenStream {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = TokenStream::new();
    for (i, t) in trees.iter().enumerate() {
        match t {
            TokenTree::Group(g) => {
                let mut inner = proc_macro2::Group::new(g.delimiter(), sizes_of_names(g.stream()));
                inner.set_span(g.span());
                out.extend([TokenTree::Group(inner)]);
            }
            TokenTree::Ident(id) if crate::dim_spelling::is_camel(&id.to_string()) => {
                let continues =
                    matches!(trees.get(i + 1), Some(TokenTree::Punct(p)) if p.as_char() == ':');
                out.extend([t.clone()]);
                if !continues {
                    out.extend(quote!(::SIZE));
                }
            }
            _ => out.extend([t.clone()]),
        }
    }
    out
}

/// The size's dim type, and its value when it is a literal: a literal as `Shape!` writes
/// it, else the const expression's dim (as `Dim!` writes it), with earlier names read by
/// their size.
fn size_of(e: &ExprTokens) -> (TokenStream, Option<usize>) {
    let literal = match e.parsed() {
        Some(Expr::Lit(l)) => match &l.lit {
            Lit::Int(i) => i.base10_parse::<usize>().ok(),
            _ => None,
        },
        _ => syn::parse2::<syn::LitInt>(e.to_token_stream())
            .ok()
            .and_then(|i| i.base10_parse::<usize>().ok()),
    };
    if let Some(n) = literal {
        return (
            crate::dim_spelling::static_dim(&quote!(::tensor_typed), n),
            Some(n),
        );
    }
    (
        crate::dim::const_dim(&sizes_of_names(e.to_token_stream())),
        None,
    )
}

/// The factors of a size written as a product of two or more names (`Heads * HeadDim`,
/// `a::G * R * D`), each a path ending in UpperCamelCase; `None` for any other size.
fn product_of_names(e: &ExprTokens) -> Option<Vec<syn::Path>> {
    fn leaves(e: &Expr, out: &mut Vec<syn::Path>) -> bool {
        match e {
            Expr::Binary(b) if matches!(b.op, syn::BinOp::Mul(_)) => {
                leaves(&b.left, out) && leaves(&b.right, out)
            }
            Expr::Paren(p) => leaves(&p.expr, out),
            Expr::Path(p) if p.qself.is_none() => {
                let last = p.path.segments.last().map(|s| s.ident.to_string());
                let named = last.is_some_and(|l| crate::dim_spelling::is_camel(&l));
                if named {
                    out.push(p.path.clone());
                }
                named
            }
            _ => false,
        }
    }
    let expr = syn::parse2::<Expr>(e.to_token_stream()).ok()?;
    let mut out = Vec::new();
    (leaves(&expr, &mut out) && out.len() >= 2).then_some(out)
}

/// One name: its struct, and its impls (written where `__Dg0`..`__Dg9` and `__NameId`
/// name tensor_typed's digits and id: a path per digit was most of the tokens a name
/// cost).
fn expand_one(d: &NameDecl, site: &str) -> (TokenStream, TokenStream) {
    let NameDecl {
        attrs,
        vis,
        name,
        size,
    } = d;
    let tt = quote!(::tensor_typed);
    if let Some(factors) = size.as_ref().and_then(product_of_names) {
        // A product of earlier names is their `Merged` product, factors in order: the
        // dim a `layout!` merge of them gives, and no other order.
        let product = factors[1..].iter().fold(
            factors[0].to_token_stream(),
            |acc, f| quote!(#tt::arith::Merged<#acc, #f>),
        );
        let item = quote! {
            #(#attrs)*
            #vis type #name = #product;
        };
        return (item, TokenStream::new());
    }
    let text = name.to_string();
    let digits = name_id(site, &text).to_string().into_bytes();
    let digits = digits
        .iter()
        .map(|d| quote::format_ident!("__Dg{}", char::from(*d)));
    // The struct is the dim: `NamedDim` gives it every dim trait. Beside it only `Debug`
    // (what `Dim` asks besides `Send + Sync + 'static`), printing the name and a static
    // size (`HeadDim (16)`), as one string where the macro knows the size: every impl
    // and body per name costs the type checker (a block of a hundred names cost more than
    // the rules on them when each also had `Clone`, `Copy` and `Default`).
    let (dim, debug) = match size {
        None => (quote!(#tt::Dyn), quote!(f.write_str(#text))),
        Some(e) => match size_of(e) {
            (dim, Some(n)) => {
                let shown = format!("{text} ({n})");
                (dim, quote!(f.write_str(#shown)))
            }
            (dim, None) => (
                dim,
                quote! {
                    let size = <Self as #tt::NamedDim>::SIZE;
                    #tt::typelevel::named::fmt_name(f, #text, ::core::option::Option::Some(size))
                },
            ),
        },
    };
    let item = quote! {
        #(#attrs)*
        #vis struct #name;
    };
    let impls = quote! {
        impl #tt::NamedDim for #name {
            type Size = #dim;
            type Id = __NameId<#(#digits),*>;
        }
        impl ::core::fmt::Debug for #name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                #debug
            }
        }
    };
    (item, impls)
}

/// A name's identity: nine decimal digits (the first at least 1) of the FNV-1a hash of
/// the declaring site (`site`: the crate, file, line and column of the `dims!` call, and
/// the block's text) and the identifier. Computed here, so that the compiler evaluates
/// nothing per name. (The module path is not known to a macro: a `macro_rules!` whose
/// expansions call `dims!` with the same text declares the same names in each.)
fn name_id(site: &str, ident: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in site.bytes().chain(*b"::").chain(ident.bytes()) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    100_000_000 + h % 900_000_000
}

fn try_expand(input: TokenStream, site: &str) -> syn::Result<TokenStream> {
    // The block's text is part of each name's identity: a `macro_rules!` that calls
    // `dims!` has one call site for all its expansions, which its arguments tell apart.
    let site = &format!("{site}|{input}");
    let parsed: DimsInput = syn::parse2(input)?;
    validate(&parsed)?;
    let (items, impls): (Vec<_>, Vec<_>) = parsed.decls.iter().map(|d| expand_one(d, site)).unzip();
    // `Model::SIZE` in a size expression reads `NamedDim::SIZE`. The impls go in one
    // anonymous const, whose imports shorten the paths of the ids' digits.
    Ok(quote! {
        #[allow(unused_imports)]
        use ::tensor_typed::NamedDim as _;
        #(#items)*
        const _: () = {
            #[allow(unused_imports)]
            use ::tensor_typed::decimal::{
                Dg0 as __Dg0, Dg1 as __Dg1, Dg2 as __Dg2, Dg3 as __Dg3, Dg4 as __Dg4,
                Dg5 as __Dg5, Dg6 as __Dg6, Dg7 as __Dg7, Dg8 as __Dg8, Dg9 as __Dg9,
            };
            use ::tensor_typed::typelevel::named::NameId as __NameId;
            #(#impls)*
        };
    })
}

/// Expands `dims! { .. }` called at `site` (the crate, file, line and column of the call,
/// which with the identifier make a name's identity); on error, a `compile_error!` at the
/// offending name or size.
pub(crate) fn expand(input: TokenStream, site: &str) -> TokenStream {
    match try_expand(input, site) {
        Ok(ts) => ts,
        Err(e) => e.to_compile_error(),
    }
}

#[cfg(test)]
mod tests {
    fn expand(input: &str) -> String {
        super::expand(input.parse().unwrap(), "demo:src/lib.rs:1:1").to_string()
    }

    #[test]
    fn a_run_time_name_is_a_struct_whose_size_is_dyn() {
        let e = expand("/// Rows.\npub Batch;");
        assert!(e.contains("pub struct Batch ;"), "{e}");
        assert!(
            e.contains(
                "impl :: tensor_typed :: NamedDim for Batch { type Size = :: tensor_typed :: Dyn ;"
            ),
            "{e}"
        );
        assert!(e.contains("f . write_str (\"Batch\")"), "{e}");
    }

    #[test]
    fn a_static_name_has_its_size_as_shape_writes_it() {
        let e = expand("pub Vocab = 50257;");
        assert!(
            e.contains("type Size = :: tensor_typed :: K < :: tensor_typed :: D < 50 > , :: tensor_typed :: D < 257 >> ;"),
            "{e}"
        );
        assert!(e.contains("f . write_str (\"Vocab (50257)\")"), "{e}");
    }

    #[test]
    fn a_size_expression_reads_earlier_names_by_their_size() {
        let e = expand("Model = 256; Inner = 4 * model::Model;");
        assert!(e.contains("(4 * model :: Model :: SIZE) as u64"), "{e}");
        assert!(e.contains(":: tensor_typed :: const_dim :: Lead"), "{e}");
    }

    #[test]
    fn a_product_of_names_is_their_merged_product_in_order() {
        let e = expand("pub Heads = 4; pub HeadDim = 16; pub Model = Heads * HeadDim;");
        assert!(
            e.contains("pub type Model = :: tensor_typed :: arith :: Merged < Heads , HeadDim > ;"),
            "{e}"
        );
        let e = expand("pub Width = a::Groups * Rep * HeadDim;");
        assert!(
            e.contains(
                "Merged < :: tensor_typed :: arith :: Merged < a :: Groups , Rep > , HeadDim >"
            ),
            "{e}"
        );
        let e = expand("pub Inner = 4 * Model;");
        assert!(e.contains("pub struct Inner ;"), "{e}");
    }

    #[test]
    fn a_name_id_has_nine_digits_and_differs_by_site_and_identifier() {
        use super::name_id;
        assert!((100_000_000..1_000_000_000).contains(&name_id("a", "Seq")));
        assert_ne!(name_id("a:1:1", "Seq"), name_id("a:2:1", "Seq"));
        assert_ne!(name_id("a", "Seq"), name_id("a", "Seg"));
        assert_eq!(name_id("a", "Seq"), name_id("a", "Seq"));
    }

    #[test]
    fn a_name_twice_or_in_snake_case_is_an_error() {
        assert!(expand("Seq; Seq = 3;").contains("the name `Seq` is declared twice"));
        assert!(expand("seq;").contains("a dim's name is UpperCamelCase"));
        assert!(expand("Seq").contains("expected `;`"));
    }
}
