//! Expand: `impl Params for S { fn visit(..) fn visit_mut(..) }`, with the item's
//! generics split as `syn::Generics::split_for_impl` splits them (lifetimes first,
//! defaults left off) and a `Params` bound per generic field in the where clause.

use super::input::{comma, DeriveInput, Field, Generics, ParamKind};
use crate::syntax::{quote, quote_spanned, Ident, Punct, Spacing, Span, Tree};

/// `impl<..>` generics: parameters with their bounds, without defaults.
fn impl_generics(g: &Generics) -> Vec<Tree> {
    split(g, |p, out| {
        out.extend(p.attrs.iter().cloned());
        if let Some(c) = &p.const_token {
            out.push(c.clone());
        }
        out.extend(p.name.iter().cloned());
        if let Some((colon, bounds)) = &p.bounds {
            if p.kind == ParamKind::Const || !bounds.is_empty() {
                out.push(alone(colon));
                out.extend(bounds.iter().cloned());
            }
        }
    })
}

/// `Type<..>` generics: the parameters' names.
fn ty_generics(g: &Generics) -> Vec<Tree> {
    split(g, |p, out| out.extend(p.name.iter().cloned()))
}

/// `<` lifetimes, then types and consts `>`, each printed by `param` (syn's order).
fn split(g: &Generics, param: impl Fn(&super::input::Param, &mut Vec<Tree>)) -> Vec<Tree> {
    if g.params.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let (lt, gt) = match &g.angles {
        Some((lt, gt)) => (alone(lt), alone(gt)),
        None => (
            Tree::Punct(Punct::new('<', Spacing::Alone)),
            Tree::Punct(Punct::new('>', Spacing::Alone)),
        ),
    };
    out.push(lt);
    let mut trailing_or_empty = true;
    for p in g.params.iter().filter(|p| p.kind == ParamKind::Lifetime) {
        param(p, &mut out);
        out.extend(p.comma.iter().map(alone));
        trailing_or_empty = p.comma.is_some();
    }
    for p in g.params.iter().filter(|p| p.kind != ParamKind::Lifetime) {
        if !trailing_or_empty {
            out.push(comma());
            trailing_or_empty = true;
        }
        param(p, &mut out);
        out.extend(p.comma.iter().map(alone));
    }
    out.push(gt);
    out
}

/// The punctuation `tree` as syn prints a parsed token: its character and span, not
/// joined to what follows.
fn alone(tree: &Tree) -> Tree {
    match tree {
        Tree::Punct(p) => {
            let mut q = Punct::new(p.as_char(), Spacing::Alone);
            q.set_span(p.span());
            Tree::Punct(q)
        }
        other => other.clone(),
    }
}

/// The where clause: the item's predicates and `ty: Params` for each generic field.
fn where_clause(g: &Generics, generic_types: &[&[Tree]], krate: &[Tree]) -> Vec<Tree> {
    let mut predicates = g.predicates.clone();
    for ty in generic_types {
        let trailing = matches!(predicates.last(), Some(Tree::Punct(p)) if p.as_char() == ',');
        if !predicates.is_empty() && !trailing {
            predicates.push(comma());
        }
        // The type as syn prints it at its end: a last `>` not joined to the `:`.
        let mut ty = ty.to_vec();
        if let Some(last) = ty.last_mut() {
            *last = alone(last);
        }
        predicates.extend(quote!("#ty: #krate::Params", ty, krate));
    }
    if predicates.is_empty() {
        return Vec::new();
    }
    let mut out = vec![g
        .where_token
        .clone()
        .unwrap_or_else(|| Tree::Ident(Ident::new("where", Span::call_site())))];
    out.extend(predicates);
    out
}

/// The impl for `fields` (each with whether its type is generic).
pub(crate) fn implement(input: &DeriveInput, fields: &[(&Field, bool)]) -> Vec<Tree> {
    let name = &input.ident;
    let krate = quote!("::tensor_typed");
    let derive = quote!("#krate::params::__derive", krate);
    let generic_types: Vec<&[Tree]> = fields
        .iter()
        .filter(|(_, generic)| *generic)
        .map(|(f, _)| f.ty.as_slice())
        .collect();
    let where_clause = where_clause(&input.generics, &generic_types, &krate);
    let impl_generics = impl_generics(&input.generics);
    let ty_generics = ty_generics(&input.generics);
    let f = Ident::new("__f", Span::call_site());
    let mut visits = Vec::new();
    let mut visits_mut = Vec::new();
    for (fd, generic) in fields {
        let m = &fd.member;
        let span = fd.ty.first().map_or_else(Span::call_site, Tree::span);
        if *generic {
            visits.extend(
                quote_spanned!(span => "#krate::Params::visit(&self.#m, #f);", krate, m, f),
            );
            visits_mut.extend(quote_spanned!(
                span => "#krate::Params::visit_mut(&mut self.#m, #f);", krate, m, f
            ));
        } else {
            visits.extend(quote_spanned!(span => "{
                #[allow(unused_imports)]
                use #derive::{ViaNothing as _, ViaParams as _};
                (&#derive::Probe(&self.#m)).__visit(#f);
            }", derive, m, f));
            visits_mut.extend(quote_spanned!(span => "{
                #[allow(unused_imports)]
                use #derive::{ViaNothingMut as _, ViaParamsMut as _};
                (&mut #derive::ProbeMut(&mut self.#m)).__visit_mut(#f);
            }", derive, m, f));
        }
    }
    quote!(
        "#[automatically_derived]
        impl #impl_generics #krate::Params for #name #ty_generics #where_clause {
            #[allow(unused_variables)]
            fn visit<'__a>(&'__a self, #f: &mut dyn FnMut(&'__a #derive::DynTensor)) {
                #visits
            }
            #[allow(unused_variables)]
            fn visit_mut(&mut self, #f: &mut dyn FnMut(&mut #derive::DynTensor)) {
                #visits_mut
            }
        }",
        impl_generics,
        krate,
        name,
        ty_generics,
        where_clause,
        derive,
        f,
        visits,
        visits_mut
    )
}
