//! Proc macros for typed tensors: `tensor!`, `layout!`, `Shape!`, `Axes!`, and
//! `#[derive(Params)]`.
//!
//! Each macro is one module with the phases parse → validate → expand; this file is only
//! the entry points. Use them through `tensor_typed::prelude`.
//!
//! The crate depends on nothing but the compiler's `proc_macro`: `syntax` holds the
//! token trees, parsing and quoting the macros need (what `syn`, `quote` and
//! `proc-macro2` gave before), so that a user's clean build does not wait for them.
#![warn(missing_docs)]
#![forbid(unsafe_code)]

use proc_macro::TokenStream;

mod axes;
mod expr;
mod layout;
mod literal;
mod params;
mod shape;
mod syntax;

/// `Shape![2, Dyn, 3]`: the type of a shape with static dims and run-time (`Dyn`) dims.
#[proc_macro]
#[allow(non_snake_case)]
pub fn Shape(input: TokenStream) -> TokenStream {
    syntax::run(input, shape::expand)
}

/// `Axes![1, 0]`: a type-level list of axis indices (for `permute`, reductions).
#[proc_macro]
#[allow(non_snake_case)]
pub fn Axes(input: TokenStream) -> TokenStream {
    syntax::run(input, axes::expand)
}

/// `tensor![[1.0, 2.0], [3.0, 4.0]]`: a typed tensor literal; ragged rows are a compile
/// error.
#[proc_macro]
pub fn tensor(input: TokenStream) -> TokenStream {
    syntax::run(input, literal::expand)
}

/// `layout!(x, "b (h d) -> b h d", h = 8)`: einops patterns (rearrange, repeat, reduce)
/// checked at compile time and lowered to typed view ops.
///
/// The pattern may also be written without quotes, `layout!(x, b (h d) -> b h d, h = 8)`:
/// the same grammar, and an error then points at the offending axis itself (inside a
/// string literal, stable Rust has no span for one axis; the message draws a caret under
/// it instead).
#[proc_macro]
pub fn layout(input: TokenStream) -> TokenStream {
    syntax::run(input, layout::expand)
}

/// `#[derive(Params)]`: implements `tensor_typed::Params` for a struct, visiting in
/// declaration order every field whose type implements `Params` (typed tensors, nested
/// models, `Vec`s/arrays/`Option`s/`Box`es of those); other fields are skipped, and
/// `#[params(skip)]` skips one that would be visited.
#[proc_macro_derive(Params, attributes(params))]
pub fn derive_params(input: TokenStream) -> TokenStream {
    syntax::run(input, params::expand)
}
