//! The part of `syn`, `quote` and `proc-macro2` these macros use, on the compiler's
//! `proc_macro` alone: token trees that unit tests can make ([`tree`], [`lex`],
//! [`print`]), expansions built from text with holes ([`quote`]), errors as
//! `compile_error!` ([`error`]), and parse streams ([`buffer`], [`stream`]) with the
//! grammar of the expressions, paths, types and literals the macros accept ([`expr`],
//! [`path`], [`ty`], [`lit`]), following syn 3 with its default features so that every
//! input parses, and fails, as it did with syn.

pub(crate) mod buffer;
pub(crate) mod error;
pub(crate) mod expr;
pub(crate) mod lex;
pub(crate) mod lit;
pub(crate) mod path;
pub(crate) mod print;
pub(crate) mod quote;
pub(crate) mod stream;
pub(crate) mod tree;
pub(crate) mod ty;

pub(crate) use buffer::{Buffer, Cursor};
pub(crate) use error::{Error, Result};
pub(crate) use quote::{quote, quote_spanned, ToTokens};
pub(crate) use stream::Input;
pub(crate) use tree::{Delimiter, Group, Ident, Literal, Punct, Spacing, Span, Tree};

/// Runs a macro: its input as trees, its output (or error) back to the compiler.
pub(crate) fn run(
    input: proc_macro::TokenStream,
    expand: impl FnOnce(Vec<Tree>) -> Vec<Tree>,
) -> proc_macro::TokenStream {
    tree::into_compiler(expand(tree::from_compiler(input)))
}

/// Runs a macro's `expand` on `text` (lexed at the call site) and prints what it gives:
/// how unit tests look at an expansion without the compiler.
#[cfg(test)]
pub(crate) fn expand_text(expand: impl FnOnce(Vec<Tree>) -> Vec<Tree>, text: &str) -> String {
    print::to_string(&expand(lex::lex(text, Span::call_site())))
}

/// Parses all of `trees` with `parse`, as `syn::parse2`: the error of `parse`, or of
/// tokens it left unparsed.
pub(crate) fn parse_all<T>(
    trees: &[Tree],
    parse: impl FnOnce(&mut Input) -> Result<T>,
) -> Result<T> {
    let buffer = Buffer::new(trees);
    let mut input = Input::new(buffer.begin());
    let value = parse(&mut input)?;
    input.end()?;
    Ok(value)
}
