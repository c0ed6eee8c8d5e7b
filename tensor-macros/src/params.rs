//! `#[derive(Params)]`: implements `tensor_typed::Params` for a struct by visiting its
//! fields in declaration order.
//!
//! Phases: parse (the struct's fields and their `#[params(skip)]` attributes) →
//! validate (a struct, not an enum or union; known attribute arguments) → expand (the
//! `visit`/`visit_mut` methods). A field whose type is concrete is visited when that
//! type implements `Params` and skipped otherwise (decided by the compiler through
//! autoref specialisation, so `hidden: usize` needs no attribute); a field whose type
//! mentions a generic type parameter is always visited and gets a `Params` bound.

use proc_macro2::{Ident, TokenStream, TokenTree};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields, Member, Type};

/// One field to visit.
struct Field {
    member: Member,
    ty: Type,
    /// The type mentions a generic type parameter: visit through a `Params` bound.
    generic: bool,
}

/// Entry point: the impl, or the errors as `compile_error!`s.
pub(crate) fn expand(input: TokenStream) -> TokenStream {
    match syn::parse2::<DeriveInput>(input).and_then(|d| derive(&d)) {
        Ok(ts) => ts,
        Err(e) => e.to_compile_error(),
    }
}

fn derive(input: &DeriveInput) -> syn::Result<TokenStream> {
    let fields = match &input.data {
        Data::Struct(s) => &s.fields,
        Data::Enum(e) => {
            return Err(syn::Error::new(
                e.enum_token.span,
                "#[derive(Params)] supports structs only: an enum's variants hold different tensors, so its parameters have no fixed order; implement `Params` by hand",
            ))
        }
        Data::Union(u) => {
            return Err(syn::Error::new(
                u.union_token.span,
                "#[derive(Params)] supports structs only, not unions",
            ))
        }
    };
    let type_params: Vec<&Ident> = input.generics.type_params().map(|p| &p.ident).collect();
    let mut visited = Vec::new();
    let members: Box<dyn Iterator<Item = Member>> = match fields {
        Fields::Named(n) => Box::new(
            n.named
                .iter()
                .map(|f| Member::Named(f.ident.clone().expect("named field"))),
        ),
        Fields::Unnamed(u) => Box::new((0..u.unnamed.len()).map(|i| Member::Unnamed(i.into()))),
        Fields::Unit => Box::new(std::iter::empty()),
    };
    for (field, member) in fields.iter().zip(members) {
        if is_skipped(field)? {
            continue;
        }
        let ty = &field.ty;
        let generic = mentions(&quote!(#ty), &type_params);
        visited.push(Field {
            member,
            ty: field.ty.clone(),
            generic,
        });
    }
    Ok(implement(input, &visited))
}

/// `true` for a field marked `#[params(skip)]`; an error for any other `params`
/// argument.
fn is_skipped(field: &syn::Field) -> syn::Result<bool> {
    let mut skip = false;
    for attr in field.attrs.iter().filter(|a| a.path().is_ident("params")) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("skip") {
                skip = true;
                Ok(())
            } else {
                Err(meta.error("unknown #[params] argument: the only one is `skip`"))
            }
        })?;
    }
    Ok(skip)
}

/// `true` when `tokens` contain one of `idents` (a type that mentions a generic type
/// parameter).
fn mentions(tokens: &TokenStream, idents: &[&Ident]) -> bool {
    tokens.clone().into_iter().any(|t| match t {
        TokenTree::Ident(i) => idents.iter().any(|p| **p == i),
        TokenTree::Group(g) => mentions(&g.stream(), idents),
        _ => false,
    })
}

fn implement(input: &DeriveInput, fields: &[Field]) -> TokenStream {
    let name = &input.ident;
    let krate = quote!(::tensor_typed);
    let derive = quote!(#krate::params::__derive);
    let mut generics = input.generics.clone();
    let where_clause = generics.make_where_clause();
    for f in fields.iter().filter(|f| f.generic) {
        let ty = &f.ty;
        where_clause
            .predicates
            .push(syn::parse_quote!(#ty: #krate::Params));
    }
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let f = format_ident!("__f");
    let visits = fields.iter().map(|fd| {
        let m = &fd.member;
        if fd.generic {
            quote_spanned!(fd.ty.span()=> #krate::Params::visit(&self.#m, #f);)
        } else {
            quote_spanned!(fd.ty.span()=> {
                #[allow(unused_imports)]
                use #derive::{ViaNothing as _, ViaParams as _};
                (&#derive::Probe(&self.#m)).__visit(#f);
            })
        }
    });
    let visits_mut = fields.iter().map(|fd| {
        let m = &fd.member;
        if fd.generic {
            quote_spanned!(fd.ty.span()=> #krate::Params::visit_mut(&mut self.#m, #f);)
        } else {
            quote_spanned!(fd.ty.span()=> {
                #[allow(unused_imports)]
                use #derive::{ViaNothingMut as _, ViaParamsMut as _};
                (&mut #derive::ProbeMut(&mut self.#m)).__visit_mut(#f);
            })
        }
    });
    quote! {
        #[automatically_derived]
        impl #impl_generics #krate::Params for #name #ty_generics #where_clause {
            #[allow(unused_variables)]
            fn visit<'__a>(&'__a self, #f: &mut dyn FnMut(&'__a #derive::DynTensor)) {
                #(#visits)*
            }
            #[allow(unused_variables)]
            fn visit_mut(&mut self, #f: &mut dyn FnMut(&mut #derive::DynTensor)) {
                #(#visits_mut)*
            }
        }
    }
}
