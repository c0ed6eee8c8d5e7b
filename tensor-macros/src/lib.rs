//! Proc macros for typed tensors: `tensor!`, `layout!`, `einsum!`, `Shape!`, `Dim!`,
//! `dims!`, `Axes!`, `#[derive(Params)]`, and tensor-typed's own `#[plain_form]`.
//!
//! Each macro is one module with the phases parse → validate → expand; this file is only
//! the entry points. Use them through `tensor_typed::prelude`.
//!
//! The macros parse with `syn` (its default features) and write their expansions with
//! `quote`, over `proc-macro2`'s token trees: the entry points here convert the compiler's
//! `proc_macro` tokens, and every module works on `proc_macro2` ones, which unit tests can
//! make without the compiler. An error is a `syn::Error` at the offending tokens, emitted
//! as `compile_error!`.
#![warn(missing_docs)]
#![forbid(unsafe_code)]

use proc_macro::TokenStream;

mod axes;
mod dim;
mod dim_arith;
mod dim_spelling;
mod dims;
mod einsum;
mod expr;
mod layout;
mod literal;
mod params;
mod plain_form;
mod shape;

/// `Shape![2, Dyn, 3]`: the type of a shape with static dims and run-time (`Dyn`) dims.
#[proc_macro]
#[allow(non_snake_case)]
pub fn Shape(input: TokenStream) -> TokenStream {
    shape::expand(input.into()).into()
}

/// `Dim![768]`: the type of one dim, to name a static size once (`type Embd =
/// Dim![768];`, then `Shape![Dyn, Embd]`); `Dim![VOCAB]` or `Dim![4 * N_EMBD]` for a
/// size given by a constant, of any size.
#[proc_macro]
#[allow(non_snake_case)]
pub fn Dim(input: TokenStream) -> TokenStream {
    dim::expand(input.into()).into()
}

/// `dims! { pub Batch; pub Heads = 8; pub Inner = 4 * Heads; }`: named dims (each may
/// carry doc comments and attributes).
/// `Name;` declares a run-time dim, `Name = size;` a static one (a literal, or a const
/// expression over numbers and earlier static names). Each name is a unit struct, usable
/// in `Shape![..]` and as a `layout!` size (`h = Heads`); two different names never
/// unify, whatever their sizes.
#[proc_macro]
pub fn dims(input: TokenStream) -> TokenStream {
    // The call's site makes each name's identity: two `dims!` blocks declaring `Seq`
    // declare two names.
    let span = proc_macro::Span::call_site();
    let krate = std::env::var("CARGO_CRATE_NAME").unwrap_or_default();
    let site = format!("{krate}:{}:{}:{}", span.file(), span.line(), span.column());
    dims::expand(input.into(), &site).into()
}

/// `Axes![1, 0]`: a type-level list of axis indices (for `permute`, reductions).
#[proc_macro]
#[allow(non_snake_case)]
pub fn Axes(input: TokenStream) -> TokenStream {
    axes::expand(input.into()).into()
}

/// `tensor![[1.0, 2.0], [3.0, 4.0]]`: a typed tensor literal; ragged rows are a compile
/// error.
#[proc_macro]
pub fn tensor(input: TokenStream) -> TokenStream {
    literal::expand(input.into()).into()
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
    layout::expand(input.into()).into()
}

/// `einsum!("b h s d, b h t d -> b h s t", q, k)`: `torch.einsum` whose result shape is
/// computed at compile time from the pattern and the operands' types (names kept); a
/// label bound to two different dims, an operand of the wrong rank, an output label in
/// no operand or written twice, or an operand count other than the pattern's is a
/// compile error drawing the pattern with a caret under the offending label. Returns the
/// tensor, panicking with PyTorch's message when a `Dyn` dim does not fit at run time.
#[proc_macro]
pub fn einsum(input: TokenStream) -> TokenStream {
    einsum::expand(input.into(), einsum::Form::Plain).into()
}

/// `try_einsum!(..)`: `einsum!` returning `Result` instead of panicking when a `Dyn` dim
/// does not fit at run time.
#[proc_macro]
pub fn try_einsum(input: TokenStream) -> TokenStream {
    einsum::expand(input.into(), einsum::Form::Try).into()
}

/// `#[derive(Params)]`: implements `tensor_typed::Params` for a struct, visiting in
/// declaration order every field whose type implements `Params` (typed tensors, nested
/// models, `Vec`s/arrays/`Option`s/`Box`es of those); other fields are skipped, and
/// `#[params(skip)]` skips one that would be visited.
#[proc_macro_derive(Params, attributes(params))]
pub fn derive_params(input: TokenStream) -> TokenStream {
    params::expand(input.into()).into()
}

/// `#[plain_form]` on tensor-typed's fallible op `try_x(..) -> Result<X>`: writes beside
/// it the plain form `x(..) -> X` (`#[track_caller]`, panicking with the error's
/// message), with the same generics, where-clause and docs (`# Errors` read as
/// `# Panics`). `#[plain_form(free)]` for a free function. Used inside tensor-typed only
/// (the plain form calls its `crate::or_panic`).
#[doc(hidden)]
#[proc_macro_attribute]
pub fn plain_form(attr: TokenStream, item: TokenStream) -> TokenStream {
    plain_form::expand(attr.into(), item.into()).into()
}
