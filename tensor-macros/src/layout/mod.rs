//! `layout!(x, "b (h d) -> b h d", h = 8)`: einops patterns (rearrange, repeat, reduce)
//! checked at compile time and lowered to typed view ops.
//!
//! Phases, one module each: [`parse`] (the invocation and a typed AST of the pattern
//! that keeps each axis's byte range) → [`valid`] (einops' rules, one function per rule)
//! → [`expand`] (the recipe run by `tensor_typed::layout_support`, and the output shape
//! computed as a type, with [`types`]). An error is a `syn::Error` at the offending axis
//! ([`span`]) plus a stub expansion, so one mistake makes one error.

use proc_macro2::TokenStream;

mod expand;
mod parse;
mod source;
mod span;
mod types;
mod valid;

/// The entry point called by `tensor_macros::layout`.
pub(crate) fn expand(input: TokenStream) -> TokenStream {
    let inv: parse::Invocation = match syn::parse2(input) {
        Ok(inv) => inv,
        Err(e) => return expand::stub(None, e),
    };
    match try_expand(&inv) {
        Ok(tokens) => tokens,
        Err(e) => expand::stub(Some(&inv), e),
    }
}

/// parse → validate → expand for a parsed invocation.
fn try_expand(inv: &parse::Invocation) -> syn::Result<TokenStream> {
    let spans = span::PatternSpans::new(&inv.pattern);
    let checked = valid::check(inv, &spans)?;
    expand::expand(inv, &checked, &spans)
}

#[cfg(test)]
mod tests {
    use quote::quote;

    fn errors(out: &proc_macro2::TokenStream) -> usize {
        out.to_string().matches("compile_error").count()
    }

    #[test]
    fn one_mistake_makes_one_error() {
        let out = super::expand(quote!(x, "h h -> w", q = 2));
        assert_eq!(errors(&out), 1);
        assert!(out
            .to_string()
            .contains("duplicate axis `h` in the left side"));
    }

    #[test]
    fn error_message_draws_caret_under_axis() {
        let out = super::expand(quote!(x, "h w -> h w c", rearrange));
        let text = out.to_string();
        assert!(text.contains(r"layout!(rearrange): axis `c` is on the right side only"));
        assert!(
            text.contains(r"\n  | h w -> h w c\n  |            ^"),
            "{text}"
        );
    }

    #[test]
    fn operation_is_inferred_from_new_axes() {
        let repeat = super::expand(quote!(x, "h w -> h w c"));
        assert!(repeat
            .to_string()
            .contains("layout!(repeat): new axis `c` needs a size"));
        let rearrange = super::expand(quote!(x, "h w -> h"));
        assert!(rearrange
            .to_string()
            .contains("layout!(rearrange): axis `w` is on the left side only"));
    }

    #[test]
    fn static_sizes_fold_into_the_output_type() {
        let out = super::expand(quote!(x, "b (h d) -> b h d", h = 3)).to_string();
        assert_eq!(errors(&quote!(#out)), 0);
        let want = "type Out = (__A0 , :: tensor_typed :: layout_support :: D < 3 > , :: tensor_typed :: layout_support :: Chunks < :: tensor_typed :: layout_support :: rearrange , 1 , __A1 , :: tensor_typed :: layout_support :: D < 3 > > ,)";
        assert!(out.contains(want), "{out}");
    }

    #[test]
    fn sizes_of_a_thousand_and_more_are_written_in_groups_of_three_digits() {
        let out = super::expand(quote!(x, "(v e) -> v e", v = 50257)).to_string();
        let want = ":: tensor_typed :: layout_support :: K < :: tensor_typed :: layout_support :: D < 50 > , :: tensor_typed :: layout_support :: D < 257 >>";
        assert!(out.contains(want), "{out}");
    }
}
