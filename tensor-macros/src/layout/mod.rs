//! `layout!(x, "b (h d) -> b h d", h = 8)`: einops patterns (rearrange, repeat, reduce)
//! checked at compile time and lowered to typed view ops.
//!
//! Phases, one module each: [`parse`] (the invocation and a typed AST of the pattern
//! that keeps each axis's byte range) → [`valid`] (einops' rules, one function per rule)
//! → [`expand`] (the recipe run by `tensor_typed::layout_support`, and the output shape
//! computed as a type, with [`types`]). An error is a compile error at the offending axis
//! ([`span`]) plus a stub expansion, so one mistake makes one error.

use crate::syntax::{parse_all, Result, Tree};

mod expand;
mod parse;
mod source;
mod span;
mod types;
mod valid;

/// The entry point called by `tensor_macros::layout`.
pub(crate) fn expand(input: Vec<Tree>) -> Vec<Tree> {
    let inv = match parse_all(&input, parse::invocation) {
        Ok(inv) => inv,
        Err(e) => return expand::stub(None, e),
    };
    match try_expand(&inv) {
        Ok(tokens) => tokens,
        Err(e) => expand::stub(Some(&inv), e),
    }
}

/// parse → validate → expand for a parsed invocation.
fn try_expand(inv: &parse::Invocation) -> Result<Vec<Tree>> {
    let spans = span::PatternSpans::new(&inv.pattern);
    let checked = valid::check(inv, &spans)?;
    expand::expand(inv, &checked, &spans)
}

#[cfg(test)]
mod tests {
    fn expand(text: &str) -> String {
        crate::syntax::expand_text(super::expand, text)
    }

    fn errors(out: &str) -> usize {
        out.matches("compile_error").count()
    }

    #[test]
    fn one_mistake_makes_one_error() {
        let out = expand(r#"x, "h h -> w", q = 2"#);
        assert_eq!(errors(&out), 1);
        assert!(out.contains("duplicate axis `h` in the left side"));
    }

    #[test]
    fn error_message_draws_caret_under_axis() {
        let text = expand(r#"x, "h w -> h w c", rearrange"#);
        assert!(text.contains(r"layout!(rearrange): axis `c` is on the right side only"));
        assert!(
            text.contains(r"\n  | h w -> h w c\n  |            ^"),
            "{text}"
        );
    }

    #[test]
    fn operation_is_inferred_from_new_axes() {
        let repeat = expand(r#"x, "h w -> h w c""#);
        assert!(repeat.contains("layout!(repeat): new axis `c` needs a size"));
        let rearrange = expand(r#"x, "h w -> h""#);
        assert!(rearrange.contains("layout!(rearrange): axis `w` is on the left side only"));
    }

    #[test]
    fn static_sizes_fold_into_the_output_type() {
        let out = expand(r#"x, "b (h d) -> b h d", h = 3"#);
        assert_eq!(errors(&out), 0);
        let want = "type Out = (__A0 , :: tensor_typed :: layout_support :: D < 3 > , :: tensor_typed :: layout_support :: Chunks < :: tensor_typed :: layout_support :: rearrange , 1 , __A1 , :: tensor_typed :: layout_support :: D < 3 > > ,)";
        assert!(out.contains(want), "{out}");
    }

    #[test]
    fn sizes_of_a_thousand_and_more_are_written_in_groups_of_three_digits() {
        let out = expand(r#"x, "(v e) -> v e", v = 50257"#);
        let want = ":: tensor_typed :: layout_support :: K < :: tensor_typed :: layout_support :: D < 50 > , :: tensor_typed :: layout_support :: D < 257 >>";
        assert!(out.contains(want), "{out}");
    }

    #[test]
    fn arguments_are_parsed_as_syn_parsed_them() {
        assert!(expand(r#"x "p""#).contains("expected `,`"));
        assert!(expand("x, h w -> w h, h = 1.5")
            .contains("the size of axis `h` must be an integer literal"));
        assert!(expand("x, h w -> w h, h = -3").contains("invalid digit found in string"));
        assert!(
            expand("x, h w -> w h, reduce =").contains("unexpected end of input, expected ident")
        );
        assert!(expand("x,").contains("layout!: expected a pattern after the tensor"));
        let run = expand("x, h w -> w h c, c = { n + 1 }");
        assert!(run.contains("Some :: < usize > ({ n + 1 })"), "{run}");
    }
}
