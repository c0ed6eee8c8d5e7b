//! `#[derive(Params)]`: implements `tensor_typed::Params` for a struct by visiting its
//! fields in declaration order.
//!
//! Phases: parse (a `syn::DeriveInput`: the struct's fields and their `#[params(skip)]`
//! attributes) → validate (a struct, not an enum or union; known attribute arguments) →
//! expand (the `visit`/`visit_mut` methods and their `visit_named` forms, which name each
//! parameter by its field path, in an impl whose generics are the item's as
//! `Generics::split_for_impl` splits them). A field whose type is concrete is visited when
//! that type implements `Params` and skipped otherwise (decided by the compiler through
//! autoref specialisation, so `hidden: usize` needs no attribute); a field whose type
//! mentions a generic type parameter is always visited and gets a `Params` bound.
//!
//! syn's default features parse the expression subset of [`crate::expr`] in array lengths
//! and const arguments, so an item with, say, a field of type `[T; if A { 1 } else { 2 }]`
//! is syn's error ("unsupported expression; enable syn's features=[\"full\"]").

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

/// A field's name in a parameter's name (PyTorch's `named_parameters`): the field's
/// identifier without `r#`, or a tuple field's index.
fn member_name(m: &Member) -> String {
    match m {
        Member::Named(i) => {
            let s = i.to_string();
            s.strip_prefix("r#").map(str::to_string).unwrap_or(s)
        }
        Member::Unnamed(i) => i.index.to_string(),
    }
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
    let p = format_ident!("__prefix");
    let visits_named = fields.iter().map(|fd| {
        let m = &fd.member;
        let name = member_name(m);
        if fd.generic {
            quote_spanned!(fd.ty.span()=> #krate::Params::visit_named(&self.#m, &#krate::params::join(#p, #name), #f);)
        } else {
            quote_spanned!(fd.ty.span()=> {
                #[allow(unused_imports)]
                use #derive::{ViaNothing as _, ViaParams as _};
                (&#derive::Probe(&self.#m)).__visit_named(&#krate::params::join(#p, #name), #f);
            })
        }
    });
    let visits_named_mut = fields.iter().map(|fd| {
        let m = &fd.member;
        let name = member_name(m);
        if fd.generic {
            quote_spanned!(fd.ty.span()=> #krate::Params::visit_named_mut(&mut self.#m, &#krate::params::join(#p, #name), #f);)
        } else {
            quote_spanned!(fd.ty.span()=> {
                #[allow(unused_imports)]
                use #derive::{ViaNothingMut as _, ViaParamsMut as _};
                (&mut #derive::ProbeMut(&mut self.#m)).__visit_named_mut(&#krate::params::join(#p, #name), #f);
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
            #[allow(unused_variables)]
            fn visit_named<'__a>(&'__a self, #p: &str, #f: &mut dyn FnMut(&str, &'__a #derive::DynTensor)) {
                #(#visits_named)*
            }
            #[allow(unused_variables)]
            fn visit_named_mut(&mut self, #p: &str, #f: &mut dyn FnMut(&str, &mut #derive::DynTensor)) {
                #(#visits_named_mut)*
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use proc_macro2::TokenStream;
    use quote::ToTokens;
    use syn::parse::{Parse, ParseStream};
    use syn::{Attribute, DeriveInput, GenericParam, Generics, Path, Token, Type, WhereClause};

    /// The derive's output read back with syn (default features: no `syn::ItemImpl`, so
    /// the header piece by piece), the body as tokens.
    struct Impl {
        attrs: Vec<Attribute>,
        generics: Generics,
        trait_path: Path,
        self_ty: Type,
        where_clause: Option<WhereClause>,
        body: TokenStream,
    }

    impl Parse for Impl {
        fn parse(input: ParseStream) -> syn::Result<Self> {
            let attrs = input.call(Attribute::parse_outer)?;
            input.parse::<Token![impl]>()?;
            let generics = input.parse()?;
            let trait_path = input.parse()?;
            input.parse::<Token![for]>()?;
            let self_ty = input.parse()?;
            let where_clause = input.parse()?;
            let body;
            syn::braced!(body in input);
            Ok(Impl {
                attrs,
                generics,
                trait_path,
                self_ty,
                where_clause,
                body: body.parse()?,
            })
        }
    }

    impl Impl {
        /// The where clause's predicates, each as a string.
        fn predicates(&self) -> Vec<String> {
            self.where_clause
                .iter()
                .flat_map(|w| &w.predicates)
                .map(string)
                .collect()
        }
    }

    fn string(tokens: impl ToTokens) -> String {
        tokens.to_token_stream().to_string()
    }

    /// The expansion of `#[derive(Params)]` on `item`, as tokens.
    fn expand(item: &str) -> TokenStream {
        super::expand(item.parse().unwrap())
    }

    /// The expansion of `#[derive(Params)]` on `item`, read back.
    fn derive(item: &str) -> Impl {
        let out = expand(item);
        syn::parse2(out.clone()).unwrap_or_else(|e| panic!("{e}: {out}"))
    }

    /// The error of `#[derive(Params)]` on `item`.
    fn error(item: &str) -> syn::Error {
        let input: DeriveInput = syn::parse_str(item).unwrap();
        super::derive(&input).err().unwrap()
    }

    #[test]
    fn the_impl_repeats_the_generics_as_split_for_impl_splits_them() {
        // The impl's parameters keep their bounds and drop their defaults; the type's
        // arguments are the names alone; the where clause keeps the item's predicates.
        let got = derive(
            "pub struct Mlp<'a, T: Clone, const N: usize = 3, U = f32> where T: Copy {
                pub w: Tensor<f32, Shape![N]>,
                name: &'a str,
                u: PhantomData<U>,
            }",
        );
        assert_eq!(
            string(&got.generics),
            "< 'a , T : Clone , const N : usize , U >"
        );
        assert!(got.generics.params.iter().all(|p| match p {
            GenericParam::Const(c) => c.default.is_none(),
            GenericParam::Type(t) => t.default.is_none(),
            GenericParam::Lifetime(_) => true,
        }));
        assert_eq!(string(&got.trait_path), ":: tensor_typed :: Params");
        assert_eq!(string(&got.self_ty), "Mlp < 'a , T , N , U >");
        assert_eq!(
            got.predicates(),
            ["T : Copy", "PhantomData < U > : :: tensor_typed :: Params"]
        );
        assert_eq!(string(&got.attrs[0]), "# [automatically_derived]");
    }

    #[test]
    fn a_field_that_mentions_a_type_parameter_is_bounded_and_any_other_probed() {
        // A type parameter anywhere in the field's type (nested, or in a reference) makes
        // the field generic; lifetimes and const parameters do not.
        let got = derive(
            "struct S<'a, T, const N: usize> {
                a: Vec<Option<Box<T>>>,
                b: [f32; N],
                c: &'a str,
                d: Tensor<f32, Shape![N]>,
            }",
        );
        assert_eq!(
            got.predicates(),
            ["Vec < Option < Box < T > > > : :: tensor_typed :: Params"]
        );
        let body = got.body.to_string();
        assert!(
            body.contains(":: tensor_typed :: Params :: visit (& self . a , __f) ;"),
            "{body}"
        );
        for probed in ["b", "c", "d"] {
            let want = format!(
                "(& :: tensor_typed :: params :: __derive :: Probe (& self . {probed})) . __visit (__f) ;"
            );
            assert!(body.contains(&want), "{probed}: {body}");
            let want_mut = format!("ProbeMut (& mut self . {probed})) . __visit_mut (__f) ;");
            assert!(body.contains(&want_mut), "{probed}: {body}");
        }
        // In declaration order.
        let at = |m: &str| body.find(&format!("self . {m}")).unwrap();
        assert!(at("a") < at("b") && at("b") < at("c") && at("c") < at("d"));
    }

    #[test]
    fn a_bound_follows_a_where_clause_with_or_without_its_trailing_comma() {
        for clause in ["where T: Copy", "where T: Copy,"] {
            let got = derive(&format!("struct S<T> {clause} {{ t: T }}"));
            assert_eq!(
                got.predicates(),
                ["T : Copy", "T : :: tensor_typed :: Params"],
                "{clause}"
            );
        }
        // Nothing to bound: no `where` at all.
        assert!(derive("struct S { w: W }").where_clause.is_none());
    }

    #[test]
    fn a_tuple_struct_names_its_fields_by_unsuffixed_indices() {
        let got = derive("struct Pair<T>(T, pub (u8, u8)) where T: Send;");
        assert_eq!(string(&got.self_ty), "Pair < T >");
        assert_eq!(
            got.predicates(),
            ["T : Send", "T : :: tensor_typed :: Params"]
        );
        let body = got.body.to_string();
        assert!(body.contains("visit (& self . 0 , __f)"), "{body}");
        assert!(body.contains("Probe (& self . 1)"), "{body}");
        let unit = derive("struct Unit;");
        assert_eq!(string(&unit.self_ty), "Unit");
        assert!(unit.generics.params.is_empty() && unit.where_clause.is_none());
        assert!(!unit.body.to_string().contains("self ."));
    }

    #[test]
    fn params_skip_leaves_a_field_out_and_its_bound_too() {
        let got = derive(
            "struct S<T> {
                /// Frozen: not trained.
                #[params(skip)]
                frozen: T,
                #[params(skip,)]
                #[params(skip)]
                also: W,
                /// A doc comment is no `params` attribute.
                w: W,
            }",
        );
        let body = got.body.to_string();
        assert!(!body.contains("self . frozen") && !body.contains("self . also"));
        assert!(body.contains("Probe (& self . w)"), "{body}");
        assert!(got.where_clause.is_none());
        // `#[params()]` has no arguments (syn's nested meta): the field is visited.
        let empty = derive("struct S { #[params()] w: W }").body.to_string();
        assert!(empty.contains("self . w"), "{empty}");
    }

    #[test]
    fn a_params_attribute_other_than_skip_is_an_error_at_its_argument() {
        let e = error("struct Bad {\n    #[params(frozen)]\n    w: u8,\n}");
        assert_eq!(
            e.to_string(),
            "unknown #[params] argument: the only one is `skip`"
        );
        assert_eq!(e.span().source_text().as_deref(), Some("frozen"));
        assert_eq!((e.span().start().line, e.span().start().column), (2, 13));
        // The other mistakes are syn's `parse_nested_meta` errors.
        for (attr, message) in [
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
            let e = error(&format!("struct S {{ {attr} w: u8 }}"));
            assert_eq!(e.to_string(), message, "{attr}");
        }
    }

    #[test]
    fn an_enum_or_a_union_is_refused_at_its_keyword() {
        let e = error("#[derive(Params)]\nenum Model {\n    Small(u8),\n}");
        assert_eq!(
            e.to_string(),
            "#[derive(Params)] supports structs only: an enum's variants hold different tensors, so its parameters have no fixed order; implement `Params` by hand"
        );
        assert_eq!(e.span().source_text().as_deref(), Some("enum"));
        assert_eq!((e.span().start().line, e.span().start().column), (2, 0));
        let e = error("pub union U { a: u8 }");
        assert_eq!(
            e.to_string(),
            "#[derive(Params)] supports structs only, not unions"
        );
        assert_eq!(e.span().source_text().as_deref(), Some("union"));
        // The refusal is an impl-less `compile_error!`.
        let out = expand("enum E { A }").to_string();
        assert!(out.starts_with(":: core :: compile_error !"), "{out}");
    }

    #[test]
    fn every_struct_syns_default_features_parse_is_derived() {
        // Array lengths and const arguments of the expression subset (`N * 2`, a cast, a
        // call, `{ N + 1 }`, a negative literal), lifetimes, `dyn` and `fn` types,
        // qualified paths, visibilities, higher-ranked where clauses, attributes.
        let got = derive(
            "#[repr(C)]
            pub(crate) struct S<'a, T: ?Sized + 'a, U = f32, const N: usize = { 3 }>
            where
                for<'b> &'b T: Copy,
                [T; 2]: Sized,
            {
                pub(crate) a: [f32; N * 2],
                pub(super) b: Foo<{ N + 1 }>,
                pub(in crate::m) c: &'a T,
                d: [u8; N as usize],
                e: [u8; core::mem::size_of::<[u8; 4]>()],
                f: Foo<-1, 'a, { N }>,
                g: <T as Tr>::A,
                h: Box<dyn Fn(&T) -> U + Send + 'a>,
                i: fn(u8, u16) -> u32,
                j: [u8; m!(1)],
                k: [u8; (1, 2).0],
                #[cfg(test)]
                l: (),
            }",
        );
        assert_eq!(
            string(&got.generics),
            "< 'a , T : ? Sized + 'a , U , const N : usize >"
        );
        assert_eq!(string(&got.self_ty), "S < 'a , T , U , N >");
        assert_eq!(
            got.predicates(),
            [
                "for < 'b > & 'b T : Copy",
                "[T ; 2] : Sized",
                "& 'a T : :: tensor_typed :: Params",
                "< T as Tr > :: A : :: tensor_typed :: Params",
                "Box < dyn Fn (& T) -> U + Send + 'a > : :: tensor_typed :: Params",
            ]
        );
        let body = got.body.to_string();
        for field in ["a", "b", "d", "e", "f", "i", "j", "k", "l"] {
            assert!(
                body.contains(&format!("Probe (& self . {field})")),
                "{field}"
            );
        }
    }

    #[test]
    fn an_expression_that_needs_syns_full_feature_is_its_error() {
        // rustc parses these (and `if`/`match` in a const argument are valid Rust), but
        // syn with its default features parses only the expression subset in an array
        // length, a `{ .. }` const argument or a const parameter's default.
        for item in [
            "struct S<T> { a: [T; if A { 1 } else { 2 }] }",
            "struct S { a: Foo<{ if A { 1 } else { 2 } }> }",
            "struct S { a: [u8; match N { 0 => 1, _ => 2 }] }",
            "struct S { a: [u8; { let n = 1; n }] }",
            "struct S { a: [u8; [1, 2].len()] }",
            "struct S { a: [u8; unsafe { N }] }",
            "struct S { a: [u8; const { N }] }",
            "struct S { a: [u8; loop { break 1 }] }",
            "struct S { a: [u8; (|| 1)()] }",
            "struct S { a: Foo<{ [1][0] }> }",
            "struct S<const N: usize = { if A { 1 } else { 2 } }> { a: u8 }",
            "struct S<T>(pub(crate) [T; N * 2], [f32; if A { 1 } else { 2 }]);",
        ] {
            let e = syn::parse_str::<DeriveInput>(item).err().unwrap();
            assert_eq!(
                e.to_string(),
                "unsupported expression; enable syn's features=[\"full\"]",
                "{item}"
            );
            let out = expand(item).to_string();
            assert!(out.starts_with(":: core :: compile_error !"), "{out}");
        }
        // The `if` itself is where syn stops.
        let e = syn::parse_str::<DeriveInput>("struct S<T> { a: [T; if A { 1 } else { 2 }] }")
            .err()
            .unwrap();
        assert_eq!(e.span().source_text().as_deref(), Some("if"));
    }
}
