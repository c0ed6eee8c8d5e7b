//! `einsum!("b h s d, b h t d -> b h s t", q, k)`: `torch.einsum` with the result's
//! shape computed at compile time from the pattern and the operands' types.
//!
//! Phases: [`parse`] (the invocation, and the pattern with each label's byte range) →
//! [`check`] (the rules the pattern alone decides: operand count, output labels) →
//! [`expand`] (local traits that read each operand's dims and compare a label's dims,
//! whose messages name the label and draw the pattern with a caret under it; the
//! runtime call with an equation of one letter per label). An error of the pattern is
//! one `compile_error!` with the same caret drawing.

use proc_macro2::TokenStream;

mod check;
mod expand;
mod parse;

/// Whether the macro returns the tensor (panicking with PyTorch's message when a `Dyn`
/// dim does not fit) or a `Result`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Form {
    /// `einsum!`.
    Plain,
    /// `try_einsum!`.
    Try,
}

impl Form {
    fn name(self) -> &'static str {
        match self {
            Form::Plain => "einsum!",
            Form::Try => "try_einsum!",
        }
    }
}

/// The entry point of `einsum!` and `try_einsum!`.
pub(crate) fn expand(input: TokenStream, form: Form) -> TokenStream {
    let inv: parse::Invocation = match syn::parse2(input) {
        Ok(inv) => inv,
        Err(e) => return e.to_compile_error(),
    };
    let text = inv.pattern.value();
    let checked = parse::pattern(&text).and_then(|p| check::check(p, inv.operands.len()));
    match checked {
        Ok(c) => expand::expand(&inv, &c, form),
        Err(e) => {
            let message = check::drawn(form.name(), &text, &e.range, &e.message);
            let span = expand::label_span(&inv.pattern, &text, &e.range);
            let error = syn::Error::new(span, message).to_compile_error();
            let operands = &inv.operands;
            quote::quote! {{
                let _ = || (#(&#operands,)*);
                #error
            }}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{expand, Form};
    use quote::quote;

    fn text(out: proc_macro2::TokenStream) -> String {
        out.to_string()
    }

    #[test]
    fn an_output_label_absent_from_every_operand_is_pytorchs_message_with_a_caret() {
        let out = text(expand(quote!("i j, j k -> i x", a, b), Form::Plain));
        assert!(
            out.contains("einsum!: output subscript `x` does not appear in the equation for any input operand"),
            "{out}"
        );
        assert!(
            out.contains(r"\n  | i j, j k -> i x\n  |               ^"),
            "{out}"
        );
    }

    #[test]
    fn the_equation_passed_to_the_runtime_has_one_letter_per_label_as_written_if_one() {
        let out = text(expand(quote!("batch i, i j -> batch j", a, b), Form::Try));
        assert!(out.contains(r#""ai,ij->aj""#), "{out}");
        let out = text(expand(quote!("n a, a bb -> n bb", a, b), Form::Try));
        assert!(out.contains(r#""na,ab->nb""#), "{out}");
    }

    #[test]
    fn an_implicit_output_is_the_labels_written_once_in_sorted_order() {
        let out = text(expand(quote!("j i, k j", a, b), Form::Try));
        assert!(out.contains(r#""ji,kj->ik""#), "{out}");
    }
}
