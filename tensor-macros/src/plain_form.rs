//! `#[plain_form]` on a fallible typed op `try_x(..) -> Result<X>`: keeps it and writes
//! beside it the plain form `x(..) -> X`, `#[track_caller]`, whose body is
//! `or_panic(try_x(..))` (the value, or a panic at the caller with the error's message).
//! One definition per op: the where-clause, the generics and the docs are written once.
//!
//! The plain form's docs are the `try_` form's, with the heading `# Errors` read as
//! `# Panics` (so an errors section is written as the conditions: "When a `Dyn` dim ..").
//! `#[plain_form]` is for a method or an associated function (called as `Self::try_x`);
//! `#[plain_form(free)]` for a free function. `#[plain_form(add_try)]` takes the function
//! written with the plain name `x` and names it `try_x` (a `macro_rules!` that has only
//! an op's name, as tensor-core's op tables give it, cannot make `try_x` itself).
//!
//! Phases: parse (attributes, visibility, `fn`, the name, generics, the arguments as
//! `self` forms or `name: Type`, `-> Result<X>`, the where-clause, the body kept as
//! tokens: syn's default features parse no function body) → validate (a `try_` name, a
//! `Result<X>` return, plain argument names) → expand.

use proc_macro2::{Delimiter, Group, Span, TokenStream, TokenTree};
use quote::quote;
use syn::parse::{Parse, ParseStream};
use syn::{Attribute, GenericArgument, GenericParam, Ident, PathArguments, Token, Type};

/// How the `try_` form is called from the plain one.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Call {
    /// `Self::try_x(..)`: a method or an associated function.
    Assoc,
    /// `try_x(..)`: a free function.
    Free,
}

/// One argument: the receiver (its tokens) or `name: Type`.
enum Arg {
    Receiver(TokenStream),
    Named {
        mutable: bool,
        name: Ident,
        ty: Box<Type>,
    },
}

/// How the written function is named.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Naming {
    /// `try_x`: the plain form drops `try_`.
    Try,
    /// `x` (`add_try`): the written function becomes `try_x`.
    Plain,
}

/// The parsed `try_` function.
struct TryFn {
    attrs: Vec<Attribute>,
    vis: syn::Visibility,
    name: Ident,
    generics: syn::Generics,
    args: Vec<Arg>,
    ret: Type,
    body: TokenTree,
}

impl Parse for Arg {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        // `self`, `mut self`, `&self`, `&mut self`, `&'a self`, `&'a mut self`.
        let fork = input.fork();
        let _ = fork.parse::<Option<Token![&]>>()?;
        let _ = fork.parse::<Option<syn::Lifetime>>()?;
        let _ = fork.parse::<Option<Token![mut]>>()?;
        if fork.peek(Token![self]) {
            let mut tokens = TokenStream::new();
            while !input.is_empty() && !input.peek(Token![,]) {
                tokens.extend([input.parse::<TokenTree>()?]);
            }
            return Ok(Arg::Receiver(tokens));
        }
        let mutable = input.parse::<Option<Token![mut]>>()?.is_some();
        let name: Ident = input.parse()?;
        input.parse::<Token![:]>()?;
        let ty = Box::new(input.parse::<Type>()?);
        Ok(Arg::Named { mutable, name, ty })
    }
}

impl Parse for TryFn {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let attrs = input.call(Attribute::parse_outer)?;
        let vis: syn::Visibility = input.parse()?;
        input.parse::<Token![fn]>()?;
        let name: Ident = input.parse()?;
        let mut generics: syn::Generics = input.parse()?;
        let content;
        syn::parenthesized!(content in input);
        let args = content
            .parse_terminated(Arg::parse, Token![,])?
            .into_iter()
            .collect();
        input.parse::<Token![->]>()?;
        let ret: Type = input.parse()?;
        if input.peek(Token![where]) {
            generics.where_clause = Some(input.parse()?);
        }
        let body: TokenTree = input.parse()?;
        if !matches!(&body, TokenTree::Group(g) if g.delimiter() == Delimiter::Brace) {
            return Err(syn::Error::new(
                body.span(),
                "plain_form: expected the function's body",
            ));
        }
        Ok(TryFn {
            attrs,
            vis,
            name,
            generics,
            args,
            ret,
            body,
        })
    }
}

/// `X` of a return type `Result<X>` (any path ending in `Result` with one argument).
fn ok_type(ret: &Type) -> Option<&Type> {
    let Type::Path(p) = ret else { return None };
    let last = p.path.segments.last()?;
    if last.ident != "Result" {
        return None;
    }
    let PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    match args.args.first() {
        Some(GenericArgument::Type(t)) if args.args.len() == 1 => Some(t),
        _ => None,
    }
}

/// The plain form's attributes: the `try_` form's, with a doc line `# Errors` read as
/// `# Panics`.
fn plain_attrs(attrs: &[Attribute]) -> Vec<TokenStream> {
    attrs
        .iter()
        .map(|a| {
            if let syn::Meta::NameValue(nv) = &a.meta {
                if nv.path.is_ident("doc") {
                    if let syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(s),
                        ..
                    }) = &nv.value
                    {
                        if s.value().trim() == "# Errors" {
                            return quote!(#[doc = " # Panics"]);
                        }
                    }
                }
            }
            quote!(#a)
        })
        .collect()
}

fn try_expand(call: Call, naming: Naming, item: TokenStream) -> syn::Result<TokenStream> {
    let mut f: TryFn = syn::parse2(item)?;
    if naming == Naming::Plain {
        f.name = Ident::new(&format!("try_{}", f.name), f.name.span());
    }
    let text = f.name.to_string();
    let Some(plain) = text.strip_prefix("try_") else {
        return Err(syn::Error::new(
            f.name.span(),
            "plain_form: the function's name starts with `try_` (the plain form drops it)",
        ));
    };
    let Some(ok) = ok_type(&f.ret) else {
        return Err(syn::Error::new_spanned(
            &f.ret,
            "plain_form: the function returns `Result<X>` (the plain form returns `X`)",
        ));
    };
    let plain = Ident::new(plain, f.name.span());
    let (attrs, vis, name, generics, args, ret) =
        (&f.attrs, &f.vis, &f.name, &f.generics, &f.args, &f.ret);
    let (_, _, where_clause) = generics.split_for_impl();
    let params = &generics.params;
    let turbofish: Vec<TokenStream> = generics
        .params
        .iter()
        .filter_map(|p| match p {
            GenericParam::Type(t) => {
                let i = &t.ident;
                Some(quote!(#i))
            }
            GenericParam::Const(c) => {
                let i = &c.ident;
                Some(quote!(#i))
            }
            GenericParam::Lifetime(_) => None,
        })
        .collect();
    let turbofish = if turbofish.is_empty() {
        quote!()
    } else {
        quote!(::<#(#turbofish),*>)
    };
    let decls = args.iter().map(|a| match a {
        Arg::Receiver(t) => t.clone(),
        Arg::Named { mutable, name, ty } => {
            let m = mutable.then(|| quote!(mut));
            quote!(#m #name: #ty)
        }
    });
    let decls: Vec<TokenStream> = decls.collect();
    let passed = args.iter().map(|a| match a {
        Arg::Receiver(_) => quote!(self),
        Arg::Named { name, .. } => quote!(#name),
    });
    let callee = match call {
        Call::Assoc => quote!(Self::#name),
        Call::Free => quote!(#name),
    };
    let plain_attrs = plain_attrs(attrs);
    let body_group = match &f.body {
        TokenTree::Group(g) => g.clone(),
        other => Group::new(Delimiter::Brace, other.clone().into()),
    };
    Ok(quote! {
        #(#plain_attrs)*
        #[track_caller]
        #vis fn #plain<#params>(#(#decls),*) -> #ok #where_clause {
            crate::or_panic::or_panic(#callee #turbofish(#(#passed),*))
        }
        #(#attrs)*
        #vis fn #name<#params>(#(#decls),*) -> #ret #where_clause #body_group
    })
}

/// Expands `#[plain_form]` (`attr` empty), `#[plain_form(free)]` or
/// `#[plain_form(add_try)]` on `item`; on error, the item unchanged with a
/// `compile_error!` at the offending tokens.
pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    let (call, naming) = match attr.to_string().as_str() {
        "" => (Call::Assoc, Naming::Try),
        "free" => (Call::Free, Naming::Try),
        "add_try" => (Call::Assoc, Naming::Plain),
        _ => {
            let e = syn::Error::new(
                attr.clone()
                    .into_iter()
                    .next()
                    .map_or(Span::call_site(), |t| t.span()),
                "plain_form takes nothing, `free` for a free function, or `add_try` for a \
                 method written with its plain name",
            );
            let e = e.to_compile_error();
            return quote!(#e #item);
        }
    };
    match try_expand(call, naming, item.clone()) {
        Ok(ts) => ts,
        Err(e) => {
            let e = e.to_compile_error();
            quote!(#e #item)
        }
    }
}

#[cfg(test)]
mod tests {
    fn expand(attr: &str, item: &str) -> String {
        super::expand(attr.parse().unwrap(), item.parse().unwrap()).to_string()
    }

    #[test]
    fn a_method_gets_a_plain_form_calling_the_try_form_with_its_generics() {
        let e = expand(
            "",
            "/// Docs.\n/// # Errors\n/// When it fails.\npub fn try_matmul<S2: Shape, const A: isize>(&self, other: &Tensor<T, S2>) -> Result<Tensor<T, Out<S, S2>>> where S: MatmulWith<S2> { body() }",
        );
        assert!(e.contains("# [doc = \" # Panics\"] # [doc = \" When it fails.\"] # [track_caller] pub fn matmul < S2 : Shape , const A : isize > (& self , other : & Tensor < T , S2 >) -> Tensor < T , Out < S , S2 > > where S : MatmulWith < S2 > { crate :: or_panic :: or_panic (Self :: try_matmul :: < S2 , A > (self , other)) }"), "{e}");
        assert!(
            e.contains("# [doc = \" # Errors\"] # [doc = \" When it fails.\"] pub fn try_matmul"),
            "{e}"
        );
        assert!(e.ends_with("{ body () }"), "{e}");
    }

    #[test]
    fn a_free_function_and_an_impl_trait_argument_keep_their_form() {
        let e = expand(
            "free",
            "pub fn try_cat<const D: isize>(mut xs: impl CatList<T, D>) -> Result<Tensor<T, S>> { x }",
        );
        assert!(
            e.contains("pub fn cat < const D : isize > (mut xs : impl CatList < T , D >) -> Tensor < T , S > { crate :: or_panic :: or_panic (try_cat :: < D > (xs)) }"),
            "{e}"
        );
    }

    #[test]
    fn add_try_names_the_written_method_try_and_writes_the_plain_form_beside_it() {
        let e = expand(
            "add_try",
            "pub fn sin(&self) -> Result<X> where T: R { body() }",
        );
        assert!(
            e.contains("pub fn sin < > (& self) -> X where T : R { crate :: or_panic :: or_panic (Self :: try_sin (self)) }"),
            "{e}"
        );
        assert!(
            e.contains("pub fn try_sin < > (& self) -> Result < X > where T : R { body () }"),
            "{e}"
        );
    }

    #[test]
    fn a_name_without_try_or_a_return_without_result_is_an_error() {
        assert!(expand("", "fn matmul(&self) -> Result<X> { x }").contains("starts with `try_`"));
        assert!(expand("", "fn try_matmul(&self) -> X { x }").contains("returns `Result<X>`"));
        assert!(expand("loud", "fn try_x(&self) -> Result<X> { x }").contains("takes nothing"));
    }
}
