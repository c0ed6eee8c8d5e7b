//! Expand: the code of a checked `einsum!`.
//!
//! The emitted block holds, for operand `k`, a local trait `__EinsumOperandK<S>`
//! implemented for shapes of the operand's rank, whose items `L0, L1, ..` are its dims
//! (a shape of another rank has no impl, and the trait's message names the operand and
//! draws its labels); and, for each further place a label is written, a local trait
//! `__EinsumLabelM<Y>` implemented when the label's dims so far and the one at that
//! place are one dim (equal, or one of them an unnamed 1, or `Dyn`: as a broadcast
//! compares them), whose message names the label and both operands and draws a caret
//! under that place. Its `Joined` is the label's dim, so the result's shape is the
//! output labels' dims, names kept. A generic fn `__einsum` states all of it in its
//! where-clauses and calls the runtime with an equation of one letter per label.

use super::check::{drawn, Checked};
use super::parse::Invocation;
use super::Form;
use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use std::ops::Range;
use syn::LitStr;

/// The span of `text[range]` inside the pattern literal where the compiler can make one
/// (nightly), else the literal's.
pub(crate) fn label_span(lit: &LitStr, text: &str, range: &Range<usize>) -> Span {
    let source = lit.token().to_string();
    let whole = lit.span();
    // Only when the literal's source is its value between quotes (no escapes, not raw).
    if !source.starts_with('"') || source.get(1..1 + text.len()) != Some(text) {
        return whole;
    }
    lit.token()
        .subspan(range.start + 1..range.end + 1)
        .unwrap_or(whole)
}

/// The letter of each label in the runtime's equation, in the order of `labels`: a
/// one-letter label keeps its letter (so the runtime's messages name it as written),
/// every other label takes the first letter left, `a`..`z` then `A`..`Z`.
fn letters(labels: &[String]) -> Vec<char> {
    let own = |l: &String| {
        let mut cs = l.chars();
        match (cs.next(), cs.next()) {
            (Some(c), None) if c.is_ascii_alphabetic() => Some(c),
            _ => None,
        }
    };
    let taken: Vec<char> = labels.iter().filter_map(own).collect();
    let mut free = ('a'..='z').chain('A'..='Z').filter(|c| !taken.contains(c));
    labels
        .iter()
        .map(|l| own(l).or_else(|| free.next()).unwrap_or('a'))
        .collect()
}

/// The `torch.einsum` equation, explicit, one letter per label.
fn equation(c: &Checked) -> String {
    let letters = letters(&c.labels);
    let of = |name: &str| {
        c.labels
            .iter()
            .position(|l| l == name)
            .map_or('a', |i| letters[i])
    };
    let inputs: Vec<String> = c
        .pattern
        .inputs
        .iter()
        .map(|op| op.iter().map(|l| of(&l.name)).collect())
        .collect();
    let output: String = c.output.iter().map(|l| of(l)).collect();
    format!("{}->{output}", inputs.join(","))
}

/// `s` for a count other than 1.
fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// The code for a checked invocation.
pub(crate) fn expand(inv: &Invocation, c: &Checked, form: Form) -> TokenStream {
    let es = quote!(::tensor_typed::einsum_support);
    let name = form.name();
    let text = &c.pattern.text;
    let lit = &inv.pattern;
    let call_span = lit.span();
    let mut items = Vec::new();
    let mut bounds = Vec::new();
    let mut params = Vec::new();
    let mut args = Vec::new();
    let mut lets = Vec::new();
    let mut dyns = Vec::new();
    for (k, labels) in c.pattern.inputs.iter().enumerate() {
        let tr = format_ident!("__EinsumOperand{k}");
        let s = format_ident!("__S{k}");
        let n = labels.len();
        let written: Vec<&str> = labels.iter().map(|l| l.name.as_str()).collect();
        let message = drawn(
            name,
            text,
            &c.pattern.input_ranges[k],
            &format!(
                "operand {k} has the shape `{{Self}}`, but the pattern gives it {n} dim{} ({})",
                plural(n),
                written.join(" ")
            ),
        );
        let label = format!("operand {k} must have {n} dim{}", plural(n));
        let dims: Vec<Ident> = (0..n).map(|i| format_ident!("__A{i}")).collect();
        let assoc: Vec<Ident> = (0..n).map(|i| format_ident!("L{i}")).collect();
        items.push(quote! {
            #[allow(non_camel_case_types, dead_code)]
            #[diagnostic::on_unimplemented(message = #message, label = #label)]
            trait #tr<S> {
                #(type #assoc: #es::Dim;)*
            }
            #[diagnostic::do_not_recommend]
            impl<__X, #(#dims: #es::Dim),*> #tr<(#(#dims,)*)> for __X {
                #(type #assoc = #dims;)*
            }
        });
        params.push(quote!(#s: #es::Shape + #tr<#s>));
        let x = format_ident!("__x{k}");
        args.push(quote!(#x: &#es::Tensor<__T, #s>));
        let operand = &inv.operands[k];
        let bound = Ident::new(&format!("__x{k}"), call_span);
        lets.push(quote!(let #bound = &(#operand);));
        dyns.push(quote!(#x.as_dyn()));
    }
    // Each label's dim: its first place, joined with each further place.
    let mut joined: Vec<(String, TokenStream)> = Vec::new();
    let mut m = 0;
    for label in &c.labels {
        let places: Vec<(usize, usize, Range<usize>)> = c
            .pattern
            .inputs
            .iter()
            .enumerate()
            .flat_map(|(k, op)| {
                op.iter()
                    .enumerate()
                    .filter(|(_, l)| &l.name == label)
                    .map(move |(p, l)| (k, p, l.range.clone()))
            })
            .collect();
        let dim_at = |k: usize, p: usize| {
            let tr = format_ident!("__EinsumOperand{k}");
            let s = format_ident!("__S{k}");
            let l = format_ident!("L{p}");
            quote!(<#s as #tr<#s>>::#l)
        };
        let (k0, p0, _) = &places[0];
        let mut acc = dim_at(*k0, *p0);
        for (k, p, range) in &places[1..] {
            let tr = format_ident!("__EinsumLabel{m}");
            m += 1;
            let message = drawn(
                name,
                text,
                range,
                &format!(
                    "label `{label}` is `{{Self}}` in operand {k0} but `{{Y}}` in operand {k}"
                ),
            );
            let note = "the dims of one label are one dim: equal, the same name, a `Dyn` (checked at run time) or an unnamed 1 (broadcast)";
            let here = dim_at(*k, *p);
            let span = label_span(lit, text, range);
            items.push(quote! {
                #[allow(non_camel_case_types, dead_code)]
                #[diagnostic::on_unimplemented(message = #message, label = "these dims differ", note = #note)]
                trait #tr<Y> {
                    type Joined: #es::Dim;
                }
                #[diagnostic::do_not_recommend]
                impl<__X: #es::SameLabel<Y>, Y> #tr<Y> for __X {
                    type Joined = <__X as #es::SameLabel<Y>>::Joined;
                }
            });
            bounds.push(quote_spanned!(span=> #acc: #tr<#here>));
            acc = quote!(<#acc as #tr<#here>>::Joined);
        }
        joined.push((label.clone(), acc));
    }
    let out: Vec<&TokenStream> = c
        .output
        .iter()
        .filter_map(|o| joined.iter().find(|(l, _)| l == o).map(|(_, t)| t))
        .collect();
    let equation = equation(c);
    let xs: Vec<Ident> = (0..c.pattern.inputs.len())
        .map(|k| Ident::new(&format!("__x{k}"), call_span))
        .collect();
    let call = quote_spanned!(call_span=> __einsum(#(#xs),*));
    let call = match form {
        Form::Plain => quote!(#es::or_panic(#call)),
        Form::Try => call,
    };
    quote! {{
        #(#items)*
        fn __einsum<__T: #es::Element, #(#params),*>(#(#args),*) -> #es::Result<#es::Tensor<__T, (#(#out,)*)>>
        where
            #(#bounds,)*
        {
            #es::run::<__T, (#(#out,)*)>(#equation, &[#(#dyns),*])
        }
        #(#lets)*
        #call
    }}
}
