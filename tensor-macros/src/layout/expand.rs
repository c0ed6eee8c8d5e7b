//! Expand: emits the recipe (static data run by `layout_support`), the sizes given, and
//! the output shape type computed from the input's shape type.
//!
//! The emitted block holds a local trait `__LayoutShape<S>` implemented for each input
//! shape `S` the pattern accepts (one rank, or every rank up to 8 with `...`); its `Out`
//! is the output shape, and its where-clauses are the static checks (divisibility, equal
//! sizes). A shape of the wrong rank has no impl, reported by the trait's
//! `#[diagnostic::on_unimplemented]` with the pattern and the shape in decimal.
//!
//! The shape is the trait's parameter and the `Self` of every impl is a type parameter
//! (the bound is `S: __LayoutShape<S>`): rustc never lists an impl whose `Self` is a
//! type parameter as an alternative, so a failed check is its own message alone, with no
//! "the trait is implemented for `(__A0, __A1)`" pointing into the expansion.
//!
//! The result's shape is a parameter `O` of `__layout`, bound to equal the computed
//! output by the local `__LayoutOut`, whose message names the pattern and both shapes.
//! Its check waits for the fallback of an integer literal (`layout_support::Later`): an
//! unannotated call infers `O` as the output then (and compares nothing), and an
//! annotated one (`let y: Tensor<f32, Shape![..]> = layout!(..)?`) has fixed `O` by then,
//! so a wrong annotation is that message rather than rustc's "`?` operator has
//! incompatible types"; one that differs in a named dim is `Later`'s check, which prints
//! the names' sizes.

use super::parse::{Dim, Invocation, Pattern, TermKind};
use super::span::PatternSpans;
use super::types::{support, Ty};
use super::valid::{Checked, Op, Reduction};
use crate::shape::MAX_RANK;
use proc_macro2::{Delimiter, Ident, Literal, Span, TokenStream};
use quote::{quote, quote_spanned};

/// The code for a checked invocation.
pub(crate) fn expand(
    inv: &Invocation,
    c: &Checked,
    spans: &PatternSpans,
) -> syn::Result<TokenStream> {
    let ls = support();
    let names = axis_names(&c.pattern);
    let recipe = recipe(c, &names);
    let given = given(c, &names);
    let n_names = Literal::usize_unsuffixed(names.len());
    let impls = shape_impls(c, &names, spans)?;
    let (message, label) = rank_message(c);
    let op_marker = Ident::new(op_marker(c.op), Span::call_site());
    let out_message = format!(
        "layout!({}): the pattern \"{}\" gives the shape `{{Self}}`, but the result is used as `{{O}}`",
        c.op.name(),
        c.pattern.text
    );
    // `(tensor)`, or for a tensor syn did not parse, its parentheses spanned where syn
    // reported a tensor expression that ends too early.
    let tensor = inv
        .tensor
        .delimited(Delimiter::Parenthesis, Span::call_site());
    let span = inv.pattern.span();
    // The input, named with the pattern's span: the failed static check of a call points
    // at the argument that fixed the type, so this makes it point at the pattern.
    let x = Ident::new("__x", span);
    let call = quote_spanned! {span=> __layout(#x, &__given, 0) };
    // Fallible at run time: a run-time size, a max/min that may reduce an empty axis,
    // or (decided by the types) a `Dyn` input dim that the pattern checks (a split or a
    // given size); a `Dyn` dim that only moves or merges needs no check.
    let mode = if c.sizes.iter().any(|s| s.block().is_some()) || may_reduce_empty(c) {
        quote!(#ls::MayFail)
    } else {
        quote!(<S as __LayoutShape<S>>::Mode)
    };
    let elem_bound = match c.op {
        Op::Reduce(Reduction::Mean) => quote!(T: #ls::MeanElement,),
        _ => quote!(),
    };
    Ok(quote! {{
        #[allow(non_camel_case_types, dead_code)]
        #[diagnostic::on_unimplemented(message = #message, label = #label)]
        trait __LayoutShape<S> {
            type Out: #ls::Shape;
            type Mode: #ls::Mode;
        }
        #impls
        // The result's shape `O` is the pattern's output (`Self`); `O` is a parameter,
        // fixed by the caller's annotation if any, so a wrong one is this error.
        #[allow(non_camel_case_types, dead_code)]
        #[diagnostic::on_unimplemented(message = #out_message, label = "gives `{Self}`")]
        trait __LayoutOut<O> {}
        // The output as is, or with unnamed static dims (a merge `(h d)`) named by the
        // annotation at their size: a mismatch of ranks or unnamed dims is this trait's
        // error; one of a named dim is `Later`'s (see there).
        #[diagnostic::do_not_recommend]
        impl<__X: #ls::NamesAs<__O>, __O> __LayoutOut<__O> for __X {}
        const __RECIPE: #ls::Recipe = #recipe;
        fn __layout<T, S, O, I>(
            x: &#ls::Tensor<T, S>,
            given: &[::core::option::Option<usize>],
            _later: I,
        ) -> #ls::Output<T, O, #mode>
        where
            T: #ls::Element,
            S: __LayoutShape<S> + #ls::Shape,
            O: #ls::Shape,
            I: #ls::Later<#ls::#op_marker, <S as __LayoutShape<S>>::Out, O>,
            <I as #ls::Later<#ls::#op_marker, <S as __LayoutShape<S>>::Out, O>>::Out:
                __LayoutOut<O>,
            #elem_bound
        {
            <#mode as #ls::Mode>::run::<T, S, O>(x, &__RECIPE, given)
        }
        let #x = &#tensor;
        // `h = {n}`: the braces are the syntax, not redundant.
        #[allow(unused_braces)]
        let __given: [::core::option::Option<usize>; #n_names] = [#(#given),*];
        // The call is type-checked (with its errors) only to name its result type: it
        // stands after a `return` in a closure that never runs, so it reaches neither
        // borrowck nor codegen (each would solve the shape rules again); `run_as` runs
        // the recipe with that type.
        let __out = ::core::marker::PhantomData;
        #[allow(unreachable_code)]
        let _ = || {
            return;
            #ls::same_type(&__out, #call)
        };
        #ls::LayoutResult::run_as(&__out, #x, &__RECIPE, &__given)
    }})
}

/// Whether `reduce = max|min` may reduce an axis of size 0, which the runtime rejects
/// (PyTorch's `amax`: `Expected reduction dim 0 to have non-zero size`): a reduced axis
/// whose size is not a non-zero literal (anonymous axes are non-zero). Such a call
/// returns a `Result` even when every dim is static.
fn may_reduce_empty(c: &Checked) -> bool {
    if !matches!(c.op, Op::Reduce(Reduction::Max | Reduction::Min)) {
        return false;
    }
    let p = &c.pattern;
    if p.left.ellipsis().is_some() && p.right.ellipsis().is_none() {
        return true;
    }
    p.left.names().any(|(name, _)| {
        !p.right.has_name(name)
            && c.size(name)
                .and_then(|s| s.static_value())
                .is_none_or(|v| v == 0)
    })
}

/// A stub for an invocation with an error: evaluates nothing, has any type, and makes no
/// second error.
pub(crate) fn stub(inv: Option<&Invocation>, error: syn::Error) -> TokenStream {
    let error = error.to_compile_error();
    match inv {
        Some(inv) => {
            let tensor = inv
                .tensor
                .delimited(Delimiter::Parenthesis, Span::call_site());
            quote! {{
                let _ = || &#tensor;
                #error
            }}
        }
        None => error,
    }
}

/// The module of `op`'s static checks in `layout_support`.
fn op_marker(op: Op) -> &'static str {
    match op {
        Op::Rearrange => "rearrange",
        Op::Repeat => "repeat",
        Op::Reduce(_) => "reduce",
    }
}

/// The named axes in order of first appearance (left side, then right side).
fn axis_names(p: &Pattern) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for (name, _) in p.left.names().chain(p.right.names()) {
        if !names.iter().any(|n| n == name) {
            names.push(name.to_string());
        }
    }
    names
}

fn index(names: &[String], name: &str) -> usize {
    names.iter().position(|n| n == name).unwrap_or(0)
}

/// `Recipe { .. }` as a constant expression.
fn recipe(c: &Checked, names: &[String]) -> TokenStream {
    let ls = support();
    let op = match c.op {
        Op::Rearrange => quote!(#ls::Op::Rearrange),
        Op::Repeat => quote!(#ls::Op::Repeat),
        Op::Reduce(r) => {
            let r = Ident::new(
                match r {
                    Reduction::Sum => "Sum",
                    Reduction::Mean => "Mean",
                    Reduction::Max => "Max",
                    Reduction::Min => "Min",
                    Reduction::Prod => "Prod",
                },
                Span::call_site(),
            );
            quote!(#ls::Op::Reduce(#ls::Reduction::#r))
        }
    };
    let side = |dims: &[Dim]| {
        let dims = dims.iter().map(|d| {
            let terms = d.terms.iter().map(|t| match &t.kind {
                TermKind::Name(n) => {
                    let i = index(names, n);
                    quote!(#ls::Term::Axis(#i))
                }
                TermKind::Anon(n) => quote!(#ls::Term::Anon(#n)),
                TermKind::Ellipsis => quote!(#ls::Term::Ellipsis),
            });
            let grouped = d.grouped;
            quote!(#ls::Group { terms: &[#(#terms),*], grouped: #grouped })
        });
        quote!(&[#(#dims),*])
    };
    let pattern = &c.pattern.text;
    let (left, right) = (side(&c.pattern.left.dims), side(&c.pattern.right.dims));
    quote! {
        #ls::Recipe {
            op: #op,
            pattern: #pattern,
            names: &[#(#names),*],
            left: #left,
            right: #right,
        }
    }
}

/// The size given for each named axis, in the order of [`axis_names`].
fn given(c: &Checked, names: &[String]) -> Vec<TokenStream> {
    names
        .iter()
        .map(|n| match c.size(n) {
            None => quote!(::core::option::Option::None),
            Some(s) => match (s.static_value(), s.block(), s.dim()) {
                (Some(v), _, _) => quote!(::core::option::Option::Some(#v)),
                (None, Some(block), _) => {
                    quote!(::core::option::Option::Some::<usize>(#block))
                }
                // A dim type's static size; a named run-time dim gives its name, not a
                // size (the axis is sized by the input).
                (None, None, Some(path)) => {
                    quote!(<#path as ::tensor_typed::Dim>::STATIC)
                }
                (None, None, None) => quote!(::core::option::Option::None),
            },
        })
        .collect()
}

/// The message and label for an input whose rank the pattern does not accept.
fn rank_message(c: &Checked) -> (String, String) {
    let p = &c.pattern;
    let has_ellipsis = p.left.ellipsis().is_some();
    let fixed = p.left.dims.len() - usize::from(has_ellipsis);
    let rank = if has_ellipsis {
        format!("at least {fixed}")
    } else {
        fixed.to_string()
    };
    (
        format!(
            "layout!({}): the pattern \"{}\" needs an input of rank {rank}, but the input's shape is `{{Self}}`",
            c.op.name(),
            p.text
        ),
        format!("the left side \"{}\" has {fixed} dims", p.text.split("->").next().unwrap_or("").trim()),
    )
}

/// The ranks the pattern accepts: the left side's, or with `...` every rank from the
/// named dims up to [`MAX_RANK`].
fn ranks(p: &Pattern) -> std::ops::RangeInclusive<usize> {
    let n = p.left.dims.len();
    if p.left.ellipsis().is_some() {
        n - 1..=MAX_RANK
    } else {
        n..=n
    }
}

/// One `impl<__S, A0, A1, ..> __LayoutShape<(A0, A1, ..)> for __S` per accepted rank.
fn shape_impls(c: &Checked, names: &[String], spans: &PatternSpans) -> syn::Result<TokenStream> {
    let p = &c.pattern;
    if p.left.ellipsis().is_none() && p.left.dims.len() > MAX_RANK {
        let d = &p.left.dims[MAX_RANK];
        return Err(spans.error(
            &c.op.name(),
            &d.range,
            &format!(
                "the left side has {} dims; typed shapes have at most {MAX_RANK}",
                p.left.dims.len()
            ),
        ));
    }
    let mut impls = Vec::new();
    for rank in ranks(p) {
        let Some(one) = shape_impl(c, names, spans, rank) else {
            continue;
        };
        impls.push(one);
    }
    if impls.is_empty() {
        let d = p
            .right
            .dims
            .last()
            .map_or(0..p.text.len(), |d| d.range.clone());
        return Err(spans.error(
            &c.op.name(),
            &d,
            &format!("the right side has more than {MAX_RANK} dims; typed shapes have at most {MAX_RANK}"),
        ));
    }
    Ok(quote!(#(#impls)*))
}

/// The impl for inputs of `rank` dims, or `None` if the output would exceed
/// [`MAX_RANK`].
fn shape_impl(
    c: &Checked,
    names: &[String],
    spans: &PatternSpans,
    rank: usize,
) -> Option<TokenStream> {
    let ls = support();
    let p = &c.pattern;
    let params: Vec<String> = (0..rank).map(|i| format!("__A{i}")).collect();
    let ell_len = rank + 1 - p.left.dims.len().min(rank + 1);
    let ell_len = if p.left.ellipsis().is_some() {
        ell_len
    } else {
        0
    };
    let mut axes: Vec<Option<Ty>> = vec![None; names.len()];
    let given = |name: &str| -> Option<Ty> { c.size(name).map(|s| s.ty()) };
    let mut bounds: Vec<TokenStream> = Vec::new();
    let mut ellipsis: Vec<Ty> = Vec::new();
    // The input dims whose size the pattern checks (a `Dyn` one makes the call fallible).
    let mut checked: Vec<String> = Vec::new();

    // The left side: each dim is one param (or `...` several).
    let mut at = 0;
    for dim in &p.left.dims {
        if !dim.grouped && dim.terms.iter().any(|t| t.kind == TermKind::Ellipsis) {
            ellipsis = params[at..at + ell_len]
                .iter()
                .cloned()
                .map(Ty::Param)
                .collect();
            at += ell_len;
            continue;
        }
        let input = Ty::Param(params[at].clone());
        let input_dim = at;
        let param = params[at].clone();
        at += 1;
        let span = spans.span(&dim.range);
        let mut known = Ty::Static(1);
        let mut unknown = None;
        for t in &dim.terms {
            match &t.kind {
                TermKind::Name(n) => match given(n) {
                    Some(ty) => {
                        // A name sizing part of a group must be static: a run-time one
                        // would name an axis whose size nothing checks.
                        if let (Ty::DimType(_), true) = (&ty, dim.terms.len() > 1) {
                            let t = ty.tokens();
                            let op = Ident::new(op_marker(c.op), Span::call_site());
                            bounds.push(quote_spanned!(span=> __S: #ls::GroupSize<#ls::#op, #t>));
                        }
                        known = known.mul(ty.clone());
                        axes[index(names, n)] = Some(ty);
                    }
                    None => unknown = Some(index(names, n)),
                },
                TermKind::Anon(n) => known = known.mul(Ty::Static(*n)),
                TermKind::Ellipsis => {}
            }
        }
        if unknown.is_none() || known != Ty::Static(1) {
            checked.push(param);
        }
        match unknown {
            Some(i) => {
                let ty = input.split(op_marker(c.op), input_dim, known);
                ty.bounds(span, &mut bounds);
                axes[i] = Some(ty);
            }
            // Every axis of the dim is given: the input dim must be their product (a
            // static size, or a dim type whose name must match too).
            None if known != Ty::Dyn => {
                known.bounds(span, &mut bounds);
                let t = input.tokens();
                let op = Ident::new(op_marker(c.op), Span::call_site());
                let i = Literal::usize_unsuffixed(input_dim);
                let k = known.tokens();
                bounds.push(quote_spanned!(span=> #t: #ls::DimIs<#ls::#op, #i, #k>));
            }
            None => {}
        }
    }

    // The right side: each dim is a product of axes.
    let mut out: Vec<Ty> = Vec::new();
    for dim in &p.right.dims {
        let mut items: Vec<Ty> = Vec::new();
        for t in &dim.terms {
            match &t.kind {
                TermKind::Name(n) => {
                    let i = index(names, n);
                    items.push(axes[i].clone().or_else(|| given(n)).unwrap_or(Ty::Dyn));
                }
                TermKind::Anon(n) => items.push(Ty::Static(*n)),
                TermKind::Ellipsis => items.extend(ellipsis.iter().cloned()),
            }
        }
        if !dim.grouped && dim.terms.iter().any(|t| t.kind == TermKind::Ellipsis) {
            out.extend(items);
        } else {
            let ty = Ty::product(items);
            ty.bounds(spans.span(&dim.range), &mut bounds);
            out.push(ty);
        }
    }
    if out.len() > MAX_RANK {
        return None;
    }
    let params: Vec<Ident> = params
        .iter()
        .map(|p| Ident::new(p, Span::call_site()))
        .collect();
    let out = out.iter().map(Ty::tokens);
    let mode = checked
        .iter()
        .rev()
        .fold(quote!(#ls::Infallible), |rest, p| {
            let p = Ident::new(p, Span::call_site());
            bounds.push(quote!(#p: #ls::ModeOfDim));
            quote!(<#p as #ls::ModeOfDim>::Then<#rest>)
        });
    Some(quote! {
        impl<__S, #(#params: #ls::Dim),*> __LayoutShape<(#(#params,)*)> for __S
        where
            #(#bounds,)*
        {
            type Out = (#(#out,)*);
            type Mode = #mode;
        }
    })
}
